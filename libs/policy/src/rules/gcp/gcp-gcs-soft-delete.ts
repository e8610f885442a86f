import { resourceRule } from '../define';
import { read, UNKNOWN } from '../inputs';
import { GCS_BUCKET, SECONDS_PER_DAY } from './tokens';

/** Cloud Storage accepts a soft-delete retention of 0 (off) or 7 to 90 days. */
export const MIN_SOFT_DELETE_SECONDS = 7 * SECONDS_PER_DAY;
export const MAX_SOFT_DELETE_SECONDS = 90 * SECONDS_PER_DAY;

const days = (seconds: number) => `${+(seconds / SECONDS_PER_DAY).toFixed(2)} days`;

export const gcpGcsSoftDelete = resourceRule({
  name: 'gcp-gcs-soft-delete',
  description: `Every Cloud Storage bucket sets an explicit soft-delete policy of 7 to 90 days (retentionDurationSeconds ${MIN_SOFT_DELETE_SECONDS} to ${MAX_SOFT_DELETE_SECONDS}), never the project default, so deleted checkpoints can be restored; on hierarchical-namespace buckets it is the only recovery`,
  source:
    'Google Cloud: Cloud Storage soft delete; Google Cloud: Cloud Storage data protection options; Checkpoint security baseline (recover from mistakes)',
  types: [GCS_BUCKET],
  validate: (props, _args, report) => {
    const seconds = read(props, 'softDeletePolicy', 'retentionDurationSeconds');
    const field = 'softDeletePolicy.retentionDurationSeconds';
    if (seconds === UNKNOWN) {
      report(
        `${field} is unknown during preview; must be a literal ${MIN_SOFT_DELETE_SECONDS} (7 days) or more`,
      );
    } else if (typeof seconds !== 'number') {
      report(
        `${field} is not set; must be set explicitly to at least ${MIN_SOFT_DELETE_SECONDS} (7 days), not left to the project default`,
      );
    } else if (seconds < MIN_SOFT_DELETE_SECONDS) {
      report(
        `${field} is ${seconds} (${seconds === 0 ? 'soft delete off' : days(seconds)}); must be at least ${MIN_SOFT_DELETE_SECONDS} (7 days)`,
      );
    } else if (seconds > MAX_SOFT_DELETE_SECONDS) {
      report(
        `${field} is ${seconds} (${days(seconds)}); Cloud Storage accepts at most ${MAX_SOFT_DELETE_SECONDS} (90 days)`,
      );
    }
  },
});
