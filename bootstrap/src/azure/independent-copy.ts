import type * as pulumi from '@pulumi/pulumi';
import { ManagementLockByScope } from '@pulumi/azure-native/authorization/managementLockByScope';
import { RoleAssignment } from '@pulumi/azure-native/authorization/roleAssignment';
import { BackupInstance } from '@pulumi/azure-native/dataprotection/backupInstance';
import { BackupPolicy } from '@pulumi/azure-native/dataprotection/backupPolicy';
import { BackupVault } from '@pulumi/azure-native/dataprotection/backupVault';
import { ResourceGroup } from '@pulumi/azure-native/resources/resourceGroup';
import { azureBackup, names } from '@checkpoints/naming';
import type { Environment } from '@checkpoints/config';
import type { AzureIndependentCopies, AzureSettings } from '../config';
import { STACK_PROJECTS } from '../names';
import { resourceGroupId, roleAssignmentName, roleDefinitionId } from './roles';

/**
 * The datasource type of an ADLS Gen2 account's vaulted backup, in the policy and in each backup instance (Azure's
 * own template for it: `var dataSourceType = 'Microsoft.Storage/storageAccounts/adlsBlobServices'`,
 * https://github.com/Azure/azure-quickstart-templates/blob/master/quickstarts/microsoft.dataprotection/backup-create-adls-storage-account-enable-protection/main.bicep).
 */
export const ADLS_DATASOURCE_TYPE = 'Microsoft.Storage/storageAccounts/adlsBlobServices';

/**
 * Days a deleted backup instance's recovery points stay recoverable: soft delete's default, at no cost ("retained
 * for 14 additional days", "The retention range value is between 14 days to 180 days",
 * https://learn.microsoft.com/azure/backup/backup-azure-enhanced-soft-delete-about).
 */
export const BACKUP_SOFT_DELETE_DAYS = 14;

/**
 * The environment's independent copies on Azure (`recovery.independentCopy`): a Backup vault that holds a daily
 * vaulted backup of each listed store's account, Azure Backup's vaulted backup for ADLS (a limited preview,
 * https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-overview).
 *
 * - In a resource group of its own, not the stack's: CI's deploy identities hold roles on their stacks' groups
 *   (and the audit archive's), none here, so no CI identity can delete the vault, an instance or a policy, change
 *   the vault's immutability or soft delete, or restore from it (a restore to an account of its choosing is a
 *   read path to the data).
 * - Immutable (https://learn.microsoft.com/azure/backup/backup-azure-immutable-vault-concept): on a Backup vault
 *   "A protected item can't have its recovery points deleted before their respective expiry date", so stopping
 *   protection with delete data is refused. Created Unlocked, as the audit archive's policy is: "immutability
 *   locking is irreversible" (same page), so locking it is the administrator's step (docs/azure.md). Unlocked, the
 *   setting is turned off by a vault write, which no CI identity holds; the analyses count whoever holds it as
 *   lifting the copy.
 * - Soft delete always on: "Once opted, you can't disable the soft delete settings for the vault"
 *   (https://learn.microsoft.com/azure/backup/backup-azure-enhanced-soft-delete-about).
 * - Zone-redundant vault storage ("Vault redundancy: LRS/ZRS/GRS",
 *   https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-support-matrix), as the stores are.
 * - A system-assigned identity: "Only System-Assigned Managed Identity (SAMI) works, because the vault needs to
 *   access the storage account" (same matrix), given Storage Account Backup Contributor on each account.
 * - In the bootstrap's location, the stacks' own: "ensure you have a Backup Vault in the same region"
 *   (https://learn.microsoft.com/azure/backup/azure-data-lake-storage-configure-backup).
 *
 * The accounts exist before their instances: deploy the stack, then run the bootstrap (docs/bootstrap.md).
 */
