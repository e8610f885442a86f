import { CHECKPOINT_WRITER_ROLE, checkpointWriterRoleGuid } from '@checkpoints/config';
import azureRoleData from '../../data/azure-roles.json';
import type { RenderedResource, RenderedStore } from '@checkpoints/render';
import { evaluateCondition, readCondition, type ConditionValue } from './azure-condition';
import {
  stringInput,
  type AccessGrant,
  type Operation,
  type Principal,
  groupedBy,
  perRender,
  type RendersInput,
  type StoreAccessOf,
} from './model';
import { statementOf } from '../retention';
import { AZURE_COPY_RESTORE, azureIndependentCopyOf } from '../retention/azure-copy';
import {
  azureConfigurationWrites,
  configurationContextOf,
  type ConfigurationContext,
} from './configuration-writes';

export interface Permission {
  actions: readonly string[];
  notActions: readonly string[];
  dataActions: readonly string[];
  notDataActions: readonly string[];
}

export interface RoleDefinition {
  roleName: string;
  permissions: readonly Permission[];
}

/** Built-in role GUID -> definition, vendored from the clouds' published definitions (data/SOURCE.md). */
const BUILT_IN: Readonly<Record<string, RoleDefinition>> = azureRoleData.roles;

export interface Assignment {
  principalId: string;
  role: string;
  scope: string;
  condition?: string;
  source: string;
}

interface AzureStore {
  subscription: string;
  resourceGroup: string;
  account: string;
  container: string;
  allowSharedKeyAccess: boolean;
  vault?: string;
  key?: string;
  identities: { id: string; label: string; resource: string }[];
}

/** The data roles: assigning one of them is giving data access. */
const DATA_ROLE_ACTION = /^Microsoft\.Storage\/storageAccounts\/blobServices\/containers\/blobs\//i;

type Target = 'account' | 'container' | 'vault' | 'key';

/**
 * The action each operation needs, per the Azure resource provider operations reference
 * (https://learn.microsoft.com/en-us/azure/role-based-access-control/permissions/storage,
 * .../permissions/security#microsoftkeyvault, .../permissions/identity#microsoftmanagedidentity).
 */
const STORE_OPERATIONS: readonly { operation: Operation; on: Target; action: string; data?: true }[] = [
  {
    operation: 'read',
    on: 'container',
    action: 'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read',
    data: true,
  },
  {
    operation: 'write',
    on: 'container',
    action: 'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/write',
    data: true,
  },
  {
    operation: 'delete',
    on: 'container',
    action: 'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/delete',
    data: true,
  },
  // A user delegation key signs SAS tokens that read and write blobs until they expire.
  // https://learn.microsoft.com/en-us/rest/api/storageservices/create-user-delegation-sas
  {
    operation: 'open-session',
    on: 'account',
    action: 'Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action',
  },
  { operation: 'configure', on: 'account', action: 'Microsoft.Storage/storageAccounts/write' },
  {
    operation: 'configure',
    on: 'account',
    action: 'Microsoft.Storage/storageAccounts/managementPolicies/write',
  },
  // A vault's properties hold its permission model and access policies: writing them changes who may use the key.
  // https://learn.microsoft.com/en-us/azure/key-vault/general/rbac-migration
  { operation: 'change-access', on: 'vault', action: 'Microsoft.KeyVault/vaults/write' },
  { operation: 'delete-store', on: 'account', action: 'Microsoft.Storage/storageAccounts/delete' },
  {
    operation: 'delete-store',
    on: 'container',
    action: 'Microsoft.Storage/storageAccounts/blobServices/containers/delete',
  },
  { operation: 'use-key', on: 'key', action: 'Microsoft.KeyVault/vaults/keys/unwrap/action', data: true },
  { operation: 'use-key', on: 'key', action: 'Microsoft.KeyVault/vaults/keys/decrypt/action', data: true },
  { operation: 'disable-key', on: 'key', action: 'Microsoft.KeyVault/vaults/keys/update/action', data: true },
  { operation: 'disable-key', on: 'key', action: 'Microsoft.KeyVault/vaults/keys/write' },
  { operation: 'destroy-key', on: 'key', action: 'Microsoft.KeyVault/vaults/keys/delete', data: true },
  { operation: 'destroy-key', on: 'vault', action: 'Microsoft.KeyVault/vaults/delete' },
];

/**
 * Account keys are full data access wherever shared key authorization is allowed, and whoever may write
 * the account may allow it. https://learn.microsoft.com/en-us/azure/storage/common/shared-key-authorization-prevent
 */
