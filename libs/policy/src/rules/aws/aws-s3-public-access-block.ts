import { stackRule } from '../define';
import { shown } from '../inputs';
import { checkBucketSetting, GENERAL_PURPOSE_BUCKETS } from './support';

const FLAGS = ['blockPublicAcls', 'blockPublicPolicy', 'ignorePublicAcls', 'restrictPublicBuckets'] as const;

export const awsS3PublicAccessBlock = stackRule({
  name: 'aws-s3-public-access-block',
  description:
    'Every general purpose bucket has a BucketPublicAccessBlock with blockPublicAcls, blockPublicPolicy, ignorePublicAcls and restrictPublicBuckets all literally true',
  source:
    'CIS AWS Foundations Benchmark v3.0.0 2.1.4; AWS Foundational Security Best Practices S3.8 (S3 general purpose buckets should block public access)',
  validate: (args, report) =>
    checkBucketSetting(
      {
        bucketTypes: GENERAL_PURPOSE_BUCKETS,
        settingTypes: ['aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock'],
        missing: (bucket) =>
          `bucket '${bucket}' has no BucketPublicAccessBlock; expected one with ${FLAGS.join(', ')} all true`,
        problems: (inputs) => {
          const open = FLAGS.filter((flag) => inputs[flag] !== true);
          if (open.length === 0) return [];
          const got = open.map((flag) => `${flag} is ${shown(inputs[flag])}`).join(', ');
          return [`${got}; expected ${FLAGS.join(', ')} all true`];
        },
      },
      args,
      report,
    ),
});
