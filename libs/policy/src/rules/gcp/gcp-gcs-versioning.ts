import { resourceRule } from '../define';
import { read, state } from '../inputs';
import { GCS_BUCKET } from './tokens';

export const gcpGcsVersioning = resourceRule({
  name: 'gcp-gcs-versioning',
  description:
    'A Cloud Storage bucket without a hierarchical namespace keeps object versions, so an overwritten or deleted checkpoint is recovered from its previous version (hierarchical-namespace buckets cannot be versioned: soft delete recovers them, see gcp-gcs-soft-delete; a bucket with a retention policy cannot be versioned either: the policy holds every object, see gcp-gcs-retention-lock)',
  source:
    'Google Cloud: Cloud Storage data protection options — Object Versioning; Checkpoint security baseline (recover from mistakes: versioning or soft delete)',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    if (read(props, 'hierarchicalNamespace', 'enabled') === true) return;
    // A retention policy excludes versioning and holds every object itself (gcp-gcs-retention-lock).
    const retained = read(props, 'retentionPolicy', 'retentionPeriod');
    if (retained !== undefined && retained !== null && Number(retained) > 0) return;
    const enabled = read(props, 'versioning', 'enabled');
    if (enabled !== true) {
      report(
        `versioning.enabled ${state(enabled)}; must be true on a bucket without a hierarchical namespace`,
      );
    }
  },
});
