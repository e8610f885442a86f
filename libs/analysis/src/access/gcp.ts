import gcpRoleData from '../../data/gcp-roles.json';
import type { RenderedResource, RenderedStore } from '@checkpoints/render';
import {
  ciPrincipal,
  jsonOf,
  stringInput,
  type AccessGrant,
  type Operation,
  type Principal,
  groupedBy,
  perRender,
  type RendersInput,
  type StoreAccessOf,
} from './model';
import {
  configurationContextOf,
  gcpConfigurationWrites,
  type ConfigurationContext,
} from './configuration-writes';
import { statementOf } from '../retention';
import { GCP_TRANSFER_AGENT, gcpIndependentCopyOf } from '../retention/gcp-copy';

/** Predefined role -> permissions, vendored from the clouds' published definitions (data/SOURCE.md). */
export const PREDEFINED: Readonly<Record<string, readonly string[]>> = gcpRoleData.roles;

/** One allow binding: member holds role on the resource `scope` and everything below it. */
export interface Binding {
  member: string;
  role: string;
  /** `projects/P`, `buckets/B`, a crypto key's ID, or `serviceAccounts/EMAIL`. */
  scope: string;
  /** Where the binding comes from, for the reason column. */
  source: string;
  /** The binding's IAM condition (CEL), counted as holding. */
  condition?: string;
}

export interface DenyRule {
  principals: readonly string[];
  exceptions: readonly string[];
  permissions: readonly string[];
  /** Permissions the rule does not deny (`exceptionPermissions`). */
  exceptionPermissions: readonly string[];
  /** The rule's `denialCondition` (CEL): the rule may not apply whenever it may not hold. */
  condition?: string;
  /** `projects/P`: the deny applies there and below. */
  scope: string;
  source: string;
}

interface GcpStore {
  project: string;
  bucket: string;
  key?: string;
  identities: { email: string; label: string }[];
}

/** The permission each operation needs, per the Cloud Storage, Cloud KMS and IAM permission references. */
const STORE_OPERATIONS: readonly {
  operation: Operation;
  on: 'bucket' | 'key' | 'project';
  permission: string;
}[] = [
  // https://cloud.google.com/storage/docs/access-control/iam-permissions: objects.get reads an object,
  // objects.create writes one, objects.delete deletes one, buckets.update changes its settings,
  // buckets.setIamPolicy its IAM policy, buckets.delete the bucket. With CMEK, the Cloud Storage service
  // agent (not the caller) uses the key: https://cloud.google.com/storage/docs/encryption/customer-managed-keys
  { operation: 'read', on: 'bucket', permission: 'storage.objects.get' },
  { operation: 'write', on: 'bucket', permission: 'storage.objects.create' },
  { operation: 'delete', on: 'bucket', permission: 'storage.objects.delete' },
  // An HMAC key signs requests as its service account, outside IAM's per-request checks.
  // https://cloud.google.com/storage/docs/authentication/hmackeys
  { operation: 'open-session', on: 'project', permission: 'storage.hmacKeys.create' },
  { operation: 'configure', on: 'bucket', permission: 'storage.buckets.update' },
  { operation: 'change-access', on: 'bucket', permission: 'storage.buckets.setIamPolicy' },
  { operation: 'change-access', on: 'project', permission: 'resourcemanager.projects.setIamPolicy' },
  { operation: 'delete-store', on: 'bucket', permission: 'storage.buckets.delete' },
  // https://cloud.google.com/kms/docs/reference/permissions-and-roles
  { operation: 'use-key', on: 'key', permission: 'cloudkms.cryptoKeyVersions.useToDecrypt' },
  { operation: 'change-access', on: 'key', permission: 'cloudkms.cryptoKeys.setIamPolicy' },
  { operation: 'disable-key', on: 'key', permission: 'cloudkms.cryptoKeyVersions.update' },
  { operation: 'destroy-key', on: 'key', permission: 'cloudkms.cryptoKeyVersions.destroy' },
];

/**
 * What lets a principal act as a service account: mint its tokens or sign as it, attach it to a resource
 * (actAs), or grant itself one of those (setIamPolicy); a key is a credential of its own.
 * https://cloud.google.com/iam/docs/service-account-permissions
 */
const ACT_AS = [
  'iam.serviceAccounts.getAccessToken',
  'iam.serviceAccounts.getOpenIdToken',
  'iam.serviceAccounts.implicitDelegation',
  'iam.serviceAccounts.signBlob',
  'iam.serviceAccounts.signJwt',
  'iam.serviceAccounts.actAs',
  'iam.serviceAccounts.setIamPolicy',
];
const ADD_CREDENTIALS = ['iam.serviceAccountKeys.create'];

/**
 * What every store of one render is judged against, read once per analysis (it was read again for each
 * store, and each check scanned every binding: quadratic in stores): the render's and the bootstrap's
 * custom roles, bindings (by member, in their order) and deny rules.
 */
