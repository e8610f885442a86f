/** Resources for the AWS rules' specs: a compliant store of each kind, linked as a real preview links it. */
import { standardTagSet, type ResourceUnderTest } from '.';
import { urnOf } from './rules';

export const T = {
  bucket: 'aws:s3/bucket:Bucket',
  directoryBucket: 'aws:s3/directoryBucket:DirectoryBucket',
  publicAccessBlock: 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock',
  ownership: 'aws:s3/bucketOwnershipControls:BucketOwnershipControls',
  versioning: 'aws:s3/bucketVersioning:BucketVersioning',
  encryption: 'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
  lifecycle: 'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration',
  bucketPolicy: 'aws:s3/bucketPolicy:BucketPolicy',
  key: 'aws:kms/key:Key',
  role: 'aws:iam/role:Role',
  rolePolicy: 'aws:iam/rolePolicy:RolePolicy',
  policy: 'aws:iam/policy:Policy',
} as const;

export const BUCKET = 'ckpt-bucket';
export const BUCKET_ARN = `arn:aws:s3:::${BUCKET}`;
export const DIRECTORY_BUCKET = 'ckpt--use1-az4--x-s3';
export const DIRECTORY_ARN = `arn:aws:s3express:us-east-1:123456789012:bucket/${DIRECTORY_BUCKET}`;
export const KEY_ARN = 'arn:aws:kms:us-east-1:123456789012:key/0a1b2c3d-0000-4000-a000-000000000001';

/** A settings resource of `bucket`, linked through `propertyDependencies` only (its name unknown). */
export function setting(
  type: string,
  bucket: ResourceUnderTest,
  props: Record<string, unknown>,
  name = `${bucket.name}-${type.split(':').pop()}`,
): ResourceUnderTest {
  return { type, name, props, propertyDependencies: { bucket: [urnOf(bucket)] } };
}

export function tlsDenyStatement(actions: string[], resources: string[]) {
  return {
    Sid: 'DenyInsecureTransport',
    Effect: 'Deny',
    Principal: '*',
    Action: actions,
    Resource: resources,
    Condition: { Bool: { 'aws:SecureTransport': 'false' } },
  };
}

/** SSE-KMS with the store's key and an S3 Bucket Key, as every bucket of the stack has it. */
function encryptionProps(): Record<string, unknown> {
  return {
    rules: [
      {
        applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: KEY_ARN },
        bucketKeyEnabled: true,
      },
    ],
  };
}

/** A lifecycle rule that aborts incomplete multipart uploads of every object after a day. */
function lifecycleProps(): Record<string, unknown> {
  return {
    rules: [
      {
        id: 'abort-incomplete-multipart-uploads',
        status: 'Enabled',
        filter: {},
        abortIncompleteMultipartUpload: { daysAfterInitiation: 1 },
      },
    ],
  };
}

export type StorePart =
  'publicAccessBlock' | 'ownership' | 'versioning' | 'encryption' | 'lifecycle' | 'bucketPolicy';

/**
 * A general purpose bucket with every setting the baseline asks for; `replace` swaps a setting's inputs,
 * `null` leaves it out.
 */
export function compliantBucket(
  replace: Partial<Record<StorePart, Record<string, unknown> | null>> = {},
): ResourceUnderTest[] {
  const bucket: ResourceUnderTest = { type: T.bucket, name: 'ckpt-bucket', props: { bucket: BUCKET } };
  const parts: Record<StorePart, Record<string, unknown>> = {
    publicAccessBlock: {
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    },
    ownership: { rule: { objectOwnership: 'BucketOwnerEnforced' } },
    versioning: { versioningConfiguration: { status: 'Enabled' } },
    encryption: encryptionProps(),
    lifecycle: lifecycleProps(),
    bucketPolicy: {
      policy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [tlsDenyStatement(['s3:*'], [BUCKET_ARN, `${BUCKET_ARN}/*`])],
      }),
    },
  };
  return [bucket, ...settingsOf(bucket, parts, replace)];
}

