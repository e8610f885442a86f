import { stackRule } from '../define';
import { read, shown, UNKNOWN } from '../inputs';
import { ALL_BUCKETS, checkBucketSetting, DIRECTORY_BUCKETS, listOf } from './support';

const EXPECTED =
  'expected sseAlgorithm "aws:kms" with the store\'s key and bucketKeyEnabled true, or "AES256"';

function ruleProblems(rule: unknown, directory: boolean): string[] {
  const algorithm = read(rule, 'applyServerSideEncryptionByDefault', 'sseAlgorithm');
  if (algorithm === 'AES256') return [];
  if (algorithm !== 'aws:kms') return [`sseAlgorithm is ${shown(algorithm)}; ${EXPECTED}`];
  const problems: string[] = [];
  // Unknown on a first preview (the key's ARN): only its absence means the AWS managed key aws/s3.
  if (read(rule, 'applyServerSideEncryptionByDefault', 'kmsMasterKeyId') === undefined) {
    problems.push(
      'sseAlgorithm "aws:kms" without kmsMasterKeyId uses the AWS managed key aws/s3; expected the store\'s customer-managed key',
    );
  }
  const bucketKey = read(rule, 'bucketKeyEnabled');
  // Directory buckets always use an S3 Bucket Key with SSE-KMS; they only must not ask for none.
  if (directory ? bucketKey === false || bucketKey === UNKNOWN : bucketKey !== true) {
    problems.push(`bucketKeyEnabled is ${shown(bucketKey)}; expected true with "aws:kms"`);
  }
  return problems;
}

export const awsS3DefaultEncryption = stackRule({
  name: 'aws-s3-default-encryption',
  description:
    'Every bucket (general purpose and directory) has a BucketServerSideEncryptionConfiguration: SSE-KMS with a customer-managed key and an S3 Bucket Key, or SSE-S3',
  source:
    'AWS Foundational Security Best Practices S3.17 (S3 general purpose buckets should be encrypted at rest with AWS KMS keys); Amazon S3 User Guide: Reducing the cost of SSE-KMS with Amazon S3 Bucket Keys',
  validate: (args, report) =>
    checkBucketSetting(
      {
        bucketTypes: ALL_BUCKETS,
        settingTypes: [
          'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
          'aws:s3/bucketServerSideEncryptionConfigurationV2:BucketServerSideEncryptionConfigurationV2',
        ],
        missing: (bucket) => `bucket '${bucket}' has no BucketServerSideEncryptionConfiguration; ${EXPECTED}`,
        problems: (inputs, bucket) => {
          const rules = inputs['rules'];
          if (rules === UNKNOWN) return [`rules are unknown during preview; ${EXPECTED}`];
          if (listOf(rules).length === 0) return [`has no encryption rule; ${EXPECTED}`];
          const directory = bucket !== undefined && DIRECTORY_BUCKETS.includes(bucket.type);
          return listOf(rules).flatMap((rule) => ruleProblems(rule, directory));
        },
      },
      args,
      report,
    ),
});