interface GcpRenderAccess {
  /** Whether a role (the render's custom one of that name, else the predefined one) holds a permission. */
  permits(role: string, permission: string): boolean;
  /**
   * The first of the render's bindings of `member` (in render order) on one of `scopes` whose role holds
   * `permission`: found through the member's bindings on each scope, not a scan of all of its bindings (CI's
   * reach every store's bucket).
   */
  bindingOf(member: string, scopes: readonly string[], permission: string): Binding | undefined;
  /** The render's bindings on any of `scopes`, in render order. */
  bindingsOn(scopes: readonly string[]): Binding[];
  /** Whether the render's custom roles or the published data hold the role: else it counts as every permission. */
  roleKnown(role: string): boolean;
  /** The bootstrap's CI service accounts, by member. */
  ciPrincipals: ReadonlyMap<string, Principal>;
  /** The bootstrap's workload identity pool IDs: their members are CI's tokens. */
  ciPools: readonly string[];
  denies: readonly DenyRule[];
  /** What the render's authoritative IAM resources replace (`scope|role`, `scope|*`). */
  replaced: ReadonlySet<string>;
  /**
   * The folders and organizations the render grants on. Which of them hold the store's project is outside
   * the render: each counts as an ancestor of every project.
   */
  ancestors: readonly string[];
  configuration: ConfigurationContext;
  /** The bootstrap render's resources, where the stores' independent copies live; none without one. */
  bootstrapResources: readonly RenderedResource[];
}

function gcpRenderAccess({ render, bootstrap }: RendersInput): GcpRenderAccess {
  const everything = [...render.resources, ...(bootstrap?.resources ?? [])];
  const bindings = bindingsOf(everything);
  const bindingsByScope = groupedBy(bindings, (binding) => binding.scope);
  const bindingsByMemberScope = new Map(
    [...groupedBy(bindings, (binding) => binding.member)].map(([member, own]) => [
      member,
      groupedBy(own, (binding) => binding.scope),
    ]),
  );
  const order = new Map(bindings.map((binding, index) => [binding, index]));
  const customRoles = customRolesOf(everything);
  const rolePermissions = new Map<string, ReadonlySet<string> | 'every'>();
  const permits = (role: string, permission: string) => {
    let permissions = rolePermissions.get(role);
    if (!permissions) {
      const known = customRoles.get(role) ?? PREDEFINED[role];
      permissions = known ? new Set(known) : 'every';
      rolePermissions.set(role, permissions);
    }
    return permissions === 'every' || permissions.has(permission);
  };
  return {
    permits,
    bindingOf: (member, scopes, permission) => {
      const own = bindingsByMemberScope.get(member);
      return [...new Set(scopes)]
        .flatMap((scope) => own?.get(scope)?.find((binding) => permits(binding.role, permission)) ?? [])
        .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0))[0];
    },
    bindingsOn: (scopes) =>
      scopes
        .flatMap((scope) => bindingsByScope.get(scope) ?? [])
        .sort((a, b) => (order.get(a) ?? 0) - (order.get(b) ?? 0)),
    roleKnown: (role) => customRoles.has(role) || PREDEFINED[role] !== undefined,
    ciPrincipals: ciPrincipalsOf(bootstrap?.resources ?? []),
    ciPools: ciPoolsOf(bootstrap?.resources ?? []),
    denies: denyRulesOf(everything),
    replaced: replacedBindings(everything),
    ancestors: [
      ...new Set(bindings.map((b) => b.scope).filter((scope) => /^(folders|organizations)\//.test(scope))),
    ],
    configuration: configurationContextOf(render.resources, everything),
    bootstrapResources: bootstrap?.resources ?? [],
  };
}

/** Each store's access, the render's own resources read once for all its stores. */
export function gcpAccessOf(input: RendersInput): StoreAccessOf {
  return perRender(input, gcpRenderAccess, gcpStoreGrants);
}