export function createIndependentCopies(
  settings: AzureSettings,
  environment: Environment,
  copies: AzureIndependentCopies,
  tags: Record<string, string>,
  parent: pulumi.Resource,
  /** The subscription's registration for Microsoft.DataProtection, which a Backup vault needs first (./resource-providers). */
  registration: pulumi.Resource | undefined,
): BackupVault {
  const opts = { parent, protect: true, retainOnDelete: true };
  const group = new ResourceGroup(
    `backup-${environment}`,
    { resourceGroupName: azureBackup.resourceGroup(environment), location: settings.location, tags },
    opts,
  );
  const vault = new BackupVault(
    `backup-vault-${environment}`,
    {
      resourceGroupName: group.name,
      vaultName: azureBackup.vault(settings.subscriptionId, environment),
      location: settings.location,
      identity: { type: 'SystemAssigned' },
      properties: {
        storageSettings: [{ datastoreType: 'VaultStore', type: 'ZoneRedundant' }],
        securitySettings: {
          immutabilitySettings: { state: 'Unlocked' },
          softDeleteSettings: { state: 'AlwaysOn', retentionDurationInDays: BACKUP_SOFT_DELETE_DAYS },
        },
      },
      tags,
    },
    { ...opts, dependsOn: registration ? [registration] : [] },
  );
  // CanNotDelete: nobody deletes the vault until an administrator lifts the lock
  // (https://learn.microsoft.com/azure/azure-resource-manager/management/lock-resources); its recovery points are
  // the immutability's to keep.
  new ManagementLockByScope(
    `backup-vault-${environment}-lock`,
    {
      scope: vault.id,
      lockName: 'checkpoints-do-not-delete',
      level: 'CanNotDelete',
      notes: `checkpoint stores (${environment}): independent copies; deletion is break-glass, see docs/azure.md`,
    },
    opts,
  );
  const policy = new BackupPolicy(
    `backup-policy-${environment}`,
    {
      resourceGroupName: group.name,
      vaultName: vault.name,
      backupPolicyName: azureBackup.policy,
      properties: dailyVaultedPolicy(copies.retentionDays),
    },
    opts,
  );
  const principalId = vault.identity.apply((identity) => identity?.principalId ?? '');
  const role = roleDefinitionId(settings.subscriptionId, 'Storage Account Backup Contributor');
  const stackGroup = resourceGroupId(settings.subscriptionId, settings.stackResourceGroups[environment]);
  for (const store of copies.stores) {
    const context = { project: STACK_PROJECTS.azure, stack: environment, store };
    const accountName = names.storageAccount(context);
    const account = `${stackGroup}/providers/Microsoft.Storage/storageAccounts/${accountName}`;
    const grant = new RoleAssignment(
      `backup-${environment}-${store}`,
      {
        scope: account,
        roleDefinitionId: role,
        principalId,
        principalType: 'ServicePrincipal',
        roleAssignmentName: principalId.apply((id) => roleAssignmentName(account, role, id)),
        description: `Backup vault ${azureBackup.vault(settings.subscriptionId, environment)} backs up store ${store}`,
      },
      opts,
    );
    new BackupInstance(
      `backup-${environment}-${store}`,
      {
        resourceGroupName: group.name,
        vaultName: vault.name,
        backupInstanceName: azureBackup.instance(accountName),
        properties: {
          objectType: 'BackupInstance',
          friendlyName: accountName,
          dataSourceInfo: {
            objectType: 'Datasource',
            datasourceType: ADLS_DATASOURCE_TYPE,
            resourceID: account,
            resourceName: accountName,
            resourceType: 'Microsoft.Storage/storageAccounts',
            resourceUri: account,
            resourceLocation: settings.location,
          },
          policyInfo: {
            policyId: policy.id,
            policyParameters: {
              // The store's one filesystem: "Any new containers that get created after backup configuration
              // for the storage account aren't backed up automatically" (support matrix).
              backupDatasourceParametersList: [
                {
                  objectType: 'BlobBackupDatasourceParameters',
                  containersList: [names.adlsFilesystem(context)],
                },
              ],
            },
          },
        },
      },
      // The vault's role must be in place before Azure Backup validates the instance ("Validation errors appear
      // if the selected storage accounts don't have the Storage Account Backup Contributor role", configure page).
      { ...opts, dependsOn: [grant] },
    );
  }
  return vault;
}

/**
 * One backup a day into the vault tier ("Maximum number of scheduled backups per day: 1", support matrix), each
 * kept `retentionDays` (the default retention rule, "If no other rules are set, the default retention rule
 * applies", overview page). The rule and tag names are the template's (ADLS_DATASOURCE_TYPE's source).
 */
function dailyVaultedPolicy(retentionDays: number) {
  const vaultStore = { dataStoreType: 'VaultStore', objectType: 'DataStoreInfoBase' };
  return {
    objectType: 'BackupPolicy' as const,
    datasourceTypes: [ADLS_DATASOURCE_TYPE],
    policyRules: [
      {
        objectType: 'AzureRetentionRule' as const,
        name: 'Default',
        isDefault: true,
        lifecycles: [
          {
            deleteAfter: { objectType: 'AbsoluteDeleteOption' as const, duration: `P${retentionDays}D` },
            sourceDataStore: vaultStore,
            targetDataStoreCopySettings: [],
          },
        ],
      },
      {
        objectType: 'AzureBackupRule' as const,
        name: 'BackupDaily',
        backupParameters: { objectType: 'AzureBackupParams' as const, backupType: 'Discrete' },
        dataStore: vaultStore,
        trigger: {
          objectType: 'ScheduleBasedTriggerContext' as const,
          schedule: { timeZone: 'UTC', repeatingTimeIntervals: ['R/2026-01-01T02:00:00+00:00/P1D'] },
          taggingCriteria: [{ isDefault: true, taggingPriority: 99, tagInfo: { tagName: 'Default' } }],
        },
      },
    ],
  };
}
