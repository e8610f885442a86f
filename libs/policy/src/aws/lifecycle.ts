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
  filter: Record<string, never>;
  abortIncompleteMultipartUpload?: { daysAfterInitiation: number };
  expiration?: { days: number } | { expiredObjectDeleteMarker: true };
  noncurrentVersionExpiration?: { noncurrentDays: number; newerNoncurrentVersions?: number };
  transitions?: { days: number; storageClass: string }[];
}

/** The lifecycle of a versioned general purpose bucket from the store's retention spec (0 = never). */
export function s3LifecycleRules(retention: RetentionSpec): S3LifecycleRule[] {
  return [
    abortIncompleteUploads(retention),
    ...expireNoncurrentVersions(retention),
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

function allObjects(id: string): Pick<S3LifecycleRule, 'id' | 'status' | 'filter'> {
  return { id, status: 'Enabled', filter: {} };
}

function abortIncompleteUploads(retention: RetentionSpec): S3LifecycleRule {
  return {
    ...allObjects('abort-incomplete-multipart-uploads'),
    abortIncompleteMultipartUpload: { daysAfterInitiation: retention.abortIncompleteUploadDays },
  };
}

function expireNoncurrentVersions(retention: RetentionSpec): S3LifecycleRule[] {
  const { noncurrentExpireDays, keepNoncurrentVersions } = retention;
  if (noncurrentExpireDays === 0) return [];
  return [
    {
      ...allObjects('expire-noncurrent-versions'),
      noncurrentVersionExpiration: {
        noncurrentDays: noncurrentExpireDays,
        ...(keepNoncurrentVersions > 0 ? { newerNoncurrentVersions: keepNoncurrentVersions } : {}),
      },
    },
  ];
}

function tierCurrentVersions(retention: RetentionSpec): S3LifecycleRule[] {
  const transitions = [
    { days: retention.coolAfterDays, storageClass: S3_COOL_STORAGE_CLASS },
    { days: retention.archiveAfterDays, storageClass: S3_ARCHIVE_STORAGE_CLASS },
  ].filter((transition) => transition.days > 0);
  if (transitions.length === 0) return [];
  return [{ ...allObjects('tier-current-versions'), transitions }];
}

function expireCurrentVersions(retention: RetentionSpec, id: string): S3LifecycleRule[] {
  if (retention.expireAfterDays === 0) return [];
  return [{ ...allObjects(id), expiration: { days: retention.expireAfterDays } }];
}