function gcpStoreGrants(
  store: RenderedStore,
  {
    permits,
    bindingOf,
    bindingsOn,
    roleKnown,
    ciPrincipals,
    ciPools,
    denies,
    replaced,
    ancestors,
    configuration,
    bootstrapResources,
  }: GcpRenderAccess,
): AccessGrant[] {
  const target = gcpStore(store.resources);
  if (target === undefined) return [];
  const component = configuration.components.get(store.urn);
  const copy = gcpIndependentCopyOf(
    {
      name: target.bucket,
      project: target.project,
      ipFilter: store.resources.find((r) => r.type === 'gcp:storage/bucket:Bucket')?.inputs['ipFilter'],
    },
    statementOf(component)?.copyDays ?? 0,
    bootstrapResources,
    { bindingsOn, ciMembers: new Set(ciPrincipals.keys()) },
  );
  const copyScopes = copy && {
    bucket: [`buckets/${copy.bucket}`, `projects/${copy.project}`, ...ancestors],
    project: [`projects/${copy.project}`, ...ancestors],
  };
  const convenience = convenienceBindings(target).filter(
    (b) => !replaced.has(`${b.scope}|${b.role}`) && !replaced.has(`${b.scope}|*`),
  );
  const principals = principalsOf(target, bindingsOn, convenience, ciPrincipals, ciPools, ancestors);
  const grants: AccessGrant[] = [];
  /** The first binding that gives `member` `permission` on `scope`, unless a deny rule takes it away. */
  const grantOf = (member: string, scopes: readonly string[], permission: string): string | undefined => {
    const binding =
      bindingOf(member, scopes, permission) ??
      convenience.find((b) => b.member === member && scopes.includes(b.scope) && permits(b.role, permission));
    if (!binding) return undefined;
    const deny = denies.find((rule) => denies.length > 0 && deniesIt(rule, member, permission, scopes));
    if (deny) return undefined;
    return `${permission} from ${binding.role} on ${binding.scope} (${binding.source})${bindingCaveats(binding, roleKnown)}`;
  };
  const scopesOf = {
    bucket: [`buckets/${target.bucket}`, `projects/${target.project}`, ...ancestors],
    project: [`projects/${target.project}`, ...ancestors],
    key: target.key
      ? [
          target.key,
          keyRingOf(target.key),
          `projects/${keyProject(target.key) ?? target.project}`,
          ...ancestors,
        ]
      : [],
  };
  for (const principal of principals) {
    for (const { operation, on, permission } of STORE_OPERATIONS) {
      if (grants.some((g) => g.principal.id === principal.id && g.operation === operation)) continue;
      const reason = grantOf(principal.id, scopesOf[on], permission);
      if (reason) grants.push({ principal, operation, reason });
    }
    for (const identity of target.identities) {
      if (`serviceAccount:${identity.email}` === principal.id) continue;
      const scopes = [`serviceAccounts/${identity.email}`, `projects/${target.project}`, ...ancestors];
      const actAs = ACT_AS.map((p) => grantOf(principal.id, scopes, p)).find(Boolean);
      if (actAs)
        grants.push({ principal, operation: 'act-as', reason: `can act as ${identity.label}: ${actAs}` });
      const key = ADD_CREDENTIALS.map((p) => grantOf(principal.id, scopes, p)).find(Boolean);
      if (key)
        grants.push({
          principal,
          operation: 'add-credentials',
          reason: `can add a key to ${identity.label}: ${key}`,
        });
    }
    grants.push(
      ...gcpConfigurationWrites({
        principal,
        resources: store.resources,
        component,
        project: target.project,
        onBucket: (permission) => grantOf(principal.id, scopesOf.bucket, permission),
        onProject: (permission) => grantOf(principal.id, scopesOf.project, permission),
        softDeleteMinimums: configuration.softDeleteMinimums,
        ...(copy ? { copy } : {}),
        onCopy: (permission, on) =>
          copyScopes ? grantOf(principal.id, copyScopes[on], permission) : undefined,
      }),
    );
    const change = grants.find(
      (g) =>
        g.principal.id === principal.id &&
        g.operation === 'change-access' &&
        !g.reason.includes('cryptoKeys'),
    );
    const denied = denies.find((rule) =>
      deniesIt(rule, principal.id, 'storage.objects.get', scopesOf.bucket),
    );
    if (change && !denied) {
      grants.push({
        principal,
        operation: 'self-grant',
        reason: `${change.reason}, and no deny policy denies it storage.googleapis.com/objects.get`,
      });
    }
  }
  return grants;
}

/**
 * Deny policies name v2 permissions (`storage.googleapis.com/objects.get`) and principals in v2 form;
 * they override every allow at and below their attachment point.
 * https://cloud.google.com/iam/docs/deny-overview, https://cloud.google.com/iam/docs/principal-identifiers
 */
export function deniesIt(
  rule: DenyRule,
  member: string,
  permission: string,
  scopes: readonly string[],
): boolean {
  if (!scopes.includes(rule.scope)) return false;
  // A denial condition the analysis cannot prove to hold for every request may not apply: the deny counts
  // for nothing (https://cloud.google.com/iam/docs/deny-overview#conditions).
  if (rule.condition !== undefined) return false;
  const v2 = v2Permission(permission);
  const principal = v2Principal(member);
  const named = (list: readonly string[]) =>
    list.includes(principal) || list.includes('principalSet://goog/public:all');
  return (
    rule.permissions.includes(v2) &&
    !rule.exceptionPermissions.includes(v2) &&
    named(rule.principals) &&
    !named(rule.exceptions)
  );
}

