import { awsCiRoleArns, s3BucketPolicy, s3DirectoryBucketPolicy } from '../../src/aws/bucket-policy';
import type { AwsPolicyStatement } from '../../src/aws/types';

const bucketArn = 'arn:aws:s3:::ckpt-bucket';
const keyArn = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-0000-4000-a000-000000000001';
const directoryArn = 'arn:aws:s3express:us-east-1:123456789012:bucket/ckpt--use1-az4--x-s3';

const tlsStatements: AwsPolicyStatement[] = [
  {
    Sid: 'DenyInsecureTransport',
    Effect: 'Deny',
    Principal: '*',
    Action: ['s3:*'],
    Resource: [bucketArn, `${bucketArn}/*`],
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
  },
  {
    Sid: 'DenyOutdatedTls',
    Effect: 'Deny',
    Principal: '*',
    Action: ['s3:*'],
    Resource: [bucketArn, `${bucketArn}/*`],
    Condition: { NumericLessThan: { 's3:TlsVersion': 1.2 } },
  },
];

describe('s3BucketPolicy', () => {
  it.each<[string, string | undefined, AwsPolicyStatement[]]>([
    ['S3-managed key: TLS 1.2 or later only', undefined, tlsStatements],
    [
      'customer-managed key: also no upload that names another encryption or another key',
      keyArn,
      [
        ...tlsStatements,
        {
          Sid: 'DenyOtherEncryption',
          Effect: 'Deny',
          Principal: '*',
          Action: ['s3:PutObject'],
          Resource: [`${bucketArn}/*`],
          Condition: {
            StringNotEquals: { 's3:x-amz-server-side-encryption': 'aws:kms' },
            Null: { 's3:x-amz-server-side-encryption': 'false' },
          },
        },
        {
          Sid: 'DenyOtherKmsKeys',
          Effect: 'Deny',
          Principal: '*',
          Action: ['s3:PutObject'],
          Resource: [`${bucketArn}/*`],
          Condition: {
            StringNotEquals: { 's3:x-amz-server-side-encryption-aws-kms-key-id': keyArn },
            Null: { 's3:x-amz-server-side-encryption-aws-kms-key-id': 'false' },
          },
        },
      ],
    ],
  ])('%s', (_title, key, statements) => {
    expect(s3BucketPolicy({ bucketArn, keyArn: key })).toEqual({
      Version: '2012-10-17',
      Statement: statements,
    });
  });

  // The encryption denies must not match an upload that sends no header (default encryption applies):
  // every one of them requires the header to be present.
  it('denies a wrong encryption header only when one is sent', () => {
    const encryptionDenies = s3BucketPolicy({ bucketArn, keyArn }).Statement.filter((statement) =>
      statement.Action.includes('s3:PutObject'),
    );
    expect(encryptionDenies).toHaveLength(2);
    for (const statement of encryptionDenies) {
      const [header] = Object.keys(statement.Condition?.['StringNotEquals'] ?? {});
      expect(statement.Condition?.['Null']).toEqual({ [header as string]: 'false' });
      expect(Object.keys(statement.Condition ?? {}).some((operator) => operator.endsWith('IfExists'))).toBe(
        false,
      );
    }
  });
});

