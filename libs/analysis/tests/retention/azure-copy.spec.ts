import { azureIndependentCopyOf } from '../../src';
import { rendered } from './bill-fixtures';

/** The copy model on Azure: what the bootstrap's Backup vault, policy, instance and role keep of a store's account. */
const GROUP = '/subscriptions/s/resourceGroups/rg-checkpoints-prod';
const ACCOUNT = {
  id: `${GROUP}/providers/Microsoft.Storage/storageAccounts/prodllm`,
  filesystem: 'fs',
  resourceGroup: GROUP,
};
const BACKUP = 'Microsoft.Storage/storageAccounts/adlsBlobServices';

function bootstrap(duration = 'P30D', security: Record<string, unknown> = {}) {
  const vault = rendered('vault', 'azure-native:dataprotection:BackupVault', null, {
    vaultName: 'v',
    resourceGroupName: 'rg-backup',
    properties: {
      securitySettings: {
        immutabilitySettings: { state: 'Unlocked' },
        softDeleteSettings: { state: 'AlwaysOn' },
        ...security,
      },
    },
  });
  const vaultStore = { dataStoreType: 'VaultStore', objectType: 'DataStoreInfoBase' };
  return [
    vault,
    rendered('policy', 'azure-native:dataprotection:BackupPolicy', null, {
      vaultName: 'v',
      backupPolicyName: 'daily',
      properties: {
        datasourceTypes: [BACKUP],
        policyRules: [
          {
            objectType: 'AzureRetentionRule',
            isDefault: true,
            lifecycles: [{ deleteAfter: { duration }, sourceDataStore: vaultStore }],
          },
          {
            objectType: 'AzureBackupRule',
            dataStore: vaultStore,
            trigger: { schedule: { repeatingTimeIntervals: ['R/2026-01-01T02:00:00+00:00/P1D'] } },
          },
        ],
      },
    }),
    rendered('instance', 'azure-native:dataprotection:BackupInstance', null, {
      vaultName: 'v',
      resourceGroupName: 'rg-backup',
      backupInstanceName: 'prodllm',
      properties: {
        dataSourceInfo: { datasourceType: BACKUP, resourceID: ACCOUNT.id },
        policyInfo: {
          policyId:
            '/subscriptions/s/resourceGroups/rg-backup/providers/Microsoft.DataProtection/backupVaults/v/backupPolicies/daily',
          policyParameters: { backupDatasourceParametersList: [{ containersList: ['fs'] }] },
        },
      },
    }),
    {
      ...rendered('grant', 'azure-native:authorization:RoleAssignment', null, {
        scope: ACCOUNT.id,
        principalId: 'vault-principal',
        roleDefinitionId:
          '/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/e5e2a7ff-d759-4cd2-bb51-3152d37e2eb1',
      }),
      propertyDependencies: { principalId: [vault.urn] },
    },
  ];
}

describe('azureIndependentCopyOf', () => {
  it('reads the vault, its retention and its identity; holds nothing broken', () => {
    const copy = azureIndependentCopyOf(ACCOUNT, bootstrap(), 30);
    expect(copy).toMatchObject({
      vault: 'v',
      retentionDays: 30,
      immutability: 'Unlocked',
      vaultPrincipal: 'vault-principal',
    });
    expect(copy?.broken).toBeUndefined();
  });

  it.each([
    ['P4W', 28],
    // Months and years at their shortest: never more than Azure keeps.
    ['P2M', 56],
    ['P1Y', 365],
    // A duration it cannot read keeps nothing.
    ['P1DT12H', 0],
  ])('reads the retention %s as %i days', (duration, days) => {
    expect(azureIndependentCopyOf(ACCOUNT, bootstrap(duration), 0)?.retentionDays).toBe(days);
  });

  it('a retention it cannot read breaks a promised copy (fail closed)', () => {
    expect(azureIndependentCopyOf(ACCOUNT, bootstrap('P1DT12H'), 7)?.broken).toMatch(
      /keeps a recovery point 0 days, less than the 7 the spec promises/,
    );
  });

  it('a vault without security settings is neither immutable nor soft-deleting (fail closed)', () => {
    const broken = azureIndependentCopyOf(
      ACCOUNT,
      bootstrap('P30D', { immutabilitySettings: undefined }),
      30,
    );
    expect(broken?.broken).toMatch(/is not immutable \(immutability Disabled\)/);
  });

  it('no instance of the account: no copy', () => {
    expect(
      azureIndependentCopyOf(
        { ...ACCOUNT, id: `${GROUP}/providers/Microsoft.Storage/storageAccounts/other` },
        bootstrap(),
        30,
      ),
    ).toBeUndefined();
  });
});
