import type { Cloud, Tier } from './spec';

/*
 * Every numeric limit of the store spec, stated once. The schema (schema.ts) enforces them per cloud, every
 * message states them through `allowedRange`, and docs/config.md, the Pulumi.yaml declarations and the
 * editor JSON Schemas are generated from them (`npm run config:generate`).
 */

/** Upper bound for any age in days: 100 years, far beyond any checkpoint's useful life (a platform bound). */
export const MAX_DAYS = 36_500;
/** Longest purge bound a spec may state for previous versions: a year, so every promise stays checkable. */
export const MAX_NONCURRENT_DAYS = 365;
/** Longest wait before an incomplete upload is aborted: a year (a platform bound; the clouds set none). */
export const MAX_ABORT_UPLOAD_DAYS = 365;
/**
 * S3 keeps at most 100 newer noncurrent versions per rule (NoncurrentVersionExpiration.NewerNoncurrentVersions,
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_NoncurrentVersionExpiration.html); every cloud takes the same.
 */
export const MAX_KEEP_NONCURRENT_VERSIONS = 100;
/**
 * Cloud Storage soft delete keeps objects 7 to 90 days (https://cloud.google.com/storage/docs/soft-delete:
 * "the retention duration ... must be between 7 and 90 days"); 0 would disable it, which no store may do.
 */
export const GCS_SOFT_DELETE_DAYS = { min: 7, max: 90 } as const;
/**
 * Azure blob and container soft delete keep objects 1 to 365 days
 * (https://learn.microsoft.com/azure/storage/blobs/soft-delete-blob-overview); the baseline keeps at least 7.
 */
export const AZURE_SOFT_DELETE_DAYS = { min: 7, max: 365 } as const;
/** Longest retention lock: 10 years, beyond which a lock is a legal hold, not a checkpoint policy. */
export const MAX_RETENTION_LOCK_DAYS = 3_650;
/** The longest AWS Backup keeps a continuous backup (https://docs.aws.amazon.com/aws-backup/latest/devguide/s3-backups.html). */
export const MAX_CONTINUOUS_BACKUP_DAYS = 35;
/**
 * The minimum retention of the vault lock the bootstrap sets on each environment's backup vault: the spec's
 * default recovery window. "If the job's retention period is shorter than that minimum retention period, then the
 * vault fails that backup or copy job" (https://docs.aws.amazon.com/aws-backup/latest/devguide/API_PutBackupVaultLockConfiguration.html),
 * so no store may ask for less.
 */
export const AWS_BACKUP_VAULT_LOCK_MIN_DAYS = 7;
/**
 * Days an Azure Backup vaulted backup of an ADLS Gen2 account may keep a daily recovery point: at most 3,650
 * ("Maximum retention of daily recovery points: 3,650 days",
 * https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-support-matrix#retention-limits), at
 * least 7 (the vault-tier default retention's `@minValue(7)` of Azure's own ADLS backup template,
 * https://github.com/Azure/azure-quickstart-templates/blob/master/quickstarts/microsoft.dataprotection/backup-create-adls-storage-account-enable-protection/main.bicep).
 */
export const AZURE_VAULTED_BACKUP_DAYS = { min: 7, max: 3_650 } as const;

/**
 * The GCP copy bucket's soft delete keeps what its lifecycle deletes after the locked retention as long again,
 * and a bucket's soft delete keeps objects 7 to 90 days (https://cloud.google.com/storage/docs/soft-delete#retention-duration):
 * the copy's days are both, so they stay within that range.
 */
export const GCP_COPY_DAYS = { min: 7, max: 90 } as const;
/** Highest key generation: a store re-keyed this often is better migrated to a new store. */
export const MAX_KEY_GENERATION = 99;
/** Most GiB one checkpoint may state: a pebibyte, far beyond any model's checkpoint. */
export const MAX_CHECKPOINT_GIB = 1_048_576;
/** Longest interval or overwrite period in hours: a year. */
export const MAX_WORKLOAD_HOURS = 8_760;
/** Most whole-checkpoint read-backs a day: one every 15 minutes, far past any evaluation schedule. */
export const MAX_READ_BACKS_PER_DAY = 96;
/** Most job restarts a month: one an hour. */
export const MAX_RESTARTS_PER_MONTH = 744;
/** Most checkpoints a job may keep before deleting the oldest. */
export const MAX_KEEP_LAST = 10_000;