/** What the reason of a grant must say the analysis assumed of its binding. */
function bindingCaveats(binding: Binding, roleKnown: (role: string) => boolean): string {
  const caveats = [
    ...(roleKnown(binding.role)
      ? []
      : [`${binding.role} is not in the published role data: counted as granting every permission`]),
    ...(binding.condition === undefined
      ? []
      : [`its condition '${binding.condition}' is not evaluated: counted as holding`]),
    ...(/^(folders|organizations)\//.test(binding.scope)
      ? [`${binding.scope} is counted as an ancestor of the project (the hierarchy is outside the render)`]
      : []),
  ];
  return caveats.length > 0 ? `; ${caveats.join('; ')}` : '';
}

/** `projects/P/locations/L/keyRings/R/cryptoKeys/K` -> its key ring `projects/P/locations/L/keyRings/R`. */
export function keyRingOf(keyId: string): string {
  return keyId.replace(/\/cryptoKeys\/[^/]+$/, '');
}

/** `storage.objects.get` -> `storage.googleapis.com/objects.get`. */
export function v2Permission(permission: string): string {
  const [service, ...rest] = permission.split('.');
  return `${service}.googleapis.com/${rest.join('.')}`;
}

/** `serviceAccount:x@p.iam.gserviceaccount.com` -> `principal://iam.googleapis.com/projects/-/serviceAccounts/x@p...`. */
export function v2Principal(member: string): string {
  const [type, id] = member.split(':', 2);
  if (type === 'serviceAccount') return `principal://iam.googleapis.com/projects/-/serviceAccounts/${id}`;
  if (type === 'group') return `principalSet://goog/group/${id}`;
  if (type === 'user') return `principal://goog/subject/${id}`;
  return member;
}

function keyProject(keyId: string): string | undefined {
  return /^projects\/([^/]+)\//.exec(keyId)?.[1];
}

function gcpStore(resources: readonly RenderedResource[]): GcpStore | undefined {
  const bucketResource = resources.find((r) => r.type === 'gcp:storage/bucket:Bucket');
  const bucket = bucketResource && stringInput(bucketResource, 'name');
  if (!bucketResource || !bucket) return undefined;
  const key = (bucketResource.inputs['encryption'] as { defaultKmsKeyName?: unknown } | undefined)
    ?.defaultKmsKeyName;
  const accounts = resources.filter((r) => r.type === 'gcp:serviceaccount/account:Account');
  // The bucket and its identities live in the provider's project when they name none: the store's own
  // service accounts' emails, as its bindings spell them, say which.
  const members = resources.map((r) => stringInput(r, 'member') ?? '');
  const ownEmail = accounts
    .map((a) => stringInput(a, 'accountId') ?? '')
    .flatMap((id) => {
      const email = new RegExp(
        `^serviceAccount:${id}@([a-z][a-z0-9-]{4,28}[a-z0-9])\\.iam\\.gserviceaccount\\.com$`,
      );
      return members.map((m) => email.exec(m)?.[1]);
    })
    .find((project) => project !== undefined);
  const project =
    stringInput(bucketResource, 'project') ??
    ownEmail ??
    (typeof key === 'string' ? keyProject(key) : undefined) ??
    'unknown-project';
  const identities = accounts.map((r) => ({
    email: `${stringInput(r, 'accountId') ?? r.name}@${stringInput(r, 'project') ?? project}.iam.gserviceaccount.com`,
    label: /-(writer|reader)$/.exec(r.name)?.[1] ?? r.name,
  }));
  return { project, bucket, ...(typeof key === 'string' ? { key } : {}), identities };
}

export function customRolesOf(resources: readonly RenderedResource[]): Map<string, readonly string[]> {
  const roles = new Map<string, readonly string[]>();
  for (const r of resources) {
    if (r.type !== 'gcp:projects/iAMCustomRole:IAMCustomRole') continue;
    const permissions = (r.inputs['permissions'] as string[] | undefined) ?? [];
    roles.set(
      `projects/${stringInput(r, 'project') ?? ''}/roles/${stringInput(r, 'roleId') ?? ''}`,
      permissions,
    );
  }
  return roles;
}

/** A binding's scope per IAM resource type, from the provider's inputs (@pulumi/gcp 9.37 `*IAMMember` args). */
const SCOPE_OF: Readonly<Record<string, (r: RenderedResource) => string>> = {
  projects: (r) => `projects/${stringInput(r, 'project') ?? ''}`,
  folder: (r) => {
    const folder = stringInput(r, 'folder') ?? '';
    return folder.startsWith('folders/') ? folder : `folders/${folder}`;
  },
  organizations: (r) => `organizations/${stringInput(r, 'orgId') ?? ''}`,
  'storage/bucket': (r) => `buckets/${stringInput(r, 'bucket') ?? ''}`,
  'kms/keyRing': (r) => stringInput(r, 'keyRingId') ?? '',
  'kms/cryptoKey': (r) => stringInput(r, 'cryptoKeyId') ?? '',
  serviceaccount: (r) =>
    `serviceAccounts/${(stringInput(r, 'serviceAccountId') ?? '').split('/').pop() ?? ''}`,
};

