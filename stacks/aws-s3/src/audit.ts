import * as pulumi from '@pulumi/pulumi';
import { Trail } from '@pulumi/aws/cloudtrail/trail';
import { Key } from '@pulumi/aws/kms/key';
import { Bucket } from '@pulumi/aws/s3/bucket';
import { BucketLifecycleConfiguration } from '@pulumi/aws/s3/bucketLifecycleConfiguration';
import { BucketObjectLockConfiguration } from '@pulumi/aws/s3/bucketObjectLockConfiguration';
import { BucketPolicy } from '@pulumi/aws/s3/bucketPolicy';
import {
  AWS_AUDIT_LOG_NAME,
  DATA_CLASSIFICATIONS,
  firstName,
  RETENTION_DEFAULTS,
  type StackSpec,
  type StoreSpec,
} from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import {
  auditRecordProtection,
  cloudTrailKeyPolicy,
  dataEventSelectors,
  s3LifecycleRules,
  s3TrailLogBucketPolicy,
  type AuditedBuckets,
} from '@checkpoints/translate';
import { awsTags, standardTags } from '@checkpoints/tagging';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { logAccess, type LoggedBucket } from './access-logs';
import { KEY_DELETION_WINDOW_DAYS } from './encryption';
import { privateBucketSettings } from './private-bucket';
import { RETENTION_LOCK_MODE } from './retention-lock';
import { SAFETY_SETTING } from './scope';

/** Where the stores' data events go: the stack trail and its log bucket, or the declared organization trail. */
export interface AuditOutputs {
  trail: pulumi.Output<string>;
  logBucket?: pulumi.Output<string>;
}

export interface StackAuditArgs {
  stack: Pick<StackSpec, 'environment' | 'owner' | 'costCenter'>;
  project: string;
  stackName: string;
  region: string;
  partition: pulumi.Output<string>;
  accountId: pulumi.Output<string>;
  /** The audited stores, their buckets and their replicas' (recorded by the trail, their requests logged). */
  audited: AuditedStore[];
  /** `checkpoints:organizationTrail`: it records the stores instead of a stack trail. */
  organizationTrail?: string;
}

export interface AuditedStore {
  store: StoreSpec;
  bucketArn: pulumi.Output<string>;
  bucketName: pulumi.Output<string>;
  replica?: { region: string; bucketArn: pulumi.Output<string>; bucketName: pulumi.Output<string> };
}

/**
 * Days each log file stays write-once: CloudTrail never rewrites one, so a year of Object Lock (in the mode an
 * administrator can still lift, retention-lock.ts) keeps every record of the last year from deletion, by CI
 * or anyone else. Security best practices for CloudTrail: "Consider using S3 Object Lock"
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/best-practices-security.html).
 */
export const AUDIT_LOG_LOCK_DAYS = 365;

/**
 * Log files are kept: only a previous version (a log deleted by hand) is purged, after this long. CloudTrail
 * never overwrites a log file, so versions only come from deletions.
 */
const LOG_RETENTION = {
  ...RETENTION_DEFAULTS,
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 30,
  coolAfterDays: 0,
};

/**
 * One CloudTrail trail per stack (not per store: CloudTrail allows 5 trails per region,
 * https://docs.aws.amazon.com/awscloudtrail/latest/userguide/WhatIsCloudTrail-Limits.html) recording every
 * read and write of the audited stores' objects into a log bucket that is private, owner-enforced, versioned,
 * encrypted (the trail's own KMS key in prod), TLS-only and writable by this trail only. Multi-region, so a
 * store's replica in another region is recorded too. Never deleted by a deploy; protected in prod.
 */
export class StackAudit extends pulumi.ComponentResource {
  readonly outputs: AuditOutputs;

