import type { AwsPolicyStatement } from '@checkpoints/translate';
import type { Snapshot } from '@checkpoints/synth';
import { catalogueProblems, policyDocuments } from './iam-catalogue';
import { renderStack } from './render-stack';

/** One stack with every kind of store and principal, so every statement the code can write is rendered. */
function renderEveryVariant(): Promise<Snapshot> {
  return renderStack({
    environment: 'prod',
    stores: [
      {
        name: 'standard-cmk',
        dataClassification: 'confidential',
        access: {
          writers: [
            'sagemaker.amazonaws.com',
            'pods.eks.amazonaws.com',
            'arn:aws:iam::123456789012:role/train',
          ],
          readers: ['arn:aws:iam::123456789012:user/auditor'],
        },
      },
      { name: 'standard-s3-key', dataClassification: 'internal', encryption: 'provider-managed' },
      { name: 'express-cmk', dataClassification: 'internal', tier: 'high-throughput', zone: 'use1-az4' },
      {
        name: 'express-s3-key',
        dataClassification: 'internal',
        tier: 'high-throughput',
        zone: 'use1-az6',
        encryption: 'provider-managed',
      },
    ],
  });
}

describe('every IAM action and condition key the stack writes is in AWS’s published catalogue', () => {
  let statements: AwsPolicyStatement[];
  beforeAll(async () => {
    const snapshot = await renderEveryVariant();
    // AWS's default key statement (the account root, kms:*) hands a key to the account's IAM policies; the
    // stack writes it into the audit key's policy as KMS publishes it:
    // https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html#key-policy-default-allow-root-enable-iam
    statements = policyDocuments(snapshot)
      .flatMap(({ document }) => document.Statement)
      .filter((statement) => statement.Sid !== 'Enable IAM User Permissions');
  });

  it('finds the bucket, role, trust and key policies it checks', () => {
    expect([...new Set(statements.flatMap((statement) => statement.Action))].sort()).toEqual([
      'events:DeleteRule',
      'events:DescribeRule',
      'events:ListTargetsByRule',
      'events:PutRule',
      'events:PutTargets',
      'events:RemoveTargets',
      'kms:Decrypt',
      'kms:DescribeKey',
      'kms:GenerateDataKey',
      's3:*',
      's3:AbortMultipartUpload',
      's3:BypassGovernanceRetention',
      's3:DeleteBucket',
      's3:DeleteObject',
      's3:DeleteObject*',
      's3:DeleteObjectVersion',
      's3:GetBucketAcl',
      's3:GetBucketNotification',
      's3:GetObject',
      's3:GetObject*',
      's3:GetObjectVersion',
      's3:ListBucket',
      's3:ListBucketMultipartUploads',
      's3:ListBucketVersions',
      's3:ListMultipartUploadParts',
      's3:PutBucketNotification',
      's3:PutBucketObjectLockConfiguration',
      's3:PutObject',
      's3:PutObject*',
      's3:ReplicateDelete',
      's3:ReplicateObject',
      's3:ReplicateTags',
      's3:RestoreObject',
      's3express:CreateSession',
      'sts:AssumeRole',
      'sts:TagSession',
    ]);
  });

  it('has no unknown action, no unknown condition key and no wildcard outside a Deny', async () => {
    expect(await catalogueProblems(statements)).toEqual([]);
  });
});

describe('the catalogue check itself', () => {
  const statement = (
    Effect: 'Allow' | 'Deny',
    Action: string[],
    Condition?: AwsPolicyStatement['Condition'],
  ) => ({
    Sid: 'Probe',
    Effect,
    Action,
    Resource: ['arn:aws:s3:::bucket/*'],
    ...(Condition ? { Condition } : {}),
  });

  it.each<[string, AwsPolicyStatement, string[]]>([
    [
      'a typo in an action name',
      statement('Allow', ['s3:PutObjects']),
      ['Probe: unknown action s3:PutObjects'],
    ],
    ['an unknown service', statement('Allow', ['s4:GetObject']), ['Probe: unknown service in s4:GetObject']],
    [
      'a wildcard in an Allow',
      statement('Allow', ['s3:Get*']),
      ['Probe: wildcard action s3:Get* in an Allow'],
    ],
    [
      'a Deny wildcard that matches nothing',
      statement('Deny', ['s3:Fly*']),
      ['Probe: wildcard s3:Fly* matches no action'],
    ],
    [
      'a typo in a condition key',
      statement('Deny', ['s3:*'], { NumericLessThan: { 's3:TlsVersions': 1.2 } }),
      ['Probe: unknown condition key s3:TlsVersions'],
    ],
    ['real actions and keys', statement('Deny', ['s3:*'], { Bool: { 'aws:SecureTransport': 'false' } }), []],
  ])('%s', async (_title, probe, problems) => {
    expect(await catalogueProblems([probe])).toEqual(problems);
  });
});