const LIST_KEYS = 'Microsoft.Storage/storageAccounts/listkeys/action';
const ROLE_ASSIGNMENT_WRITE = 'Microsoft.Authorization/roleAssignments/write';
/** https://learn.microsoft.com/en-us/azure/role-based-access-control/built-in-roles/identity#managed-identity-operator */
const ASSIGN_IDENTITY = 'Microsoft.ManagedIdentity/userAssignedIdentities/assign/action';
/**
 * Writes of the resources that run code under an assigned identity (virtual machines, App Service,
 * container instances and apps, Batch pools, Azure ML compute): https://learn.microsoft.com/en-us/entra/identity/managed-identities-azure-resources/managed-identities-status
 */
const COMPUTE_WRITES = [
  'Microsoft.Compute/virtualMachines/write',
  'Microsoft.Compute/virtualMachineScaleSets/write',
  'Microsoft.Web/sites/write',
  'Microsoft.ContainerInstance/containerGroups/write',
  'Microsoft.App/containerApps/write',
  'Microsoft.App/jobs/write',
  'Microsoft.Batch/batchAccounts/pools/write',
  'Microsoft.MachineLearningServices/workspaces/computes/write',
];
/**
 * Management locks (https://learn.microsoft.com/azure/azure-resource-manager/management/lock-resources): a
 * CanNotDelete or ReadOnly lock refuses every management-plane delete of the resource it is on and of the
 * resources below its scope, whatever the caller's role, until someone with
 * `Microsoft.Authorization/locks/delete` removes it. It guards the account itself only: "Locking a storage
 * account does not protect containers or blobs within that account from being deleted or overwritten"
 * (https://learn.microsoft.com/azure/storage/common/lock-account-resource), so container and blob deletes,
 * and a key's data-plane delete, are not refused by it.
 */
const LOCK_REFUSES: readonly string[] = [
  'Microsoft.Storage/storageAccounts/delete',
  'Microsoft.KeyVault/vaults/delete',
];
const LOCK_DELETE = 'Microsoft.Authorization/locks/delete';

interface Lock {
  id: string;
  scope: string;
  level: string;
}

function locksOf(resources: readonly RenderedResource[]): Lock[] {
  return resources.flatMap((r): Lock[] => {
    if (r.type !== 'azure-native:authorization:ManagementLockByScope') return [];
    const scope = stringInput(r, 'scope');
    const level = stringInput(r, 'level');
    if (!scope || (level !== 'CanNotDelete' && level !== 'ReadOnly')) return [];
    const id = `${scope}/providers/Microsoft.Authorization/locks/${stringInput(r, 'lockName') ?? r.name}`;
    return [{ id, scope, level }];
  });
}

/**
 * A container time-based immutability policy (the retention lock): "A container with a container-level WORM
 * policy set must be empty before the container can be deleted", and its blobs cannot be deleted while the
 * policy is in effect (https://learn.microsoft.com/azure/storage/blobs/immutable-container-level-worm-policies#deletion),
 * so deleting the filesystem takes lifting the unlocked policy first, `immutabilityPolicies/delete` ("you can
 * also delete an unlocked policy", https://learn.microsoft.com/azure/storage/blobs/immutable-time-based-retention-policy-overview).
 * It does not guard the account: "Unlocked policies don't provide delete protection" (same CLW page, account
 * protection); the account's CanNotDelete lock does.
 */
const POLICY_REFUSES = 'Microsoft.Storage/storageAccounts/blobServices/containers/delete';
const POLICY_DELETE = 'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/delete';

function immutabilityPolicyOf(
  resources: readonly RenderedResource[],
  container: string,
): RenderedResource | undefined {
  return resources.find(
    (r) =>
      r.type === 'azure-native:storage:BlobContainerImmutabilityPolicy' &&
      stringInput(r, 'containerName') === container &&
      typeof r.inputs['immutabilityPeriodSinceCreationInDays'] === 'number',
  );
}

/** A federated credential lets an outside token act as the identity. https://learn.microsoft.com/en-us/entra/workload-id/workload-identity-federation */
const ADD_FEDERATED_CREDENTIAL =
  'Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials/write';

/**
 * What every store of one render is judged against: the render's and the bootstrap's resources, their role
 * definitions, assignments and locks, read once per analysis (they were read again for each store, and each
 * check scanned every assignment: quadratic in stores). `grantOf` answers as a scan of `assignments` in
 * their order would: the first assignment of the principal whose scope holds the resource and whose role
 * allows the action; a role's answer for an action is the same wherever it is asked, so it is kept.
 * `principalsOf` lists a store's principals (`storePrincipals`) from the bootstrap's CI principals and the
 * assignments' principals read once, and `lockOf` the first lock whose scope holds a resource.
 */
