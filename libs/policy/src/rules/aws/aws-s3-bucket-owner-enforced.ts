import { stackRule } from '../define';
import { read, shown } from '../inputs';
import { checkBucketSetting, GENERAL_PURPOSE_BUCKETS } from './support';

export const awsS3BucketOwnerEnforced = stackRule({
  name: 'aws-s3-bucket-owner-enforced',
  description:
    'Every general purpose bucket has BucketOwnershipControls with objectOwnership BucketOwnerEnforced, which disables ACLs',
  source:
    'Amazon S3 User Guide: Controlling ownership of objects and disabling ACLs (BucketOwnerEnforced, the recommended setting); AWS Foundational Security Best Practices S3.12',
  validate: (args, report) =>
    checkBucketSetting(
      {
        bucketTypes: GENERAL_PURPOSE_BUCKETS,
        settingTypes: ['aws:s3/bucketOwnershipControls:BucketOwnershipControls'],
        missing: (bucket) =>
          `bucket '${bucket}' has no BucketOwnershipControls; expected rule.objectOwnership "BucketOwnerEnforced" (ACLs disabled)`,
        problems: (inputs) => {
          const ownership = read(inputs, 'rule', 'objectOwnership');
          return ownership === 'BucketOwnerEnforced'
            ? []
            : [`rule.objectOwnership is ${shown(ownership)}; expected "BucketOwnerEnforced" (ACLs disabled)`];
        },
      },
      args,
      report,
    ),
});
