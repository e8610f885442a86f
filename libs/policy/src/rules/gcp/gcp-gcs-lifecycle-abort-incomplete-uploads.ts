import { resourceRule } from '../define';
import { read, readList, UNKNOWN } from '../inputs';
import { GCS_BUCKET } from './tokens';

const ABORT = 'AbortIncompleteMultipartUpload';

export const gcpGcsLifecycleAbortIncompleteUploads = resourceRule({
  name: 'gcp-gcs-lifecycle-abort-incomplete-uploads',
  description: `Every Cloud Storage bucket has a lifecycle rule with the ${ABORT} action, so the parts of an interrupted checkpoint upload are not kept and billed forever`,
  source:
    'Google Cloud: Object Lifecycle Management — AbortIncompleteMultipartUpload action; Checkpoint security baseline (lifecycle rules)',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    const rules = readList(props, 'lifecycleRules');
    if (rules === UNKNOWN) {
      report(`lifecycleRules is unknown during preview; must literally include an ${ABORT} rule`);
      return;
    }
    const actions = (rules ?? []).map((rule) => read(rule, 'action', 'type'));
    if (!actions.includes(ABORT)) {
      report(
        `lifecycleRules has no ${ABORT} action; must include one, e.g. { action: { type: "${ABORT}" }, condition: { age: 1 } }`,
      );
    }
  },
});
