/** Spec helpers: a store's lifecycle translation, rendered the way a stack renders it, judged by libs/analysis. */
import { simulateStore, type StoreRetention } from '@checkpoints/analysis';
import { type RenderedResource } from '@checkpoints/render';
import type { Cloud, RetentionSpec, Tier } from '@checkpoints/config';
import { s3DirectoryLifecycleRules, s3LifecycleRules, type S3LifecycleRule } from '../src/aws/lifecycle';
import { adlsManagementPolicy, type AdlsManagementPolicy } from '../src/azure/management-policy';
import { gcsLifecycleRules, type GcsLifecycleRule } from '../src/gcp/lifecycle';

export const FILESYSTEM = 'ckpt-llm';

export function resource(type: string, inputs: Record<string, unknown>): RenderedResource {
  return {
    urn: `urn:pulumi:test::spec::${type}::store`,
    type,
    name: 'store',
    parent: 'store',
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs,
  };
}

/** The S3 resources a stack renders for the tier's bucket, with these lifecycle rules. */
export function s3Resources(
  tier: Tier,
  retention: RetentionSpec,
  rules: S3LifecycleRule[] = tier === 'standard'
    ? s3LifecycleRules(retention)
    : s3DirectoryLifecycleRules(retention),
): RenderedResource[] {
  const lifecycle = resource('aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration', { rules });
  if (tier === 'high-throughput') return [resource('aws:s3/directoryBucket:DirectoryBucket', {}), lifecycle];
  const versioning = resource('aws:s3/bucketVersioning:BucketVersioning', {
    versioningConfiguration: { status: 'Enabled' },
  });
  return [resource('aws:s3/bucket:Bucket', {}), versioning, lifecycle];
}

/** The bucket a GCS stack renders for the tier, with these lifecycle rules. */
export function gcsResources(
  tier: Tier,
  retention: RetentionSpec,
  rules: GcsLifecycleRule[] = gcsLifecycleRules(retention),
): RenderedResource[] {
  const hierarchical = tier === 'high-throughput';
  return [
    resource('gcp:storage/bucket:Bucket', {
      versioning: { enabled: !hierarchical },
      ...(hierarchical ? { hierarchicalNamespace: { enabled: true } } : {}),
      softDeletePolicy: { retentionDurationSeconds: retention.softDeleteDays * 86_400 },
      lifecycleRules: rules,
    }),
  ];
}

/** The account, soft delete, filesystem and management policy an ADLS Gen2 stack renders. */
export function adlsResources(
  tier: Tier,
  retention: RetentionSpec,
  policy: AdlsManagementPolicy | undefined = adlsManagementPolicy(retention, tier, FILESYSTEM),
): RenderedResource[] {
  const softDelete = { enabled: true, days: retention.softDeleteDays };
  return [
    resource('azure-native:storage:StorageAccount', { isHnsEnabled: true }),
    resource('azure-native:storage:BlobServiceProperties', {
      deleteRetentionPolicy: softDelete,
      containerDeleteRetentionPolicy: softDelete,
    }),
    resource('azure-native:storage:BlobContainer', { containerName: FILESYSTEM }),
    ...(policy ? [resource('azure-native:storage:ManagementPolicy', { policy })] : []),
  ];
}

/** The simulator's verdict on one store's rendered resources against the retention its spec states. */
export function judge(
  cloud: Cloud,
  tier: Tier,
  retention: RetentionSpec,
  resources: RenderedResource[],
  lockDays = 0,
): StoreRetention {
  return simulateStore(
    { name: 'llm', cloud, urn: 'store', resources },
    { tier, retention, lockDays, copyDays: 0 },
  );
}

/** Every promise broken, as `promise: message`, for readable failures. */
export function brokenPromises(outcome: StoreRetention): string[] {
  return outcome.broken.map((broken) => `${broken.promise}: ${broken.message}`);
}