interface AzureRenderAccess {
  subscription: string;
  roles: ReadonlyMap<string, RoleDefinition>;
  grantOf(
    principalId: string,
    resource: string,
    action: string,
    data?: boolean,
    attributes?: Attributes,
  ): Assignment | undefined;
  /** The first assignment that lets the principal assign a data role on the container: to itself, or to anyone. */
  assignerOf(principalId: string, container: string, to: 'itself' | 'anyone'): Assignment | undefined;
  lockOf(resource: string): Lock | undefined;
  principalsOf(store: AzureStore, resources: readonly string[]): Principal[];
  configuration: ConfigurationContext;
  /** The bootstrap's resources, where the stores' independent copies live (none without its render). */
  bootstrap: readonly RenderedResource[];
}

/** An Azure scope as `under` compares it: lowercased, without a trailing slash. */
function scopeKey(scope: string): string {
  return scope.toLowerCase().replace(/\/$/, '');
}

/**
 * Every scope key `under(resource, scope)` holds for: the lowercased resource ID itself and each of its
 * prefixes that ends before a `/` (the empty one for the root scope `/`).
 */
function scopeKeysHolding(resource: string): string[] {
  const id = resource.toLowerCase();
  const keys = [id];
  for (let slash = id.indexOf('/'); slash !== -1; slash = id.indexOf('/', slash + 1))
    keys.push(id.slice(0, slash));
  return keys;
}

function azureRenderAccess({ render, bootstrap }: RendersInput): AzureRenderAccess {
  const everything = [...render.resources, ...(bootstrap?.resources ?? [])];
  const subscription = subscriptionOf(everything);
  const roles = roleDefinitionsOf(everything);
  // The bootstrap's definition when its render is given, else the one it creates.
  const writerRole = checkpointWriterRoleGuid(subscription);
  if (!roles.has(writerRole)) roles.set(writerRole, CHECKPOINT_WRITER_ROLE);
  const assignments = [...assignmentsOf(everything), ...subscriptionDefaults(subscription)].map(
    (assignment) => ({
      assignment,
      scope: scopeKey(assignment.scope),
      role: roleGuid(assignment.role),
      condition: assignment.condition === undefined ? undefined : readCondition(assignment.condition),
    }),
  );
  for (const { role } of assignments) if (!roles.has(role)) roles.set(role, unknownRole(role));
  const dataRoles = [...roles].filter(([, role]) => isDataRole(role)).map(([guid]) => guid);
  const applies = (condition: (typeof assignments)[number]['condition'], request: ConditionRequestOf) =>
    condition === undefined ||
    'error' in condition ||
    evaluateCondition(condition.condition, request) !== false;
  const byPrincipal = groupedBy(assignments, ({ assignment }) => assignment.principalId);
  const principalsByScope = new Map<string, Set<string>>();
  for (const { assignment, scope } of assignments) {
    const principals = principalsByScope.get(scope);
    if (principals) principals.add(assignment.principalId);
    else principalsByScope.set(scope, new Set([assignment.principalId]));
  }
  const roleAllows = roleAnswers(roles);
  const holds = (scope: string, resource: string) => resource === scope || resource.startsWith(`${scope}/`);
  const locks = locksOf(everything).map((lock, order) => ({ lock, order }));
  const locksByScope = groupedBy(locks, ({ lock }) => scopeKey(lock.scope));
  // The first lock in render order whose scope holds the resource, as `locks.find` would answer.
  const lockOf = (resource: string) =>
    scopeKeysHolding(resource)
      .flatMap((key) => locksByScope.get(key)?.[0] ?? [])
      .sort((a, b) => a.order - b.order)[0]?.lock;
  const ciPrincipals = new Map([
    ...ciPrincipalsOf(bootstrap?.resources ?? []),
    ...backupVaultPrincipalsOf(bootstrap?.resources ?? []),
  ]);
  const firstAssignment = new Map<string, number>();
  assignments.forEach(({ assignment }, order) => {
    if (!firstAssignment.has(assignment.principalId)) firstAssignment.set(assignment.principalId, order);
  });
  return {
    subscription,
    roles,
    grantOf: (principalId, resource, action, data = false, attributes = new Map()) => {
      const id = resource.toLowerCase();
      return byPrincipal
        .get(principalId)
        ?.find(
          ({ scope, role, condition }) =>
            holds(scope, id) && roleAllows(role, action, data) && applies(condition, { action, attributes }),
        )?.assignment;
    },
    assignerOf: (principalId, container, to) => {
      const id = container.toLowerCase();
      return byPrincipal.get(principalId)?.find(({ assignment, scope, role, condition }) => {
        if (!holds(scope, id) || !roleAllows(role, ROLE_ASSIGNMENT_WRITE, false)) return false;
        // The data roles it could name: every data role the data and the render define, and any GUID its
        // condition names that neither does (such a role counts as granting everything).
        const named = [...(assignment.condition ?? '').matchAll(GUID)]
          .map(([guid]) => guid.toLowerCase())
          .filter((guid) => !roles.has(guid));
        return [...dataRoles, ...named].some((candidate) =>
          applies(condition, {
            action: ROLE_ASSIGNMENT_WRITE,
            attributes: new Map<string, readonly ConditionValue[]>([
              [ASSIGNED_ROLE, [candidate]],
              // Naming itself is one principal ID; naming anyone else is a principal the question cannot know.
              ...(to === 'itself' ? ([[ASSIGNEE, [principalId]]] as const) : []),
            ]),
          }),
        );
      })?.assignment;
    },
    lockOf,
    configuration: configurationContextOf(render.resources, everything),
    bootstrap: bootstrap?.resources ?? [],
    principalsOf: (store, resources) => {
      const reaching = new Set(
        resources.flatMap((resource) =>
          scopeKeysHolding(resource).flatMap((key) => [...(principalsByScope.get(key) ?? [])]),
        ),
      );
      const declared = [...reaching].sort(
        (a, b) => (firstAssignment.get(a) ?? 0) - (firstAssignment.get(b) ?? 0),
      );
      return storePrincipals(store, ciPrincipals, declared).filter((principal) => reaching.has(principal.id));
    },
  };
}

