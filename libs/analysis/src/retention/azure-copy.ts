/**
 * A store's independent copy on Azure (`recovery.independentCopy`), as the bootstrap's render declares it: the
 * environment's Backup vault, its vaulted backup policy for ADLS, the backup instance of the store's account and the
 * vault identity's role on the account. What it keeps, and against whom, is what ../access/configuration-writes asks
 * of each principal.
 */
import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import { list, record } from './values';

/** The datasource type of an ADLS Gen2 account's vaulted backup (bootstrap/src/azure/independent-copy.ts). */
export const AZURE_ADLS_DATASOURCE = 'Microsoft.Storage/storageAccounts/adlsBlobServices';

/** "Storage Account Backup Contributor", the role the vault's identity needs on the account (same file). */
const BACKUP_CONTRIBUTOR = 'e5e2a7ff-d759-4cd2-bb51-3152d37e2eb1';

/**
 * Whoever holds one of these, on the resource named, can lift the copy. On a Backup vault immutability refuses one
 * operation only, "Stop protection with delete data: A protected item can't have its recovery points deleted before
 * their respective expiry date" (Backup vault tab of
 * https://learn.microsoft.com/azure/backup/backup-azure-immutable-vault-concept#restricted-operations); the tab of
 * the Recovery Services vault alone lists "Modify backup policy to reduce retention" and "Change backup policy to
 * reduce retention". So rewriting the policy or pointing the instance at another one is not refused, and what a
 * shorter retention does to the recovery points already taken is not stated: counted as lifting (fail closed).
 * Assigning roles on the vault gives any of these.
 */
export const AZURE_COPY_LIFTS: readonly { action: string; on: 'vault' | 'policy' | 'instance' }[] = [
  { action: 'Microsoft.DataProtection/backupVaults/backupPolicies/write', on: 'policy' },
  { action: 'Microsoft.DataProtection/backupVaults/backupPolicies/delete', on: 'policy' },
  { action: 'Microsoft.DataProtection/backupVaults/backupInstances/write', on: 'instance' },
  { action: 'Microsoft.Authorization/roleAssignments/write', on: 'vault' },
];

/**
 * A vault write turns off what is still reversible: immutability that is not Locked ("Enabled: ... the setting can
 * be disabled", concept page) and soft delete that is not always-on ("Once opted, you can't disable the soft delete
 * settings for the vault", https://learn.microsoft.com/azure/backup/backup-azure-enhanced-soft-delete-about).
 */
export const AZURE_VAULT_WRITE = 'Microsoft.DataProtection/backupVaults/write';

/**
 * A restore writes the copy into an account the caller names ("Vaulted backup restores are only possible to a
 * different storage account", https://learn.microsoft.com/azure/backup/azure-data-lake-storage-configure-backup):
 * whoever may restore reads the data.
 */
export const AZURE_COPY_RESTORE = 'Microsoft.DataProtection/backupVaults/backupInstances/restore/action';

export interface AzureIndependentCopy {
  vault: string;
  vaultId: string;
  policyId: string;
  instanceId: string;
  /** Days the policy's default retention rule keeps a vault-tier recovery point. */
  retentionDays: number;
  /** Immutability (`Locked`, `Unlocked`, `Disabled`) and soft delete (`AlwaysOn`, `On`, `Off`) as rendered. */
  immutability: string;
  softDelete: string;
  /** The principal ID of the vault's identity, from its role assignment on the account, when one is rendered. */
  vaultPrincipal?: string;
  /** Why the copy holds nothing, whoever asks (fail closed), if it does not. */
  broken?: string;
}

/** The store's account and filesystem, as the access model derives them from the stack's render. */
export interface AzureCopiedAccount {
  id: string;
  filesystem: string;
  /** The ID of the account's resource group, the stack's. */
  resourceGroup: string;
}

const same = (a: unknown, b: string) => typeof a === 'string' && a.toLowerCase() === b.toLowerCase();

