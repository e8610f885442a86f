import { type RenderedResource } from '@checkpoints/render';
import { AZURE_RESOURCE_PROVIDERS } from '@checkpoints/render';
import { AZURE_RIGHTS, azureResourceProviderOf, goDurationSeconds, missingDeployRights } from '../../src';
import { renderOf, resource } from '../access/fixtures';

/**
 * The deploy-rights check, one row per documented rule it rests on: which operations Pulumi performs,
 * where a grant applies, and the linked authorizations.
 */
const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
const GROUP = (environment: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-${environment}`;
const CUSTOM = '55555555-5555-4555-8555-555555555555';
const READER = 'acdd72a7-3385-48ef-bd42-f606fba81ae7';
const SUBNET = `/subscriptions/${SUBSCRIPTION}/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/training/subnets/gpu`;
const IDENTITY = `${GROUP('prod')}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/ckpt-encryption`;
const ACCOUNT_ACTIONS = [
  'Microsoft.Storage/storageAccounts/write',
  'Microsoft.Storage/storageAccounts/read',
  'Microsoft.Storage/storageAccounts/delete',
  'Microsoft.ManagedIdentity/userAssignedIdentities/assign/action',
];

interface Row {
  rule: string;
  source: string;
  account?: Partial<RenderedResource>;
  deploy: { actions: string[]; scope: string; environment: string };
  missing: string[];
}

const rows: Row[] = [
  {
    rule: 'a deploy identity with every right of the account, the identity it attaches included, lacks nothing',
    source: 'https://learn.microsoft.com/en-us/azure/role-based-access-control/permissions/storage',
    deploy: { actions: ACCOUNT_ACTIONS, scope: GROUP('prod'), environment: 'prod' },
    missing: [],
  },
  {
    rule: 'attaching a user-assigned identity needs assign/action on it (a linked authorization)',
    source:
      'https://learn.microsoft.com/en-us/entra/identity/managed-identities-azure-resources/how-manage-user-assigned-managed-identities',
    deploy: { actions: ACCOUNT_ACTIONS.slice(0, 3), scope: GROUP('prod'), environment: 'prod' },
    missing: [
      `create Microsoft.ManagedIdentity/userAssignedIdentities/assign/action on ${IDENTITY}`,
      `update Microsoft.ManagedIdentity/userAssignedIdentities/assign/action on ${IDENTITY}`,
    ],
  },
  {
    rule: 'Pulumi never deletes a protected resource, so its deletion right is not needed',
    source: 'https://www.pulumi.com/docs/iac/concepts/options/protect/',
    account: { protect: true },
    deploy: {
      actions: ACCOUNT_ACTIONS.filter((a) => !a.endsWith('/delete')),
      scope: GROUP('prod'),
      environment: 'prod',
    },
    missing: [],
  },
  {
    rule: 'an unprotected one needs it',
    source: 'https://learn.microsoft.com/en-us/azure/role-based-access-control/permissions/storage',
    deploy: {
      actions: ACCOUNT_ACTIONS.filter((a) => !a.endsWith('/delete')),
      scope: GROUP('prod'),
      environment: 'prod',
    },
    missing: [
      `delete Microsoft.Storage/storageAccounts/delete on ${GROUP('prod')}/providers/Microsoft.Storage/storageAccounts/ckptacct`,
    ],
  },
  {
    rule: "rights on another environment's resource group do not reach this one",
    source: 'https://learn.microsoft.com/en-us/azure/role-based-access-control/scope-overview',
    deploy: { actions: ACCOUNT_ACTIONS, scope: GROUP('dev'), environment: 'prod' },
    missing: [
      `create Microsoft.Storage/storageAccounts/write on ${GROUP('prod')}/providers/Microsoft.Storage/storageAccounts/ckptacct`,
      `update Microsoft.Storage/storageAccounts/write on ${GROUP('prod')}/providers/Microsoft.Storage/storageAccounts/ckptacct`,
      `delete Microsoft.Storage/storageAccounts/delete on ${GROUP('prod')}/providers/Microsoft.Storage/storageAccounts/ckptacct`,
      `read Microsoft.Storage/storageAccounts/read on ${GROUP('prod')}/providers/Microsoft.Storage/storageAccounts/ckptacct`,
      `create Microsoft.ManagedIdentity/userAssignedIdentities/assign/action on ${IDENTITY}`,
      `update Microsoft.ManagedIdentity/userAssignedIdentities/assign/action on ${IDENTITY}`,
    ],
  },
  {
    rule: 'a virtual network rule needs joinViaServiceEndpoint/action on its subnet (a linked authorization)',
    source:
      'https://learn.microsoft.com/azure/storage/common/storage-network-security-virtual-networks#required-permissions',
    account: {
      inputs: {
        accountName: 'ckptacct',
        resourceGroupName: 'rg-prod',
        networkRuleSet: {
          defaultAction: 'Deny',
          virtualNetworkRules: [{ virtualNetworkResourceId: SUBNET }],
        },
      },
    },
    deploy: { actions: ACCOUNT_ACTIONS, scope: GROUP('prod'), environment: 'prod' },
    missing: [
      `create Microsoft.Network/virtualNetworks/subnets/joinViaServiceEndpoint/action on ${SUBNET}`,
      `update Microsoft.Network/virtualNetworks/subnets/joinViaServiceEndpoint/action on ${SUBNET}`,
    ],
  },
  {
    rule: 'the join granted at a scope above the subnet covers it',
    source: 'https://learn.microsoft.com/en-us/azure/role-based-access-control/scope-overview',
    account: {
      inputs: {
        accountName: 'ckptacct',
        resourceGroupName: 'rg-prod',
        networkRuleSet: {
          defaultAction: 'Deny',
          virtualNetworkRules: [{ virtualNetworkResourceId: SUBNET }],
        },
      },
    },
    deploy: {
      actions: [
        ...ACCOUNT_ACTIONS,
        'Microsoft.Network/virtualNetworks/subnets/joinViaServiceEndpoint/action',
      ],
      scope: `/subscriptions/${SUBSCRIPTION}`,
      environment: 'prod',
    },
    missing: [],
  },
];

function renders(row: Row) {
  const store = renderOf({ type: 'checkpoints:azure:CheckpointStore' }, [
    {
      ...resource('azure-native:storage:StorageAccount', 'ckpt', {
        accountName: 'ckptacct',
        resourceGroupName: 'rg-prod',
        tags: { environment: 'prod' },
        identity: { type: 'UserAssigned', userAssignedIdentities: [IDENTITY] },
        encryption: { encryptionIdentity: { encryptionUserAssignedIdentity: IDENTITY } },
      }),
    },
  ]);
  if (row.account) Object.assign(store.resources[2]!, row.account);
  const assignment = (purpose: string, principalId: string, role: string, scope: string) =>
    resource('azure-native:authorization:RoleAssignment', `${purpose}-assignment`, {
      principalId,
      description: `CI ${purpose} of acme/checkpoint-storage`,
      roleDefinitionId: `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${role}`,
      scope,
    });
  const bootstrap = renderOf({ type: 'checkpoints:bootstrap:AzureCiIdentities', name: 'azure' }, [
    resource('azure-native:authorization:RoleDefinition', 'deploy-role', {
      roleDefinitionId: CUSTOM,
      roleName: 'deploy',
      permissions: [{ actions: row.deploy.actions }],
    }),
    assignment(
      `deploy-${row.deploy.environment}`,
      '10000000-0000-4000-8000-000000000003',
      CUSTOM,
      row.deploy.scope,
    ),
    assignment('preview', '10000000-0000-4000-8000-000000000001', READER, GROUP('prod')),
    // The subscription registered for every provider the stack uses, as the bootstrap registers them.
    ...AZURE_RESOURCE_PROVIDERS.map((namespace) =>
      resource('pulumi-nodejs:dynamic:Resource', `provider-${namespace}`, {
        namespace,
        subscriptionId: SUBSCRIPTION,
      }),
    ),
  ]);
  return [store, bootstrap] as const;
}

describe('deploy rights (Azure)', () => {
  it.each(rows.map((row) => [row.rule, row] as const))('%s', async (_rule, row) => {
    const [store, bootstrap] = renders(row);
    const missing = await missingDeployRights('azure', store, bootstrap, 'prod');
    expect([row.source, missing.map((m) => `${m.operation} ${m.permission} on ${m.on}`)]).toEqual([
      row.source,
      row.missing,
    ]);
    expect(
      missing.every(
        (m) => m.identity === 'ci deploy-prod' && m.resource === 'azure-native:storage:StorageAccount ckpt',
      ),
    ).toBe(true);
  });
});

describe('resource providers (Azure)', () => {
  it("every azure-native type of the rights table has its module's provider, and its operations agree", () => {
    const types = Object.keys(AZURE_RIGHTS).filter((type) => type.startsWith('azure-native:'));
    expect(types.filter((type) => azureResourceProviderOf(type) === undefined)).toEqual([]);
  });

  it('a type whose module the provider map does not know counts as unregistered', () => {
    expect(azureResourceProviderOf('azure-native:compute:VirtualMachine')).toBeUndefined();
  });
});

describe('the key role a customer-key account demands (Azure)', () => {
  it('reads the time provider durations it is given', () => {
    expect(['10m', '600s', '1h', '9m59s', '10m0.5s', 'ten'].map(goDurationSeconds)).toEqual([
      600,
      600,
      3600,
      599,
      600.5,
      undefined,
    ]);
  });

  it('an account encrypting through its system-assigned identity fails: its role cannot be in effect on creation', async () => {
    const [store, bootstrap] = renders(rows[0]!);
    const account = store.resources.find((r) => r.type === 'azure-native:storage:StorageAccount')!;
    account.inputs['identity'] = { type: 'SystemAssigned' };
    account.inputs['encryption'] = {
      keySource: 'Microsoft.Keyvault',
      keyVaultProperties: { keyName: 'k', keyVaultUri: 'https://vault-1.vault.azure.net/' },
    };
    const unmet = (await missingDeployRights('azure', store, bootstrap, 'prod')).filter((m) => m.unmet);
    expect(unmet.map((m) => m.unmet)).toEqual([
      expect.stringContaining('through its system-assigned identity'),
    ]);
  });
});