/**
 * The IAM resource types of @pulumi/gcp 9.37 that grant roles: the scope key of SCOPE_OF and the kind of
 * grant (one member, one role's members, authoritative for that role, or a whole allow policy).
 */
const IAM_TYPES: ReadonlyMap<string, { scope: string; kind: 'Member' | 'Binding' | 'Policy' }> = new Map(
  [
    ['projects', 'gcp:projects/iAM{K}:IAM{K}'],
    ['folder', 'gcp:folder/iAM{K}:IAM{K}'],
    ['organizations', 'gcp:organizations/iAM{K}:IAM{K}'],
    ['serviceaccount', 'gcp:serviceaccount/iAM{K}:IAM{K}'],
    ['storage/bucket', 'gcp:storage/bucketIAM{K}:BucketIAM{K}'],
    ['kms/keyRing', 'gcp:kms/keyRingIAM{K}:KeyRingIAM{K}'],
    ['kms/cryptoKey', 'gcp:kms/cryptoKeyIAM{K}:CryptoKeyIAM{K}'],
  ].flatMap(([scope = '', pattern = '']) =>
    (['Member', 'Binding', 'Policy'] as const).map(
      (kind) => [pattern.replaceAll('{K}', kind), { scope, kind }] as const,
    ),
  ),
);

/** The allow-policy resource types `bindingsOf` reads, and the deny and custom-role types read beside them. */
export const GCP_READ_TYPES: ReadonlySet<string> = new Set([
  ...IAM_TYPES.keys(),
  'gcp:iam/denyPolicy:DenyPolicy',
  'gcp:projects/iAMCustomRole:IAMCustomRole',
]);

function iamTypeOf(type: string): { scope: string; kind: 'Member' | 'Binding' | 'Policy' } | undefined {
  return IAM_TYPES.get(type);
}

interface PolicyBinding {
  role?: unknown;
  members?: unknown;
  condition?: { expression?: unknown; title?: unknown };
}

/**
 * Every allow binding of the IAM resources: one member (`IAMMember`), one role's members (`IAMBinding`),
 * or each binding of a policy (`IAMPolicy`'s `policyData`, the JSON of an allow policy:
 * https://cloud.google.com/iam/docs/reference/rest/v1/Policy), at project, folder, organization, bucket, key
 * ring, key and service-account level. A binding's condition is kept: for a grant it counts as holding (a
 * condition the analysis cannot evaluate must not make a grant disappear).
 */
export function bindingsOf(resources: readonly RenderedResource[]): Binding[] {
  return resources.flatMap((r): Binding[] => {
    const iam = iamTypeOf(r.type);
    const scopeOf = iam && SCOPE_OF[iam.scope];
    if (!iam || !scopeOf) return [];
    const scope = scopeOf(r);
    const source = `${r.type.split(':').pop() ?? r.type} ${r.name}`;
    const conditionOf = (condition: unknown) => {
      const expression = (condition as { expression?: unknown } | undefined)?.expression;
      return typeof expression === 'string' ? { condition: expression } : {};
    };
    if (iam.kind === 'Member') {
      const member = stringInput(r, 'member');
      const role = stringInput(r, 'role');
      if (!member || !role) return [];
      return [{ member, role, scope, source, ...conditionOf(r.inputs['condition']) }];
    }
    if (iam.kind === 'Binding') {
      const role = stringInput(r, 'role');
      const members = r.inputs['members'];
      if (!role || !Array.isArray(members)) return [];
      return members
        .filter((m): m is string => typeof m === 'string')
        .map((member) => ({ member, role, scope, source, ...conditionOf(r.inputs['condition']) }));
    }
    const policy = jsonOf(r.inputs['policyData']) as { bindings?: PolicyBinding[] } | undefined;
    return (policy?.bindings ?? []).flatMap(({ role, members, condition }) =>
      typeof role === 'string' && Array.isArray(members)
        ? members
            .filter((m): m is string => typeof m === 'string')
            .map((member) => ({ member, role, scope, source, ...conditionOf(condition) }))
        : [],
    );
  });
}

/**
 * What the render's authoritative IAM resources replace on each scope: an `IAMBinding` every member of its
 * role, an `IAMPolicy` every binding (`*`). The cloud's own default bindings on that role or scope are gone.
 */
export function replacedBindings(resources: readonly RenderedResource[]): Set<string> {
  const replaced = new Set<string>();
  for (const r of resources) {
    const iam = iamTypeOf(r.type);
    const scopeOf = iam && SCOPE_OF[iam.scope];
    if (!iam || !scopeOf || iam.kind === 'Member') continue;
    replaced.add(`${scopeOf(r)}|${iam.kind === 'Policy' ? '*' : (stringInput(r, 'role') ?? '')}`);
  }
  return replaced;
}