/**
 * The copy of `account` in `bootstrap` (the bootstrap's render, where the vault lives). Undefined: no backup
 * instance names the account.
 */
export function azureIndependentCopyOf(
  account: AzureCopiedAccount,
  bootstrap: readonly RenderedResource[],
  promisedDays: number,
): AzureIndependentCopy | undefined {
  const instance = resourcesOfType(bootstrap, 'azure-native:dataprotection:BackupInstance').find((each) =>
    same(record(record(each.inputs['properties'])['dataSourceInfo'])['resourceID'], account.id),
  );
  if (instance === undefined) return undefined;
  const properties = record(instance.inputs['properties']);
  const vaultName = String(instance.inputs['vaultName'] ?? '');
  const vaultGroup = String(instance.inputs['resourceGroupName'] ?? '');
  const vault = resourcesOfType(bootstrap, 'azure-native:dataprotection:BackupVault').find(
    (each) => same(each.inputs['vaultName'], vaultName) && same(each.inputs['resourceGroupName'], vaultGroup),
  );
  const subscription = account.id.split('/').slice(0, 3).join('/');
  const vaultId = `${subscription}/resourceGroups/${vaultGroup}/providers/Microsoft.DataProtection/backupVaults/${vaultName}`;
  const policyInfo = record(properties['policyInfo']);
  const policyId = String(policyInfo['policyId'] ?? '');
  const policy = resourcesOfType(bootstrap, 'azure-native:dataprotection:BackupPolicy').find(
    (each) =>
      same(each.inputs['vaultName'], vaultName) &&
      policyId
        .toLowerCase()
        .endsWith(`/backuppolicies/${String(each.inputs['backupPolicyName']).toLowerCase()}`),
  );
  const security = record(record(vault?.inputs['properties'])['securitySettings']);
  const immutability = String(record(security['immutabilitySettings'])['state'] ?? 'Disabled');
  const softDelete = String(record(security['softDeleteSettings'])['state'] ?? 'Off');
  const rules = list(record(policy?.inputs['properties'])['policyRules']).map(record);
  const retentionDays = vaultRetentionDays(rules);
  const copy: AzureIndependentCopy = {
    vault: vaultName,
    vaultId,
    policyId:
      policy === undefined
        ? policyId
        : `${vaultId}/backupPolicies/${String(policy.inputs['backupPolicyName'])}`,
    instanceId: `${vaultId}/backupInstances/${String(instance.inputs['backupInstanceName'] ?? instance.name)}`,
    retentionDays,
    immutability,
    softDelete,
  };
  const broken = brokenBecause({
    account,
    instance,
    properties,
    vault,
    vaultId,
    policy,
    rules,
    copy,
    promisedDays,
    bootstrap,
  });
  if (broken !== undefined) copy.broken = broken;
  return copy;
}

interface Rendered {
  account: AzureCopiedAccount;
  instance: RenderedResource;
  properties: Record<string, unknown>;
  vault: RenderedResource | undefined;
  vaultId: string;
  policy: RenderedResource | undefined;
  rules: Record<string, unknown>[];
  copy: AzureIndependentCopy;
  promisedDays: number;
  bootstrap: readonly RenderedResource[];
}

