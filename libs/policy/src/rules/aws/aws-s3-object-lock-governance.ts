import type { RenderedResource } from '@checkpoints/render';
import { stackRule } from '../define';
import { read, UNKNOWN } from '../inputs';
import { awsStoresOf } from './support';

const LOCK_TYPES: readonly string[] = [
  'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration',
  'aws:s3/bucketObjectLockConfigurationV2:BucketObjectLockConfigurationV2',
];

/** What is wrong with one Object Lock configuration: COMPLIANCE mode, which nobody can lift, not even root. */
function modeProblem(lock: RenderedResource): string | undefined {
  const mode = read(lock.inputs, 'rule', 'defaultRetention', 'mode');
  return mode === 'COMPLIANCE'
    ? `${lock.name}: default retention mode COMPLIANCE cannot be shortened or lifted by anyone, the account's root user included, so a wrong lock could never be undone; expected GOVERNANCE`
    : undefined;
}

/** Days a configuration's default retention locks each new version for (`years` at 365 days). */
function lockedDays(lock: RenderedResource): unknown {
  const days = read(lock.inputs, 'rule', 'defaultRetention', 'days');
  const years = read(lock.inputs, 'rule', 'defaultRetention', 'years');
  if (days === UNKNOWN || years === UNKNOWN) return UNKNOWN;
  if (typeof days === 'number') return days;
  return typeof years === 'number' ? years * 365 : undefined;
}

/** What is wrong with the lock of a store that states `recovery.retentionLock.days`. */
function storeLockProblems(locks: readonly RenderedResource[], statedDays: number): string[] {
  if (locks.length === 0) {
    return [
      `states recovery.retentionLock.days ${statedDays} but its bucket has no Object Lock configuration; expected GOVERNANCE default retention of ${statedDays} days`,
    ];
  }
  return locks.flatMap((lock) => {
    const problems: string[] = [];
    const enabled = read(lock.inputs, 'objectLockEnabled');
    // The provider's default is Enabled (the @pulumi/aws 7.48.0 resource: "Defaults to `Enabled`").
    if (enabled !== undefined && enabled !== 'Enabled' && enabled !== UNKNOWN) {
      problems.push(`${lock.name}: objectLockEnabled is ${String(enabled)}; expected Enabled`);
    }
    const mode = read(lock.inputs, 'rule', 'defaultRetention', 'mode');
    if (mode !== 'GOVERNANCE' && mode !== 'COMPLIANCE' && mode !== UNKNOWN) {
      problems.push(`${lock.name}: no default retention mode; expected GOVERNANCE for ${statedDays} days`);
    }
    const days = lockedDays(lock);
    if (days !== UNKNOWN && (typeof days !== 'number' || days < statedDays)) {
      problems.push(
        `${lock.name}: default retention locks ${typeof days === 'number' ? `${days} days` : 'no days'}, fewer than the ${statedDays} days recovery.retentionLock.days states`,
      );
    } else if (typeof days === 'number' && days > statedDays) {
      // No lifecycle expiration deletes a locked version, so a longer lock keeps every overwritten
      // checkpoint past the purge the store's retention promises
      // (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-lifecycle).
      problems.push(
        `${lock.name}: default retention locks ${days} days, more than the ${statedDays} days recovery.retentionLock.days states; no version could be purged before ${days} days`,
      );
    }
    return problems;
  });
}

/**
 * A store that states a retention lock (`recovery.retentionLock.days` in its component's inputs) has Object Lock
 * enabled on its bucket with a GOVERNANCE default retention of exactly those days; no Object Lock configuration of
 * the stack is in COMPLIANCE mode.
 */
export const awsS3ObjectLockGovernance = stackRule({
  name: 'aws-s3-object-lock-governance',
  description:
    'A store that states recovery.retentionLock has S3 Object Lock enabled on its bucket with a GOVERNANCE default retention of exactly the stated days; COMPLIANCE mode, which nobody can lift, is refused on every bucket',
  source:
    'Amazon S3 User Guide: Locking objects with Object Lock (retention modes: governance can be bypassed with s3:BypassGovernanceRetention, compliance by no one, root included)',
  validate: (args, report, evaluation) => {
    const { resources } = evaluation();
    for (const lock of resources.filter((resource) => LOCK_TYPES.includes(resource.type))) {
      const problem = modeProblem(lock);
      if (problem !== undefined) report(problem, lock.urn);
    }
    for (const { store, component, bucket } of awsStoresOf(evaluation())) {
      const stated = read(component.inputs, 'retentionLock', 'days');
      if (typeof stated !== 'number') continue;
      const locks = store.resources.filter(
        (resource) =>
          LOCK_TYPES.includes(resource.type) &&
          [bucket.inputs['bucket'], UNKNOWN].includes(read(resource.inputs, 'bucket')),
      );
      for (const problem of storeLockProblems(locks, stated)) {
        report(`store ${store.name}: ${problem}`, component.urn);
      }
    }
  },
});