/** An S3 Express One Zone directory bucket with its encryption, lifecycle and policy. */
export function compliantDirectoryBucket(
  replace: Partial<Record<'encryption' | 'lifecycle' | 'bucketPolicy', Record<string, unknown> | null>> = {},
): ResourceUnderTest[] {
  const bucket: ResourceUnderTest = {
    type: T.directoryBucket,
    name: 'fast-bucket',
    props: { bucket: DIRECTORY_BUCKET, location: { name: 'use1-az4', type: 'AvailabilityZone' } },
  };
  const parts = {
    encryption: encryptionProps(),
    lifecycle: lifecycleProps(),
    bucketPolicy: {
      policy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [tlsDenyStatement(['s3express:CreateSession'], [DIRECTORY_ARN])],
      }),
    },
  };
  return [bucket, ...settingsOf(bucket, parts, replace)];
}

function settingsOf<P extends string>(
  bucket: ResourceUnderTest,
  parts: Record<P, Record<string, unknown>>,
  replace: Partial<Record<P, Record<string, unknown> | null>>,
): ResourceUnderTest[] {
  return (Object.keys(parts) as P[]).flatMap((part) => {
    const props = part in replace ? replace[part] : parts[part];
    if (props === null || props === undefined) return [];
    const type = T[part as keyof typeof T];
    return [setting(type, bucket, props, `${bucket.name}-${part}`)];
  });
}

/** An IAM document as a JSON input. */
export function doc(...statements: object[]): string {
  return JSON.stringify({ Version: '2012-10-17', Statement: statements });
}

/** A rendered AWS store as the audit, perimeter and key rules see it: component, bucket, key and policy. */
export const STORE_URN = 'urn:pulumi:test::spec::checkpoints:aws:CheckpointStore::ckpt';
export const FIXTURE_BUCKET = 'ckpt-bucket';
export const FIXTURE_KEY = 'arn:aws:kms:us-east-1:123456789012:key/11111111-2222-4333-8444-555555555555';

export interface StoreFixture {
  environment?: string;
  audit?: boolean;
  publicNetwork?: boolean;
  directory?: boolean;
  /** Statements of the bucket policy (none: no policy). */
  policy?: object[];
  key?: boolean;
  /** The writer role's inline policy. */
  writer?: object[];
}

export function storeFixture(fixture: StoreFixture): ResourceUnderTest[] {
  const tags = standardTagSet(fixture.environment ?? 'prod');
  const bucket = fixture.directory ? `${FIXTURE_BUCKET}--use1-az4--x-s3` : FIXTURE_BUCKET;
  const child = (type: string, name: string, props: Record<string, unknown>): ResourceUnderTest => ({
    type,
    name,
    props,
    parent: STORE_URN,
  });
  return [
    {
      type: 'checkpoints:aws:CheckpointStore',
      name: 'ckpt',
      props: { audit: fixture.audit ?? true, publicNetwork: fixture.publicNetwork ?? false },
    },
    child(
      fixture.directory ? 'aws:s3/directoryBucket:DirectoryBucket' : 'aws:s3/bucket:Bucket',
      'ckpt-bucket',
      {
        bucket,
        tags,
      },
    ),
    ...(fixture.key
      ? [
          child('aws:kms/key:Key', 'ckpt-key', { tags }),
          child(
            'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
            'ckpt-encryption',
            {
              bucket,
              rules: [
                {
                  applyServerSideEncryptionByDefault: {
                    sseAlgorithm: 'aws:kms',
                    kmsMasterKeyId: FIXTURE_KEY,
                  },
                },
              ],
            },
          ),
        ]
      : []),
    ...(fixture.policy
      ? [
          child('aws:s3/bucketPolicy:BucketPolicy', 'ckpt-policy', {
            bucket,
            policy: JSON.stringify({ Version: '2012-10-17', Statement: fixture.policy }),
          }),
        ]
      : []),
    ...(fixture.writer
      ? [
          child('aws:iam/role:Role', 'ckpt-writer', {
            name: 'ckpt-writer',
            tags,
            assumeRolePolicy: JSON.stringify({
              Version: '2012-10-17',
              Statement: [
                {
                  Sid: 'Trainer',
                  Effect: 'Allow',
                  Principal: { AWS: 'arn:aws:iam::123456789012:role/trainer' },
                  Action: 'sts:AssumeRole',
                },
              ],
            }),
          }),
          child('aws:iam/rolePolicy:RolePolicy', 'ckpt-writer-access', {
            role: 'ckpt-writer',
            name: 'access',
            policy: JSON.stringify({ Version: '2012-10-17', Statement: fixture.writer }),
          }),
        ]
      : []),
  ];
}
