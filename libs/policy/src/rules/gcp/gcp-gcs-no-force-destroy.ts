import { resourceRule } from '../define';
import { read, state } from '../inputs';
import { GCS_BUCKET } from './tokens';

export const gcpGcsNoForceDestroy = resourceRule({
  name: 'gcp-gcs-no-force-destroy',
  description:
    'No Cloud Storage bucket sets forceDestroy: deleting a bucket that still holds checkpoints must fail rather than delete them all',
  source:
    'Checkpoint security baseline (data never lost to a deploy); Pulumi Registry: gcp.storage.Bucket forceDestroy; Google Cloud: Cloud Storage data protection options',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    const value = read(props, 'forceDestroy');
    if (value !== false && value !== undefined) {
      report(`forceDestroy ${state(value)}; must be false or unset`);
    }
  },
});
