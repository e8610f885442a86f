import type { RetentionSpec, Tier } from '@checkpoints/config';
import { brokenPromises, gcsResources, judge } from '../../testing/retention';
import { gcsLifecycleRules, gcsRetentionWarnings, type GcsLifecycleRule } from '../../src/gcp/lifecycle';

const retention = (overrides: Partial<RetentionSpec>): RetentionSpec => ({
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 0,
  coolAfterDays: 0,
  archiveAfterDays: 0,
  expireAfterDays: 0,
  abortIncompleteUploadDays: 1,
  softDeleteDays: 7,
  keptPrefixes: [],
  expirePrefixes: [],
  ...overrides,
});

/** The standard tier's defaults, as loadStackSpec gives them. */
const standard = retention({ keepNoncurrentVersions: 3, noncurrentExpireDays: 7, coolAfterDays: 30 });

function outcome(tier: Tier, spec: RetentionSpec, rules?: GcsLifecycleRule[]) {
  return judge('gcp', tier, spec, gcsResources(tier, spec, rules));
}

describe('Cloud Storage lifecycle rules keep every retention promise (simulated)', () => {
  it.each<[string, Tier, RetentionSpec]>([
    ['standard defaults (shipped dev)', 'standard', standard],
    ['shipped prod', 'standard', { ...standard, softDeleteDays: 14 }],
    ['no previous version kept beyond the age rule', 'standard', { ...standard, keepNoncurrentVersions: 0 }],
    ['the shortest purge', 'standard', { ...standard, keepNoncurrentVersions: 100, noncurrentExpireDays: 1 }],
    [
      'the longest purge and soft delete',
      'standard',
      { ...standard, noncurrentExpireDays: 365, softDeleteDays: 90 },
    ],
    ['expiry after the NEARLINE minimum', 'standard', { ...standard, expireAfterDays: 60 }],
    [
      'expiry scoped away from a kept prefix',
      'standard',
      { ...standard, expireAfterDays: 60, keptPrefixes: ['releases/'], expirePrefixes: ['runs/'] },
    ],
    ['hierarchical namespace (shipped prod)', 'high-throughput', retention({ expireAfterDays: 14 })],
    ['hierarchical namespace, nothing expires', 'high-throughput', retention({})],
  ])('%s', (_title, tier, spec) => {
    expect(brokenPromises(outcome(tier, spec))).toEqual([]);
  });

  it('states the figures: soft delete adds to the purge bound and to the copies of an hourly-overwritten object', () => {
    const result = outcome('standard', { ...standard, softDeleteDays: 14 });
    expect(result).toMatchObject({ deleteRecoveryDays: 22, overwriteRecoveryDays: 22, purgeWithinDays: 22 });
    expect(result.purgeWithinDays).toBeLessThanOrEqual(result.promisedPurgeWithinDays ?? 0);
    // Every hourly copy beyond the newest few is soft-deleted and kept 14 days.
    expect(result.hourlyCopies).toBeGreaterThanOrEqual(14 * 24);
  });

  it('a hierarchical-namespace bucket recovers deletes and overwrites from soft delete only, and says so', () => {
    const result = outcome('high-throughput', retention({ expireAfterDays: 14 }));
    expect(result).toMatchObject({ deleteRecoveryDays: 7, overwriteRecoveryDays: 7 });
    expect(result.notes.join(' ')).toMatch(/soft delete only/);
  });
});

