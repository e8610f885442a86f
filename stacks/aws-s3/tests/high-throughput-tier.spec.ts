import { childrenOf, type Snapshot } from '@checkpoints/synth';
import { ACCOUNT, documentOf, renderStack, resource, TYPES } from './render-stack';

const bucketName = 'checkpoints-aws-prod-llm-pretrain-fast-ec493e--use1-az4--x-s3';
const bucketArn = `arn:aws:s3express:us-east-1:${ACCOUNT}:bucket/${bucketName}`;

function renderFast(extra: Record<string, unknown> = {}): Promise<Snapshot> {
  return renderStack({
    environment: 'prod',
    stores: [
      {
        name: 'llm-pretrain-fast',
        dataClassification: 'confidential',
        tier: 'high-throughput',
        zone: 'use1-az4',
        retention: { expireAfterDays: 7 },
        ...extra,
      },
    ],
  });
}

describe('high-throughput tier (S3 Express One Zone), customer-managed encryption', () => {
  let snapshot: Snapshot;
  let keyArn: string;
  beforeAll(async () => {
    snapshot = await renderFast();
    const keyId = resource(snapshot, 'alias', 'llm-pretrain-fast-key-alias').inputs['targetKeyId'] as string;
    keyArn = `arn:aws:kms:us-east-1:${ACCOUNT}:key/${keyId}`;
  });

  it('creates a directory bucket in the store zone, single-AZ, never force-destroyed', () => {
    expect(resource(snapshot, 'directoryBucket', 'llm-pretrain-fast-bucket').inputs).toEqual({
      bucket: bucketName,
      location: { name: 'use1-az4', type: 'AvailabilityZone' },
      dataRedundancy: 'SingleAvailabilityZone',
      type: 'Directory',
      tags: expect.any(Object),
    });
  });

  it('creates exactly the directory bucket, its key, encryption, policy, lifecycle and two roles', () => {
    const store = resource(snapshot, 'store', 'llm-pretrain-fast');
    expect(
      childrenOf(snapshot, store)
        .map((child) => `${child.type} ${child.name}`)
        .sort(),
    ).toEqual(
      [
        `${TYPES.directoryBucket} llm-pretrain-fast-bucket`,
        `${TYPES.key} llm-pretrain-fast-key`,
        `${TYPES.alias} llm-pretrain-fast-key-alias`,
        `${TYPES.encryption} llm-pretrain-fast-encryption`,
        `${TYPES.lifecycle} llm-pretrain-fast-lifecycle`,
        `${TYPES.bucketPolicy} llm-pretrain-fast-policy`,
        `${TYPES.role} llm-pretrain-fast-writer`,
        `${TYPES.rolePolicy} llm-pretrain-fast-writer-access`,
        `${TYPES.role} llm-pretrain-fast-reader`,
        `${TYPES.rolePolicy} llm-pretrain-fast-reader-access`,
      ].sort(),
    );
    // Directory buckets always block public access, enforce ownership and have no versioning.
    const generalPurposeOnly: string[] = [
      TYPES.bucket,
      TYPES.ownership,
      TYPES.publicAccessBlock,
      TYPES.versioning,
    ];
    expect(childrenOf(snapshot, store).filter((r) => generalPurposeOnly.includes(r.type))).toEqual([]);
  });

  it('encrypts by default with SSE-KMS and the store key', () => {
    expect(resource(snapshot, 'encryption', 'llm-pretrain-fast-encryption').inputs).toEqual({
      bucket: bucketName,
      rules: [
        {
          applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: keyArn },
          bucketKeyEnabled: true,
        },
      ],
    });
  });

  it('guards CreateSession with TLS 1.2, the store key only and the perimeter, and lets S3 Lifecycle expire objects', () => {
    const policy = resource(snapshot, 'bucketPolicy', 'llm-pretrain-fast-policy');
    expect(policy.inputs['bucket']).toBe(bucketName);
    const statements = documentOf(policy).Statement;
    expect(statements.map((statement) => statement.Sid)).toEqual([
      'DenyInsecureTransport',
      'DenyOutdatedTls',
      'AllowLifecycleExpiry',
      'DenyOtherEncryption',
      'DenyOtherKmsKeys',
      'DenySessionsOutsidePerimeter',
    ]);
    expect(statements.slice(0, 5)).toEqual([
      {
        Sid: 'DenyInsecureTransport',
        Effect: 'Deny',
        Principal: '*',
        Action: ['s3express:CreateSession'],
        Resource: [bucketArn],
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
      {
        Sid: 'DenyOutdatedTls',
        Effect: 'Deny',
        Principal: '*',
        Action: ['s3express:CreateSession'],
        Resource: [bucketArn],
        Condition: { NumericLessThan: { 's3express:TlsVersion': 1.2 } },
      },
      {
        Sid: 'AllowLifecycleExpiry',
        Effect: 'Allow',
        Principal: { Service: ['lifecycle.s3.amazonaws.com'] },
        Action: ['s3express:CreateSession'],
        Resource: [bucketArn],
        Condition: { StringEquals: { 's3express:SessionMode': 'ReadWrite' } },
      },
      {
        Sid: 'DenyOtherEncryption',
        Effect: 'Deny',
        Principal: '*',
        Action: ['s3express:CreateSession'],
        Resource: [bucketArn],
        Condition: {
          StringNotEquals: { 's3express:x-amz-server-side-encryption': 'aws:kms' },
          Null: { 's3express:x-amz-server-side-encryption': 'false' },
        },
      },
      {
        Sid: 'DenyOtherKmsKeys',
        Effect: 'Deny',
        Principal: '*',
        Action: ['s3express:CreateSession'],
        Resource: [bucketArn],
        Condition: {
          StringNotEquals: { 's3express:x-amz-server-side-encryption-aws-kms-key-id': keyArn },
          Null: { 's3express:x-amz-server-side-encryption-aws-kms-key-id': 'false' },
        },
      },
    ]);
  });

  // What the rules do is judged in retention.spec.ts; here only the order S3 needs.
  it('applies the lifecycle once S3 Lifecycle may open its session', () => {
    const lifecycle = resource(snapshot, 'lifecycle', 'llm-pretrain-fast-lifecycle');
    expect(lifecycle.inputs['bucket']).toBe(bucketName);
    expect(lifecycle.dependsOn).toContain(resource(snapshot, 'bucketPolicy', 'llm-pretrain-fast-policy').urn);
  });
});

describe('high-throughput tier, provider-managed encryption', () => {
  it('encrypts with SSE-S3 and creates no key', async () => {
    const snapshot = await renderFast({ encryption: 'provider-managed', retention: {} });
    expect(resource(snapshot, 'encryption', 'llm-pretrain-fast-encryption').inputs['rules']).toEqual([
      { applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' } },
    ]);
    // The only key is the stack audit's (prod): its trail's log files are encrypted, not the store.
    expect(snapshot.resources.filter((r) => r.type === TYPES.key).map((r) => r.name)).toEqual(['audit-key']);
  });
});
