import { denyAll, MIN_TLS_VERSION } from './bucket-policy';
import { awsPolicyDocument, type AwsPolicyDocument, type AwsPolicyStatement } from './types';

const CLOUDTRAIL = 'cloudtrail.amazonaws.com';

/** What the stack trail records: every read and write of each audited store's objects. */
export interface AuditedBuckets {
  /** General purpose bucket ARNs, `arn:aws:s3:::NAME`. */
  buckets: readonly string[];
  /** Directory bucket ARNs, `arn:aws:s3express:REGION:ACCOUNT:bucket/NAME`. */
  directoryBuckets: readonly string[];
}

export interface TrailAdvancedEventSelector {
  name: string;
  fieldSelectors: { field: string; equals?: string[]; startsWiths?: string[] }[];
}

/**
 * CloudTrail advanced event selectors for the data events (reads and writes: no `readOnly` field) of the
 * objects of these buckets. Directory buckets' objects are their own resource type, which basic event
 * selectors cannot select. Sources: CloudTrail API Reference, AdvancedFieldSelector
 * (https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_AdvancedFieldSelector.html: eventCategory
 * Equals Data, resources.type Equals, resources.ARN StartsWith the bucket ARN with its trailing slash) and
 * DataResource ("To log data events for all other resource types including objects stored in directory
 * buckets, you must use AdvancedEventSelectors"); "Logging with AWS CloudTrail for directory buckets",
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-one-zone-logging.html (AWS::S3Express::Object).
 */
export function dataEventSelectors({
  buckets,
  directoryBuckets,
}: AuditedBuckets): TrailAdvancedEventSelector[] {
  const selector = (name: string, type: string, arns: readonly string[]): TrailAdvancedEventSelector => ({
    name,
    fieldSelectors: [
      { field: 'eventCategory', equals: ['Data'] },
      { field: 'resources.type', equals: [type] },
      { field: 'resources.ARN', startsWiths: arns.map((arn) => `${arn}/`) },
    ],
  });
  return [
    ...(buckets.length > 0 ? [selector('Checkpoint store objects', 'AWS::S3::Object', buckets)] : []),
    ...(directoryBuckets.length > 0
      ? [
          selector(
            'Checkpoint store objects (S3 Express One Zone)',
            'AWS::S3Express::Object',
            directoryBuckets,
          ),
        ]
      : []),
  ];
}

/** No request to a log bucket without TLS 1.2+. */
function tlsOnly(bucketArn: string): AwsPolicyStatement[] {
  return [
    denyAll('DenyInsecureTransport', ['s3:*'], [bucketArn, `${bucketArn}/*`], {
      Bool: { 'aws:SecureTransport': 'false' },
    }),
    denyAll('DenyOutdatedTls', ['s3:*'], [bucketArn, `${bucketArn}/*`], {
      NumericLessThan: { 's3:TlsVersion': MIN_TLS_VERSION },
    }),
  ];
}

/**
 * The trail's log bucket policy: CloudTrail may check the bucket's ACL and write under AWSLogs/ACCOUNT/, for
 * this trail only (aws:SourceArn, against the confused deputy); no request without TLS 1.2+. Source: "Amazon
 * S3 bucket policy for CloudTrail", https://docs.aws.amazon.com/awscloudtrail/latest/userguide/create-s3-bucket-policy-for-cloudtrail.html
 * (AWSCloudTrailAclCheck, AWSCloudTrailWrite with s3:x-amz-acl bucket-owner-full-control and aws:SourceArn).
 */
export function s3TrailLogBucketPolicy(
  bucketArn: string,
  trailArn: string,
  accountId: string,
): AwsPolicyDocument {
  const fromTrail = { StringEquals: { 'aws:SourceArn': trailArn } };
  return awsPolicyDocument([
    ...tlsOnly(bucketArn),
    {
      Sid: 'AWSCloudTrailAclCheck',
      Effect: 'Allow',
      Principal: { Service: [CLOUDTRAIL] },
      Action: ['s3:GetBucketAcl'],
      Resource: [bucketArn],
      Condition: fromTrail,
    },
    {
      Sid: 'AWSCloudTrailWrite',
      Effect: 'Allow',
      Principal: { Service: [CLOUDTRAIL] },
      Action: ['s3:PutObject'],
      Resource: [`${bucketArn}/AWSLogs/${accountId}/*`],
      Condition: {
        StringEquals: { 's3:x-amz-acl': 'bucket-owner-full-control', 'aws:SourceArn': trailArn },
      },
    },
  ]);
}

