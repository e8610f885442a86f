import type { RenderedResource } from '@checkpoints/render';
import { globMatches } from '../trust/model';
import { stringInput } from './model';

/**
 * Every grant a render can hold for an IAM role, read so that what cannot be read counts as the most it
 * could grant. A role's identity policies are its inline policies (`RolePolicy`, the role's own
 * `inlinePolicies`) and the managed policies attached to it (`RolePolicyAttachment`, `PolicyAttachment`,
 * the role's `managedPolicyArns`); its permissions boundary caps them.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_managed-vs-inline.html,
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/access_policies_boundaries.html
 */

export interface Document {
  Version?: string;
  Statement: unknown;
}

export interface NamedPolicy {
  name: string;
  policy: Document;
}

/** What the role's grants are, and what was assumed to say so. */
export interface RoleGrants {
  policies: NamedPolicy[];
  boundary?: Document;
  boundaryArn?: string;
  /** The managed policy ARNs attached to the role (what CI could rewrite a version of). */
  attachedArns: string[];
}

/**
 * The document standing for a grant the analysis cannot read: it allows every action on every resource,
 * the most any identity policy can grant. Its one statement's Sid says what was assumed, and every answer
 * it allows names that Sid.
 */
export function everything(sid: string): Document {
  let document = everythingBySid.get(sid);
  if (!document) {
    document = Object.freeze({
      Version: '2012-10-17',
      Statement: Object.freeze([Object.freeze({ Sid: sid, Effect: 'Allow', Action: '*', Resource: '*' })]),
    });
    everythingBySid.set(sid, document);
  }
  return document;
}
const everythingBySid = new Map<string, Document>();

/** A managed policy ARN the render may attach: one of its `aws:iam/policy:Policy` resources, by ARN. */
export type ManagedPolicies = ReadonlyMap<string, Document | undefined>;

/** The render's managed policies by ARN (`arn:<partition>:iam::<account>:policy/<name>`); undefined: not a document. */
export function managedPoliciesOf(
  resources: readonly RenderedResource[],
  partition: string,
  accountId: string,
  parse: (value: unknown) => Document | undefined,
): Map<string, Document | undefined> {
  return new Map(
    resources
      .filter((r) => r.type === 'aws:iam/policy:Policy')
      .map((r) => [
        `arn:${partition}:iam::${accountId}:policy/${stringInput(r, 'name') ?? r.name}`,
        documentOf(parse(r.inputs['policy'])),
      ]),
  );
}

/** IAM types read here, or that grant nothing a role can use (the role itself, a provider, a boundary policy). */
const READ_TYPES = new Set([
  'aws:iam/role:Role',
  'aws:iam/rolePolicy:RolePolicy',
  'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
  'aws:iam/policyAttachment:PolicyAttachment',
  'aws:iam/policy:Policy',
  'aws:iam/openIdConnectProvider:OpenIdConnectProvider',
  // Exclusive lists only remove what is not listed (they grant nothing of their own).
  'aws:iam/rolePoliciesExclusive:RolePoliciesExclusive',
  'aws:iam/rolePolicyAttachmentsExclusive:RolePolicyAttachmentsExclusive',
]);

const UNKNOWN_TEXT = '[unknown]';

/**
 * The render's grant resources by the role they name (name or ARN), those that could name any role (an
 * unknown target), and the IAM resources of types not modelled here: read once per resource list, where a
 * scan per role made the analysis quadratic in the number of stores.
 */
export interface GrantIndex {
  byRole: Map<string, RenderedResource[]>;
  anyRole: RenderedResource[];
}

