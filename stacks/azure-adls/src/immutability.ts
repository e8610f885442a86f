import { names } from '@checkpoints/naming';
import { BlobContainerImmutabilityPolicy } from '@pulumi/azure-native/storage/blobContainerImmutabilityPolicy';
import type { BlobContainer } from '@pulumi/azure-native/storage/blobContainer';
import type { StorageAccount } from '@pulumi/azure-native/storage/storageAccount';
import { dataHolderOptions, type StoreScope } from './scope';

/**
 * `recovery.retentionLock: { days }`: a time-based immutability policy on the store's filesystem, so every
 * file can be created and read, but not modified, overwritten or deleted until `days` after its creation
 * (https://learn.microsoft.com/azure/storage/blobs/immutable-time-based-retention-policy-overview).
 *
 * - Unlocked, the relaxable mode: an administrator holding `immutabilityPolicies/delete` can shorten or lift it
 *   ("you can modify an unlocked policy by shortening or extending the retention period. You can also delete an
 *   unlocked policy", same page). The stack never locks it (`immutabilityPolicies/lock/action` is irreversible:
 *   "You cannot delete a locked time-based retention policy") and CI holds neither right (bootstrap/src/azure).
 * - No protected append writes, for append blobs (`allowProtectedAppendWrites`) or block blobs through the Data
 *   Lake append and flush calls (`allowProtectedAppendWritesAll`): either would let a job add blocks to a locked
 *   checkpoint (https://learn.microsoft.com/azure/storage/blobs/immutable-container-level-worm-policies#allow-protected-append-blobs-writes).
 * - Protected and retained like the data: no deploy deletes it, so none lifts the lock; removing the key from
 *   the config releases it, and the filesystem stays locked (docs/azure.md, "Retention lock").
 */
export function lockFilesystem(
  scope: StoreScope,
  account: StorageAccount,
  filesystem: BlobContainer,
): BlobContainerImmutabilityPolicy | undefined {
  const lock = scope.store.recovery.retentionLock;
  if (lock === undefined) return undefined;
  return new BlobContainerImmutabilityPolicy(
    scope.store.name,
    {
      resourceGroupName: scope.resourceGroupName,
      accountName: account.name,
      containerName: names.adlsFilesystem(scope.names),
      // The ARM API names the only policy of a container 'default'.
      immutabilityPolicyName: 'default',
      immutabilityPeriodSinceCreationInDays: lock.days,
      allowProtectedAppendWrites: false,
      allowProtectedAppendWritesAll: false,
    },
    { ...dataHolderOptions(scope), dependsOn: [filesystem] },
  );
}