/** Each store's access, the render's own resources read once for all its stores. */
export function azureAccessOf(input: RendersInput): StoreAccessOf {
  return perRender(input, azureRenderAccess, azureStoreGrants);
}

function azureStoreGrants(
  store: RenderedStore,
  {
    subscription,
    roles,
    grantOf,
    assignerOf,
    lockOf,
    principalsOf,
    configuration,
    bootstrap,
  }: AzureRenderAccess,
): AccessGrant[] {
  const target = azureStore(store.resources, subscription);
  if (target === undefined) return [];
  const ids = resourceIds(target);
  const component = configuration.components.get(store.urn);
  const copy = azureIndependentCopyOf(
    {
      id: ids.account,
      filesystem: target.container,
      resourceGroup: `/subscriptions/${target.subscription}/resourceGroups/${target.resourceGroup}`,
    },
    bootstrap,
    statementOf(component)?.copyDays ?? 0,
  );
  const retentionLock = immutabilityPolicyOf(store.resources, target.container)
    ? `${ids.container}/immutabilityPolicies/default`
    : undefined;
  // Every grant below starts from an assignment on one of these (the retention lock and a lock are below
  // the container and the account, and matter only once the delete itself is granted), so a principal with
  // no assignment whose scope holds one of them (another store's identity) gets none and is not listed.
  const principals = principalsOf(target, [
    ids.account,
    ids.container,
    ...(ids.vault ? [ids.vault] : []),
    ...(ids.key ? [ids.key] : []),
    ...target.identities.map((identity) => identity.resource),
    ...(copy ? [copy.vaultId] : []),
  ]);
  const grants: AccessGrant[] = [];
  const because = (a: Assignment, action: string) =>
    `${action} from ${roles.get(roleGuid(a.role))?.roleName ?? a.role} on ${a.scope} (${a.source})${conditionCaveat(a.condition)}`;
  const containerAttributes: Attributes = new Map([[CONTAINER_NAME, [target.container]]]);
  for (const principal of principals) {
    const add = (operation: Operation, reason: string) => {
      if (!grants.some((g) => g.principal.id === principal.id && g.operation === operation))
        grants.push({ principal, operation, reason });
    };
    for (const { operation, on, action, data } of STORE_OPERATIONS) {
      const resource = ids[on];
      if (!resource) continue;
      const a = grantOf(
        principal.id,
        resource,
        action,
        data,
        on === 'container' ? containerAttributes : undefined,
      );
      if (!a) continue;
      if (action === POLICY_REFUSES && retentionLock !== undefined) {
        const lift = grantOf(principal.id, retentionLock, POLICY_DELETE);
        if (!lift) continue;
        add(
          operation,
          `${because(a, action)}, once it lifts the retention lock ${retentionLock} (${because(lift, POLICY_DELETE)})`,
        );
        continue;
      }
      const lock = LOCK_REFUSES.includes(action) ? lockOf(resource) : undefined;
      if (lock === undefined) {
        add(operation, because(a, action));
        continue;
      }
      // A lock refuses the delete until it is removed, which takes locks/delete on the lock itself.
      const unlock = grantOf(principal.id, lock.id, LOCK_DELETE);
      if (unlock) {
        add(
          operation,
          `${because(a, action)}, once it removes the ${lock.level} lock ${lock.id} (${because(unlock, LOCK_DELETE)})`,
        );
      }
    }
    for (const grant of azureConfigurationWrites({
      principal,
      resources: store.resources,
      component,
      account: ids.account,
      container: ids.container,
      ...(copy ? { copy } : {}),
      on: (action, resource = ids.account) => {
        const a = grantOf(principal.id, resource, action);
        return a && because(a, action);
      },
      guards: configuration.azureGuards,
    }))
      grants.push(grant);
    // Azure Backup copies the filesystem's blobs into the vault as the vault's identity ("Object replication
    // asynchronously copies block blobs from a source storage account to a destination backup storage account",
    // https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-overview).
    if (copy?.vaultPrincipal === principal.id) {
      add(
        'read',
        `Azure Backup copies every blob of ${target.container} into Backup vault ${copy.vault} as the vault's identity, once a day`,
      );
    }
    // A restore writes the copy into an account of the caller's choosing: a read of the data.
    const restore = copy && grantOf(principal.id, copy.instanceId, AZURE_COPY_RESTORE);
    if (copy && restore) {
      add(
        'read',
        `can restore the independent copy in Backup vault ${copy.vault} to an account of its choosing: ${because(restore, AZURE_COPY_RESTORE)}`,
      );
    }
    const keys = grantOf(principal.id, ids.account, LIST_KEYS);
    const enable = grantOf(principal.id, ids.account, 'Microsoft.Storage/storageAccounts/write');
    if (keys && (target.allowSharedKeyAccess || enable)) {
      const how = target.allowSharedKeyAccess
        ? 'shared key access is allowed'
        : `it can allow shared key access (${because(enable as Assignment, 'Microsoft.Storage/storageAccounts/write')})`;
      for (const operation of ['read', 'write', 'delete'] as const)
        add(operation, `account keys: ${because(keys, LIST_KEYS)}, and ${how}`);
    }
    const assigner = assignerOf(principal.id, ids.container, 'anyone');
    if (assigner) add('change-access', `${because(assigner, ROLE_ASSIGNMENT_WRITE)}, to a data role`);
    const selfAssigner = assignerOf(principal.id, ids.container, 'itself');
    if (selfAssigner) {
      add(
        'self-grant',
        `${because(selfAssigner, ROLE_ASSIGNMENT_WRITE)}, and no condition keeps it from assigning itself a data role`,
      );
    }
    // ADLS Gen2 access control lists: whoever may set a path's ACL, or take ownership of it (an owning user
    // may set its ACL), can give any principal, itself included, read and write on the data beneath.
    // https://learn.microsoft.com/azure/storage/blobs/data-lake-storage-access-control-model
    for (const action of ACL_ACTIONS) {
      const acl = grantOf(principal.id, ids.container, action, true, containerAttributes);
      if (!acl) continue;
      add('change-access', `${because(acl, action)}: it can set POSIX ACLs on the filesystem`);
      add('self-grant', `${because(acl, action)}: it can give itself read and write through an ACL entry`);
    }
    for (const grant of accessPolicyGrants(store.resources, principal.id)) add(grant.operation, grant.reason);
    // Assigning an identity to a resource lets the principal act as it only through a resource that runs
    // its code: a storage account uses its identity for its own key and nothing else.
    const compute = COMPUTE_WRITES.map((action) => grantOf(principal.id, ids.account, action)).find(Boolean);
    for (const identity of target.identities) {
      if (identity.id === principal.id) continue;
      const assign = grantOf(principal.id, identity.resource, ASSIGN_IDENTITY);
      if (assign && compute) {
        add(
          'act-as',
          `can act as ${identity.label}: ${because(assign, ASSIGN_IDENTITY)}, and run code with it: ${because(compute, 'a compute write')}`,
        );
      }
      const credential = grantOf(principal.id, identity.resource, ADD_FEDERATED_CREDENTIAL);
      if (credential)
        add(
          'add-credentials',
          `can add a federated credential to ${identity.label}: ${because(credential, ADD_FEDERATED_CREDENTIAL)}`,
        );
    }
  }
  return grants;
}