/** A cloud's range for a key: what the standard tier accepts. */
export interface Range {
  min: number;
  max: number;
  /** The minimum itself is refused (a size above 0). */
  exclusiveMin?: boolean;
  /** What the low end means, e.g. `never` for 0: shown as "from 0 (never)". */
  minMeans?: string;
  /**
   * Below `min`, down to this, the schema passes the value on to a cloud rule that refuses it with the
   * reason (e.g. 0 where only a tier without versions accepts it); the rule's message states the range.
   */
  ruleBelow?: number;
  /** Said after the range, e.g. why the cloud bounds it so. */
  note?: string;
  /** The whole message for a value below `min` and above `max`, where the cloud's reason says more. */
  messages?: { below: string; above: string };
}

/** A feature the cloud lacks on every tier: only 0 is accepted, and the message says why. */
export interface Absent {
  absent: true;
  /** The whole message for a non-zero value, per tier where the reason differs. */
  message: (tier: Tier) => string;
}

export type CloudLimit = Range | Absent;

export interface NumericKey {
  /** Path within a store, e.g. `retention.softDeleteDays`. */
  path: string;
  integer: boolean;
  unit?: 'days' | 'hours' | 'GiB';
  /** What the number is, said after the range in messages, e.g. `(the size of one checkpoint)`. */
  what?: string;
  common: Range;
  /** Where a cloud's range differs from `common`. */
  clouds?: Partial<Record<Cloud, CloudLimit>>;
}

const days = (min: number, max: number, extra: Partial<Range> = {}): Range => ({ min, max, ...extra });

const versionsOnly = 'only on a tier without object versions';

const noSoftDeleteOnS3 = (tier: Tier) =>
  tier === 'standard'
    ? 'S3 has no soft delete; deleted objects stay recoverable as noncurrent versions: use retention.noncurrentExpireDays and keepNoncurrentVersions instead, and remove retention.softDeleteDays or set it to 0'
    : 'S3 has no soft delete, and S3 directory buckets have no versioning either; remove retention.softDeleteDays or set it to 0';

/** ADLS Gen2 accounts have a hierarchical namespace, which cannot have blob versioning. */
export const ADLS_NO_VERSIONING =
  'ADLS Gen2 accounts have a hierarchical namespace, which cannot have blob versioning, so there are no ' +
  'previous versions to keep; deleted files stay recoverable for retention.softDeleteDays instead. Remove';

/** Uncommitted blocks are discarded after 7 days (https://learn.microsoft.com/rest/api/storageservices/put-block). */
export const ADLS_NO_UPLOAD_CLEANUP =
  'ADLS Gen2 has no rule for incomplete uploads: blocks that are never committed are discarded by the ' +
  'service after 7 days. Remove';

/** Premium block blob accounts have no access tiers (https://learn.microsoft.com/azure/storage/blobs/access-tiers-overview). */
export const ADLS_NO_ACCESS_TIERS =
  "premium block blob accounts (tier 'high-throughput') have no access tiers, so nothing can move to cool " +
  'or archive; use tier: standard or remove';

/**
 * Standard stores are zone-redundant (ZRS) so the newest checkpoints survive a zone outage; Azure's archive
 * tier exists only for LRS, GRS and RA-GRS accounts (https://learn.microsoft.com/azure/storage/blobs/access-tiers-overview).
 */
export const ADLS_NO_ARCHIVE_ON_ZRS =
  'the archive tier is not available on zone-redundant (ZRS) accounts, which standard stores use so ' +
  'checkpoints survive a zone outage; use retention.coolAfterDays and retention.expireAfterDays, or set 0 (never)';

const adls = (why: string, key: string) => (): string => `${why} retention.${key} or set it to 0`;

