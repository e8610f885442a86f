import type * as pulumi from '@pulumi/pulumi';
import { Key } from '@pulumi/azure-native/keyvault/key';
import { Vault } from '@pulumi/azure-native/keyvault/vault';
import { UserAssignedIdentity } from '@pulumi/azure-native/managedidentity/userAssignedIdentity';
import type { StorageAccountArgs } from '@pulumi/azure-native/storage/storageAccount';
import { names, type NameContext } from '@checkpoints/naming';
import { assignRole } from './role-assignment';
import { dataHolderOptions, safetySettingOptions, type StoreScope } from './scope';

/** How the account encrypts data at rest, and what must exist before it can. */
export interface AccountEncryption {
  encryption: NonNullable<StorageAccountArgs['encryption']>;
  identity?: StorageAccountArgs['identity'];
  dependsOn: pulumi.Resource[];
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
    `${scope.store.name}-encryption-key`,
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
  return {
    identity: { type: 'UserAssigned', userAssignedIdentities: [identity.id] },
    encryption: {
      ...blobEncryption,
      keySource: 'Microsoft.Keyvault',
      keyVaultProperties: { keyName: key.name, keyVaultUri: vault.properties.vaultUri },
      encryptionIdentity: { encryptionUserAssignedIdentity: identity.id },
    },
    dependsOn: [keyAccess],
  };
}

/** The identity through which a store's account reads its key: named after the account it serves. */
export function encryptionIdentityName(ctx: NameContext): string {
  return `${names.storageAccount(ctx)}-encryption`;
}

function createVault(scope: StoreScope): Vault {
  return new Vault(
    scope.store.name,
    {
      resourceGroupName: scope.resourceGroupName,
      vaultName: names.keyVault(scope.names),
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
    scope.store.name,
    {
      resourceGroupName: scope.resourceGroupName,
      vaultName: vault.name,
      // The vault is the store's own, so the key needs no hash to be unique.
      keyName: `checkpoints-${scope.names.store}`,
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
