import { childrenOf, customResources, type Snapshot } from '@checkpoints/synth';
import { ACCOUNT, documentOf, renderStack, resource, TYPES } from './render-stack';

const bucketName = 'checkpoints-aws-dev-llm-pretrain-f5cc18';

describe('standard tier, provider-managed encryption (dev defaults)', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderStack({ stores: [{ name: 'llm-pretrain', dataClassification: 'internal' }] });
  });

  it('names the bucket after project, stack and store, with the stable hash', () => {
    expect(resource(snapshot, 'bucket', 'llm-pretrain-bucket').inputs['bucket']).toBe(bucketName);
  });

  it('creates exactly the bucket, its settings and two roles, all children of the store', () => {
    const store = resource(snapshot, 'store', 'llm-pretrain');
    expect(
      childrenOf(snapshot, store)
        .map((child) => `${child.type} ${child.name}`)
        .sort(),
    ).toEqual(
      [
        `${TYPES.bucket} llm-pretrain-bucket`,
        `${TYPES.ownership} llm-pretrain-ownership`,
        `${TYPES.publicAccessBlock} llm-pretrain-public-access-block`,
        `${TYPES.versioning} llm-pretrain-versioning`,
        `${TYPES.encryption} llm-pretrain-encryption`,
        `${TYPES.lifecycle} llm-pretrain-lifecycle`,
        `${TYPES.bucketPolicy} llm-pretrain-policy`,
        `${TYPES.role} llm-pretrain-writer`,
        `${TYPES.rolePolicy} llm-pretrain-writer-access`,
        `${TYPES.role} llm-pretrain-reader`,
        `${TYPES.rolePolicy} llm-pretrain-reader-access`,
      ].sort(),
    );
    expect(customResources(snapshot)).toHaveLength(11);
  });

  it('never sets forceDestroy', () => {
    expect(resource(snapshot, 'bucket', 'llm-pretrain-bucket').inputs['forceDestroy']).toBeUndefined();
  });

  it('enforces bucket-owner object ownership (no ACLs)', () => {
    expect(resource(snapshot, 'ownership', 'llm-pretrain-ownership').inputs).toEqual({
      bucket: bucketName,
      rule: { objectOwnership: 'BucketOwnerEnforced' },
    });
  });

  it('blocks public access with all four flags', () => {
    expect(resource(snapshot, 'publicAccessBlock', 'llm-pretrain-public-access-block').inputs).toEqual({
      bucket: bucketName,
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    });
  });

  it('turns versioning on', () => {
    expect(resource(snapshot, 'versioning', 'llm-pretrain-versioning').inputs).toEqual({
      bucket: bucketName,
      versioningConfiguration: { status: 'Enabled' },
    });
  });

  it('encrypts with SSE-S3 by default and blocks customer-provided keys', () => {
    expect(resource(snapshot, 'encryption', 'llm-pretrain-encryption').inputs).toEqual({
      bucket: bucketName,
      rules: [
        { applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' }, blockedEncryptionTypes: ['SSE-C'] },
      ],
    });
  });

  it('denies plain HTTP and TLS before 1.2, and nothing about encryption without a customer key', () => {
    const bucketArn = `arn:aws:s3:::${bucketName}`;
    const policy = resource(snapshot, 'bucketPolicy', 'llm-pretrain-policy');
    expect(policy.inputs['bucket']).toBe(bucketName);
    expect(documentOf(policy)).toEqual({
      Version: '2012-10-17',
      Statement: [
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
      ],
    });
    expect(policy.dependsOn).toEqual(
      expect.arrayContaining([
        resource(snapshot, 'publicAccessBlock', 'llm-pretrain-public-access-block').urn,
        resource(snapshot, 'ownership', 'llm-pretrain-ownership').urn,
      ]),
    );
  });

  // What the rules do is judged in retention.spec.ts; here only that they act on a versioned bucket.
  it('applies the lifecycle once versioning is on', () => {
    const lifecycle = resource(snapshot, 'lifecycle', 'llm-pretrain-lifecycle');
    expect(lifecycle.inputs['bucket']).toBe(bucketName);
    expect(lifecycle.dependsOn).toContain(resource(snapshot, 'versioning', 'llm-pretrain-versioning').urn);
  });

  it('creates no KMS key', () => {
    expect(snapshot.resources.filter((r) => r.type === TYPES.key || r.type === TYPES.alias)).toEqual([]);
  });

  it('renders the account in every ARN it computes', () => {
    const writer = resource(snapshot, 'role', 'llm-pretrain-writer');
    expect(documentOf(writer, 'assumeRolePolicy').Statement[0]?.Principal).toEqual({
      AWS: [`arn:aws:iam::${ACCOUNT}:root`],
    });
  });
});

