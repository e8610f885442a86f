import type { PolicyResource } from '@pulumi/policy';
import { checkpointWriterRoleGuid } from '@checkpoints/config';
import { stackRule } from '../define';
import { read, UNKNOWN } from '../inputs';
import {
  azureModuleOf,
  isAnyAzureType,
  oneOf,
  ROLE_GRANT_TYPES,
  roleGuidOf,
  roleLabel,
  ROLES,
  type Role,
} from './support';

/**
 * What may be held on a storage account or filesystem (a store's, or the bootstrap's state container): the
 * writer role the bootstrap defines (no container deletion; its GUID is the subscription's, see writerRoleOf)
 * and Storage Blob Data Reader. Not Storage Blob Data Contributor: its `containers/delete` would let the
 * holder delete the filesystem, every checkpoint (or every stack's state) at once.
 */
const WRITER_ROLE: Role = { name: 'Checkpoint Store Writer', id: 'derived from the subscription' };
export const STORAGE_SCOPE_ROLES: readonly Role[] = [WRITER_ROLE, ROLES.storageBlobDataReader];

/** The writer role of the subscription a role definition ID names, when it names one. */
function writerRoleOf(roleDefinitionId: unknown): string | undefined {
  const subscription =
    typeof roleDefinitionId === 'string'
      ? /^\/subscriptions\/([^/]+)\//i.exec(roleDefinitionId)?.[1]
      : undefined;
  return subscription === undefined ? undefined : checkpointWriterRoleGuid(subscription);
}
/**
 * What a Backup vault's own identity may hold on an account it backs up: "The Backup vault's managed identity needs
 * specific permissions on storage accounts for backup and restore operations. These permissions are bundled into the
 * Storage Account Backup Contributor role" (https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-overview#backup-management).
 * Only for a principal that is a vault's identity (its `principalId` comes from a Backup vault): the role's lock and
 * object replication rights are for Azure Backup, not for a person or a CI identity.
 */
const BACKUP_VAULT_ROLE = ROLES.storageAccountBackupContributor;

const fromBackupVault = (grant: PolicyResource) =>
  (grant.propertyDependencies['principalId'] ?? []).some(
    (dependency) => dependency.type === 'azure-native:dataprotection:BackupVault',
  );

/** What the account's encryption identity may hold on its key vault or key. */
export const VAULT_SCOPE_ROLES: readonly Role[] = [ROLES.keyVaultCryptoServiceEncryptionUser];
/** Data-plane roles: granted on a store's own account, filesystem, vault or key, never on anything broader. */
const DATA_PLANE_ROLES: readonly Role[] = [
  ROLES.storageBlobDataContributor,
  ROLES.storageBlobDataReader,
  ROLES.storageBlobDataOwner,
  ...VAULT_SCOPE_ROLES,
];

const STORAGE_SCOPE = /\/providers\/microsoft\.storage\/storageaccounts\/[^/]+/i;
const VAULT_SCOPE = /\/providers\/microsoft\.keyvault\/(vaults|managedhsms)\/[^/]+/i;

type ScopeKind = 'storage' | 'vault' | 'other' | 'unknown';

/**
 * Where a grant applies: read from its scope when known, else (a real first preview, the scope being the ID
 * of a resource created in the same update) from the resources its scope depends on.
 */
function scopeKind(grant: PolicyResource, scope: unknown): ScopeKind {
  if (typeof scope === 'string') {
    if (STORAGE_SCOPE.test(scope)) return 'storage';
    if (VAULT_SCOPE.test(scope)) return 'vault';
    return 'other';
  }
  const modules = (grant.propertyDependencies['scope'] ?? []).map((dependency) =>
    azureModuleOf(dependency.type),
  );
  if (modules.includes('storage')) return 'storage';
  if (modules.includes('keyvault')) return 'vault';
  return modules.length > 0 ? 'other' : 'unknown';
}

const SCOPE_NAMES: Record<'storage' | 'vault', string> = {
  storage: 'a storage account scope',
  vault: 'a key vault scope',
};

/** How a message names the role a grant gives: `Owner (8e3a...)`, or why it cannot tell. */
function grantedRole(roleDefinitionId: unknown): string {
  const role = roleGuidOf(roleDefinitionId);
  if (role === UNKNOWN) return 'a role unknown during preview';
  if (role !== undefined) return roleLabel(role);
  return roleDefinitionId === undefined
    ? 'no roleDefinitionId'
    : `roleDefinitionId ${JSON.stringify(roleDefinitionId)}`;
}

export const azureRbacStoreDataPlaneRoles = stackRule({
  name: 'azure-rbac-store-data-plane-roles',
  description: `Role grants on a storage account or anything in it (filesystem, directory) use only ${oneOf(STORAGE_SCOPE_ROLES)} (and ${BACKUP_VAULT_ROLE.name} for a Backup vault's own identity, which backs the account up); on a key vault or key only ${oneOf(VAULT_SCOPE_ROLES)}; and those data-plane roles are never granted on a broader scope (resource group, subscription), where they would reach every store in it`,
  source:
    'Microsoft Learn: Assign an Azure role for access to blob data (narrowest scope); Microsoft Learn: Customer-managed keys for Azure Storage encryption (Key Vault Crypto Service Encryption User); Microsoft cloud security benchmark PA-7',
  validate: (args, report) => {
    for (const grant of args.resources) {
      if (!isAnyAzureType(grant.type, ROLE_GRANT_TYPES)) continue;
      const scope = read(grant.props, 'scope');
      const kind = scopeKind(grant, scope);
      const roleId = read(grant.props, 'roleDefinitionId');
      const role = roleGuidOf(roleId);
      const label = `${grant.type.split(':').pop()} '${grant.name}'`;
      if (kind === 'storage' || kind === 'vault') {
        const allowed = kind === 'storage' ? STORAGE_SCOPE_ROLES : VAULT_SCOPE_ROLES;
        if (typeof role === 'string' && allowed.some((candidate) => candidate.id === role)) continue;
        if (kind === 'storage' && typeof role === 'string' && role === writerRoleOf(roleId)) continue;
        if (kind === 'storage' && role === BACKUP_VAULT_ROLE.id && fromBackupVault(grant)) continue;
        report(
          `${label}: grants ${grantedRole(roleId)} on ${SCOPE_NAMES[kind]}; expected ${oneOf(allowed)} only`,
          grant.urn,
        );
        continue;
      }
      const dataRole = DATA_PLANE_ROLES.some((data) => data.id === role) || role === writerRoleOf(roleId);
      if (kind === 'other' && typeof role === 'string' && dataRole) {
        const where =
          typeof scope === 'string' ? `'${scope}'` : 'a scope that is not a storage account or key vault';
        report(
          `${label}: grants ${roleLabel(role)} on ${where}; expected it only on a store's own storage account, filesystem, key vault or key`,
          grant.urn,
        );
      }
    }
  },
});