/**
 * The policy of the key that encrypts the trail's log files (prod): the account's IAM policies decide as for
 * every key of the stack (AWS's default statement), and CloudTrail may generate data keys for this trail only.
 * Source: "Configure AWS KMS key policies for CloudTrail",
 * https://docs.aws.amazon.com/awscloudtrail/latest/userguide/create-kms-key-policy-for-cloudtrail.html
 * (kms:GenerateDataKey with aws:SourceArn and kms:EncryptionContext:aws:cloudtrail:arn; kms:DescribeKey).
 */
export function cloudTrailKeyPolicy(
  partition: string,
  accountId: string,
  trailArn: string,
): AwsPolicyDocument {
  return awsPolicyDocument([
    {
      Sid: 'Enable IAM User Permissions',
      Effect: 'Allow',
      Principal: { AWS: [`arn:${partition}:iam::${accountId}:root`] },
      Action: ['kms:*'],
      Resource: ['*'],
    },
    {
      Sid: 'AllowCloudTrailToEncryptLogs',
      Effect: 'Allow',
      Principal: { Service: [CLOUDTRAIL] },
      Action: ['kms:GenerateDataKey'],
      Resource: ['*'],
      Condition: {
        StringEquals: { 'aws:SourceArn': trailArn },
        StringLike: {
          'kms:EncryptionContext:aws:cloudtrail:arn': `arn:${partition}:cloudtrail:*:${accountId}:trail/*`,
        },
      },
    },
    {
      Sid: 'AllowCloudTrailToDescribeKey',
      Effect: 'Allow',
      Principal: { Service: [CLOUDTRAIL] },
      Action: ['kms:DescribeKey'],
      Resource: ['*'],
    },
  ]);
}

/**
 * What no principal may do to a bucket that holds audit records (the trail's log files, the server access
 * logs): delete an object version or the bucket, or bypass an Object Lock retention. An explicit deny in a
 * bucket policy wins over every allow (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html);
 * lifecycle expiry is S3's own action, not a request the policy judges. Break-glass is an administrator removing
 * the statement first, in a change the trail records.
 */
export const AUDIT_RECORD_PROTECTED_ACTIONS = [
  's3:DeleteObjectVersion',
  's3:DeleteBucket',
  's3:BypassGovernanceRetention',
] as const;

export function auditRecordProtection(bucketArn: string): AwsPolicyStatement {
  return {
    Sid: 'DenyDeletingAuditRecords',
    Effect: 'Deny',
    Principal: '*',
    Action: [...AUDIT_RECORD_PROTECTED_ACTIONS],
    Resource: [bucketArn, `${bucketArn}/*`],
  };
}

/**
 * The policy of a region's server access log bucket: S3's logging service may write the logs of the listed
 * buckets of this account only (aws:SourceArn, aws:SourceAccount), no request without TLS 1.2+, no record deleted.
 * Source: "Permissions for log delivery", https://docs.aws.amazon.com/AmazonS3/latest/userguide/enable-server-access-logging.html#grant-log-delivery-permissions-general
 * (Principal logging.s3.amazonaws.com, s3:PutObject, ArnLike aws:SourceArn, StringEquals aws:SourceAccount).
 */
export function s3AccessLogBucketPolicy(
  bucketArn: string,
  accountId: string,
  sourceBucketArns: readonly string[],
): AwsPolicyDocument {
  return awsPolicyDocument([
    ...tlsOnly(bucketArn),
    {
      Sid: 'S3ServerAccessLogsPolicy',
      Effect: 'Allow',
      Principal: { Service: ['logging.s3.amazonaws.com'] },
      Action: ['s3:PutObject'],
      Resource: [`${bucketArn}/*`],
      Condition: {
        ArnLike: { 'aws:SourceArn': [...sourceBucketArns] },
        StringEquals: { 'aws:SourceAccount': accountId },
      },
    },
    auditRecordProtection(bucketArn),
  ]);
}
