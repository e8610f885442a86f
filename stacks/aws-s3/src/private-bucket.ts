import type * as pulumi from '@pulumi/pulumi';
import type { Key } from '@pulumi/aws/kms/key';
import { BucketOwnershipControls } from '@pulumi/aws/s3/bucketOwnershipControls';
import { BucketPublicAccessBlock } from '@pulumi/aws/s3/bucketPublicAccessBlock';
import { BucketServerSideEncryptionConfiguration } from '@pulumi/aws/s3/bucketServerSideEncryptionConfiguration';
import { BucketVersioning } from '@pulumi/aws/s3/bucketVersioning';
import { defaultEncryptionRule } from './encryption';
import { SAFETY_SETTING } from './scope';

/** The settings a bucket's policy and lifecycle must wait for. */
export interface PrivateBucketSettings {
  ownership: BucketOwnershipControls;
  publicAccessBlock: BucketPublicAccessBlock;
  versioning: BucketVersioning;
}

/**
 * What every general purpose bucket of the stack holds to, stores, replicas and log buckets alike: owned by its
 * account alone (ACLs off), every public access path blocked, versioned, and encrypted by default with `key`
 * (SSE-S3 without one), customer-provided keys (SSE-C) refused, since they would put the only copy of a key in a
 * writer's hands. Kept when the bucket is released (SAFETY_SETTING).
 */
export function privateBucketSettings(
  parent: pulumi.Resource,
  logicalPrefix: string,
  bucket: pulumi.Input<string>,
  placement: { region?: string; key?: Key },
): PrivateBucketSettings {
  const inRegion = placement.region === undefined ? {} : { region: placement.region };
  const setting = { parent, ...SAFETY_SETTING };
  const ownership = new BucketOwnershipControls(
    `${logicalPrefix}-ownership`,
    { ...inRegion, bucket, rule: { objectOwnership: 'BucketOwnerEnforced' } },
    setting,
  );
  const publicAccessBlock = new BucketPublicAccessBlock(
    `${logicalPrefix}-public-access-block`,
    {
      ...inRegion,
      bucket,
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    },
    setting,
  );
  const versioning = new BucketVersioning(
    `${logicalPrefix}-versioning`,
    { ...inRegion, bucket, versioningConfiguration: { status: 'Enabled' } },
    setting,
  );
  new BucketServerSideEncryptionConfiguration(
    `${logicalPrefix}-encryption`,
    {
      ...inRegion,
      bucket,
      rules: [{ ...defaultEncryptionRule(placement.key), blockedEncryptionTypes: ['SSE-C'] }],
    },
    setting,
  );
  return { ownership, publicAccessBlock, versioning };
}
