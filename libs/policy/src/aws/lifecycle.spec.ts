import type { RetentionSpec } from '@checkpoints/config';
import { s3DirectoryLifecycleRules, s3LifecycleRules, type S3LifecycleRule } from './lifecycle';

/** The common defaults (DESIGN section 3), as loadStackSpec gives them on the standard tier. */
const defaults: RetentionSpec = {
  keepNoncurrentVersions: 3,
  noncurrentExpireDays: 7,
  coolAfterDays: 30,
  archiveAfterDays: 0,
  expireAfterDays: 0,
  abortIncompleteUploadDays: 1,
  softDeleteDays: 0,
};

const rule = (id: string, action: Omit<S3LifecycleRule, 'id' | 'status' | 'filter'>): S3LifecycleRule => ({
  id,
  status: 'Enabled',
  filter: {},
  ...action,
});
const abort = (days: number) =>
  rule('abort-incomplete-multipart-uploads', {
    abortIncompleteMultipartUpload: { daysAfterInitiation: days },
  });
const deleteMarkers = rule('remove-expired-delete-markers', {
  expiration: { expiredObjectDeleteMarker: true },
});

describe('s3LifecycleRules (general purpose bucket)', () => {
  it.each<[string, Partial<RetentionSpec>, S3LifecycleRule[]]>([
    [
      'the defaults: keep 3 previous versions for 7 days, STANDARD_IA at 30 days, never expire',
      {},
      [
        abort(1),
        rule('expire-noncurrent-versions', {
          noncurrentVersionExpiration: { noncurrentDays: 7, newerNoncurrentVersions: 3 },
        }),
        rule('tier-current-versions', { transitions: [{ days: 30, storageClass: 'STANDARD_IA' }] }),
        deleteMarkers,
      ],
    ],
    [
      'cool, archive to GLACIER_IR and expire',
      { coolAfterDays: 30, archiveAfterDays: 90, expireAfterDays: 365, abortIncompleteUploadDays: 3 },
      [
        abort(3),
        rule('expire-noncurrent-versions', {
          noncurrentVersionExpiration: { noncurrentDays: 7, newerNoncurrentVersions: 3 },
        }),
        rule('tier-current-versions', {
          transitions: [
            { days: 30, storageClass: 'STANDARD_IA' },
            { days: 90, storageClass: 'GLACIER_IR' },
          ],
        }),
        rule('expire-current-versions', { expiration: { days: 365 } }),
        deleteMarkers,
      ],
    ],
    [
      'archive without a cool tier',
      { coolAfterDays: 0, archiveAfterDays: 14 },
      [
        abort(1),
        rule('expire-noncurrent-versions', {
          noncurrentVersionExpiration: { noncurrentDays: 7, newerNoncurrentVersions: 3 },
        }),
        rule('tier-current-versions', { transitions: [{ days: 14, storageClass: 'GLACIER_IR' }] }),
        deleteMarkers,
      ],
    ],
    [
      'keep no previous version beyond the age rule',
      { keepNoncurrentVersions: 0, noncurrentExpireDays: 1, coolAfterDays: 0 },
      [
        abort(1),
        rule('expire-noncurrent-versions', { noncurrentVersionExpiration: { noncurrentDays: 1 } }),
        deleteMarkers,
      ],
    ],
    [
      'never expire previous versions, never tier',
      { noncurrentExpireDays: 0, coolAfterDays: 0 },
      [abort(1), deleteMarkers],
    ],
  ])('%s', (_title, retention, expected) => {
    expect(s3LifecycleRules({ ...defaults, ...retention })).toEqual(expected);
  });
});

describe('s3DirectoryLifecycleRules (S3 Express One Zone)', () => {
  const directoryDefaults: RetentionSpec = {
    ...defaults,
    keepNoncurrentVersions: 0,
    noncurrentExpireDays: 0,
    coolAfterDays: 0,
  };

  it.each<[string, Partial<RetentionSpec>, S3LifecycleRule[]]>([
    ['the defaults: abort uploads after a day, keep objects', {}, [abort(1)]],
    [
      'expire objects after 7 days',
      { expireAfterDays: 7, abortIncompleteUploadDays: 2 },
      [abort(2), rule('expire-objects', { expiration: { days: 7 } })],
    ],
    [
      'ignores what a directory bucket cannot do (refused earlier by config validation)',
      { keepNoncurrentVersions: 3, noncurrentExpireDays: 7, coolAfterDays: 30, archiveAfterDays: 90 },
      [abort(1)],
    ],
  ])('%s', (_title, retention, expected) => {
    expect(s3DirectoryLifecycleRules({ ...directoryDefaults, ...retention })).toEqual(expected);
  });
});