/**
 * What GCP grants on every new bucket: the project's owners and editors are legacy bucket and object
 * owners, its viewers legacy readers (the "convenience values"), and the basic roles on the project.
 * https://cloud.google.com/storage/docs/access-control/iam#convenience-values
 */
function convenienceBindings(store: GcpStore): Binding[] {
  const bucket = `buckets/${store.bucket}`;
  const project = `projects/${store.project}`;
  const source = 'GCS default bucket policy (convenience values)';
  const basic = 'basic role, granted outside this repository';
  return [
    { member: `projectOwner:${store.project}`, role: 'roles/owner', scope: project, source: basic },
    { member: `projectEditor:${store.project}`, role: 'roles/editor', scope: project, source: basic },
    { member: `projectViewer:${store.project}`, role: 'roles/viewer', scope: project, source: basic },
    ...['projectOwner', 'projectEditor'].flatMap((holder) =>
      ['roles/storage.legacyBucketOwner', 'roles/storage.legacyObjectOwner'].map((role) => ({
        member: `${holder}:${store.project}`,
        role,
        scope: bucket,
        source,
      })),
    ),
    ...['roles/storage.legacyBucketReader', 'roles/storage.legacyObjectReader'].map((role) => ({
      member: `projectViewer:${store.project}`,
      role,
      scope: bucket,
      source,
    })),
  ];
}

export function denyRulesOf(resources: readonly RenderedResource[]): DenyRule[] {
  return resources.flatMap((r): DenyRule[] => {
    if (r.type !== 'gcp:iam/denyPolicy:DenyPolicy') return [];
    const parent = decodeURIComponent(stringInput(r, 'parent') ?? '');
    const project = /cloudresourcemanager\.googleapis\.com\/projects\/([^/]+)$/.exec(parent)?.[1];
    if (!project) return [];
    const rules =
      (r.inputs['rules'] as
        | {
            denyRule?: {
              deniedPrincipals?: string[];
              exceptionPrincipals?: string[];
              deniedPermissions?: string[];
              exceptionPermissions?: string[];
              denialCondition?: { expression?: unknown };
            };
          }[]
        | undefined) ?? [];
    return rules.map(({ denyRule }) => ({
      principals: denyRule?.deniedPrincipals ?? [],
      exceptions: denyRule?.exceptionPrincipals ?? [],
      permissions: denyRule?.deniedPermissions ?? [],
      exceptionPermissions: denyRule?.exceptionPermissions ?? [],
      // A condition the provider sends as anything but its expression text counts as one that may not hold.
      ...(denyRule?.denialCondition === undefined
        ? {}
        : {
            condition: String(
              denyRule.denialCondition.expression ?? JSON.stringify(denyRule.denialCondition),
            ),
          }),
      scope: `projects/${project}`,
      source: `DenyPolicy ${r.name}`,
    }));
  });
}

/** The bootstrap's CI service accounts (`preview`, `deploy-<environment>`), by member. */
function ciPrincipalsOf(bootstrap: readonly RenderedResource[]): Map<string, Principal> {
  const principals = new Map<string, Principal>();
  for (const account of bootstrap) {
    if (account.type !== 'gcp:serviceaccount/account:Account') continue;
    const id = `serviceAccount:${stringInput(account, 'accountId') ?? ''}@${stringInput(account, 'project') ?? ''}.iam.gserviceaccount.com`;
    const principal = ciPrincipal(account, id);
    if (principal) principals.set(id, principal);
  }
  return principals;
}

/** The bootstrap's workload identity pool IDs. */
function ciPoolsOf(bootstrap: readonly RenderedResource[]): string[] {
  return bootstrap.flatMap((r) => {
    const id =
      r.type === 'gcp:iam/workloadIdentityPool:WorkloadIdentityPool' &&
      stringInput(r, 'workloadIdentityPoolId');
    return id ? [id] : [];
  });
}

/**
 * A member of one of CI's workload identity pools is CI itself, whatever the store calls it: a deploy when
 * it names one environment's subject, else (a pull request, a principalSet of the whole pool or of an
 * attribute) as wide as the preview. https://cloud.google.com/iam/docs/principal-identifiers
 */
export function ciPoolPrincipal(member: string, pools: readonly string[]): Principal | undefined {
  const match =
    /^principal(?:Set)?:\/\/iam\.googleapis\.com\/projects\/[^/]+\/locations\/global\/workloadIdentityPools\/([^/]+)\/(.*)$/.exec(
      member,
    );
  if (!match || !pools.includes(match[1] ?? '')) return undefined;
  const environment = /^subject\/repo:[^:]+:environment:([^:]+)$/.exec(match[2] ?? '')?.[1];
  return environment
    ? { id: member, label: `ci pool ${match[2] ?? ''}`, kind: 'ci-deploy', environment }
    : { id: member, label: `ci pool ${match[2] ?? ''}`, kind: 'ci-preview' };
}