export function grantIndexOf(resources: readonly RenderedResource[]): GrantIndex {
  let index = grantIndexes.get(resources);
  if (index) return index;
  index = { byRole: new Map(), anyRole: [] };
  for (const resource of resources) {
    const target =
      resource.type === 'aws:iam/rolePolicy:RolePolicy' ||
      resource.type === 'aws:iam/rolePolicyAttachment:RolePolicyAttachment'
        ? resource.inputs['role']
        : resource.type === 'aws:iam/policyAttachment:PolicyAttachment'
          ? resource.inputs['roles']
          : resource.type.startsWith('aws:iam/') && !READ_TYPES.has(resource.type)
            ? UNKNOWN_TEXT
            : undefined;
    if (target === undefined) continue;
    const names = [target].flat();
    if (names.some((name) => typeof name !== 'string' || name === UNKNOWN_TEXT)) index.anyRole.push(resource);
    else
      for (const name of names as string[]) {
        const list = index.byRole.get(name);
        if (list) list.push(resource);
        else index.byRole.set(name, [resource]);
      }
  }
  grantIndexes.set(resources, index);
  return index;
}
const grantIndexes = new WeakMap<readonly RenderedResource[], GrantIndex>();

/** Whether an input names the role: by name or ARN, or unknown (it could be any role). */
function namesRole(value: unknown, name: string, arn: string): boolean {
  if (value === UNKNOWN_TEXT) return true;
  if (typeof value === 'string') return value === name || value === arn;
  if (Array.isArray(value)) return value.some((item) => namesRole(item, name, arn));
  return false;
}

/**
 * The role's grants in `resources` (the render holding it, or the bootstrap render for CI roles). A policy
 * not a document (unknown at preview, not JSON), a managed policy not in the render (an AWS-managed one
 * included), a grant type not modelled here that names the role: each counts as `everything`, named by
 * what was assumed.
 */
export function roleGrants(
  index: GrantIndex,
  role: RenderedResource,
  arn: string,
  managed: ManagedPolicies,
  parse: (value: unknown) => Document | undefined,
): RoleGrants {
  const name = stringInput(role, 'name') ?? role.name;
  const policies: NamedPolicy[] = [];
  const attachedArns: string[] = [];
  const inline = (policyName: string, value: unknown) => {
    const document = documentOf(parse(value));
    policies.push({
      name: policyName,
      policy:
        document ??
        everything(
          value === UNKNOWN_TEXT
            ? 'UnknownPolicyTakenToAllowEverything'
            : 'UnreadablePolicyTakenToAllowEverything',
        ),
    });
  };
  const attach = (where: string, policyArn: unknown) => {
    const text = typeof policyArn === 'string' ? policyArn : UNKNOWN_TEXT;
    attachedArns.push(text);
    const document = managed.get(text);
    if (document) {
      policies.push({ name: `${where} ${text}`, policy: document });
      return;
    }
    const why = /^arn:[^:]+:iam::aws:policy\//.test(text)
      ? 'AwsManagedPolicyNotInTheRenderTakenToAllowEverything'
      : text === UNKNOWN_TEXT
        ? 'UnknownPolicyTakenToAllowEverything'
        : managed.has(text)
          ? 'UnreadablePolicyTakenToAllowEverything'
          : 'PolicyNotInTheRenderTakenToAllowEverything';
    policies.push({ name: `${where} ${text}`, policy: everything(why) });
  };
  const own = role.inputs['inlinePolicies'];
  if (Array.isArray(own)) {
    for (const entry of own as Record<string, unknown>[]) {
      if (entry?.['policy'] !== undefined) inline(String(entry['name'] ?? 'inline'), entry['policy']);
    }
  }
  const managedArns = role.inputs['managedPolicyArns'];
  for (const policyArn of [managedArns ?? []].flat()) attach('managedPolicyArns', policyArn);
  const named = new Set([
    ...(index.byRole.get(name) ?? []),
    ...(index.byRole.get(arn) ?? []),
    ...index.anyRole,
  ]);
  for (const resource of named) {
    if (resource === role) continue;
    const { inputs } = resource;
    switch (resource.type) {
      case 'aws:iam/rolePolicy:RolePolicy':
        if (namesRole(inputs['role'], name, arn))
          inline(stringInput(resource, 'name') ?? resource.name, inputs['policy']);
        break;
      case 'aws:iam/rolePolicyAttachment:RolePolicyAttachment':
        if (namesRole(inputs['role'], name, arn)) attach(`attachment ${resource.name}`, inputs['policyArn']);
        break;
      case 'aws:iam/policyAttachment:PolicyAttachment':
        if (namesRole(inputs['roles'], name, arn)) attach(`attachment ${resource.name}`, inputs['policyArn']);
        break;
      default:
        if (
          resource.type.startsWith('aws:iam/') &&
          !READ_TYPES.has(resource.type) &&
          mentions(inputs, name, arn)
        ) {
          policies.push({
            name: `${resource.type} ${resource.name}`,
            policy: everything('GrantTypeNotModelledTakenToAllowEverything'),
          });
        }
    }
  }
  const boundaryArn = stringInput(role, 'permissionsBoundary');
  // A boundary only takes away: one the analysis cannot read is taken to take nothing away.
  const boundary = boundaryArn ? managed.get(boundaryArn) : undefined;
  return {
    policies,
    ...(boundary ? { boundary } : {}),
    ...(boundaryArn ? { boundaryArn } : {}),
    attachedArns,
  };
}

