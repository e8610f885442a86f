import { DATA_OPERATIONS } from '@checkpoints/analysis';
import { accessRule } from '../access/analysis';

/**
 * A prod bucket whose project's owners, editors or viewers can read, write or delete its checkpoints, by the
 * access analysis: through the legacy roles a new bucket's policy grants them (the convenience values,
 * https://cloud.google.com/storage/docs/access-control/iam#convenience-values, which uniform bucket-level
 * access leaves in place: https://cloud.google.com/storage/docs/uniform-bucket-level-access) or through any
 * grant the render makes to a `projectOwner:`/`projectEditor:`/`projectViewer:` member. Everyone who holds a
 * basic role on the project, granted outside this repository, would hold the data.
 */
export const gcpGcsNoConvenienceAccess = accessRule({
  name: 'gcp-gcs-no-convenience-access',
  description:
    "No project owner, editor or viewer can read, write or delete a prod bucket's checkpoints through the bucket's convenience bindings (or any grant to a projectOwner:/projectEditor:/projectViewer: member), as the access analysis computes it",
  source:
    'https://cloud.google.com/storage/docs/access-control/iam#convenience-values; https://cloud.google.com/storage/docs/uniform-bucket-level-access',
  needsBootstrap: false,
  judge: (grant, store) =>
    store.cloud === 'gcp' &&
    store.environment === 'prod' &&
    grant.principal.kind === 'cloud-default' &&
    DATA_OPERATIONS.includes(grant.operation)
      ? `can ${grant.operation} checkpoint data as holders of a basic role on the project`
      : undefined,
});
