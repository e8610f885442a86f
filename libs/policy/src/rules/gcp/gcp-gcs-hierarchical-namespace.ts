import { resourceRule } from '../define';
import { read, state } from '../inputs';
import { GCS_BUCKET } from './tokens';

export const gcpGcsHierarchicalNamespace = resourceRule({
  name: 'gcp-gcs-hierarchical-namespace',
  description:
    'A hierarchical-namespace bucket (the high-throughput tier) leaves Object Versioning off: Cloud Storage rejects versioning on such a bucket, and soft delete is its recovery',
  source:
    'Google Cloud: Cloud Storage hierarchical namespace — incompatible features (Object Versioning); Checkpoint security baseline (hierarchical namespace on for high-throughput)',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    if (read(props, 'hierarchicalNamespace', 'enabled') !== true) return;
    const versioning = read(props, 'versioning', 'enabled');
    if (versioning !== false && versioning !== undefined) {
      report(
        `hierarchicalNamespace.enabled is true and versioning.enabled ${state(versioning)}; versioning must be false or unset (Cloud Storage rejects versioning on a hierarchical-namespace bucket; soft delete recovers it)`,
      );
    }
  },
});
