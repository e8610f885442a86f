import { checkpointWriterRoleGuid } from '@checkpoints/config';
import { type RenderedResource } from '@checkpoints/render';
import { analyzeAccess, type Operation } from '../../src';
import { renderOf, resource, STACK_ROOT, storeResource } from './fixtures';

/** The Azure model, one row per documented rule of Azure RBAC and Storage authorization. */
const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
const GROUP = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-prod`;
const ACCOUNT = `${GROUP}/providers/Microsoft.Storage/storageAccounts/ckptacct`;
const CI = '11111111-1111-4111-8111-111111111111';
const ROLE = (guid: string) =>
  `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
const READER = 'acdd72a7-3385-48ef-bd42-f606fba81ae7';
const CONTRIBUTOR = 'b24988ac-6180-42a0-ab88-20f7382dd24c';
const BLOB_READER = '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1';
const RBAC_ADMIN = 'f58310d9-a9f6-439a-9e8d-f62e7b41a168';
const MANAGED_IDENTITY_CONTRIBUTOR = 'e40ec5ca-96e0-45a2-b4ff-59039f2c2b59';
const BLOB_CONTRIBUTOR = 'ba92f5b4-2d11-453d-a403-e96b0029c9fe';
const WRITER = checkpointWriterRoleGuid(SUBSCRIPTION);
const FILESYSTEM = `${ACCOUNT}/blobServices/default/containers/checkpoints`;
const VAULT = `${GROUP}/providers/Microsoft.KeyVault/vaults/ckptvault`;
const DELETER = '44444444-4444-4444-8444-444444444444';
const LOCKS_SOURCE = 'https://learn.microsoft.com/azure/azure-resource-manager/management/lock-resources';
const CONTAINER_WORM =
  'https://learn.microsoft.com/azure/storage/blobs/immutable-container-level-worm-policies';
const deleter = (...actions: string[]) => ({ guid: DELETER, actions, dataActions: [], notDataActions: [] });
const BLOB_CONTRIBUTOR_SOURCE =
  'https://learn.microsoft.com/en-us/azure/role-based-access-control/built-in-roles/storage#storage-blob-data-contributor';
const ONLY_BLOB_READER = `((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'})) OR (@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${BLOB_READER}}))`;
const NOT_CI = `((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'})) OR (@Request[Microsoft.Authorization/roleAssignments:PrincipalId] ForAnyOfAllValues:GuidNotEquals {${CI}}))`;

interface Row {
  rule: string;
  source: string;
  assignments: { role: string; scope: string; condition?: string }[];
  customRole?: { guid: string; actions?: string[]; dataActions: string[]; notDataActions: string[] };
  /** A management lock in the store's render. */
  lock?: { scope: string; level: string };
  /** The store keeps its key in a vault of its own (customer-managed encryption). */
  vault?: boolean;
  /** Days of a time-based immutability policy on the filesystem (the retention lock). */
  retentionLockDays?: number;
  operation: Operation;
  expected: boolean;
}

const BOTH = `${ONLY_BLOB_READER} AND ${NOT_CI}`;
const KEY_OPERATOR = '81a9662b-bebf-436f-a333-f67b29880f12';