  constructor(name: string, args: StackAuditArgs, opts?: pulumi.ComponentResourceOptions) {
    // The component's input says where the audit goes: the audit rule accepts a declared organization trail.
    super(
      COMPONENT_TYPES.awsStackAudit,
      name,
      args.organizationTrail === undefined ? {} : { organizationTrail: args.organizationTrail },
      opts,
    );
    const prod = args.stack.environment === 'prod';
    const keep: pulumi.CustomResourceOptions = { parent: this, protect: prod, retainOnDelete: true };
    const tags = auditTags(args);
    const logged = loggedBuckets(args.audited);
    const accessLogs = {
      project: args.project,
      stackName: args.stackName,
      accountId: args.accountId,
      tags,
      protect: prod,
    };
    if (args.organizationTrail !== undefined) {
      logAccess(this, accessLogs, logged);
      this.outputs = { trail: pulumi.output(args.organizationTrail) };
      this.registerOutputs({ ...this.outputs });
      return;
    }
    const nameContext: NameContext = {
      project: args.project,
      stack: args.stackName,
      store: AWS_AUDIT_LOG_NAME,
    };
    const trailName = names.s3Bucket(nameContext);
    const trailArn = pulumi.interpolate`arn:${args.partition}:cloudtrail:${args.region}:${args.accountId}:trail/${trailName}`;

    const key = prod
      ? new Key(
          `${name}-key`,
          {
            description: `Encrypts the CloudTrail data events of the checkpoint stores of ${args.project}/${args.stackName}`,
            keyUsage: 'ENCRYPT_DECRYPT',
            customerMasterKeySpec: 'SYMMETRIC_DEFAULT',
            enableKeyRotation: true,
            deletionWindowInDays: KEY_DELETION_WINDOW_DAYS,
            // The policy keeps the key manageable by the account's IAM administrators (its account statement)
            // and deliberately not by the deploy role that creates it, which holds no kms:PutKeyPolicy: CI
            // must never rewrite the key of its own audit trail. KMS's lockout check would refuse such a
            // CreateKey; skipping it is what the check is for "when you intend to prevent the principal that
            // is making the request from making a subsequent PutKeyPolicy request"
            // (https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateKey.html#KMS-CreateKey-request-BypassPolicyLockoutSafetyCheck).
            // A later change of this policy is an administrator's apply (docs/aws.md).
            bypassPolicyLockoutSafetyCheck: true,
            policy: pulumi
              .all([args.partition, args.accountId, trailArn])
              .apply(([partition, accountId, arn]) =>
                JSON.stringify(cloudTrailKeyPolicy(partition, accountId, arn)),
              ),
            tags,
          },
          keep,
        )
      : undefined;
    const bucket = new Bucket(`${name}-bucket`, { bucket: names.s3Bucket(nameContext), tags }, keep);
    const bucketName = bucket.bucket;
    const setting = { parent: this, ...SAFETY_SETTING };
    const { ownership, publicAccessBlock, versioning } = privateBucketSettings(
      this,
      name,
      bucketName,
      key === undefined ? {} : { key },
    );
    new BucketLifecycleConfiguration(
      `${name}-lifecycle`,
      { bucket: bucketName, rules: s3LifecycleRules(LOG_RETENTION) },
      { ...setting, dependsOn: [versioning] },
    );
    // Enabled in place on the versioned bucket and never disabled again (retention-lock.ts): retained, and
    // protected with the log bucket.
    new BucketObjectLockConfiguration(
      `${name}-retention-lock`,
      {
        bucket: bucketName,
        objectLockEnabled: 'Enabled',
        rule: { defaultRetention: { mode: RETENTION_LOCK_MODE, days: AUDIT_LOG_LOCK_DAYS } },
      },
      { ...keep, dependsOn: [versioning] },
    );
    logAccess(this, accessLogs, [...logged, { logicalPrefix: name, name: bucketName, arn: bucket.arn }]);
    const policy = new BucketPolicy(
      `${name}-policy`,
      {
        bucket: bucketName,
        policy: pulumi.all([bucket.arn, trailArn, args.accountId]).apply(([bucketArn, arn, accountId]) => {
          const policy = s3TrailLogBucketPolicy(bucketArn, arn, accountId);
          policy.Statement.push(auditRecordProtection(bucketArn));
          return JSON.stringify(policy);
        }),
      },
      { ...setting, dependsOn: [publicAccessBlock, ownership] },
    );
    const trail = new Trail(
      `${name}-trail`,
      {
        name: trailName,
        s3BucketName: bucketName,
        isMultiRegionTrail: true,
        // Only data events are selected; a multi-region trail must still name global service events.
        includeGlobalServiceEvents: true,
        enableLogFileValidation: true,
        enableLogging: true,
        ...(key ? { kmsKeyId: key.arn } : {}),
        advancedEventSelectors: pulumi
          .all(
            args.audited.flatMap(({ store, bucketArn, replica }) => [
              bucketArn.apply((arn) => ({ store, arn })),
              ...(replica ? [replica.bucketArn.apply((arn) => ({ store, arn }))] : []),
            ]),
          )
          .apply((buckets) => dataEventSelectors(auditedBuckets(buckets))),
        tags,
      },
      // CloudTrail checks the bucket policy when the trail is created.
      { ...keep, dependsOn: [policy] },
    );
    // The ARN CloudTrail gives the trail, known before it exists (the bucket and key policies name it too).
    this.outputs = {
      trail: pulumi.all([trail.id, trailArn]).apply(([, arn]) => arn),
      logBucket: pulumi.interpolate`s3://${bucketName}/AWSLogs/`,
    };
    this.registerOutputs({ ...this.outputs });
  }
}

/**
 * The general purpose buckets of the audited stores, each replica in its region: S3 server access logging is
 * not available for directory buckets (https://docs.aws.amazon.com/AmazonS3/latest/userguide/directory-buckets-overview.html),
 * whose data events the trail records.
 */
function loggedBuckets(audited: readonly AuditedStore[]): LoggedBucket[] {
  return (
    audited
      .filter(({ store }) => store.tier === 'standard')
      // Named after the store's first name, which a rename (formerNames) keeps, as its physical names do.
      .flatMap(({ store, bucketArn, bucketName, replica }) => [
        { logicalPrefix: firstName(store), name: bucketName, arn: bucketArn },
        ...(replica
          ? [
              {
                logicalPrefix: `${store.name}-replica`,
                name: replica.bucketName,
                arn: replica.bucketArn,
                region: replica.region,
              },
            ]
          : []),
      ])
  );
}

function auditTags(args: StackAuditArgs): Record<string, string> {
  return awsTags(
    standardTags({
      owner: args.stack.owner,
      costCenter: args.stack.costCenter,
      environment: args.stack.environment,
      dataClassification: highestClassification(args.audited.map(({ store }) => store)),
      project: args.project,
      stack: args.stackName,
    }),
  );
}

function auditedBuckets(buckets: { store: StoreSpec; arn: string }[]): AuditedBuckets {
  return {
    buckets: buckets.filter(({ store }) => store.tier === 'standard').map(({ arn }) => arn),
    directoryBuckets: buckets.filter(({ store }) => store.tier === 'high-throughput').map(({ arn }) => arn),
  };
}

/** The audit log holds records of every audited store, so it is classified as the most sensitive of them. */
function highestClassification(stores: StoreSpec[]): StoreSpec['dataClassification'] {
  const ranks = stores.map((store) => DATA_CLASSIFICATIONS.indexOf(store.dataClassification));
  return DATA_CLASSIFICATIONS[Math.max(0, ...ranks)] ?? 'internal';
}
