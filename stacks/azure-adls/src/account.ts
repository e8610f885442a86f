import type { Tier } from '@checkpoints/config';
import { names } from '@checkpoints/naming';
import { adlsManagementPolicy } from '@checkpoints/translate';
import { BlobContainer } from '@pulumi/azure-native/storage/blobContainer';
import { BlobServiceProperties } from '@pulumi/azure-native/storage/blobServiceProperties';
import { ManagementPolicy } from '@pulumi/azure-native/storage/managementPolicy';
import { StorageAccount, type StorageAccountArgs } from '@pulumi/azure-native/storage/storageAccount';
import type { AccountEncryption } from './encryption';
import { accountNetwork } from './network';
import { dataHolderOptions, safetySettingOptions, type StoreScope } from './scope';

type AccountType = Pick<StorageAccountArgs, 'kind' | 'sku' | 'accessTier'>;

const ACCOUNT_TYPES: Record<Tier, AccountType> = {
  // ZRS keeps three synchronous copies in three zones, so a zone outage neither loses the newest
  // checkpoints (LRS could) nor stops jobs from writing; GRS/GZRS add a second region, asynchronously,
  // at twice the price, for data that is rewritten every few hours. ZRS rules out the archive tier.
  standard: { kind: 'StorageV2', sku: { name: 'Standard_ZRS' }, accessTier: 'Hot' },
  // Premium block blobs: SSD-backed, low latency and high transaction rates for large parallel
  // checkpoint writes; zone-redundant for the same reason. Premium has no access tiers.
  'high-throughput': { kind: 'BlockBlobStorage', sku: { name: 'Premium_ZRS' } },
};

/**
 * `recovery.replicaRegion` on a standard store: geo-zone-redundant storage, three zones in the primary
 * region and an asynchronous copy in its pair (libs/config refuses any other region and the premium tier,
 * which has no geo-redundant SKU); `readableReplica` makes the copy readable before a failover (RA-GZRS).
 * https://learn.microsoft.com/azure/storage/common/storage-redundancy#geo-zone-redundant-storage
 */
export function accountSku(scope: Pick<StoreScope, 'store'>): NonNullable<StorageAccountArgs['sku']> {
  const { tier, recovery } = scope.store;
  if (tier !== 'standard' || recovery.replicaRegion === undefined) return ACCOUNT_TYPES[tier].sku!;
  return { name: recovery.readableReplica ? 'Standard_RAGZRS' : 'Standard_GZRS' };
}

/** The store's ADLS Gen2 account with the security baseline every store gets (README, Security baseline). */
export function createAccount(scope: StoreScope, keys: AccountEncryption): StorageAccount {
  return new StorageAccount(
    scope.store.name,
    {
      resourceGroupName: scope.resourceGroupName,
      accountName: names.storageAccount(scope.names),
      location: scope.location,
      ...ACCOUNT_TYPES[scope.store.tier],
      sku: accountSku(scope),
      isHnsEnabled: true,
      enableHttpsTrafficOnly: true,
      minimumTlsVersion: 'TLS1_2',
      allowBlobPublicAccess: false,
      allowSharedKeyAccess: false,
      allowCrossTenantReplication: false,
      defaultToOAuthAuthentication: true,
      isSftpEnabled: false,
      isLocalUserEnabled: false,
      ...accountNetwork(scope.store.network),
      encryption: keys.encryption,
      ...(keys.identity ? { identity: keys.identity } : {}),
      tags: scope.tags,
    },
    { ...dataHolderOptions(scope), dependsOn: keys.dependsOn },
  );
}

/** Blob and container soft delete: the way back from a mistaken delete, since HNS rules out versioning. */
export function enableSoftDelete(scope: StoreScope, account: StorageAccount): BlobServiceProperties {
  const days = scope.store.retention.softDeleteDays;
  return new BlobServiceProperties(
    scope.store.name,
    {
      resourceGroupName: scope.resourceGroupName,
      accountName: account.name,
      blobServicesName: 'default',
      deleteRetentionPolicy: { enabled: true, days },
      containerDeleteRetentionPolicy: { enabled: true, days },
    },
    safetySettingOptions(scope),
  );
}

/** The store's filesystem; created after soft delete is on, so it is covered from the start. */
export function createFilesystem(
  scope: StoreScope,
  account: StorageAccount,
  softDelete: BlobServiceProperties,
): BlobContainer {
  return new BlobContainer(
    scope.store.name,
    {
      resourceGroupName: scope.resourceGroupName,
      accountName: account.name,
      containerName: names.adlsFilesystem(scope.names),
      publicAccess: 'None',
    },
    { ...dataHolderOptions(scope), dependsOn: [softDelete] },
  );
}

/** Tiering and expiry from the retention spec; none when the spec asks for neither. */
export function applyLifecycle(scope: StoreScope, account: StorageAccount): ManagementPolicy | undefined {
  const policy = adlsManagementPolicy(
    scope.store.retention,
    scope.store.tier,
    names.adlsFilesystem(scope.names),
  );
  if (!policy) return undefined;
  return new ManagementPolicy(
    scope.store.name,
    {
      resourceGroupName: scope.resourceGroupName,
      accountName: account.name,
      managementPolicyName: 'default',
      policy,
    },
    safetySettingOptions(scope),
  );
}
