import { stackRule } from '../define';
import { read, shown } from '../inputs';
import { gcpStoresOf } from './store-resources';
import { GCS_BUCKET } from './tokens';

const SECONDS_PER_DAY = 86_400;

/**
 * What is wrong with a store bucket's retention policy, given the days its spec locks (undefined: no lock).
 * A locked policy is refused whatever the spec says: locking is irreversible ("You cannot remove the retention
 * policy ... You cannot decrease the retention period",
 * https://cloud.google.com/storage/docs/json_api/v1/buckets/lockRetentionPolicy).
 */
export function retentionPolicyProblems(bucketProps: unknown, lockDays: number | undefined): string[] {
  const policy = read(bucketProps, 'retentionPolicy');
  const period = read(bucketProps, 'retentionPolicy', 'retentionPeriod');
  const locked = read(bucketProps, 'retentionPolicy', 'isLocked');
  const problems: string[] = [];
  if (locked === true) {
    problems.push(
      'has a locked retention policy (isLocked true): it can never be shortened or removed, and the bucket not deleted before every object is past it; the stores offer the unlocked policy only',
    );
  } else if (lockDays !== undefined && policy !== undefined && policy !== null && locked !== false) {
    problems.push(`retentionPolicy.isLocked is ${shown(locked)}; expected false (the relaxable mode)`);
  }
  if (lockDays === undefined) {
    if (policy !== undefined && policy !== null && locked !== true) {
      problems.push(
        `has a retention policy (retentionPeriod ${shown(period)}) its store's spec does not state (recovery.retentionLock)`,
      );
    }
    return problems;
  }
  const expected = lockDays * SECONDS_PER_DAY;
  if (policy === undefined || policy === null) {
    problems.push(
      `has no retention policy, though its store locks every checkpoint for ${lockDays} days (recovery.retentionLock); expected retentionPeriod "${expected}"`,
    );
  } else if (Number(period) !== expected) {
    problems.push(
      `retentionPolicy.retentionPeriod is ${shown(period)}; its store locks every checkpoint for ${lockDays} days: expected "${expected}"`,
    );
  }
  return problems;
}

export const gcpGcsRetentionLock = stackRule({
  name: 'gcp-gcs-retention-lock',
  description:
    'A bucket whose store states recovery.retentionLock has an unlocked retention policy (isLocked false) of exactly retentionLock.days; a locked policy (isLocked true, irreversible) is non-compliant on every bucket, and so is a retention policy the store does not state',
  source:
    'Google Cloud: Cloud Storage Bucket Lock (https://cloud.google.com/storage/docs/bucket-lock); Cloud Storage JSON API buckets.lockRetentionPolicy (locking is irreversible); Checkpoint security baseline (a retention lock of released checkpoints, in the relaxable mode)',
  validate: (args, report) => {
    for (const store of gcpStoresOf(args)) {
      const days = read(store.inputs, 'retentionLock', 'days');
      const lockDays = typeof days === 'number' ? days : undefined;
      for (const bucket of store.children.filter((resource) => resource.type === GCS_BUCKET)) {
        for (const problem of retentionPolicyProblems(bucket.props, lockDays)) {
          report(`store ${store.name}: bucket ${bucket.name} ${problem}`, bucket.urn);
        }
      }
    }
  },
});