const rows: Row[] = [
  {
    rule: 'a condition that refuses both other roles and itself keeps it from assigning itself a data role',
    source: 'https://learn.microsoft.com/azure/role-based-access-control/delegate-role-assignments-examples',
    assignments: [{ role: RBAC_ADMIN, scope: GROUP, condition: BOTH }],
    operation: 'self-grant',
    expected: false,
  },
  {
    rule: 'the same condition with its AND turned into OR no longer does: it is evaluated, not matched as text',
    source: 'https://learn.microsoft.com/azure/role-based-access-control/conditions-format#logical-operators',
    assignments: [{ role: RBAC_ADMIN, scope: GROUP, condition: BOTH.replace(') AND (', ') OR (') }],
    operation: 'self-grant',
    expected: true,
  },
  {
    rule: 'a condition the grammar cannot read counts as holding',
    source: 'fail closed: https://learn.microsoft.com/azure/role-based-access-control/conditions-format',
    assignments: [{ role: RBAC_ADMIN, scope: GROUP, condition: `${NOT_CI} XOR (true)` }],
    operation: 'self-grant',
    expected: true,
  },
  {
    rule: 'a role ID in no published data and no definition of the render counts as every action and data action',
    source: 'fail closed: https://learn.microsoft.com/azure/role-based-access-control/role-definitions',
    assignments: [{ role: '99999999-9999-4999-8999-999999999999', scope: GROUP }],
    operation: 'read',
    expected: true,
  },
  {
    rule: 'a built-in role outside the roles the code assigns is read from the published data: listing account keys',
    source:
      'https://learn.microsoft.com/azure/role-based-access-control/built-in-roles/storage#storage-account-key-operator-service-role',
    assignments: [
      { role: KEY_OPERATOR, scope: GROUP },
      { role: DELETER, scope: GROUP },
    ],
    customRole: { ...deleter('Microsoft.Storage/storageAccounts/write') },
    operation: 'read',
    expected: true,
  },
  {
    rule: 'setting POSIX ACLs (modifyPermissions) lets a principal give itself data access',
    source: 'https://learn.microsoft.com/azure/storage/blobs/data-lake-storage-access-control-model',
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: {
      guid: DELETER,
      dataActions: [
        'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/modifyPermissions/action',
      ],
      notDataActions: [],
    },
    operation: 'self-grant',
    expected: true,
  },
  {
    rule: 'and so does taking ownership of a path (manageOwnership)',
    source:
      'https://learn.microsoft.com/azure/storage/blobs/data-lake-storage-access-control#the-owning-user',
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: {
      guid: DELETER,
      dataActions: ['Microsoft.Storage/storageAccounts/blobServices/containers/blobs/manageOwnership/action'],
      notDataActions: [],
    },
    operation: 'change-access',
    expected: true,
  },
  {
    rule: "a condition on the container's name keeps a data role off another container",
    source: 'https://learn.microsoft.com/azure/storage/blobs/storage-auth-abac-examples',
    assignments: [
      {
        role: BLOB_READER,
        scope: GROUP,
        condition:
          "((!(ActionMatches{'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'})) OR (@Resource[Microsoft.Storage/storageAccounts/blobServices/containers:name] StringEquals 'other'))",
      },
    ],
    operation: 'read',
    expected: false,
  },
  {
    rule: 'a role assigned on the resource group applies to the containers below it',
    source: 'https://learn.microsoft.com/en-us/azure/role-based-access-control/scope-overview',
    assignments: [{ role: BLOB_READER, scope: GROUP }],
    operation: 'read',
    expected: true,
  },
  {
    rule: 'Reader holds control-plane reads only: no data action',
    source: 'https://learn.microsoft.com/en-us/azure/role-based-access-control/built-in-roles/general#reader',
    assignments: [{ role: READER, scope: GROUP }],
    operation: 'read',
    expected: false,
  },
  {
    rule: 'notDataActions take a data action out of the role',
    source:
      'https://learn.microsoft.com/en-us/azure/role-based-access-control/role-definitions#notdataactions',
    assignments: [{ role: '33333333-3333-4333-8333-333333333333', scope: GROUP }],
    customRole: {
      guid: '33333333-3333-4333-8333-333333333333',
      dataActions: ['Microsoft.Storage/storageAccounts/blobServices/containers/blobs/*'],
      notDataActions: ['Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read'],
    },
    operation: 'read',
    expected: false,
  },
  {
    rule: 'Contributor reads the data through account keys, which it may list and may turn shared key access back on for',
    source: 'https://learn.microsoft.com/en-us/azure/storage/common/shared-key-authorization-prevent',
    assignments: [{ role: CONTRIBUTOR, scope: GROUP }],
    operation: 'read',
    expected: true,
  },
  {
    rule: 'an unconditioned Role Based Access Control Administrator can assign itself a data role',
    source:
      'https://learn.microsoft.com/en-us/azure/role-based-access-control/built-in-roles/privileged#role-based-access-control-administrator',
    assignments: [{ role: RBAC_ADMIN, scope: GROUP, condition: ONLY_BLOB_READER }],
    operation: 'self-grant',
    expected: true,
  },
  {
    rule: 'a condition that refuses its own principal as assignee stops it',
    source:
      'https://learn.microsoft.com/en-us/azure/role-based-access-control/delegate-role-assignments-examples',
    assignments: [{ role: RBAC_ADMIN, scope: GROUP, condition: `${NOT_CI} AND ${ONLY_BLOB_READER}` }],
    operation: 'self-grant',
    expected: false,
  },
  {
    rule: 'Managed Identity Contributor adds federated credentials to the store identities',
    source:
      'https://learn.microsoft.com/en-us/azure/role-based-access-control/built-in-roles/identity#managed-identity-contributor',
    assignments: [{ role: MANAGED_IDENTITY_CONTRIBUTOR, scope: GROUP }],
    operation: 'add-credentials',
    expected: true,
  },
  {
    rule: 'Storage Blob Data Contributor holds containers/delete: on the filesystem it deletes the filesystem',
    source: BLOB_CONTRIBUTOR_SOURCE,
    assignments: [{ role: BLOB_CONTRIBUTOR, scope: FILESYSTEM }],
    operation: 'delete-store',
    expected: true,
  },
  ...(['read', 'write', 'delete'] as const).map((operation) => ({
    rule: `the writer role keeps the data actions of Storage Blob Data Contributor: ${operation} blobs`,
    source: BLOB_CONTRIBUTOR_SOURCE,
    assignments: [{ role: WRITER, scope: FILESYSTEM }],
    operation,
    expected: true,
  })),
  ...(['delete-store', 'open-session'] as const).map((operation) => ({
    rule: `the writer role keeps containers/read alone of its actions: no ${operation} (containers/delete, generateUserDelegationKey)`,
    source: BLOB_CONTRIBUTOR_SOURCE,
    assignments: [{ role: WRITER, scope: FILESYSTEM }],
    operation,
    expected: false,
  })),
  {
    rule: 'without a lock, storageAccounts/delete deletes the account',
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.Storage/storageAccounts/delete'),
    operation: 'delete-store',
    expected: true,
  },
  {
    rule: 'a CanNotDelete lock on the account refuses its deletion, whatever role the caller holds',
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.Storage/storageAccounts/delete'),
    lock: { scope: ACCOUNT, level: 'CanNotDelete' },
    operation: 'delete-store',
    expected: false,
  },
  {
    rule: 'a ReadOnly lock on the resource group is inherited by the account below it',
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.Storage/storageAccounts/delete'),
    lock: { scope: GROUP, level: 'ReadOnly' },
    operation: 'delete-store',
    expected: false,
  },
  {
    rule: 'whoever may remove the lock (locks/delete) can still delete the account',
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.Storage/storageAccounts/delete', 'Microsoft.Authorization/locks/delete'),
    lock: { scope: ACCOUNT, level: 'CanNotDelete' },
    operation: 'delete-store',
    expected: true,
  },
  {
    rule: "without a lock, vaults/delete deletes the store's vault and the key in it",
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.KeyVault/vaults/delete'),
    vault: true,
    operation: 'destroy-key',
    expected: true,
  },
  {
    rule: 'a CanNotDelete lock on the vault refuses its deletion, whatever role the caller holds',
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.KeyVault/vaults/delete'),
    vault: true,
    lock: { scope: VAULT, level: 'CanNotDelete' },
    operation: 'destroy-key',
    expected: false,
  },
  {
    rule: 'whoever may remove the lock (locks/delete) can still delete the vault',
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.KeyVault/vaults/delete', 'Microsoft.Authorization/locks/delete'),
    vault: true,
    lock: { scope: VAULT, level: 'CanNotDelete' },
    operation: 'destroy-key',
    expected: true,
  },
  {
    rule: 'a lock on the account does not guard the vault',
    source: LOCKS_SOURCE,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.KeyVault/vaults/delete'),
    vault: true,
    lock: { scope: ACCOUNT, level: 'CanNotDelete' },
    operation: 'destroy-key',
    expected: true,
  },
  {
    rule: 'a lock on the account does not protect its containers from deletion',
    source: 'https://learn.microsoft.com/azure/storage/common/lock-account-resource',
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.Storage/storageAccounts/blobServices/containers/delete'),
    lock: { scope: ACCOUNT, level: 'CanNotDelete' },
    operation: 'delete-store',
    expected: true,
  },
  {
    rule: 'a container with a container-level WORM policy must be empty before it can be deleted, and its blobs cannot be deleted under the policy',
    source: `${CONTAINER_WORM}#deletion`,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.Storage/storageAccounts/blobServices/containers/delete'),
    retentionLockDays: 365,
    operation: 'delete-store',
    expected: false,
  },
  {
    rule: 'whoever may delete the unlocked policy (immutabilityPolicies/delete) can then delete the filesystem',
    source: 'https://learn.microsoft.com/azure/storage/blobs/immutable-time-based-retention-policy-overview',
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter(
      'Microsoft.Storage/storageAccounts/blobServices/containers/delete',
      'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/delete',
    ),
    retentionLockDays: 365,
    operation: 'delete-store',
    expected: true,
  },
  {
    rule: 'an unlocked policy does not protect the account from deletion',
    source: CONTAINER_WORM,
    assignments: [{ role: DELETER, scope: GROUP }],
    customRole: deleter('Microsoft.Storage/storageAccounts/delete'),
    retentionLockDays: 365,
    operation: 'delete-store',
    expected: true,
  },
];