const actionPatterns = new Map<string, RegExp>();

/** Azure action patterns: case-insensitive, `*` matches any run of characters. */
export function actionMatches(pattern: string, action: string): boolean {
  let regex = actionPatterns.get(pattern);
  if (!regex) {
    regex = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\/]/g, '\\$&'))
        .join('.*')}$`,
      'i',
    );
    actionPatterns.set(pattern, regex);
  }
  return regex.test(action);
}

/**
 * A role allows an action when one of its permission blocks lists it and does not exclude it (actions
 * minus notActions, dataActions minus notDataActions). https://learn.microsoft.com/en-us/azure/role-based-access-control/role-definitions#notactions
 */
export function allows(role: RoleDefinition | undefined, action: string, data: boolean): boolean {
  return (role?.permissions ?? []).some((p) => {
    const [yes, no] = data ? [p.dataActions, p.notDataActions] : [p.actions, p.notActions];
    return yes.some((a) => actionMatches(a, action)) && !no.some((a) => actionMatches(a, action));
  });
}

/**
 * `allows` of the role a GUID names in `roles`, asked once per role, action and plane: a role's answer for
 * an action is the same wherever it is asked.
 */
export function roleAnswers(
  roles: ReadonlyMap<string, RoleDefinition>,
): (guid: string, action: string, data: boolean) => boolean {
  const byRole = new Map<string, { control: Map<string, boolean>; data: Map<string, boolean> }>();
  return (guid, action, data) => {
    let answers = byRole.get(guid);
    if (!answers) {
      answers = { control: new Map(), data: new Map() };
      byRole.set(guid, answers);
    }
    const plane = data ? answers.data : answers.control;
    let answer = plane.get(action);
    if (answer === undefined) {
      answer = allows(roles.get(guid), action, data);
      plane.set(action, answer);
    }
    return answer;
  };
}

/** Azure scopes are prefixes of the resource IDs below them, case-insensitive. */
export function under(resource: string, scope: string): boolean {
  const [r, s] = [resource.toLowerCase(), scope.toLowerCase().replace(/\/$/, '')];
  return r === s || r.startsWith(`${s}/`);
}

export function roleGuid(roleDefinitionId: string): string {
  return (roleDefinitionId.split('/').pop() ?? roleDefinitionId).toLowerCase();
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** Attribute values of one request, by `@Source[name]` in lowercase (azure-condition). */
type Attributes = ReadonlyMap<string, readonly ConditionValue[]>;
type ConditionRequestOf = { action: string; attributes: Attributes };

/**
 * The request attributes the conditions of the analysis' questions set: the role and the principal of a
 * role assignment being written (https://learn.microsoft.com/azure/role-based-access-control/conditions-authorization-actions-attributes),
 * the container of a blob request (https://learn.microsoft.com/azure/storage/blobs/storage-auth-abac-attributes).
 */
const ASSIGNED_ROLE = '@request[microsoft.authorization/roleassignments:roledefinitionid]';
const ASSIGNEE = '@request[microsoft.authorization/roleassignments:principalid]';
const CONTAINER_NAME = '@resource[microsoft.storage/storageaccounts/blobservices/containers:name]';

/** ADLS Gen2 data actions that set a path's ACL or its owner. https://learn.microsoft.com/azure/role-based-access-control/permissions/storage */
const ACL_ACTIONS = [
  'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/modifyPermissions/action',
  'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/manageOwnership/action',
];

/** How an assignment's condition was read, for the reason column. */
function conditionCaveat(condition: string | undefined): string {
  if (condition === undefined) return '';
  const read = readCondition(condition);
  return 'error' in read ? `; its condition could not be read (${read.error}): counted as holding` : '';
}

/** A role ID in no published data and no definition of the render: it counts as every action and data action. */
function unknownRole(guid: string): RoleDefinition {
  return {
    roleName: `role ${guid} (not in the published data or the render: counted as every action and data action)`,
    permissions: [{ actions: ['*'], notActions: [], dataActions: ['*'], notDataActions: [] }],
  };
}

function isDataRole(role: RoleDefinition): boolean {
  return role.permissions.some((p) =>
    p.dataActions.some(
      (d) => (DATA_ROLE_ACTION.test(d) || d === '*') && !p.notDataActions.some((n) => actionMatches(n, d)),
    ),
  );
}

/**
 * Key Vault access policies (the vault's `properties.accessPolicies`), which decide data-plane access to keys
 * when the vault does not use Azure RBAC (`enableRbacAuthorization` false): key permissions `unwrapKey` and
 * `decrypt` use the key, `update` can disable it, `delete` and `purge` destroy it.
 * https://learn.microsoft.com/azure/key-vault/general/assign-access-policy,
 * https://learn.microsoft.com/azure/key-vault/general/rbac-access-policy
 */
function accessPolicyGrants(
  resources: readonly RenderedResource[],
  principalId: string,
): { operation: Operation; reason: string }[] {
  const KEY_PERMISSIONS: Readonly<Record<string, Operation>> = {
    unwrapkey: 'use-key',
    decrypt: 'use-key',
    update: 'disable-key',
    delete: 'destroy-key',
    purge: 'destroy-key',
    all: 'destroy-key',
  };
  return resources.flatMap((r) => {
    if (r.type !== 'azure-native:keyvault:Vault') return [];
    const properties = r.inputs['properties'] as
      | {
          enableRbacAuthorization?: unknown;
          accessPolicies?: { objectId?: unknown; permissions?: { keys?: unknown } }[];
        }
      | undefined;
    if (properties?.enableRbacAuthorization === true) return [];
    return (properties?.accessPolicies ?? []).flatMap((policy) => {
      if (String(policy.objectId).toLowerCase() !== principalId.toLowerCase()) return [];
      const keys = Array.isArray(policy.permissions?.keys) ? (policy.permissions.keys as unknown[]) : [];
      return keys.flatMap((permission) => {
        const operations =
          String(permission).toLowerCase() === 'all'
            ? (['use-key', 'disable-key', 'destroy-key'] as const)
            : [KEY_PERMISSIONS[String(permission).toLowerCase()]].filter(
                (o): o is Operation => o !== undefined,
              );
        return operations.map((operation) => ({
          operation,
          reason: `key permission ${String(permission)} from an access policy of vault ${r.name}`,
        }));
      });
    });
  });
}

function resourceIds(store: AzureStore) {
  const rg = `/subscriptions/${store.subscription}/resourceGroups/${store.resourceGroup}`;
  const account = `${rg}/providers/Microsoft.Storage/storageAccounts/${store.account}`;
  const vault = store.vault ? `${rg}/providers/Microsoft.KeyVault/vaults/${store.vault}` : undefined;
  return {
    account,
    container: `${account}/blobServices/default/containers/${store.container}`,
    vault,
    key: vault && store.key ? `${vault}/keys/${store.key}` : undefined,
  };
}

/** The first subscription any input names, the render's before the bootstrap's. */
function subscriptionOf(all: readonly RenderedResource[]): string {
  return (
    /\/subscriptions\/([^/]+)\//.exec(JSON.stringify(all.map((r) => r.inputs)))?.[1] ?? 'unknown-subscription'
  );
}

function azureStore(resources: readonly RenderedResource[], subscription: string): AzureStore | undefined {
  const account = resources.find((r) => r.type === 'azure-native:storage:StorageAccount');
  const container = resources.find((r) => r.type === 'azure-native:storage:BlobContainer');
  if (!account || !container) return undefined;
  const vault = resources.find((r) => r.type === 'azure-native:keyvault:Vault');
  const key = resources.find((r) => r.type === 'azure-native:keyvault:Key');
  const group = stringInput(account, 'resourceGroupName') ?? '';
  const identities = resources
    .filter(
      (r) =>
        r.type === 'azure-native:authorization:RoleAssignment' &&
        /-(writer|reader|encryption)-(identity|key)$/.test(r.name),
    )
    .map((r) => {
      const label = /-(writer|reader|encryption)-(identity|key)$/.exec(r.name)?.[1] ?? r.name;
      const identity = resources.find(
        (i) => i.type === 'azure-native:managedidentity:UserAssignedIdentity' && i.name.endsWith(`-${label}`),
      );
      return {
        id: stringInput(r, 'principalId') ?? '',
        label,
        resource: `/subscriptions/${subscription}/resourceGroups/${group}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${identity ? (stringInput(identity, 'resourceName') ?? identity.name) : label}`,
      };
    });
  return {
    subscription,
    resourceGroup: group,
    account: stringInput(account, 'accountName') ?? account.name,
    container: stringInput(container, 'containerName') ?? container.name,
    allowSharedKeyAccess: account.inputs['allowSharedKeyAccess'] !== false,
    ...(vault
      ? { vault: stringInput(vault, 'vaultName') ?? stringInput(key ?? vault, 'vaultName') ?? vault.name }
      : {}),
    ...(key ? { key: stringInput(key, 'keyName') ?? key.name } : {}),
    identities,
  };
}

export function roleDefinitionsOf(resources: readonly RenderedResource[]): Map<string, RoleDefinition> {
  const roles = new Map<string, RoleDefinition>(Object.entries(BUILT_IN));
  for (const r of resources) {
    if (r.type !== 'azure-native:authorization:RoleDefinition') continue;
    const guid = stringInput(r, 'roleDefinitionId');
    if (!guid) continue;
    const permissions = ((r.inputs['permissions'] as Partial<Permission>[] | undefined) ?? []).map((p) => ({
      actions: p.actions ?? [],
      notActions: p.notActions ?? [],
      dataActions: p.dataActions ?? [],
      notDataActions: p.notDataActions ?? [],
    }));
    roles.set(guid.toLowerCase(), { roleName: stringInput(r, 'roleName') ?? r.name, permissions });
  }
  return roles;
}

export function assignmentsOf(resources: readonly RenderedResource[]): Assignment[] {
  return resources.flatMap((r): Assignment[] => {
    if (r.type !== 'azure-native:authorization:RoleAssignment') return [];
    const principalId = stringInput(r, 'principalId');
    const role = stringInput(r, 'roleDefinitionId');
    const scope = stringInput(r, 'scope');
    if (!principalId || !role || !scope) return [];
    const condition = stringInput(r, 'condition');
    return [
      { principalId, role, scope, ...(condition ? { condition } : {}), source: `RoleAssignment ${r.name}` },
    ];
  });
}

/** Owners and Contributors of the subscription, assigned outside this repository, inherit onto every store. */
function subscriptionDefaults(subscription: string): Assignment[] {
  const scope = `/subscriptions/${subscription}`;
  return [
    {
      principalId: 'subscription-owners',
      role: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635',
      scope,
      source: 'inherited from the subscription, assigned outside this repository',
    },
    {
      principalId: 'subscription-contributors',
      role: 'b24988ac-6180-42a0-ab88-20f7382dd24c',
      scope,
      source: 'inherited from the subscription, assigned outside this repository',
    },
  ];
}

/** The bootstrap's CI principals, by the purpose its assignments' descriptions name (`CI deploy-prod of ...`). */
function ciPrincipalsOf(bootstrap: readonly RenderedResource[]): Map<string, Principal> {
  const principals = new Map<string, Principal>();
  for (const a of bootstrap) {
    if (a.type !== 'azure-native:authorization:RoleAssignment') continue;
    const purpose = /^CI (\S+) of /.exec(stringInput(a, 'description') ?? '')?.[1];
    const id = stringInput(a, 'principalId');
    if (!purpose || !id) continue;
    const environment = /^deploy-(.+)$/.exec(purpose)?.[1];
    principals.set(
      id,
      environment
        ? { id, label: `ci ${purpose}`, kind: 'ci-deploy', environment }
        : { id, label: `ci ${purpose}`, kind: 'ci-preview' },
    );
  }
  return principals;
}

/**
 * The identities of the bootstrap's Backup vaults, by the description of their role on an account they back up
 * (`Backup vault <name> backs up store <store>`): shown under the vault's name.
 */
function backupVaultPrincipalsOf(bootstrap: readonly RenderedResource[]): Map<string, Principal> {
  const principals = new Map<string, Principal>();
  for (const a of bootstrap) {
    if (a.type !== 'azure-native:authorization:RoleAssignment') continue;
    const vault = /^Backup vault (\S+) backs up /.exec(stringInput(a, 'description') ?? '')?.[1];
    const id = stringInput(a, 'principalId');
    if (vault && id) principals.set(id, { id, label: `backup vault ${vault}`, kind: 'declared' });
  }
  return principals;
}

/**
 * A store's principals, in this order: CI's (and the backup vaults' identities), the store's identities, the subscription's owners and
 * contributors, then the principals of `declared` (assignment order) not already listed.
 */
function storePrincipals(
  store: AzureStore,
  ciPrincipals: ReadonlyMap<string, Principal>,
  declared: readonly string[],
): Principal[] {
  const principals = new Map(ciPrincipals);
  for (const identity of store.identities)
    principals.set(identity.id, { id: identity.id, label: identity.label, kind: 'store-identity' });
  principals.set('subscription-owners', {
    id: 'subscription-owners',
    label: 'subscription owners',
    kind: 'cloud-default',
  });
  principals.set('subscription-contributors', {
    id: 'subscription-contributors',
    label: 'subscription contributors',
    kind: 'cloud-default',
  });
  for (const id of declared) {
    if (!principals.has(id)) principals.set(id, { id, label: id, kind: 'declared' });
  }
  return [...principals.values()];
}
