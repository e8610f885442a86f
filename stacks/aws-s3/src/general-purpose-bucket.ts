import * as pulumi from '@pulumi/pulumi';
import type { Key } from '@pulumi/aws/kms/key';
import { Bucket } from '@pulumi/aws/s3/bucket';
import { BucketLifecycleConfiguration } from '@pulumi/aws/s3/bucketLifecycleConfiguration';
import { BucketOwnershipControls } from '@pulumi/aws/s3/bucketOwnershipControls';
import { BucketPolicy } from '@pulumi/aws/s3/bucketPolicy';
import { BucketPublicAccessBlock } from '@pulumi/aws/s3/bucketPublicAccessBlock';
import { BucketServerSideEncryptionConfiguration } from '@pulumi/aws/s3/bucketServerSideEncryptionConfiguration';
import { BucketVersioning } from '@pulumi/aws/s3/bucketVersioning';
import { names } from '@checkpoints/naming';
import { s3BucketPolicy, s3LifecycleRules } from '@checkpoints/policy';
import { defaultEncryptionRule } from './encryption';
import {
  dataProtection,
  SAFETY_SETTING,
  type BucketPolicyInputs,
  type StoreBucket,
  type StoreScope,
} from './scope';

/**
 * The standard tier: a versioned general purpose bucket, private to its account, encrypted by default,
 * reachable over TLS 1.2+ only, with the store's retention as its lifecycle.
 */
export function createGeneralPurposeBucket(
  scope: StoreScope,
  key: Key | undefined,
  policyInputs: BucketPolicyInputs,
): StoreBucket {
  const { store, parent } = scope;
  const bucket = new Bucket(
    `${store.name}-bucket`,
    { bucket: names.s3Bucket(scope.nameContext), tags: scope.tags },
    { parent, ...dataProtection(store) },
  );
  const bucketName = bucket.bucket;
  const ownership = new BucketOwnershipControls(
    `${store.name}-ownership`,
    { bucket: bucketName, rule: { objectOwnership: 'BucketOwnerEnforced' } },
    { parent, ...SAFETY_SETTING },
  );
  const publicAccessBlock = new BucketPublicAccessBlock(
    `${store.name}-public-access-block`,
    {
      bucket: bucketName,
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    },
    { parent, ...SAFETY_SETTING },
  );
  const versioning = new BucketVersioning(
    `${store.name}-versioning`,
    { bucket: bucketName, versioningConfiguration: { status: 'Enabled' } },
    { parent, ...SAFETY_SETTING },
  );
  new BucketServerSideEncryptionConfiguration(
    `${store.name}-encryption`,
    // Customer-provided keys (SSE-C) would put the only copy of a key in a training job's hands.
    { bucket: bucketName, rules: [{ ...defaultEncryptionRule(key), blockedEncryptionTypes: ['SSE-C'] }] },
    { parent, ...SAFETY_SETTING },
  );
  // Noncurrent-version rules only take effect on a versioned bucket.
  new BucketLifecycleConfiguration(
    `${store.name}-lifecycle`,
    { bucket: bucketName, rules: s3LifecycleRules(store.retention) },
    { parent, ...SAFETY_SETTING, dependsOn: [versioning] },
  );
  new BucketPolicy(
    `${store.name}-policy`,
    {
      bucket: bucketName,
      policy: pulumi
        .all([bucket.arn, policyInputs.keyArn, policyInputs.perimeter])
        .apply(([bucketArn, keyArn, perimeter]) =>
          JSON.stringify(s3BucketPolicy({ bucketArn, keyArn, ...(perimeter ? { perimeter } : {}) })),
        ),
    },
    // S3 refuses a policy while the public access block is still being written.
    { parent, ...SAFETY_SETTING, dependsOn: [publicAccessBlock, ownership] },
  );
  return { name: bucketName, arn: bucket.arn };
}