export const NUMERIC_KEYS: readonly NumericKey[] = [
  {
    path: 'retention.keepNoncurrentVersions',
    integer: true,
    common: { min: 0, max: MAX_KEEP_NONCURRENT_VERSIONS },
    clouds: {
      azure: { absent: true, message: adls(ADLS_NO_VERSIONING, 'keepNoncurrentVersions') },
    },
  },
  {
    path: 'retention.noncurrentExpireDays',
    integer: true,
    unit: 'days',
    common: days(1, MAX_NONCURRENT_DAYS, { ruleBelow: 0, note: `0 ${versionsOnly}` }),
    clouds: {
      azure: { absent: true, message: adls(ADLS_NO_VERSIONING, 'noncurrentExpireDays') },
    },
  },
  {
    path: 'retention.coolAfterDays',
    integer: true,
    unit: 'days',
    common: days(0, MAX_DAYS, { minMeans: 'never' }),
  },
  {
    path: 'retention.archiveAfterDays',
    integer: true,
    unit: 'days',
    common: days(0, MAX_DAYS, { minMeans: 'never' }),
    clouds: {
      azure: {
        absent: true,
        message: (tier) =>
          tier === 'standard' ? ADLS_NO_ARCHIVE_ON_ZRS : adls(ADLS_NO_ACCESS_TIERS, 'archiveAfterDays')(),
      },
    },
  },
  {
    path: 'retention.expireAfterDays',
    integer: true,
    unit: 'days',
    common: days(0, MAX_DAYS, { minMeans: 'never' }),
  },
  {
    path: 'retention.abortIncompleteUploadDays',
    integer: true,
    unit: 'days',
    common: days(1, MAX_ABORT_UPLOAD_DAYS, { ruleBelow: 0 }),
    clouds: {
      azure: { absent: true, message: adls(ADLS_NO_UPLOAD_CLEANUP, 'abortIncompleteUploadDays') },
    },
  },
  {
    path: 'retention.softDeleteDays',
    integer: true,
    unit: 'days',
    common: days(0, MAX_NONCURRENT_DAYS),
    clouds: {
      aws: { absent: true, message: noSoftDeleteOnS3 },
      gcp: days(GCS_SOFT_DELETE_DAYS.min, GCS_SOFT_DELETE_DAYS.max, {
        note: `Cloud Storage keeps soft-deleted objects ${GCS_SOFT_DELETE_DAYS.min} to ${GCS_SOFT_DELETE_DAYS.max} days`,
        messages: {
          below: `soft delete is always on for a store, and Cloud Storage keeps soft-deleted objects ${GCS_SOFT_DELETE_DAYS.min} to ${GCS_SOFT_DELETE_DAYS.max} days; use at least ${GCS_SOFT_DELETE_DAYS.min}`,
          above: `Cloud Storage keeps soft-deleted objects for ${GCS_SOFT_DELETE_DAYS.min} to ${GCS_SOFT_DELETE_DAYS.max} days; use at most ${GCS_SOFT_DELETE_DAYS.max}`,
        },
      }),
      azure: days(AZURE_SOFT_DELETE_DAYS.min, AZURE_SOFT_DELETE_DAYS.max, {
        note: `a store keeps deleted files at least ${AZURE_SOFT_DELETE_DAYS.min} days; Azure keeps them at most ${AZURE_SOFT_DELETE_DAYS.max}`,
        messages: {
          below: `blob and container soft delete are the only way back from a delete on ADLS Gen2 (no versions), so a store keeps deleted files at least ${AZURE_SOFT_DELETE_DAYS.min} days; use ${AZURE_SOFT_DELETE_DAYS.min} to ${AZURE_SOFT_DELETE_DAYS.max}`,
          above: `Azure keeps soft-deleted blobs and containers at most ${AZURE_SOFT_DELETE_DAYS.max} days; use ${AZURE_SOFT_DELETE_DAYS.min} to ${AZURE_SOFT_DELETE_DAYS.max}`,
        },
      }),
    },
  },
  {
    path: 'workload.checkpointSizeGiB',
    integer: false,
    unit: 'GiB',
    what: 'the size of one checkpoint',
    common: { min: 0, max: MAX_CHECKPOINT_GIB, exclusiveMin: true },
  },
  {
    path: 'workload.intervalHours',
    integer: true,
    unit: 'hours',
    what: 'how often the job writes a checkpoint',
    common: { min: 1, max: MAX_WORKLOAD_HOURS },
  },
  {
    path: 'workload.keepLast',
    integer: true,
    what: 'checkpoints the job keeps before it deletes the oldest',
    common: { min: 1, max: MAX_KEEP_LAST },
  },
  {
    path: 'workload.latestOverwriteHours',
    integer: true,
    unit: 'hours',
    what: 'how often the job overwrites latest.pt',
    common: { min: 0, max: MAX_WORKLOAD_HOURS, minMeans: 'no latest.pt' },
  },
  {
    path: 'workload.readBacksPerDay',
    integer: false,
    what: 'whole checkpoints read back per day',
    common: { min: 0, max: MAX_READ_BACKS_PER_DAY, minMeans: 'no read-backs' },
  },
  {
    path: 'workload.restartsPerMonth',
    integer: true,
    what: 'job restarts per month',
    common: { min: 0, max: MAX_RESTARTS_PER_MONTH, minMeans: 'no restarts' },
  },
  {
    path: 'recovery.retentionLock.days',
    integer: true,
    unit: 'days',
    common: days(1, MAX_RETENTION_LOCK_DAYS),
  },
  {
    path: 'recovery.independentCopy.retentionDays',
    integer: true,
    unit: 'days',
    common: days(AWS_BACKUP_VAULT_LOCK_MIN_DAYS, MAX_CONTINUOUS_BACKUP_DAYS, {
      note: "the backup vault's lock keeps at least 7; continuous backup at most 35",
    }),
    clouds: {
      azure: days(AZURE_VAULTED_BACKUP_DAYS.min, AZURE_VAULTED_BACKUP_DAYS.max, {
        note: `Azure Backup keeps a daily vaulted recovery point ${AZURE_VAULTED_BACKUP_DAYS.min} to ${AZURE_VAULTED_BACKUP_DAYS.max} days`,
      }),
      gcp: days(GCP_COPY_DAYS.min, GCP_COPY_DAYS.max, {
        note: "the copy bucket's soft delete keeps objects 7 to 90 days",
      }),
    },
  },
  {
    path: 'keyGeneration',
    integer: true,
    what: "raise it by one to create the store's key under new names",
    common: { min: 1, max: MAX_KEY_GENERATION },
  },
];

