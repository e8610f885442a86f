import { resourceRule } from '../define';
import { GCS_BUCKET_OBJECT } from './tokens';

export const gcpGcsNoBucketObjects = resourceRule({
  name: 'gcp-gcs-no-bucket-objects',
  description:
    'The infrastructure creates no objects in buckets: checkpoints are written by training jobs, and an object owned by a stack is replaced or deleted by the deploy that changes it',
  source:
    'Checkpoint security baseline (data never lost to a deploy); Google Cloud: Cloud Storage data protection options',
  types: [GCS_BUCKET_OBJECT],
  validate: (_props, args, report) => {
    report(
      `${args.type} makes the stack own an object in a bucket; must not be used: objects are written by the jobs that use the store, never by a deploy`,
    );
  },
});