/**
 * A store's principals: CI's, the store's identities, then the members of the bindings on its bucket,
 * project, key and identities, in binding order (the render's, then the bucket's convenience bindings).
 */
function principalsOf(
  store: GcpStore,
  bindingsOn: GcpRenderAccess['bindingsOn'],
  convenience: readonly Binding[],
  ciPrincipals: ReadonlyMap<string, Principal>,
  ciPools: readonly string[],
  ancestors: readonly string[],
): Principal[] {
  const principals = new Map(ciPrincipals);
  const relevant = new Set([
    `buckets/${store.bucket}`,
    `projects/${store.project}`,
    ...(store.key ? [store.key, keyRingOf(store.key)] : []),
    ...store.identities.map((i) => `serviceAccounts/${i.email}`),
    ...ancestors,
  ]);
  for (const identity of store.identities) {
    const id = `serviceAccount:${identity.email}`;
    principals.set(id, { id, label: identity.label, kind: 'store-identity' });
  }
  const onStore = [...bindingsOn([...relevant]), ...convenience.filter((b) => relevant.has(b.scope))];
  for (const binding of onStore) {
    if (principals.has(binding.member)) continue;
    const holder = /^(projectOwner|projectEditor|projectViewer):/.exec(binding.member)?.[1];
    const pool = ciPoolPrincipal(binding.member, ciPools);
    if (pool) {
      principals.set(binding.member, pool);
      continue;
    }
    // A Storage Transfer Service agent is granted by the bootstrap's independent copy alone.
    const agent = GCP_TRANSFER_AGENT.test(binding.member);
    principals.set(binding.member, {
      id: binding.member,
      label: holder
        ? `project ${holder.slice('project'.length).toLowerCase()}s`
        : agent
          ? `copy transfer agent ${binding.member.slice('serviceAccount:'.length)}`
          : binding.member,
      kind: holder ? 'cloud-default' : 'declared',
    });
  }
  return [...principals.values()];
}

/** Where a request to a bucket comes from: the internet (a public address) or a VPC network. */
export type GcsRequestSource =
  | { internet: string }
  /** `network` as `projects/P/global/networks/N`; `otherOrganization`: the network is not in the bucket's organization. */
  | { network: string; ip: string; otherOrganization?: boolean };

export interface GcsNetworkRequest {
  from: GcsRequestSource;
  /**
   * Object reads and writes, the bucket-level calls the IP filter exemption covers, or another call on the
   * bucket (its IAM policy, its Anywhere Caches), which the exemption does not cover.
   */
  operation: 'object' | 'bucket-get' | 'bucket-update' | 'bucket-delete' | 'bucket-other';
  /** A Google service acting as its own service agent. */
  serviceAgent?: boolean;
  /** The caller holds storage.buckets.exemptFromIpFilter. */
  exemptFromIpFilter?: boolean;
}

export interface GcsNetworkVerdict {
  allowed: boolean;
  /** The documented rule that decided it. */
  rule: string;
}

interface IpFilterInput {
  mode?: string;
  allowAllServiceAgentAccess?: boolean;
  allowCrossOrgVpcs?: boolean;
  publicNetworkSource?: { allowedIpCidrRanges?: string[] };
  vpcNetworkSources?: { network?: string; allowedIpCidrRanges?: string[] }[];
}

const IP_FILTER = 'https://cloud.google.com/storage/docs/ip-filtering-overview';
const BYPASS = 'https://cloud.google.com/storage/docs/bypass-ip-filter';
/** What the exemption covers: getting, updating and deleting the bucket (BYPASS, "Supported operations"). */
const EXEMPT_OPERATIONS: ReadonlySet<GcsNetworkRequest['operation']> = new Set([
  'bucket-get',
  'bucket-update',
  'bucket-delete',
]);

/**
 * Whether a bucket's IP filter lets a request through (IAM still decides what it may do), per the documented
 * semantics: the filter applies only in mode Enabled (@pulumi/gcp 9.37 BucketIpFilter.mode: "When set to
 * `Disabled`, IP filtering rules are not applied"); then a request from the internet needs a source address
 * in `publicNetworkSource.allowedIpCidrRanges`, one from a VPC network needs that network listed in
 * `vpcNetworkSources` with the address in its ranges (IP_FILTER); a network of another organization counts
 * only with `allowCrossOrgVpcs`, a service agent passes only with `allowAllServiceAgentAccess`
 * (BucketIpFilter field docs); a caller with storage.buckets.exemptFromIpFilter passes for getting, updating
 * and deleting the bucket, never for objects (BYPASS, "Supported operations").
 */
