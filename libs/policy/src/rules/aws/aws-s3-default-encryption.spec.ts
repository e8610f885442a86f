import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { awsS3DefaultEncryption } from './aws-s3-default-encryption';
import { compliantBucket, compliantDirectoryBucket, KEY_ARN } from '../../../testing/aws';

const EXPECTED =
  'expected sseAlgorithm "aws:kms" with the store\'s key and bucketKeyEnabled true, or "AES256"';

const rule = (sseAlgorithm: string, extra: Record<string, unknown> = {}, kmsMasterKeyId?: string) => ({
  rules: [
    {
      applyServerSideEncryptionByDefault: { sseAlgorithm, ...(kmsMasterKeyId ? { kmsMasterKeyId } : {}) },
      ...extra,
    },
  ],
});

describe('aws-s3-default-encryption', () => {
  it('passes SSE-KMS with the store key and a bucket key, and SSE-S3', async () => {
    expect(await violationsOf(awsS3DefaultEncryption, compliantBucket())).toEqual([]);
    expect(
      await violationsOf(awsS3DefaultEncryption, compliantBucket({ encryption: rule('AES256') })),
    ).toEqual([]);
  });

  it('passes on a first preview, where the key ARN is unknown', async () => {
    const resources = compliantBucket({
      encryption: rule('aws:kms', { bucketKeyEnabled: true }, UNKNOWN_STRING),
    });
    expect(await violationsOf(awsS3DefaultEncryption, onPreview(resources))).toEqual([]);
  });

  it('passes a directory bucket with SSE-KMS, its bucket key implied', async () => {
    expect(await violationsOf(awsS3DefaultEncryption, compliantDirectoryBucket())).toEqual([]);
    expect(
      await violationsOf(
        awsS3DefaultEncryption,
        compliantDirectoryBucket({ encryption: rule('aws:kms', {}, KEY_ARN) }),
      ),
    ).toEqual([]);
  });

  it('flags buckets of both kinds with no encryption configuration', async () => {
    expect(
      await violationsOf(awsS3DefaultEncryption, [
        ...compliantBucket({ encryption: null }),
        ...compliantDirectoryBucket({ encryption: null }),
      ]),
    ).toEqual([
      `bucket 'ckpt-bucket' has no BucketServerSideEncryptionConfiguration; ${EXPECTED}`,
      `bucket 'ckpt--use1-az4--x-s3' has no BucketServerSideEncryptionConfiguration; ${EXPECTED}`,
    ]);
  });

  it('flags SSE-KMS without a bucket key or with the AWS managed key, and other algorithms', async () => {
    const label = "BucketServerSideEncryptionConfiguration 'ckpt-bucket-encryption'";
    expect(
      await violationsOf(awsS3DefaultEncryption, compliantBucket({ encryption: rule('aws:kms') })),
    ).toEqual([
      `${label}: sseAlgorithm "aws:kms" without kmsMasterKeyId uses the AWS managed key aws/s3; expected the store's customer-managed key`,
      `${label}: bucketKeyEnabled is not set; expected true with "aws:kms"`,
    ]);
    expect(
      await violationsOf(
        awsS3DefaultEncryption,
        compliantBucket({ encryption: rule('aws:kms:dsse', {}, KEY_ARN) }),
      ),
    ).toEqual([`${label}: sseAlgorithm is "aws:kms:dsse"; ${EXPECTED}`]);
    expect(
      await violationsOf(awsS3DefaultEncryption, compliantBucket({ encryption: { rules: [] } })),
    ).toEqual([`${label}: has no encryption rule; ${EXPECTED}`]);
  });

  it('flags a directory bucket that turns its bucket key off', async () => {
    expect(
      await violationsOf(
        awsS3DefaultEncryption,
        compliantDirectoryBucket({ encryption: rule('aws:kms', { bucketKeyEnabled: false }, KEY_ARN) }),
      ),
    ).toEqual([
      `BucketServerSideEncryptionConfiguration 'fast-bucket-encryption': bucketKeyEnabled is false; expected true with "aws:kms"`,
    ]);
  });
});