function brokenBecause(r: Rendered): string | undefined {
  const { account, copy } = r;
  const source = record(r.properties['dataSourceInfo']);
  if (!same(source['datasourceType'], AZURE_ADLS_DATASOURCE)) {
    return `backup instance ${r.instance.name} is not a vaulted backup of ADLS (datasourceType ${String(source['datasourceType'])}, not ${AZURE_ADLS_DATASOURCE})`;
  }
  const parameters = record(record(r.properties['policyInfo'])['policyParameters']);
  const containers = list(parameters['backupDatasourceParametersList'])
    .flatMap((each) => list(record(each)['containersList']))
    .map(String);
  // "Any new containers that get created after backup configuration ... aren't backed up automatically"
  // (https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-support-matrix).
  if (!containers.includes(account.filesystem)) {
    return `backup instance ${r.instance.name} does not list the store's filesystem ${account.filesystem} (containers: ${containers.join(', ') || 'none'})`;
  }
  if (r.vault === undefined)
    return `no Backup vault ${copy.vault} is rendered for backup instance ${r.instance.name}`;
  if (r.vaultId.toLowerCase().startsWith(`${account.resourceGroup.toLowerCase()}/`)) {
    return `Backup vault ${copy.vault} is in the stack's own resource group, where CI deploys`;
  }
  if (copy.immutability !== 'Locked' && copy.immutability !== 'Unlocked') {
    return `Backup vault ${copy.vault} is not immutable (immutability ${copy.immutability}): stopping protection with delete data is not refused`;
  }
  if (copy.softDelete !== 'AlwaysOn' && copy.softDelete !== 'On') {
    return `Backup vault ${copy.vault} has soft delete ${copy.softDelete}`;
  }
  if (r.policy === undefined)
    return `no backup policy ${copy.policyId || '(none named)'} is rendered in vault ${copy.vault}`;
  const daily = r.rules.some(
    (rule) =>
      rule['objectType'] === 'AzureBackupRule' &&
      record(rule['dataStore'])['dataStoreType'] === 'VaultStore' &&
      list(record(record(rule['trigger'])['schedule'])['repeatingTimeIntervals']).some((interval) =>
        String(interval).endsWith('/P1D'),
      ),
  );
  if (!daily)
    return `backup policy ${String(r.policy.inputs['backupPolicyName'])} takes no daily backup into the vault tier`;
  if (copy.retentionDays < r.promisedDays) {
    return `backup policy ${String(r.policy.inputs['backupPolicyName'])} keeps a recovery point ${copy.retentionDays} days, less than the ${r.promisedDays} the spec promises`;
  }
  // The vault reads the account as its own identity ("Only System-Assigned Managed Identity (SAMI) works", same matrix).
  const granted = resourcesOfType(r.bootstrap, 'azure-native:authorization:RoleAssignment').find(
    (each) =>
      same(each.inputs['scope'], account.id) &&
      String(each.inputs['roleDefinitionId'] ?? '')
        .toLowerCase()
        .endsWith(`/${BACKUP_CONTRIBUTOR}`) &&
      (each.propertyDependencies?.['principalId'] ?? []).includes(r.vault?.urn ?? ''),
  );
  if (typeof granted?.inputs['principalId'] === 'string') copy.vaultPrincipal = granted.inputs['principalId'];
  if (!granted) {
    return `the identity of Backup vault ${copy.vault} holds no Storage Account Backup Contributor role on the account: every backup fails`;
  }
  return undefined;
}

/**
 * Days the default retention rule keeps a vault-tier recovery point (`deleteAfter.duration`, ISO 8601). Weeks are
 * 7 days; months and years are counted at their shortest (28 and 365 days), so a figure is never more than Azure
 * keeps. 0 when no such rule is rendered.
 */
function vaultRetentionDays(rules: readonly Record<string, unknown>[]): number {
  const rule = rules.find(
    (each) => each['objectType'] === 'AzureRetentionRule' && each['isDefault'] === true,
  );
  const lifecycle = list(rule?.['lifecycles'])
    .map(record)
    .find((each) => record(each['sourceDataStore'])['dataStoreType'] === 'VaultStore');
  const duration = /^P(\d+)([DWMY])$/.exec(String(record(lifecycle?.['deleteAfter'])['duration'] ?? ''));
  if (!duration) return 0;
  const unit = { D: 1, W: 7, M: 28, Y: 365 }[duration[2] as 'D' | 'W' | 'M' | 'Y'];
  return Number(duration[1]) * unit;
}
