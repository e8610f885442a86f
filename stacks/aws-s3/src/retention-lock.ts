import type * as pulumi from '@pulumi/pulumi';
import { BucketObjectLockConfiguration } from '@pulumi/aws/s3/bucketObjectLockConfiguration';
import type { AwsPolicyStatement } from '@checkpoints/translate';
import { dataProtection, type StoreScope } from './scope';

/**
 * The relaxable mode: an identity with s3:BypassGovernanceRetention can still delete a locked version (break
 * glass), where COMPLIANCE locks it even against the account's root user, so a mistake there could not be undone
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock.html#object-lock-retention-modes).
 */
export const RETENTION_LOCK_MODE = 'GOVERNANCE';

/**
 * The days every version of a general purpose bucket is locked after its write: the spec's
 * `recovery.retentionLock`, else, in prod, the store's recovery window (`noncurrentExpireDays`). That default
 * is the guardrail no CI identity can lift: lifecycle does not delete a locked version
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-lifecycle),
 * so a lifecycle configuration CI rewrites to expire everything leaves each version written in the last
 * window's days; CI is denied s3:BypassGovernanceRetention (bootstrap) and, through its own policy, every
 * object write (s3:PutObjectRetention among them). A version older than the lock is not held: docs/security.md.
 * The store's replica takes the same lock: S3 replicates from a bucket with Object Lock only into one with
 * Object Lock (DstBucketObjectLockConfigMissing, https://docs.aws.amazon.com/AmazonS3/latest/userguide/replication-failure-codes.html).
 */
export function lockDaysOf(scope: StoreScope): number | undefined {
  const spec = scope.store.recovery.retentionLock?.days;
  if (spec !== undefined) return spec;
  const window = scope.store.retention.noncurrentExpireDays;
  return scope.tags['environment'] === 'prod' && window > 0 ? window : undefined;
}

/**
 * `recovery.retentionLock: { days }` (or the prod default, lockDaysOf): S3 Object Lock on the store's versioned bucket, with a default retention that
 * locks every new object version for `days` after its write.
 *
 * `BucketObjectLockConfiguration` enables Object Lock on the existing bucket in place (PutObjectLockConfiguration:
 * "You can enable Object Lock for new or existing buckets",
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObjectLockConfiguration.html; the @pulumi/aws 7.48.0
 * resource: "can be used enable Object Lock for new and existing buckets"), where the bucket's own
 * `objectLockEnabled` forces a new bucket (libs/analysis/src/changes/aws.ts), so it is never set. S3 needs
 * versioning enabled first. Object Lock cannot be disabled once enabled
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-configure.html), so the resource is
 * retained (and protected with the data): removed from the program, it is released, and the bucket keeps its lock.
 */
export function createRetentionLock(
  scope: StoreScope,
  bucketName: pulumi.Output<string>,
  versioning: pulumi.Resource,
  placement: { logicalPrefix: string; region?: string },
): BucketObjectLockConfiguration | undefined {
  const { store, parent } = scope;
  const days = lockDaysOf(scope);
  if (days === undefined) return undefined;
  return new BucketObjectLockConfiguration(
    `${placement.logicalPrefix}-retention-lock`,
    {
      ...(placement.region === undefined ? {} : { region: placement.region }),
      bucket: bucketName,
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: RETENTION_LOCK_MODE, days } },
    },
    { parent, ...dataProtection(store), dependsOn: [versioning] },
  );
}

/**
 * The bucket policy's guards of a locked store. An explicit deny in a bucket policy wins over every allow of any
 * identity policy (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html):
 * - nobody bypasses the lock: deleting a locked version, or shortening its retention, in GOVERNANCE mode takes
 *   s3:BypassGovernanceRetention and the x-amz-bypass-governance-retention header
 *   (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-bypass);
 *   break glass is an administrator removing this statement first, in a change CloudTrail records;
 * - the store's writer and reader never change the bucket's lock (s3:PutBucketObjectLockConfiguration): only the
 *   deploy identity does, through the stack.
 */
export function retentionLockStatements(
  bucketArn: string,
  storeRoleArns: readonly string[],
): AwsPolicyStatement[] {
  return [
    {
      Sid: 'DenyBypassingRetentionLock',
      Effect: 'Deny',
      Principal: '*',
      Action: ['s3:BypassGovernanceRetention'],
      Resource: [`${bucketArn}/*`],
    },
    {
      Sid: 'DenyStoreRolesChangingRetentionLock',
      Effect: 'Deny',
      Principal: '*',
      Action: ['s3:PutBucketObjectLockConfiguration'],
      Resource: [bucketArn],
      Condition: { ArnEquals: { 'aws:PrincipalArn': [...storeRoleArns] } },
    },
  ];
}
