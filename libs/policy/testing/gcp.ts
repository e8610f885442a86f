/** Spec helpers of the GCP rules: compliant resources shaped like the gcp-gcs stack's. */
import { standardTagSet } from '.';

const KEY_ID =
  'projects/ml-platform-prod-7310/locations/us-central1/keyRings/checkpoints-gcp-prod-llm-pretrain-4300f0/cryptoKeys/checkpoints-llm-pretrain';

/** The standard tier's bucket as the gcp-gcs stack registers it (versioned, CMEK, 14 days of soft delete). */
export function versionedBucket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'checkpoints-gcp-prod-llm-pretrain-4300f0',
    location: 'us-central1',
    storageClass: 'STANDARD',
    uniformBucketLevelAccess: true,
    publicAccessPrevention: 'enforced',
    forceDestroy: false,
    versioning: { enabled: true },
    softDeletePolicy: { retentionDurationSeconds: 1_209_600 },
    lifecycleRules: [
      { action: { type: 'AbortIncompleteMultipartUpload' }, condition: { age: 1 } },
      {
        action: { type: 'Delete' },
        condition: { withState: 'ARCHIVED', daysSinceNoncurrentTime: 7, numNewerVersions: 4 },
      },
      {
        action: { type: 'SetStorageClass', storageClass: 'NEARLINE' },
        condition: { age: 30, withState: 'LIVE', matchesStorageClasses: ['STANDARD'] },
      },
    ],
    encryption: { defaultKmsKeyName: KEY_ID },
    labels: standardTagSet('prod'),
    ...overrides,
  };
}

/** The high-throughput tier's bucket: hierarchical namespace, no versioning, 7 days of soft delete. */
export function hierarchicalBucket(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return versionedBucket({
    name: 'checkpoints-gcp-prod-llm-pretrain-hot-4c5d98',
    versioning: { enabled: false },
    hierarchicalNamespace: { enabled: true },
    softDeletePolicy: { retentionDurationSeconds: 604_800 },
    lifecycleRules: [
      { action: { type: 'AbortIncompleteMultipartUpload' }, condition: { age: 1 } },
      { action: { type: 'Delete' }, condition: { age: 14, withState: 'LIVE' } },
    ],
    ...overrides,
  });
}

export const BUCKET = 'gcp:storage/bucket:Bucket';