export function gcsIpFilterVerdict(ipFilter: unknown, request: GcsNetworkRequest): GcsNetworkVerdict {
  const filter = (typeof ipFilter === 'object' && ipFilter !== null ? ipFilter : {}) as IpFilterInput;
  if (filter.mode !== 'Enabled') {
    return {
      allowed: true,
      rule: `no IP filter in mode Enabled: every network may reach the bucket (${IP_FILTER})`,
    };
  }
  if (request.exemptFromIpFilter && EXEMPT_OPERATIONS.has(request.operation)) {
    return {
      allowed: true,
      rule: `storage.buckets.exemptFromIpFilter exempts ${request.operation} (${BYPASS})`,
    };
  }
  if (request.serviceAgent) {
    return filter.allowAllServiceAgentAccess === true
      ? { allowed: true, rule: 'allowAllServiceAgentAccess admits service agents' }
      : {
          allowed: false,
          rule: 'service agents are filtered like any caller unless allowAllServiceAgentAccess',
        };
  }
  const { from } = request;
  if ('internet' in from) {
    const ranges = filter.publicNetworkSource?.allowedIpCidrRanges ?? [];
    return ranges.some((range) => ipInRange(from.internet, range))
      ? { allowed: true, rule: `${from.internet} is in publicNetworkSource.allowedIpCidrRanges` }
      : { allowed: false, rule: `${from.internet} is in no range of publicNetworkSource (${IP_FILTER})` };
  }
  if (from.otherOrganization && filter.allowCrossOrgVpcs !== true) {
    return {
      allowed: false,
      rule: `${from.network} is in another organization and allowCrossOrgVpcs is not set`,
    };
  }
  const source = (filter.vpcNetworkSources ?? []).find((candidate) => candidate.network === from.network);
  if (!source)
    return { allowed: false, rule: `${from.network} is not one of vpcNetworkSources (${IP_FILTER})` };
  return (source.allowedIpCidrRanges ?? []).some((range) => ipInRange(from.ip, range))
    ? { allowed: true, rule: `${from.network} is listed and ${from.ip} is in its allowedIpCidrRanges` }
    : { allowed: false, rule: `${from.ip} is in no allowedIpCidrRanges of ${from.network}` };
}

/** Whether an IPv4 or IPv6 address lies in a CIDR range of the same family. */
export function ipInRange(ip: string, cidr: string): boolean {
  const [base = '', bitsText] = cidr.split('/');
  const address = parseIp(ip);
  const network = parseIp(base);
  if (!address || !network || address.bits !== network.bits) return false;
  const prefix = bitsText === undefined ? network.bits : Number(bitsText);
  if (!Number.isInteger(prefix) || prefix < 0 || prefix > network.bits) return false;
  const shift = BigInt(network.bits - prefix);
  return address.value >> shift === network.value >> shift;
}

export function parseIp(text: string): { value: bigint; bits: number } | undefined {
  if (text.includes('.')) {
    const parts = text.split('.');
    if (parts.length !== 4 || !parts.every((part) => /^\d{1,3}$/.test(part) && Number(part) <= 255))
      return undefined;
    return { value: parts.reduce((sum, part) => (sum << 8n) + BigInt(part), 0n), bits: 32 };
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined) => (half ? half.split(':') : []);
  const head = groups(halves[0]);
  const tail = groups(halves[1]);
  const missing = 8 - head.length - tail.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 1 ? 0 : missing).fill('0'), ...tail];
  if (!all.every((group) => /^[0-9a-fA-F]{1,4}$/.test(group))) return undefined;
  return { value: all.reduce((sum, group) => (sum << 16n) + BigInt(`0x${group}`), 0n), bits: 128 };
}

/**
 * Which of the resources' bindings gives `member` `permission` on one of `scopes` (or on a folder or
 * organization the resources grant on, each counted as an ancestor), unless a deny rule takes it away: the
 * reason, in the access table's words, or undefined. For the questions about CI's identities themselves.
 */
export function gcpPermissionFinder(
  resources: readonly RenderedResource[],
): (member: string, scopes: readonly string[], permission: string) => string | undefined {
  const bindings = bindingsOf(resources);
  const customRoles = customRolesOf(resources);
  const denies = denyRulesOf(resources);
  const ancestors = [
    ...new Set(bindings.map((b) => b.scope).filter((scope) => /^(folders|organizations)\//.test(scope))),
  ];
  const roleKnown = (role: string) => customRoles.has(role) || PREDEFINED[role] !== undefined;
  const permits = (role: string, permission: string) =>
    !roleKnown(role) || (customRoles.get(role) ?? PREDEFINED[role] ?? []).includes(permission);
  return (member, scopes, permission) => {
    const all = [...scopes, ...ancestors];
    const binding = bindings.find(
      (b) => b.member === member && all.includes(b.scope) && permits(b.role, permission),
    );
    if (!binding || denies.some((rule) => deniesIt(rule, member, permission, all))) return undefined;
    return `${permission} from ${binding.role} on ${binding.scope} (${binding.source})${bindingCaveats(binding, roleKnown)}`;
  };
}
