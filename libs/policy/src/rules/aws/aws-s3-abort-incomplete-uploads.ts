import { stackRule } from '../define';
import { read, UNKNOWN } from '../inputs';
import { ALL_BUCKETS, checkBucketSetting, listOf } from './support';

const EXPECTED =
  'expected an enabled rule for every object (no filter, or an empty one) with abortIncompleteMultipartUpload.daysAfterInitiation';

/** A filter that leaves no object out: absent, `{}` or an empty prefix. */
function coversEveryObject(rule: unknown): boolean {
  const legacyPrefix = read(rule, 'prefix');
  if (legacyPrefix !== undefined && legacyPrefix !== '') return false;
  const filter = read(rule, 'filter');
  if (filter === undefined || filter === null) return true;
  if (filter === UNKNOWN || typeof filter !== 'object') return false;
  return Object.entries(filter).every(
    ([key, value]) => value === undefined || (key === 'prefix' && value === ''),
  );
}

function abortsUploads(rule: unknown): boolean {
  const days = read(rule, 'abortIncompleteMultipartUpload', 'daysAfterInitiation');
  // The number of days comes from config and may be computed; the rule itself must be there.
  const hasDays = days === UNKNOWN || (typeof days === 'number' && days > 0);
  return read(rule, 'status') === 'Enabled' && hasDays && coversEveryObject(rule);
}

export const awsS3AbortIncompleteUploads = stackRule({
  name: 'aws-s3-abort-incomplete-uploads',
  description:
    'Every bucket (general purpose and directory) has a BucketLifecycleConfiguration with an enabled rule that aborts incomplete multipart uploads of every object',
  source:
    'AWS Foundational Security Best Practices S3.13 (S3 general purpose buckets should have Lifecycle configurations); Amazon S3 User Guide: Configuring a bucket lifecycle configuration to delete incomplete multipart uploads',
  validate: (args, report) =>
    checkBucketSetting(
      {
        bucketTypes: ALL_BUCKETS,
        settingTypes: [
          'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration',
          'aws:s3/bucketLifecycleConfigurationV2:BucketLifecycleConfigurationV2',
        ],
        missing: (bucket) => `bucket '${bucket}' has no BucketLifecycleConfiguration; ${EXPECTED}`,
        problems: (inputs) =>
          listOf(inputs['rules']).some(abortsUploads)
            ? []
            : [`no rule aborts incomplete multipart uploads; ${EXPECTED}`],
      },
      args,
      report,
    ),
});