describe('s3DirectoryBucketPolicy', () => {
  it('guards CreateSession with TLS 1.2 and lets S3 Lifecycle open a read-write session', () => {
    expect(s3DirectoryBucketPolicy({ bucketArn: directoryArn })).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'DenyInsecureTransport',
          Effect: 'Deny',
          Principal: '*',
          Action: ['s3express:CreateSession'],
          Resource: [directoryArn],
          Condition: { Bool: { 'aws:SecureTransport': 'false' } },
        },
        {
          Sid: 'DenyOutdatedTls',
          Effect: 'Deny',
          Principal: '*',
          Action: ['s3express:CreateSession'],
          Resource: [directoryArn],
          Condition: { NumericLessThan: { 's3express:TlsVersion': 1.2 } },
        },
        {
          Sid: 'AllowLifecycleExpiry',
          Effect: 'Allow',
          Principal: { Service: ['lifecycle.s3.amazonaws.com'] },
          Action: ['s3express:CreateSession'],
          Resource: [directoryArn],
          Condition: { StringEquals: { 's3express:SessionMode': 'ReadWrite' } },
        },
        {
          Sid: 'DenyOtherEncryption',
          Effect: 'Deny',
          Principal: '*',
          Action: ['s3express:CreateSession'],
          Resource: [directoryArn],
          Condition: {
            StringNotEquals: { 's3express:x-amz-server-side-encryption': 'AES256' },
            Null: { 's3express:x-amz-server-side-encryption': 'false' },
          },
        },
      ],
    });
  });

  it('with a customer-managed key, refuses a session that names another key', () => {
    const statements = s3DirectoryBucketPolicy({ bucketArn: directoryArn, keyArn }).Statement;
    expect(statements.find((statement) => statement.Sid === 'DenyOtherKmsKeys')?.Condition).toEqual({
      StringNotEquals: { 's3express:x-amz-server-side-encryption-aws-kms-key-id': keyArn },
      Null: { 's3express:x-amz-server-side-encryption-aws-kms-key-id': 'false' },
    });
  });
});

describe('the perimeter statements', () => {
  const perimeter = {
    vpcEndpoints: ['vpce-0a1b2c3d4e5f60718'],
    vpcs: [],
    cidrs: ['203.0.113.0/24'],
    serviceRoleArns: ['arn:aws:iam::123456789012:role/replication'],
    ciRoleArns: awsCiRoleArns('aws', '123456789012', 'prod', 'checkpoints-ci-deploy-prod') ?? [],
  };

  it('general purpose: data outside the perimeter for all but S3 acting as the replication role; listings for CI too', () => {
    const statements = s3BucketPolicy({ bucketArn, perimeter }).Statement.slice(2);
    expect(
      statements.map((statement) => [statement.Sid, statement.Condition?.['ArnNotEqualsIfExists']]),
    ).toEqual([
      ['DenyDataOutsidePerimeter', { 'aws:PrincipalArn': ['arn:aws:iam::123456789012:role/replication'] }],
      [
        'DenyListingOutsidePerimeter',
        {
          'aws:PrincipalArn': [
            'arn:aws:iam::123456789012:role/replication',
            'arn:aws:iam::123456789012:role/checkpoints-ci-preview',
            'arn:aws:iam::123456789012:role/checkpoints-ci-deploy-prod',
          ],
        },
      ],
    ]);
    expect(statements[0]?.Condition).toMatchObject({
      StringNotEqualsIfExists: { 'aws:SourceVpce': ['vpce-0a1b2c3d4e5f60718'] },
      NotIpAddressIfExists: { 'aws:SourceIp': ['203.0.113.0/24'] },
      BoolIfExists: { 'aws:PrincipalIsAWSService': 'false' },
    });
  });

  it('directory: no session outside the perimeter for anyone, CI included (CI opens none)', () => {
    const statements = s3DirectoryBucketPolicy({ bucketArn: directoryArn, perimeter }).Statement.slice(-1);
    expect(statements.map((statement) => statement.Sid)).toEqual(['DenySessionsOutsidePerimeter']);
    expect(JSON.stringify(statements[0]?.Condition)).not.toContain('checkpoints-');
  });
});

describe('awsCiRoleArns', () => {
  it("names the environment's deploy role and its bootstrap stack's preview role exactly", () => {
    expect(awsCiRoleArns('aws', '123456789012', 'prod', 'checkpoints-ops-deploy-prod')).toEqual([
      'arn:aws:iam::123456789012:role/checkpoints-ops-preview',
      'arn:aws:iam::123456789012:role/checkpoints-ops-deploy-prod',
    ]);
  });

  it("names nothing for a role that is not the environment's deploy role", () => {
    expect(awsCiRoleArns('aws', '123456789012', 'prod', 'checkpoints-ops-deploy-dev')).toBeUndefined();
  });
});
