import * as pulumi from '@pulumi/pulumi';
import { Bucket } from '@pulumi/aws/s3/bucket';
import { BucketLifecycleConfiguration } from '@pulumi/aws/s3/bucketLifecycleConfiguration';
import { BucketLogging } from '@pulumi/aws/s3/bucketLogging';
import { BucketPolicy } from '@pulumi/aws/s3/bucketPolicy';
import { AWS_ACCESS_LOG_NAME, RETENTION_DEFAULTS } from '@checkpoints/config';
import { names } from '@checkpoints/naming';
import { s3AccessLogBucketPolicy, s3LifecycleRules } from '@checkpoints/translate';
import { privateBucketSettings } from './private-bucket';
import { SAFETY_SETTING } from './scope';

/** A bucket whose requests are logged: its logical name prefix, name and ARN, and region (absent: the stack's). */
export interface LoggedBucket {
  logicalPrefix: string;
  name: pulumi.Output<string>;
  arn: pulumi.Output<string>;
  region?: string;
}

export interface AccessLogArgs {
  project: string;
  stackName: string;
  accountId: pulumi.Output<string>;
  tags: Record<string, string>;
  protect: boolean;
}

/**
 * Server access logs are kept a year: a previous version (a log deleted by hand) is purged 30 days later. S3
 * never overwrites a log object, so versions only come from deletions.
 */
const ACCESS_LOG_RETENTION = {
  ...RETENTION_DEFAULTS,
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 30,
  coolAfterDays: 0,
  expireAfterDays: 365,
};

/**
 * S3 server access logging of every bucket holding a store's data, and of the trail's log bucket: one log bucket
 * per region, as S3 delivers logs only into a bucket of the source bucket's region and account
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/ServerLogs.html). The log bucket is encrypted with
 * SSE-S3, the only default encryption log delivery supports, and has no Object Lock default retention, which log
 * delivery refuses (the same page; Security Hub S3.9: "must not have a default retention period configuration");
 * its policy denies deleting a record to everyone instead. Never deleted by a deploy; protected in prod.
 */
export function logAccess(
  parent: pulumi.Resource,
  args: AccessLogArgs,
  buckets: readonly LoggedBucket[],
): void {
  const byRegion = new Map<string | undefined, LoggedBucket[]>();
  for (const bucket of buckets) byRegion.set(bucket.region, [...(byRegion.get(bucket.region) ?? []), bucket]);
  for (const [region, sources] of byRegion) {
    const target = createAccessLogBucket(parent, args, region, sources);
    for (const source of sources) {
      new BucketLogging(
        `${source.logicalPrefix}-access-logging`,
        {
          ...(region === undefined ? {} : { region }),
          bucket: source.name,
          targetBucket: target,
          targetPrefix: pulumi.interpolate`${source.name}/`,
        },
        { parent, ...SAFETY_SETTING },
      );
    }
  }
}

function createAccessLogBucket(
  parent: pulumi.Resource,
  args: AccessLogArgs,
  region: string | undefined,
  sources: readonly LoggedBucket[],
): pulumi.Output<string> {
  const inRegion = region === undefined ? {} : { region };
  const store = region === undefined ? AWS_ACCESS_LOG_NAME : `${AWS_ACCESS_LOG_NAME}-${region}`;
  const prefix = store;
  const bucket = new Bucket(
    `${prefix}-bucket`,
    {
      ...inRegion,
      bucket: names.s3Bucket({ project: args.project, stack: args.stackName, store }),
      tags: args.tags,
    },
    { parent, protect: args.protect, retainOnDelete: true },
  );
  const name = bucket.bucket;
  const setting = { parent, ...SAFETY_SETTING };
  const { ownership, publicAccessBlock, versioning } = privateBucketSettings(parent, prefix, name, inRegion);
  new BucketLifecycleConfiguration(
    `${prefix}-lifecycle`,
    { ...inRegion, bucket: name, rules: s3LifecycleRules(ACCESS_LOG_RETENTION) },
    { ...setting, dependsOn: [versioning] },
  );
  new BucketPolicy(
    `${prefix}-policy`,
    {
      ...inRegion,
      bucket: name,
      policy: pulumi
        .all([bucket.arn, args.accountId, pulumi.all(sources.map((source) => source.arn))])
        .apply(([arn, accountId, sourceArns]) =>
          JSON.stringify(s3AccessLogBucketPolicy(arn, accountId, sourceArns)),
        ),
    },
    { ...setting, dependsOn: [publicAccessBlock, ownership] },
  );
  return name;
}
