import type { RetentionSpec } from '@checkpoints/config';

/** Where current objects go at `coolAfterDays`: same latency as STANDARD, cheaper to keep, dearer to read. */
export const S3_COOL_STORAGE_CLASS = 'STANDARD_IA';
/**
 * Where current objects go at `archiveAfterDays`. Glacier Instant Retrieval, not Deep Archive: an old
 * checkpoint is read back when a run is resumed or evaluated, and GLACIER_IR serves it in milliseconds
 * through the ordinary GetObject, where GLACIER and DEEP_ARCHIVE need a restore job of hours first,
 * which no training framework issues. Its minimum billable storage is 90 days.
 */
export const S3_ARCHIVE_STORAGE_CLASS = 'GLACIER_IR';

/** One rule of an S3 lifecycle configuration, in the shape of `BucketLifecycleConfiguration` rules. */
export interface S3LifecycleRule {
  id: string;
  status: 'Enabled';
  /** Empty: every object of the bucket. */
  filter: { prefix?: string };
  abortIncompleteMultipartUpload?: { daysAfterInitiation: number };
  expiration?: { days: number } | { expiredObjectDeleteMarker: true };
  noncurrentVersionExpiration?: { noncurrentDays: number; newerNoncurrentVersions?: number };
  transitions?: { days: number; storageClass: string }[];
}

/**
 * The lifecycle of a versioned general purpose bucket from the store's retention spec (0 = never).
 * libs/analysis replays these rules against S3's documented semantics to prove the retention promises.
 */
export function s3LifecycleRules(retention: RetentionSpec): S3LifecycleRule[] {
  return [
    abortIncompleteUploads(retention),
    ...keepNewestNoncurrentVersions(retention),
    purgeNoncurrentVersions(retention),
    ...tierCurrentVersions(retention),
    ...expireCurrentVersions(retention, 'expire-current-versions'),
    // Its own rule: S3 refuses expiredObjectDeleteMarker next to `days` in one expiration.
    { ...allObjects('remove-expired-delete-markers'), expiration: { expiredObjectDeleteMarker: true } },
  ];
}

/**
 * The lifecycle of an S3 Express One Zone directory bucket: expiry and aborting uploads are all it
 * supports (no versions, no other storage class), so the rest of the retention spec does not apply.
 */
export function s3DirectoryLifecycleRules(retention: RetentionSpec): S3LifecycleRule[] {
  return [abortIncompleteUploads(retention), ...expireCurrentVersions(retention, 'expire-objects')];
}

function allObjects(id: string, prefix?: string): Pick<S3LifecycleRule, 'id' | 'status' | 'filter'> {
  return { id, status: 'Enabled', filter: prefix === undefined ? {} : { prefix } };
}

function abortIncompleteUploads(retention: RetentionSpec): S3LifecycleRule {
  return {
    ...allObjects('abort-incomplete-multipart-uploads'),
    abortIncompleteMultipartUpload: { daysAfterInitiation: retention.abortIncompleteUploadDays },
  };
}

/** The shortest NoncurrentDays S3 accepts: versions beyond the newest N go the day after they are replaced. */
const S3_MIN_NONCURRENT_DAYS = 1;

/**
 * Bounded copies: versions beyond the newest `keepNoncurrentVersions` go a day after they stop being current.
 * NewerNoncurrentVersions only acts on a version with that many newer noncurrent ones, so this rule alone
 * never purges the last versions of a key written once; purgeNoncurrentVersions does.
 */
function keepNewestNoncurrentVersions(retention: RetentionSpec): S3LifecycleRule[] {
  const { noncurrentExpireDays, keepNoncurrentVersions } = retention;
  if (keepNoncurrentVersions === 0 || noncurrentExpireDays <= S3_MIN_NONCURRENT_DAYS) return [];
  return [
    {
      ...allObjects('keep-newest-noncurrent-versions'),
      noncurrentVersionExpiration: {
        noncurrentDays: S3_MIN_NONCURRENT_DAYS,
        newerNoncurrentVersions: keepNoncurrentVersions,
      },
    },
  ];
}

/**
 * Purge: every previous version, however few newer ones it has, is deleted `noncurrentExpireDays` after it
 * stopped being current; the delete marker then left alone goes with remove-expired-delete-markers.
 * Config refuses 0 on this tier, and S3 refuses NoncurrentDays below 1, hence the floor.
 */
function purgeNoncurrentVersions({ noncurrentExpireDays }: RetentionSpec): S3LifecycleRule {
  return {
    ...allObjects('purge-noncurrent-versions'),
    noncurrentVersionExpiration: { noncurrentDays: Math.max(S3_MIN_NONCURRENT_DAYS, noncurrentExpireDays) },
  };
}

function tierCurrentVersions(retention: RetentionSpec): S3LifecycleRule[] {
  const transitions = [
    { days: retention.coolAfterDays, storageClass: S3_COOL_STORAGE_CLASS },
    { days: retention.archiveAfterDays, storageClass: S3_ARCHIVE_STORAGE_CLASS },
  ].filter((transition) => transition.days > 0);
  if (transitions.length === 0) return [];
  return [{ ...allObjects('tier-current-versions'), transitions }];
}

/** One rule per expiring prefix (an S3 filter takes one prefix), or one for the whole bucket. */
function expireCurrentVersions(retention: RetentionSpec, id: string): S3LifecycleRule[] {
  const { expireAfterDays, expirePrefixes } = retention;
  if (expireAfterDays === 0) return [];
  if (expirePrefixes.length === 0) return [{ ...allObjects(id), expiration: { days: expireAfterDays } }];
  return expirePrefixes.map((prefix, index) => ({
    ...allObjects(`${id}-${index + 1}`, prefix),
    expiration: { days: expireAfterDays },
  }));
}
