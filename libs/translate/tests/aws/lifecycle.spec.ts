import { RETENTION_DEFAULTS, type RetentionSpec, type Tier } from '@checkpoints/config';
import { brokenPromises, judge, resource, s3Resources } from '../../testing/retention';
import { s3LifecycleRules, type S3LifecycleRule } from '../../src/aws/lifecycle';

/** The common retention defaults, as loadStackSpec gives them on each tier. */
const standard: RetentionSpec = { ...RETENTION_DEFAULTS, softDeleteDays: 0 };
const directory: RetentionSpec = {
  ...standard,
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 0,
  coolAfterDays: 0,
};

function outcome(tier: Tier, retention: RetentionSpec, rules?: S3LifecycleRule[]) {
  return judge('aws', tier, retention, s3Resources(tier, retention, rules));
}

describe('S3 lifecycle rules keep every retention promise (simulated)', () => {
  it.each<[string, Tier, RetentionSpec]>([
    ['standard defaults', 'standard', standard],
    [
      'shipped dev',
      'standard',
      {
        ...standard,
        keepNoncurrentVersions: 2,
        noncurrentExpireDays: 3,
        coolAfterDays: 0,
        expireAfterDays: 30,
      },
    ],
    ['shipped prod', 'standard', { ...standard, archiveAfterDays: 90 }],
    ['no previous version kept beyond the age rule', 'standard', { ...standard, keepNoncurrentVersions: 0 }],
    ['the shortest purge', 'standard', { ...standard, keepNoncurrentVersions: 100, noncurrentExpireDays: 1 }],
    ['the longest purge', 'standard', { ...standard, noncurrentExpireDays: 365 }],
    ['expiry the day after writing', 'standard', { ...standard, coolAfterDays: 0, expireAfterDays: 1 }],
    [
      'expiry scoped away from a kept prefix',
      'standard',
      { ...standard, expireAfterDays: 60, keptPrefixes: ['releases/'], expirePrefixes: ['runs/', 'tmp/'] },
    ],
    ['directory bucket defaults', 'high-throughput', directory],
    ['directory bucket with expiry (shipped prod)', 'high-throughput', { ...directory, expireAfterDays: 7 }],
  ])('%s', (_title, tier, retention) => {
    expect(brokenPromises(outcome(tier, retention))).toEqual([]);
  });

  it('states the figures: recovery window, purge bound and copies of an hourly-overwritten object', () => {
    const result = outcome('standard', standard);
    expect(result).toMatchObject({ deleteRecoveryDays: 8, overwriteRecoveryDays: 8, purgeWithinDays: 9 });
    expect(result.purgeWithinDays).toBeLessThanOrEqual(result.promisedPurgeWithinDays ?? 0);
    // The 3 newest previous versions, plus the versions replaced in the last day or two.
    expect(result.hourlyCopies).toBeGreaterThan(3);
    expect(result.hourlyCopies).toBeLessThanOrEqual(1 + 3 + 48);
  });

  it('a directory bucket recovers nothing, and the report says so', () => {
    const result = outcome('high-throughput', { ...directory, expireAfterDays: 7 });
    expect(result).toMatchObject({
      deleteRecoveryDays: 0,
      overwriteRecoveryDays: 0,
      purgeWithinDays: 0,
      hourlyCopies: 1,
    });
    expect(result.notes.join(' ')).toMatch(/cannot be undone/);
  });
});

describe('the simulator catches broken S3 rules', () => {
  const rules = s3LifecycleRules(standard);

  it('without the purge rule, a deleted checkpoint is never purged', () => {
    const mutated = rules.filter((rule) => rule.id !== 'purge-noncurrent-versions');
    expect(brokenPromises(outcome('standard', standard, mutated))).toContainEqual(
      expect.stringMatching(/^purge: a checkpoint deleted by a job is still stored on day \d+/),
    );
  });

  it('with the count back in the purge rule (the old shape), a key written once keeps its last versions', () => {
    const mutated = rules
      .filter((rule) => rule.id !== 'keep-newest-noncurrent-versions')
      .map((rule) =>
        rule.id === 'purge-noncurrent-versions'
          ? { ...rule, noncurrentVersionExpiration: { noncurrentDays: 7, newerNoncurrentVersions: 3 } }
          : rule,
      );
    expect(brokenPromises(outcome('standard', standard, mutated))).toContainEqual(
      expect.stringMatching(/^purge: /),
    );
  });

  it('without the delete-marker rule, the marker of a deleted checkpoint stays', () => {
    const mutated = rules.filter((rule) => rule.id !== 'remove-expired-delete-markers');
    expect(brokenPromises(outcome('standard', standard, mutated))).toContainEqual(
      expect.stringMatching(/^purge: a checkpoint deleted by a job/),
    );
  });

  it('store-wide expiry deletes a kept prefix', () => {
    const retention = {
      ...standard,
      expireAfterDays: 60,
      keptPrefixes: ['releases/'],
      expirePrefixes: ['runs/'],
    };
    const storeWide = s3LifecycleRules({ ...retention, expirePrefixes: [] });
    expect(brokenPromises(outcome('standard', retention, storeWide))).toContainEqual(
      expect.stringMatching(/^live-data: releases\/.* is deleted on day 61/),
    );
  });

  it('an expiry earlier than the spec says breaks the live-data promise', () => {
    const retention = { ...standard, coolAfterDays: 0, expireAfterDays: 30 };
    const early = s3LifecycleRules({ ...retention, expireAfterDays: 10 });
    expect(brokenPromises(outcome('standard', retention, early))).toContainEqual(
      expect.stringMatching(
        /^live-data: a live checkpoint is deleted after 1\d days, before expireAfterDays \(30\)/,
      ),
    );
  });
});

describe("a locked store's copies of an object overwritten every hour (S3 Object Lock)", () => {
  const lockOf = (days: number) =>
    resource('aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration', {
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: 'GOVERNANCE', days } },
    });
  const locked = (days: number) =>
    judge('aws', 'standard', standard, [...s3Resources('standard', standard), lockOf(days)], days);

  it.each([30, 120])(
    'a %i-day lock: every hourly copy stays its lock, and no more than the bound the overwrite replay gives',
    (days) => {
      const outcome = locked(days);
      expect(brokenPromises(outcome)).toEqual([]);
      expect(outcome.hourlyCopies).toBeGreaterThanOrEqual(24 * days);
      expect(outcome.hourlyCopies).toBeLessThanOrEqual(
        24 * ((outcome.overwriteRecoveryDays ?? Infinity) + 2) + 1,
      );
    },
  );

  it('a lock longer than the hourly replay is bounded by the overwrite replay, and says so', () => {
    const outcome = locked(3_650);
    expect(brokenPromises(outcome)).toEqual([]);
    expect(outcome.hourlyCopies).toBeGreaterThanOrEqual(24 * 3_650);
    expect(outcome.hourlyCopies).toBeLessThanOrEqual(24 * (3_650 + 3) + 1);
    expect(outcome.notes.join('\n')).toContain('outlasts the 1500-day hourly replay');
  });
});