describe('the simulator catches broken Cloud Storage rules', () => {
  const rules = gcsLifecycleRules(standard);
  const isPurge = (rule: GcsLifecycleRule) => rule.condition.daysSinceNoncurrentTime !== undefined;

  it('without the purge rule, a deleted checkpoint is never purged', () => {
    const mutated = rules.filter((rule) => !isPurge(rule));
    expect(brokenPromises(outcome('standard', standard, mutated))).toContainEqual(
      expect.stringMatching(/^purge: a checkpoint deleted by a job is still stored on day \d+/),
    );
  });

  it('with the count back in the purge rule (the old shape), a key written once is never purged', () => {
    const mutated = rules
      .filter((rule) => rule.condition.numNewerVersions === undefined)
      .map((rule) =>
        isPurge(rule) ? { ...rule, condition: { ...rule.condition, numNewerVersions: 4 } } : rule,
      );
    expect(brokenPromises(outcome('standard', standard, mutated))).toContainEqual(
      expect.stringMatching(/^purge: /),
    );
  });

  it('soft delete longer than the spec states breaks the purge bound, naming the day', () => {
    const rendered = gcsResources('standard', { ...standard, softDeleteDays: 30 });
    expect(brokenPromises(judge('gcp', 'standard', standard, rendered))).toEqual([
      'purge: a checkpoint deleted by a job stays stored 38 days after it stops being live, beyond the 16 days the spec states (noncurrentExpireDays + softDeleteDays + 2)',
    ]);
    expect(judge('gcp', 'standard', standard, rendered).broken[0]?.day).toBe(18);
  });

  it('store-wide expiry deletes a kept prefix', () => {
    const spec = { ...standard, expireAfterDays: 60, keptPrefixes: ['releases/'], expirePrefixes: ['runs/'] };
    const storeWide = gcsLifecycleRules({ ...spec, expirePrefixes: [] });
    expect(brokenPromises(outcome('standard', spec, storeWide))).toContainEqual(
      expect.stringMatching(/^live-data: releases\/.* is deleted on day 61/),
    );
  });
  it('never sends an object to a warmer class', () => {
    const rules = gcsLifecycleRules(retention({ coolAfterDays: 30, archiveAfterDays: 365 }));
    const moves = rules.filter((rule) => rule.action.type === 'SetStorageClass');
    expect(moves.map((rule) => [rule.action.storageClass, rule.condition.matchesStorageClasses])).toEqual([
      ['NEARLINE', ['STANDARD']],
      ['ARCHIVE', ['STANDARD', 'NEARLINE']],
    ]);
  });
});

describe('gcsRetentionWarnings', () => {
  it.each<[string, Tier, Partial<RetentionSpec>, string[]]>([
    [
      'the standard defaults',
      'standard',
      { keepNoncurrentVersions: 3, noncurrentExpireDays: 7, coolAfterDays: 30 },
      [],
    ],
    [
      'previous versions of archived objects expire inside the ARCHIVE minimum',
      'standard',
      { noncurrentExpireDays: 7, coolAfterDays: 30, archiveAfterDays: 90 },
      [
        "a checkpoint overwritten or deleted between day 90 (in ARCHIVE from then) and day 358 can be removed as a previous version 7 days later, before ARCHIVE's 365-day minimum storage duration, and is then billed as if kept 365 days",
      ],
    ],
    [
      'previous versions of NEARLINE objects expire inside the NEARLINE minimum',
      'standard',
      { noncurrentExpireDays: 3, coolAfterDays: 7 },
      [
        "a checkpoint overwritten or deleted between day 7 (in NEARLINE from then) and day 27 can be removed as a previous version 3 days later, before NEARLINE's 30-day minimum storage duration, and is then billed as if kept 30 days",
      ],
    ],
    [
      'NEARLINE left for ARCHIVE before the risk starts',
      'standard',
      { noncurrentExpireDays: 7, coolAfterDays: 7, archiveAfterDays: 400 },
      [
        "a checkpoint overwritten or deleted between day 7 (in NEARLINE from then) and day 23 can be removed as a previous version 7 days later, before NEARLINE's 30-day minimum storage duration, and is then billed as if kept 30 days",
      ],
    ],
    [
      'archived only after the minimum is safe',
      'standard',
      { noncurrentExpireDays: 7, archiveAfterDays: 400 },
      [],
    ],
    [
      'high-throughput has no previous versions',
      'high-throughput',
      { coolAfterDays: 7, archiveAfterDays: 90 },
      [],
    ],
  ])('%s', (_title, tier, overrides, expected) => {
    expect(gcsRetentionWarnings(tier, retention(overrides))).toEqual(expected);
  });
});
