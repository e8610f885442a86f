import * as pulumi from '@pulumi/pulumi';
import type { Key } from '@pulumi/aws/kms/key';
import { Bucket } from '@pulumi/aws/s3/bucket';
import { BucketLifecycleConfiguration } from '@pulumi/aws/s3/bucketLifecycleConfiguration';
import { BucketPolicy } from '@pulumi/aws/s3/bucketPolicy';
import { names } from '@checkpoints/naming';
import { s3BucketPolicy, s3LifecycleRules } from '@checkpoints/translate';
import { privateBucketSettings } from './private-bucket';
import { createRetentionLock, lockDaysOf, retentionLockStatements } from './retention-lock';
import {
  dataProtection,
  SAFETY_SETTING,
  type BucketPolicyInputs,
  type StoreBucket,
  type StoreScope,
} from './scope';

/** Which of a store's general purpose buckets: its own (the default) or its replica in a second region. */
export interface BucketPlacement {
  /** What the logical names of the bucket and its settings start with. */
  logicalPrefix: string;
  bucketName: string;
  /** The region of the bucket and its settings; absent: the provider's (the stack's `aws:region`). */
  region?: string;
}

/**
 * The standard tier: a versioned general purpose bucket, private to its account, encrypted by default,
 * reachable over TLS 1.2+ only, with the store's retention as its lifecycle and, when the store states one, its
 * retention lock (retention-lock.ts). A replica bucket is built the
 * same way, in its own region with its own key.
 */
export function createGeneralPurposeBucket(
  scope: StoreScope,
  key: Key | undefined,
  policyInputs: BucketPolicyInputs,
  placement: BucketPlacement = {
    logicalPrefix: scope.store.name,
    bucketName: names.s3Bucket(scope.nameContext),
  },
): StoreBucket {
  const { store, parent } = scope;
  const prefix = placement.logicalPrefix;
  const inRegion = placement.region === undefined ? {} : { region: placement.region };
  const bucket = new Bucket(
    `${prefix}-bucket`,
    { bucket: placement.bucketName, tags: scope.tags, ...inRegion },
    { parent, ...dataProtection(store) },
  );
  const bucketName = bucket.bucket;
  const { ownership, publicAccessBlock, versioning } = privateBucketSettings(parent, prefix, bucketName, {
    ...inRegion,
    ...(key === undefined ? {} : { key }),
  });
  createRetentionLock(scope, bucketName, versioning, placement);
  // Noncurrent-version rules only take effect on a versioned bucket.
  new BucketLifecycleConfiguration(
    `${prefix}-lifecycle`,
    { ...inRegion, bucket: bucketName, rules: s3LifecycleRules(store.retention) },
    { parent, ...SAFETY_SETTING, dependsOn: [versioning] },
  );
  new BucketPolicy(
    `${prefix}-policy`,
    {
      ...inRegion,
      bucket: bucketName,
      policy: pulumi
        .all([bucket.arn, policyInputs.keyArn, policyInputs.perimeter, policyInputs.storeRoleArns])
        .apply(([bucketArn, keyArn, perimeter, storeRoleArns]) => {
          const policy = s3BucketPolicy({ bucketArn, keyArn, ...(perimeter ? { perimeter } : {}) });
          if (lockDaysOf(scope) !== undefined) {
            policy.Statement.push(...retentionLockStatements(bucketArn, storeRoleArns));
          }
          return JSON.stringify(policy);
        }),
    },
    // S3 refuses a policy while the public access block is still being written.
    { parent, ...SAFETY_SETTING, dependsOn: [publicAccessBlock, ownership] },
  );
  return { name: bucketName, arn: bucket.arn, versioning };
}