function mentions(inputs: Record<string, unknown>, name: string, arn: string): boolean {
  const text = JSON.stringify(inputs);
  return (
    text.includes(JSON.stringify(name)) || text.includes(arn) || text.includes(JSON.stringify(UNKNOWN_TEXT))
  );
}

function documentOf(value: unknown): Document | undefined {
  if (!value || typeof value !== 'object' || !('Statement' in value)) return undefined;
  const statements = [(value as Document).Statement].flat();
  return statements.length > 0 && statements.every((statement) => statement && typeof statement === 'object')
    ? (value as Document)
    : undefined;
}

/**
 * The key policy with the render's KMS grants on the key added as statements: a grant lets its grantee
 * call the grant's operations on the key, as a key policy statement would
 * (https://docs.aws.amazon.com/kms/latest/developerguide/grants.html). A grant whose key is unknown counts
 * on every key; one whose grantee is unknown, for any principal.
 */
export function withGrants<D extends Document>(
  policy: D,
  keyArn: string,
  resources: readonly RenderedResource[],
): D {
  const keyId = keyArn.split('/').pop() ?? keyArn;
  const grants = resources.filter(
    (r) =>
      r.type === 'aws:kms/grant:Grant' &&
      (r.inputs['keyId'] === UNKNOWN_TEXT ||
        r.inputs['keyId'] === keyArn ||
        r.inputs['keyId'] === keyId ||
        typeof r.inputs['keyId'] !== 'string'),
  );
  if (grants.length === 0) return policy;
  const statements = grants.map((grant) => {
    const grantee = grant.inputs['granteePrincipal'];
    const operations = grant.inputs['operations'];
    return {
      Sid: `KmsGrant${grant.name.replace(/[^A-Za-z0-9]/g, '')}`,
      Effect: 'Allow',
      Principal: typeof grantee === 'string' && grantee !== UNKNOWN_TEXT ? { AWS: grantee } : '*',
      Action: Array.isArray(operations) ? operations.map((operation) => `kms:${String(operation)}`) : 'kms:*',
      Resource: '*',
    };
  });
  return { ...policy, Statement: [...[policy.Statement].flat(), ...statements] };
}

/**
 * The condition keys the analysis puts in the request context of the questions it asks, whenever a real
 * request of that kind carries them: the keys AWS includes in every request (aws:PrincipalArn,
 * aws:PrincipalAccount, aws:PrincipalType, aws:PrincipalIsAWSService, aws:RequestedRegion,
 * aws:SecureTransport), the network origin it probes (aws:SourceVpce and aws:SourceVpc inside a
 * perimeter, aws:SourceIp outside), and the service keys of the requests it models.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html ("Properties of
 * the principal": "This key is always included in the request context"; aws:RequestedRegion, "Availability
 * – This key is always included in the request context").
 */