function renders(row: Row) {
  const store = renderOf({ type: 'checkpoints:azure:CheckpointStore' }, [
    resource('azure-native:storage:StorageAccount', 'ckpt', {
      accountName: 'ckptacct',
      resourceGroupName: 'rg-prod',
      allowSharedKeyAccess: false,
      tags: { environment: 'prod' },
    }),
    resource('azure-native:storage:BlobContainer', 'ckpt', {
      accountName: 'ckptacct',
      containerName: 'checkpoints',
      resourceGroupName: 'rg-prod',
    }),
    resource('azure-native:managedidentity:UserAssignedIdentity', 'ckpt-writer', {
      resourceName: 'ckpt-writer',
      resourceGroupName: 'rg-prod',
    }),
    ...(row.vault
      ? [
          resource('azure-native:keyvault:Vault', 'ckpt', {
            vaultName: 'ckptvault',
            resourceGroupName: 'rg-prod',
          }),
        ]
      : []),
    ...(row.lock
      ? [
          resource('azure-native:authorization:ManagementLockByScope', 'ckpt-lock', {
            scope: row.lock.scope,
            level: row.lock.level,
            lockName: 'checkpoints-do-not-delete',
          }),
        ]
      : []),
    ...(row.retentionLockDays
      ? [
          resource('azure-native:storage:BlobContainerImmutabilityPolicy', 'ckpt', {
            accountName: 'ckptacct',
            containerName: 'checkpoints',
            resourceGroupName: 'rg-prod',
            immutabilityPolicyName: 'default',
            immutabilityPeriodSinceCreationInDays: row.retentionLockDays,
          }),
        ]
      : []),
    resource('azure-native:authorization:RoleAssignment', 'ckpt-writer-identity', {
      principalId: '22222222-2222-4222-8222-222222222222',
      roleDefinitionId: ROLE('ba92f5b4-2d11-453d-a403-e96b0029c9fe'),
      scope: `${ACCOUNT}/blobServices/default/containers/checkpoints`,
    }),
  ]);
  const bootstrap = renderOf({ type: 'checkpoints:bootstrap:AzureCiIdentities', name: 'azure' }, [
    ...(row.customRole
      ? [
          resource('azure-native:authorization:RoleDefinition', 'custom', {
            roleDefinitionId: row.customRole.guid,
            roleName: 'custom',
            permissions: [
              {
                actions: row.customRole.actions ?? [],
                dataActions: row.customRole.dataActions,
                notDataActions: row.customRole.notDataActions,
              },
            ],
          }),
        ]
      : []),
    ...row.assignments.map((a, index) =>
      resource('azure-native:authorization:RoleAssignment', `deploy-prod-${index}`, {
        principalId: CI,
        description: 'CI deploy-prod of acme/checkpoint-storage',
        roleDefinitionId: ROLE(a.role),
        scope: a.scope,
        ...(a.condition ? { condition: a.condition } : {}),
      }),
    ),
  ]);
  return [store, bootstrap] as const;
}

