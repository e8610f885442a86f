import { resourceRule } from '../define';
import { read, state } from '../inputs';
import { GCS_BUCKET } from './tokens';

export const gcpGcsUniformBucketLevelAccess = resourceRule({
  name: 'gcp-gcs-uniform-bucket-level-access',
  description:
    'Every Cloud Storage bucket enables uniform bucket-level access: IAM alone decides who reads or writes, bucket and object ACLs are off',
  source:
    'CIS Google Cloud Platform Foundation Benchmark v3.0.0 5.2; Google Cloud: Cloud Storage uniform bucket-level access',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    const value = read(props, 'uniformBucketLevelAccess');
    if (value !== true) {
      report(`uniformBucketLevelAccess ${state(value)}; must be true (IAM only, no ACLs)`);
    }
  },
});