describe('standard tier, customer-managed encryption', () => {
  let snapshot: Snapshot;
  let keyArn: string;
  let bucketArn: string;
  beforeAll(async () => {
    snapshot = await renderStack({
      environment: 'prod',
      stores: [
        {
          name: 'llm-pretrain',
          dataClassification: 'confidential',
          retention: { coolAfterDays: 30, archiveAfterDays: 90, expireAfterDays: 365 },
        },
      ],
    });
    // The alias points at the key's ID, the one part of its ARN the provider computes.
    const keyId = resource(snapshot, 'alias', 'llm-pretrain-key-alias').inputs['targetKeyId'] as string;
    expect(keyId).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-a[0-9a-f]{3}-[0-9a-f]{12}$/);
    keyArn = `arn:aws:kms:us-east-1:${ACCOUNT}:key/${keyId}`;
    bucketArn = 'arn:aws:s3:::checkpoints-aws-prod-llm-pretrain-0d2516';
  });

  it('gives the store its own KMS key: rotated, 30-day deletion window, symmetric', () => {
    const key = resource(snapshot, 'key', 'llm-pretrain-key');
    expect(key.inputs).toEqual({
      description: 'Encrypts the checkpoints of store llm-pretrain (checkpoints-aws/prod)',
      keyUsage: 'ENCRYPT_DECRYPT',
      customerMasterKeySpec: 'SYMMETRIC_DEFAULT',
      enableKeyRotation: true,
      deletionWindowInDays: 30,
      tags: expect.any(Object),
    });
    expect(key.inputs['policy']).toBeUndefined();
  });

  it('names the key with an alias, and names the bucket', () => {
    expect(resource(snapshot, 'alias', 'llm-pretrain-key-alias').inputs['name']).toBe(
      'alias/checkpoints-aws-prod-llm-pretrain-0d2516',
    );
    expect(resource(snapshot, 'bucket', 'llm-pretrain-bucket').inputs['bucket']).toBe(
      'checkpoints-aws-prod-llm-pretrain-0d2516',
    );
  });

  it('encrypts by default with SSE-KMS, that key and an S3 Bucket Key', () => {
    expect(resource(snapshot, 'encryption', 'llm-pretrain-encryption').inputs['rules']).toEqual([
      {
        applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: keyArn },
        bucketKeyEnabled: true,
        blockedEncryptionTypes: ['SSE-C'],
      },
    ]);
  });

  it('also denies uploads that ask for another encryption or another key, and only those', () => {
    const statements = documentOf(resource(snapshot, 'bucketPolicy', 'llm-pretrain-policy')).Statement;
    expect(statements.map((statement) => statement.Sid)).toEqual([
      'DenyInsecureTransport',
      'DenyOutdatedTls',
      'DenyOtherEncryption',
      'DenyOtherKmsKeys',
      'DenyDataOutsidePerimeter',
      'DenyListingOutsidePerimeter',
      // The prod guardrail lock (stacks/aws-s3/src/retention-lock.ts lockDaysOf).
      'DenyBypassingRetentionLock',
      'DenyStoreRolesChangingRetentionLock',
    ]);
    expect(statements.slice(2, 4)).toEqual([
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
    ]);
  });

  it('tiers to STANDARD_IA then GLACIER_IR', () => {
    const rules = resource(snapshot, 'lifecycle', 'llm-pretrain-lifecycle').inputs['rules'] as {
      transitions?: unknown;
    }[];
    expect(rules.flatMap((rule) => rule.transitions ?? [])).toEqual([
      { days: 30, storageClass: 'STANDARD_IA' },
      { days: 90, storageClass: 'GLACIER_IR' },
    ]);
  });
});