describe('Azure effective access', () => {
  it.each(rows.map((row) => [row.rule, row] as const))('%s', async (_rule, row) => {
    const [store] = (await analyzeAccess(...renders(row))).stores;
    const granted = store?.grants.some(
      (grant) => grant.principal.label === 'ci deploy-prod' && grant.operation === row.operation,
    );
    expect([row.source, granted]).toEqual([row.source, row.expected]);
  });
});

/** Store `name`'s component and resources in resource group `group`, parented as synth renders them. */
function azureStoreResources(name: string, group: string, principals: { writer: string; reader: string }) {
  const component = `urn:store:${name}`;
  const own = (type: string, suffix: string, inputs: Record<string, unknown>) =>
    storeResource(name, type, suffix, inputs);
  const groupId = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${group}`;
  const account = `${groupId}/providers/Microsoft.Storage/storageAccounts/${name}acct`;
  return [
    {
      urn: component,
      type: 'checkpoints:azure:CheckpointStore',
      name,
      parent: 'urn:stack',
      protect: false,
      retainOnDelete: false,
      dependsOn: [],
      inputs: {},
    },
    own('azure-native:storage:StorageAccount', 'account', {
      accountName: `${name}acct`,
      resourceGroupName: group,
      allowSharedKeyAccess: false,
    }),
    own('azure-native:storage:BlobContainer', 'container', {
      accountName: `${name}acct`,
      containerName: 'checkpoints',
      resourceGroupName: group,
    }),
    ...(['writer', 'reader'] as const).map((label) =>
      own('azure-native:authorization:RoleAssignment', `${label}-identity`, {
        principalId: principals[label],
        roleDefinitionId: ROLE(label === 'writer' ? BLOB_CONTRIBUTOR : BLOB_READER),
        scope: `${account}/blobServices/default/containers/checkpoints`,
      }),
    ),
    own('azure-native:authorization:ManagementLockByScope', 'group-lock', {
      scope: groupId,
      level: 'ReadOnly',
      lockName: 'group-read-only',
    }),
    own('azure-native:authorization:ManagementLockByScope', 'account-lock', {
      scope: account,
      level: 'CanNotDelete',
      lockName: 'account-do-not-delete',
    }),
  ];
}

describe('Azure effective access of a render with several stores', () => {
  const stack = STACK_ROOT;
  const first = azureStoreResources('first', 'rg-one', {
    writer: '51111111-1111-4111-8111-111111111111',
    reader: '51111111-1111-4111-8111-222222222222',
  });
  const second = azureStoreResources('second', 'rg-one', {
    writer: '52222222-2222-4222-8222-111111111111',
    reader: '52222222-2222-4222-8222-222222222222',
  });
  const third = azureStoreResources('third', 'rg-two', {
    writer: '53333333-3333-4333-8333-111111111111',
    reader: '53333333-3333-4333-8333-222222222222',
  });
  const groupReader = resource('azure-native:authorization:RoleAssignment', 'group-reader', {
    principalId: '54444444-4444-4444-8444-444444444444',
    roleDefinitionId: ROLE(BLOB_READER),
    scope: `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-one`,
  });
  const others = [
    {
      ...groupReader,
      urn: 'urn:group-reader',
      parent: null,
      protect: false,
      retainOnDelete: false,
      dependsOn: [],
    },
  ];
  const grantsOf = async (resources: RenderedResource[]) =>
    Object.fromEntries(
      (await analyzeAccess({ resources })).stores.map((store) => [
        store.store,
        store.grants.map((grant) => `${grant.principal.label} ${grant.operation}: ${grant.reason}`),
      ]),
    );

  it('gives each store the grants it has in a render of its own, other stores notwithstanding', async () => {
    const together = await grantsOf([stack, ...first, ...second, ...third, ...others]);
    const alone = {
      ...(await grantsOf([stack, ...first, ...others])),
      ...(await grantsOf([stack, ...second, ...others])),
      ...(await grantsOf([stack, ...third, ...others])),
    };
    expect(together).toEqual(alone);
  });

  it('lists a principal assigned on a resource group for every store of the group, and only those', async () => {
    const together = await grantsOf([stack, ...first, ...second, ...third, ...others]);
    const reads = (store: string) =>
      (together[store] ?? []).filter((grant) =>
        grant.startsWith('54444444-4444-4444-8444-444444444444 read:'),
      );
    expect([reads('first').length, reads('second').length, reads('third').length]).toEqual([1, 1, 0]);
  });

  it("refuses the account's deletion by the first lock of the render whose scope holds it", async () => {
    const together = await grantsOf([stack, ...first, ...second, ...third, ...others]);
    const deletes = (together['second'] ?? []).filter(
      (grant) =>
        grant.startsWith('subscription owners delete-store:') && grant.includes('/storageAccounts/delete'),
    );
    expect(deletes).toEqual([
      expect.stringContaining(
        `once it removes the ReadOnly lock /subscriptions/${SUBSCRIPTION}/resourceGroups/rg-one/providers/Microsoft.Authorization/locks/group-read-only`,
      ),
    ]);
  });
});