const BY_PATH = new Map(NUMERIC_KEYS.map((key) => [key.path, key]));

export function numericKey(path: string): NumericKey | undefined {
  return BY_PATH.get(path);
}

/** The limit of `path` on `cloud` (undefined: no cloud, the common range). */
export function limitOf(key: NumericKey, cloud: Cloud | undefined): CloudLimit {
  return (cloud && key.clouds?.[cloud]) ?? key.common;
}

export function isAbsent(limit: CloudLimit): limit is Absent {
  return 'absent' in limit;
}

/** The range a key takes, in words: `a whole number of days from 7 to 90`. */
export function rangeWords(key: NumericKey, range: Range): string {
  const unit = key.unit ? ` of ${key.unit}` : '';
  if (range.exclusiveMin) {
    return `a number${unit} above ${range.min} and at most ${range.max}`;
  }
  const kind = key.integer ? 'a whole number' : 'a number';
  const low = range.minMeans ? `${range.min} (${range.minMeans})` : String(range.min);
  return `${kind}${unit} from ${low} to ${range.max}`;
}

/** What `path` allows on `cloud`, as every message and doc states it. */
export function allowedRange(key: NumericKey, cloud: Cloud | undefined, tier: Tier = 'standard'): string {
  const limit = limitOf(key, cloud);
  if (isAbsent(limit)) return limit.message(tier);
  const notes = [limit.note, key.what].filter((note): note is string => note !== undefined);
  return `${rangeWords(key, limit)}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}`;
}

/** The bounds the schema enforces for `path` on `cloud`; a cloud rule refuses the rest with the reason. */
export function schemaBounds(key: NumericKey, cloud: Cloud | undefined): Range {
  const limit = limitOf(key, cloud);
  if (isAbsent(limit)) return { min: 0, max: 0 };
  return { ...limit, min: limit.ruleBelow ?? limit.min };
}

/** `1 to 365` for a key's range on `cloud`, for the messages of the rules that refuse what is below it. */
export function rangeOf(path: string, cloud: Cloud): string {
  const key = numericKey(path);
  const limit = key && limitOf(key, cloud);
  if (!limit || isAbsent(limit)) throw new Error(`${path} has no range on ${cloud}`);
  return `${limit.min} to ${limit.max}`;
}
