import { stackRule } from '../define';
import { read, shown } from '../inputs';
import { checkBucketSetting, GENERAL_PURPOSE_BUCKETS } from './support';

export const awsS3Versioning = stackRule({
  name: 'aws-s3-versioning',
  description:
    'Every general purpose bucket has a BucketVersioning with versioningConfiguration.status Enabled, so an overwritten or deleted checkpoint stays recoverable',
  source:
    'AWS Foundational Security Best Practices S3.14 (S3 general purpose buckets should have versioning enabled); Amazon S3 User Guide: Security best practices (enable versioning)',
  validate: (args, report) =>
    checkBucketSetting(
      {
        bucketTypes: GENERAL_PURPOSE_BUCKETS,
        settingTypes: [
          'aws:s3/bucketVersioning:BucketVersioning',
          'aws:s3/bucketVersioningV2:BucketVersioningV2',
        ],
        missing: (bucket) =>
          `bucket '${bucket}' has no BucketVersioning; expected versioningConfiguration.status "Enabled"`,
        problems: (inputs) => {
          const status = read(inputs, 'versioningConfiguration', 'status');
          return status === 'Enabled'
            ? []
            : [`versioningConfiguration.status is ${shown(status)}; expected "Enabled"`];
        },
      },
      args,
      report,
    ),
});
