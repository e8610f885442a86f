import type * as pulumi from '@pulumi/pulumi';
import { Key } from '@pulumi/azure-native/keyvault/key';
import { Vault } from '@pulumi/azure-native/keyvault/vault';
import { UserAssignedIdentity } from '@pulumi/azure-native/managedidentity/userAssignedIdentity';
import { Sleep } from '@pulumiverse/time/sleep';
import type { StorageAccountArgs } from '@pulumi/azure-native/storage/storageAccount';
import { names, type NameContext } from '@checkpoints/naming';
import type { RoleAssignment } from '@pulumi/azure-native/authorization/roleAssignment';
import { assignRole } from './role-assignment';
import { dataHolderOptions, safetySettingOptions, type StoreScope } from './scope';

/** How the account encrypts data at rest, and what must exist before it can. */
export interface AccountEncryption {
  encryption: NonNullable<StorageAccountArgs['encryption']>;
  identity?: StorageAccountArgs['identity'];
  /** What must exist, and be in effect, before the account is created with these keys. */
  dependsOn: pulumi.Resource[];
  /** The store's own vault, where the key is customer-managed: audited and locked like the account. */
  vault?: Vault;
}

// A second, platform-managed layer of encryption under the service layer; it can only be chosen when
// the account is created.
const blobEncryption = {
  requireInfrastructureEncryption: true,
  services: { blob: { enabled: true, keyType: 'Account' } },
} as const;

export function microsoftManagedKeys(): AccountEncryption {
  return { encryption: { ...blobEncryption, keySource: 'Microsoft.Storage' }, dependsOn: [] };
}

/**
 * A Key Vault and key for this store alone, and a user-assigned identity through which the account
 * reads the key. The account names no key version, so it follows the key's automatic rotation.
 */
export function customerManagedKey(scope: StoreScope): AccountEncryption {
  const identity = new UserAssignedIdentity(
    `${scope.store.name}-encryption`,
    {
      resourceGroupName: scope.resourceGroupName,
      resourceName: encryptionIdentityName(scope.names),
      location: scope.location,
      tags: scope.tags,
    },
    { parent: scope.parent },
  );
  const vault = createVault(scope);
  const key = createKey(scope, vault);
  const keyAccess = assignRole(
    keyLogicalName(scope, `${scope.store.name}-encryption-key`),
    {
      scope: key.id,
      role: 'Key Vault Crypto Service Encryption User',
      principalId: identity.principalId,
      principalType: 'ServicePrincipal',
      description: `checkpoint store ${scope.names.store}: storage account encryption`,
    },
    scope,
    // Without this grant the account cannot unwrap its key: it outlives the store like the key.
    safetySettingOptions(scope),
  );
  const keyAccessInEffect = awaitRolePropagation(scope, keyAccess);
  return {
    identity: { type: 'UserAssigned', userAssignedIdentities: [identity.id] },
    encryption: {
      ...blobEncryption,
      keySource: 'Microsoft.Keyvault',
      keyVaultProperties: { keyName: key.name, keyVaultUri: vault.properties.vaultUri },
      encryptionIdentity: { encryptionUserAssignedIdentity: identity.id },
    },
    dependsOn: [keyAccessInEffect],
    vault,
  };
}

/**
 * How long a new role assignment may take to be in effect: "When you assign roles or remove role assignments,
 * it can take up to 10 minutes for changes to take effect" (Troubleshoot Azure RBAC, "Role assignment changes
 * are not being detected", https://learn.microsoft.com/azure/role-based-access-control/troubleshooting#symptom---role-assignment-changes-are-not-being-detected).
 */
export const ROLE_PROPAGATION = '10m';

/**
 * The account reads its key through the encryption identity the moment it is created (or its key changes):
 * created right after the identity's key role, it is refused with KeyVaultAuthenticationFailure until the
 * role is in effect, and succeeds on a re-run. A wait between the two makes the first deploy succeed. It runs
 * again only when the assignment is replaced (a new key generation), so later deploys do not wait; the
 * stores' waits run side by side, so a first deploy waits once.
 */
