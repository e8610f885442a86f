import type { BucketArgs } from '@pulumi/gcp/storage/bucket';
import type * as pulumi from '@pulumi/pulumi';
import type { StoreSpec } from '@checkpoints/config';
import { GCS_DEFAULT_STORAGE_CLASS, gcsLifecycleRules } from '@checkpoints/policy';

const SECONDS_PER_DAY = 86_400;

export interface CheckpointBucket {
  name: string;
  store: StoreSpec;
  location: string;
  labels: Record<string, string>;
  /** The customer-managed key's ID; absent for Google-managed encryption. */
  kmsKeyName?: pulumi.Input<string>;
}

/**
 * The security baseline of every store's bucket, none of it optional: IAM only (no ACLs), public access
 * prevention enforced, soft delete always on, never force-destroyed with its objects inside. The standard
 * tier recovers overwritten checkpoints from object versions; the high-throughput tier gets a
 * hierarchical namespace (faster, atomic folder operations) which cannot be versioned, so soft delete alone
 * recovers what was deleted.
 */
export function checkpointBucketArgs(bucket: CheckpointBucket): BucketArgs {
  const { store } = bucket;
  const hierarchical = store.tier === 'high-throughput';
  return {
    name: bucket.name,
    location: bucket.location,
    storageClass: GCS_DEFAULT_STORAGE_CLASS,
    uniformBucketLevelAccess: true,
    publicAccessPrevention: 'enforced',
    forceDestroy: false,
    versioning: { enabled: !hierarchical },
    ...(hierarchical ? { hierarchicalNamespace: { enabled: true } } : {}),
    softDeletePolicy: { retentionDurationSeconds: store.retention.softDeleteDays * SECONDS_PER_DAY },
    lifecycleRules: gcsLifecycleRules(store.retention),
    ...(bucket.kmsKeyName === undefined ? {} : { encryption: { defaultKmsKeyName: bucket.kmsKeyName } }),
    labels: bucket.labels,
  };
}
