import type { RetentionSpec, Tier } from '@checkpoints/config';
import { gcsLifecycleRules, gcsRetentionWarnings, type GcsLifecycleRule } from './lifecycle';

const retention = (overrides: Partial<RetentionSpec>): RetentionSpec => ({
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 0,
  coolAfterDays: 0,
  archiveAfterDays: 0,
  expireAfterDays: 0,
  abortIncompleteUploadDays: 1,
  softDeleteDays: 7,
  ...overrides,
});

const abort = (age: number): GcsLifecycleRule => ({
  action: { type: 'AbortIncompleteMultipartUpload' },
  condition: { age },
});
const toNearline = (age: number): GcsLifecycleRule => ({
  action: { type: 'SetStorageClass', storageClass: 'NEARLINE' },
  condition: { age, withState: 'LIVE', matchesStorageClasses: ['STANDARD'] },
});
const toArchive = (age: number): GcsLifecycleRule => ({
  action: { type: 'SetStorageClass', storageClass: 'ARCHIVE' },
  condition: { age, withState: 'LIVE', matchesStorageClasses: ['STANDARD', 'NEARLINE'] },
});
const deleteLive = (age: number): GcsLifecycleRule => ({
  action: { type: 'Delete' },
  condition: { age, withState: 'LIVE' },
});

describe('gcsLifecycleRules', () => {
  it.each<[string, Partial<RetentionSpec>, GcsLifecycleRule[]]>([
    [
      'the standard defaults: keep 3 previous versions, older ones go after 7 days, NEARLINE at 30',
      { keepNoncurrentVersions: 3, noncurrentExpireDays: 7, coolAfterDays: 30 },
      [
        abort(1),
        {
          action: { type: 'Delete' },
          condition: { withState: 'ARCHIVED', daysSinceNoncurrentTime: 7, numNewerVersions: 4 },
        },
        toNearline(30),
      ],
    ],
    [
      'previous versions by age only',
      { keepNoncurrentVersions: 0, noncurrentExpireDays: 14 },
      [
        abort(1),
        { action: { type: 'Delete' }, condition: { withState: 'ARCHIVED', daysSinceNoncurrentTime: 14 } },
      ],
    ],
    [
      'previous versions never expire: no noncurrent rule at all',
      { keepNoncurrentVersions: 5, noncurrentExpireDays: 0 },
      [abort(1)],
    ],
    [
      'cool, archive and delete current objects',
      { coolAfterDays: 30, archiveAfterDays: 180, expireAfterDays: 730, abortIncompleteUploadDays: 3 },
      [abort(3), toNearline(30), toArchive(180), deleteLive(730)],
    ],
    ['archive without a cool step', { archiveAfterDays: 90 }, [abort(1), toArchive(90)]],
    [
      'delete only (high-throughput: nothing noncurrent)',
      { expireAfterDays: 14 },
      [abort(1), deleteLive(14)],
    ],
    ['nothing but aborting uploads', {}, [abort(1)]],
  ])('%s', (_title, overrides, expected) => {
    expect(gcsLifecycleRules(retention(overrides))).toEqual(expected);
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
      'previous versions kept forever',
      'standard',
      { keepNoncurrentVersions: 3, noncurrentExpireDays: 0, coolAfterDays: 30 },
      [
        'retention.noncurrentExpireDays is 0: previous versions are never deleted, so every overwritten or deleted checkpoint stays in the bucket, and on the bill, until someone removes it',
      ],
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