const MODELLED_KEYS = [
  /^aws:(PrincipalArn|PrincipalAccount|PrincipalType|PrincipalIsAWSService|RequestedRegion|SecureTransport)$/i,
  /^aws:(SourceVpce|SourceVpc|SourceIp)$/i,
  /^aws:(ResourceTag|RequestTag)\//i,
  /^aws:TagKeys$/i,
  /^(s3|s3express):(TlsVersion|SessionMode|x-amz-server-side-encryption|x-amz-server-side-encryption-aws-kms-key-id)$/i,
  /^kms:ViaService$/i,
  /^iam:(PermissionsBoundary|PolicyARN|PassedToService)$/i,
];

function modelled(key: string): boolean {
  return MODELLED_KEYS.some((pattern) => pattern.test(key));
}

interface ConditionedStatement {
  Sid?: string;
  Effect?: string;
  Action?: unknown;
  NotAction?: unknown;
  Condition?: Record<string, Record<string, unknown>>;
}

/** The policy as judged, and what was assumed of its statements to judge it. */
export interface JudgedPolicy<D extends Document> {
  policy: D;
  /** One per statement whose condition reads a key the analysis does not model. */
  assumed: Assumption[];
}

/** What was assumed of one statement, and the statement's actions (to tell which requests it bears on). */
export interface Assumption {
  text: string;
  statement: { Action?: unknown; NotAction?: unknown };
}

/** The assumptions that bear on a request for `action`: those whose statement may name it. */
export function assumedFor(assumed: readonly Assumption[], actions: readonly string[]): string[] {
  return assumed
    .filter(({ statement }) => {
      const names = (list: unknown) =>
        [list]
          .flat()
          .some(
            (name) => typeof name === 'string' && actions.some((action) => globMatches(name, action, true)),
          );
      return statement.NotAction !== undefined ? true : names(statement.Action);
    })
    .map(({ text }) => text);
}

/**
 * The policy with every condition the analysis cannot evaluate resolved to the worst case: an Allow
 * statement conditioned on a key it does not put in its questions (a time, a principal tag, an
 * organization) is taken to apply, its condition dropped; a Deny statement so conditioned is taken not to
 * apply (it "may not apply" to some requests: a time window, a tag an attacker sets), and is dropped.
 * One judged policy per document.
 */
export function judgedPolicy<D extends Document>(policy: D): JudgedPolicy<D> {
  const cached = judgedPolicies.get(policy) as JudgedPolicy<D> | undefined;
  if (cached) return cached;
  const assumed: Assumption[] = [];
  const statements = [policy.Statement].flat() as ConditionedStatement[];
  const kept = statements.flatMap((statement, index): ConditionedStatement[] => {
    const condition = statement.Condition;
    if (!condition || typeof condition !== 'object') return [statement];
    const unmodelled = Object.values(condition).flatMap((keys) =>
      keys && typeof keys === 'object' ? Object.keys(keys).filter((key) => !modelled(key)) : ['?'],
    );
    if (unmodelled.length === 0) return [statement];
    const name = statement.Sid ?? `#${index + 1}`;
    if (statement.Effect === 'Deny') {
      assumed.push({
        text: `deny ${name} taken not to apply (its condition reads ${unmodelled.join(', ')})`,
        statement,
      });
      return [];
    }
    assumed.push({
      text: `allow ${name} taken to apply (its condition reads ${unmodelled.join(', ')})`,
      statement,
    });
    const { Condition: _dropped, ...unconditioned } = statement;
    return [unconditioned];
  });
  const judged: JudgedPolicy<D> =
    assumed.length === 0 ? { policy, assumed } : { policy: { ...policy, Statement: kept }, assumed };
  judgedPolicies.set(policy, judged);
  return judged;
}
const judgedPolicies = new WeakMap<Document, JudgedPolicy<Document>>();
