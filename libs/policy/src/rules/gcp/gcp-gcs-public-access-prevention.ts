import { resourceRule } from '../define';
import { read, state } from '../inputs';
import { GCS_BUCKET } from './tokens';

export const gcpGcsPublicAccessPrevention = resourceRule({
  name: 'gcp-gcs-public-access-prevention',
  description:
    'Every Cloud Storage bucket sets publicAccessPrevention to "enforced", so no IAM grant or ACL can ever make its objects public',
  source:
    'CIS Google Cloud Platform Foundation Benchmark v3.0.0 5.1; Google Cloud: Cloud Storage public access prevention',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    const value = read(props, 'publicAccessPrevention');
    if (value !== 'enforced') {
      report(
        `publicAccessPrevention ${state(value)}; must be "enforced" (unset or "inherited" follows the project)`,
      );
    }
  },
});
