import * as pulumi from '@pulumi/pulumi';
import type { Key } from '@pulumi/aws/kms/key';
import { BucketLifecycleConfiguration } from '@pulumi/aws/s3/bucketLifecycleConfiguration';
import { BucketPolicy } from '@pulumi/aws/s3/bucketPolicy';
import { BucketServerSideEncryptionConfiguration } from '@pulumi/aws/s3/bucketServerSideEncryptionConfiguration';
import { DirectoryBucket } from '@pulumi/aws/s3/directoryBucket';
import { names } from '@checkpoints/naming';
import { s3DirectoryBucketPolicy, s3DirectoryLifecycleRules } from '@checkpoints/translate';
import { defaultEncryptionRule } from './encryption';
import {
  dataProtection,
  SAFETY_SETTING,
  type BucketPolicyInputs,
  type StoreBucket,
  type StoreScope,
} from './scope';

/**
 * The high-throughput tier: an S3 Express One Zone directory bucket in the store's availability zone,
 * next to the accelerators that write to it. Directory buckets always block public access and enforce
 * bucket-owner object ownership, and have no versioning, so those resources have no counterpart here.
 */
export function createDirectoryBucket(
  scope: StoreScope,
  key: Key | undefined,
  policyInputs: BucketPolicyInputs,
): StoreBucket {
  const { store, parent } = scope;
  const zone = requireZone(scope);
  const bucket = new DirectoryBucket(
    `${store.name}-bucket`,
    {
      bucket: names.s3DirectoryBucket(scope.nameContext, zone),
      location: { name: zone, type: 'AvailabilityZone' },
      dataRedundancy: 'SingleAvailabilityZone',
      type: 'Directory',
      tags: scope.tags,
    },
    { parent, ...dataProtection(store) },
  );
  const bucketName = bucket.bucket;
  new BucketServerSideEncryptionConfiguration(
    `${store.name}-encryption`,
    { bucket: bucketName, rules: [defaultEncryptionRule(key)] },
    { parent, ...SAFETY_SETTING },
  );
  const policy = new BucketPolicy(
    `${store.name}-policy`,
    {
      bucket: bucketName,
      policy: pulumi
        .all([bucket.arn, policyInputs.keyArn, policyInputs.perimeter])
        .apply(([bucketArn, keyArn, perimeter]) =>
          JSON.stringify(
            s3DirectoryBucketPolicy({
              bucketArn,
              ...(keyArn ? { keyArn } : {}),
              ...(perimeter ? { perimeter } : {}),
            }),
          ),
        ),
    },
    { parent, ...SAFETY_SETTING },
  );
  // The policy grants S3 Lifecycle the session it expires objects through.
  new BucketLifecycleConfiguration(
    `${store.name}-lifecycle`,
    { bucket: bucketName, rules: s3DirectoryLifecycleRules(store.retention) },
    { parent, ...SAFETY_SETTING, dependsOn: [policy] },
  );
  return { name: bucketName, arn: bucket.arn };
}

function requireZone({ store }: StoreScope): string {
  if (store.zone === undefined) {
    throw new Error(
      `store ${store.name}: a high-throughput store needs a zone; config validation should have refused it`,
    );
  }
  return store.zone;
}