function awaitRolePropagation(scope: StoreScope, assignment: RoleAssignment): Sleep {
  return new Sleep(
    keyLogicalName(scope, `${scope.store.name}-encryption-key-in-effect`),
    { createDuration: ROLE_PROPAGATION, triggers: { roleAssignment: assignment.id } },
    // Released with the grant it waits for (deleting a wait does nothing in Azure either).
    { ...safetySettingOptions(scope), dependsOn: [assignment] },
  );
}

/**
 * The names the store's key derives from at its generation (`keyGeneration`): generation 1 is the
 * store itself, so nothing deployed before generations existed changes; a later generation puts `-g<N>`
 * into the store part, which changes the vault's name and hash (a purge-protected vault name stays taken
 * 90 days after deletion, https://learn.microsoft.com/azure/key-vault/general/soft-delete-overview) and
 * the key's. Store names are at most 31 characters, so the store part is shortened to make room; two
 * stores that would then share a vault name are refused by the physical-name check (program.ts).
 */
export function keyNameContext(ctx: NameContext, generation: number): NameContext {
  if (generation <= 1) return ctx;
  const suffix = `-g${generation}`;
  return { ...ctx, store: `${ctx.store.slice(0, 31 - suffix.length)}${suffix}` };
}

/**
 * Logical (Pulumi) names of the key's resources, and of what refers to the vault (its lock, its audit
 * setting): a new generation is a new resource beside the released old one, never a replacement.
 */
export function keyLogicalName(scope: Pick<StoreScope, 'store'>, name: string = scope.store.name): string {
  return scope.store.keyGeneration > 1 ? `${name}-g${scope.store.keyGeneration}` : name;
}

/** The identity through which a store's account reads its key: named after the account it serves. */
export function encryptionIdentityName(ctx: NameContext): string {
  return `${names.storageAccount(ctx)}-encryption`;
}

function createVault(scope: StoreScope): Vault {
  return new Vault(
    keyLogicalName(scope),
    {
      resourceGroupName: scope.resourceGroupName,
      vaultName: names.keyVault(keyNameContext(scope.names, scope.store.keyGeneration)),
      location: scope.location,
      properties: {
        tenantId: scope.tenantId,
        sku: { family: 'A', name: 'standard' },
        enableRbacAuthorization: true,
        enableSoftDelete: true,
        softDeleteRetentionInDays: 90,
        enablePurgeProtection: true,
        // Only the storage service (a trusted Azure service) reads the key; ARM manages it through the
        // control plane, which the vault firewall does not filter.
        publicNetworkAccess: 'Enabled',
        networkAcls: { defaultAction: 'Deny', bypass: 'AzureServices' },
      },
      tags: scope.tags,
    },
    dataHolderOptions(scope),
  );
}

function createKey(scope: StoreScope, vault: Vault): Key {
  return new Key(
    keyLogicalName(scope),
    {
      resourceGroupName: scope.resourceGroupName,
      vaultName: vault.name,
      // The vault is the store's own, so the key needs no hash to be unique.
      keyName: `checkpoints-${keyNameContext(scope.names, scope.store.keyGeneration).store}`,
      properties: {
        kty: 'RSA',
        keySize: 3072,
        keyOps: ['wrapKey', 'unwrapKey'],
        attributes: { enabled: true, exportable: false },
        rotationPolicy: {
          attributes: { expiryTime: 'P2Y' },
          lifetimeActions: [
            { trigger: { timeAfterCreate: 'P1Y' }, action: { type: 'rotate' } },
            { trigger: { timeBeforeExpiry: 'P30D' }, action: { type: 'notify' } },
          ],
        },
      },
      tags: scope.tags,
    },
    dataHolderOptions(scope),
  );
}
