import { resourceRule } from '../define';
import { read, state, UNKNOWN } from '../inputs';
import { KMS_CRYPTO_KEY, SECONDS_PER_DAY } from './tokens';

export const MAX_ROTATION_SECONDS = 90 * SECONDS_PER_DAY;
/** Cloud KMS refuses a rotation period under one day. */
export const MIN_ROTATION_SECONDS = SECONDS_PER_DAY;

const DURATION = /^(\d+(?:\.\d{1,9})?)s$/;

export const gcpKmsKeyRotation = resourceRule({
  name: 'gcp-kms-key-rotation',
  description: `Every symmetric Cloud KMS key (purpose ENCRYPT_DECRYPT) rotates automatically at least every 90 days (rotationPeriod at most "${MAX_ROTATION_SECONDS}s")`,
  source: 'CIS Google Cloud Platform Foundation Benchmark v3.0.0 1.10; Google Cloud KMS: Key rotation',
  types: [KMS_CRYPTO_KEY],
  validate: (props, args, report) => {
    const purpose = read(props, 'purpose');
    if (typeof purpose === 'string' && purpose !== 'ENCRYPT_DECRYPT') {
      args.notApplicable(`automatic rotation applies to ENCRYPT_DECRYPT keys; this key is ${purpose}`);
    }
    const period = read(props, 'rotationPeriod');
    const expected = `must be at most "${MAX_ROTATION_SECONDS}s" (90 days)`;
    if (period === UNKNOWN || typeof period !== 'string') {
      report(`rotationPeriod ${state(period)}; ${expected}`);
      return;
    }
    const seconds = Number(DURATION.exec(period)?.[1]);
    if (Number.isNaN(seconds)) {
      report(
        `rotationPeriod ${state(period)}, not a duration in seconds; ${expected}, e.g. "${MAX_ROTATION_SECONDS}s"`,
      );
    } else if (seconds > MAX_ROTATION_SECONDS) {
      report(
        `rotationPeriod ${state(period)} (${+(seconds / SECONDS_PER_DAY).toFixed(2)} days); ${expected}`,
      );
    } else if (seconds < MIN_ROTATION_SECONDS) {
      report(
        `rotationPeriod ${state(period)}; Cloud KMS accepts at least "${MIN_ROTATION_SECONDS}s" (1 day)`,
      );
    }
  },
});
