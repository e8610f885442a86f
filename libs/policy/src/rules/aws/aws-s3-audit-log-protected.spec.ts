import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { BUCKET_ARN, storeFixture } from '../../../testing/aws';
import { awsS3AuditLogProtected } from './aws-s3-audit-log-protected';

const AUDIT = 'urn:pulumi:test::spec::checkpoints:aws:StackAudit::audit';
const LOG_BUCKET = 'ckpt-audit-log';
const LOG_ARN = `arn:aws:s3:::${LOG_BUCKET}`;

const protection = {
  Sid: 'DenyDeletingAuditRecords',
  Effect: 'Deny',
  Principal: '*',
  Action: ['s3:DeleteObjectVersion', 's3:DeleteBucket', 's3:BypassGovernanceRetention'],
  Resource: [LOG_ARN, `${LOG_ARN}/*`],
};

/** The stack audit: a trail recording the store into a locked, logged, delete-denying log bucket. */
function audit(change: (resource: ResourceUnderTest) => ResourceUnderTest | null = (resource) => resource) {
  const child = (type: string, name: string, props: Record<string, unknown>): ResourceUnderTest => ({
    type,
    name,
    props,
    parent: AUDIT,
  });
  const resources: ResourceUnderTest[] = [
    child('aws:s3/bucket:Bucket', 'audit-bucket', { bucket: LOG_BUCKET }),
    child('aws:s3/bucket:Bucket', 'access-log-bucket', { bucket: 'ckpt-access-log' }),
    child('aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration', 'audit-retention-lock', {
      bucket: LOG_BUCKET,
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: 'GOVERNANCE', days: 365 } },
    }),
    child('aws:s3/bucketPolicy:BucketPolicy', 'audit-policy', {
      bucket: LOG_BUCKET,
      policy: JSON.stringify({ Version: '2012-10-17', Statement: [protection] }),
    }),
    child('aws:s3/bucketLogging:BucketLogging', 'audit-access-logging', {
      bucket: LOG_BUCKET,
      targetBucket: 'ckpt-access-log',
    }),
    child('aws:cloudtrail/trail:Trail', 'audit-trail', {
      name: 'ckpt-trail',
      s3BucketName: LOG_BUCKET,
      enableLogging: true,
      advancedEventSelectors: [
        {
          fieldSelectors: [
            { field: 'eventCategory', equals: ['Data'] },
            { field: 'resources.type', equals: ['AWS::S3::Object'] },
            { field: 'resources.ARN', startsWiths: [`${BUCKET_ARN}/`] },
          ],
        },
      ],
    }),
  ];
  return [
    ...storeFixture({ key: true }),
    { type: 'checkpoints:aws:StackAudit', name: 'audit', props: {} },
    ...resources.flatMap((resource) => change(resource) ?? []),
  ];
}

describe('aws-s3-audit-log-protected', () => {
  it('passes a logged log bucket with Object Lock and a bucket policy denying deletes to everyone', async () => {
    expect(await violationsOf(awsS3AuditLogProtected, audit())).toEqual([]);
  });

  it('flags a log bucket without access logging, without its lock, or whose policy lets records be deleted', async () => {
    expect(
      await violationsOf(
        awsS3AuditLogProtected,
        audit((resource) => (resource.name === 'audit-access-logging' ? null : resource)),
      ),
    ).toEqual([
      `store ckpt: audit-log bucket ${LOG_BUCKET}: no server access logging (BucketLogging) (CIS AWS 3.4, CloudTrail.7)`,
    ]);
    expect(
      await violationsOf(
        awsS3AuditLogProtected,
        audit((resource) => (resource.name === 'audit-retention-lock' ? null : resource)),
      ),
    ).toEqual([
      `store ckpt: audit-log bucket ${LOG_BUCKET}: no Object Lock configuration (checkpoints audit-immutable (AWS))`,
    ]);
    const withoutBucketDeny = {
      ...protection,
      Action: ['s3:DeleteObjectVersion', 's3:BypassGovernanceRetention'],
    };
    expect(
      await violationsOf(
        awsS3AuditLogProtected,
        audit((resource) =>
          resource.name === 'audit-policy'
            ? {
                ...resource,
                props: { ...resource.props, policy: JSON.stringify({ Statement: [withoutBucketDeny] }) },
              }
            : resource,
        ),
      ),
    ).toEqual([
      `store ckpt: audit-log bucket ${LOG_BUCKET}: bucket policy does not deny s3:DeleteBucket (checkpoints audit-immutable (AWS))`,
    ]);
  });
});
