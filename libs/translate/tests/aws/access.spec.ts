import {
  awsStoreAccessPolicy,
  s3Endpoint,
  type AwsStorePurpose,
  type AwsStoreTarget,
} from '../../src/aws/access';
import type { AwsPolicyStatement } from '../../src/aws/types';

const bucketArn = 'arn:aws:s3:::ckpt-bucket';
const directoryArn = 'arn:aws:s3express:us-east-1:123456789012:bucket/ckpt--use1-az4--x-s3';
const keyArn = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-0000-4000-a000-000000000001';
const viaS3 = { StringEquals: { 'kms:ViaService': 's3.us-east-1.amazonaws.com' } };

const standard: AwsStoreTarget = { tier: 'standard', bucketArn, region: 'us-east-1' };
const directory: AwsStoreTarget = { tier: 'high-throughput', bucketArn: directoryArn, region: 'us-east-1' };

describe('awsStoreAccessPolicy', () => {
  it.each<[string, AwsStorePurpose, AwsStoreTarget, AwsPolicyStatement[]]>([
    [
      'standard writer, S3-managed key',
      'writer',
      standard,
      [
        {
          Sid: 'ListBucketAndUploads',
          Effect: 'Allow',
          Action: ['s3:ListBucket', 's3:ListBucketMultipartUploads'],
          Resource: [bucketArn],
        },
        {
          Sid: 'ReadWriteObjects',
          Effect: 'Allow',
          Action: [
            's3:GetObject',
            's3:PutObject',
            's3:DeleteObject',
            's3:AbortMultipartUpload',
            's3:ListMultipartUploadParts',
          ],
          Resource: [`${bucketArn}/*`],
        },
      ],
    ],
    [
      'standard reader, S3-managed key',
      'reader',
      standard,
      [
        { Sid: 'ListBucket', Effect: 'Allow', Action: ['s3:ListBucket'], Resource: [bucketArn] },
        { Sid: 'ReadObjects', Effect: 'Allow', Action: ['s3:GetObject'], Resource: [`${bucketArn}/*`] },
      ],
    ],
    [
      'standard writer, customer-managed key: encrypt and decrypt through S3 only',
      'writer',
      { ...standard, keyArn },
      [
        {
          Sid: 'ListBucketAndUploads',
          Effect: 'Allow',
          Action: ['s3:ListBucket', 's3:ListBucketMultipartUploads'],
          Resource: [bucketArn],
        },
        {
          Sid: 'ReadWriteObjects',
          Effect: 'Allow',
          Action: [
            's3:GetObject',
            's3:PutObject',
            's3:DeleteObject',
            's3:AbortMultipartUpload',
            's3:ListMultipartUploadParts',
          ],
          Resource: [`${bucketArn}/*`],
        },
        {
          Sid: 'UseStoreKey',
          Effect: 'Allow',
          Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
          Resource: [keyArn],
          Condition: viaS3,
        },
      ],
    ],
    [
      'standard reader, customer-managed key: decrypt only',
      'reader',
      { ...standard, keyArn },
      [
        { Sid: 'ListBucket', Effect: 'Allow', Action: ['s3:ListBucket'], Resource: [bucketArn] },
        { Sid: 'ReadObjects', Effect: 'Allow', Action: ['s3:GetObject'], Resource: [`${bucketArn}/*`] },
        {
          Sid: 'UseStoreKey',
          Effect: 'Allow',
          Action: ['kms:Decrypt'],
          Resource: [keyArn],
          Condition: viaS3,
        },
      ],
    ],
    [
      'directory bucket writer: a read-write session',
      'writer',
      { ...directory, keyArn },
      [
        {
          Sid: 'CreateReadWriteSession',
          Effect: 'Allow',
          Action: ['s3express:CreateSession'],
          Resource: [directoryArn],
        },
        {
          Sid: 'UseStoreKey',
          Effect: 'Allow',
          Action: ['kms:GenerateDataKey', 'kms:Decrypt'],
          Resource: [keyArn],
        },
      ],
    ],
    [
      'directory bucket reader: read-only sessions only',
      'reader',
      directory,
      [
        {
          Sid: 'CreateReadOnlySession',
          Effect: 'Allow',
          Action: ['s3express:CreateSession'],
          Resource: [directoryArn],
          Condition: { StringEquals: { 's3express:SessionMode': 'ReadOnly' } },
        },
      ],
    ],
  ])('%s', (_title, purpose, target, statements) => {
    expect(awsStoreAccessPolicy(purpose, target)).toEqual({ Version: '2012-10-17', Statement: statements });
  });

  it('never grants a wildcard action or resource', () => {
    const purposes: AwsStorePurpose[] = ['writer', 'reader'];
    const targets = [standard, { ...standard, keyArn }, directory, { ...directory, keyArn }];
    for (const purpose of purposes) {
      for (const target of targets) {
        for (const statement of awsStoreAccessPolicy(purpose, target).Statement) {
          expect(statement.Action.filter((action) => action.includes('*'))).toEqual([]);
          expect(statement.Resource).not.toContain('*');
        }
      }
    }
  });
});

describe('s3Endpoint', () => {
  it.each([
    ['us-east-1', 's3.us-east-1.amazonaws.com'],
    ['us-gov-west-1', 's3.us-gov-west-1.amazonaws.com'],
    ['cn-north-1', 's3.cn-north-1.amazonaws.com.cn'],
  ])('%s -> %s', (region, endpoint) => {
    expect(s3Endpoint(region)).toBe(endpoint);
  });
});
