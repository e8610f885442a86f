import type { RetentionSpec, Tier } from '@checkpoints/config';

/**
 * Where current objects go at `coolAfterDays`. NEARLINE rather than COLDLINE: a checkpoint a few weeks old
 * is still read back when a run is resumed or evaluated, and NEARLINE's retrieval fee and 30-day minimum
 * storage duration are the smallest of the cold classes.
 */
export const GCS_COOL_STORAGE_CLASS = 'NEARLINE';
/** Where current objects go at `archiveAfterDays`; still read with an ordinary GET, in milliseconds. */
export const GCS_ARCHIVE_STORAGE_CLASS = 'ARCHIVE';
/** Every store's bucket keeps new objects here; lifecycle rules move them colder. */
export const GCS_DEFAULT_STORAGE_CLASS = 'STANDARD';

export type GcsStorageClass =
  typeof GCS_DEFAULT_STORAGE_CLASS | typeof GCS_COOL_STORAGE_CLASS | typeof GCS_ARCHIVE_STORAGE_CLASS;

/** Days an object is billed for at least once it is in a class, counted from its creation. */
const MINIMUM_STORAGE_DAYS: Record<GcsStorageClass, number> = { STANDARD: 0, NEARLINE: 30, ARCHIVE: 365 };

/** One rule of a bucket's lifecycle, in the shape of the `lifecycleRules` input of `gcp.storage.Bucket`. */
export interface GcsLifecycleRule {
  action: {
    type: 'Delete' | 'SetStorageClass' | 'AbortIncompleteMultipartUpload';
    storageClass?: GcsStorageClass;
  };
  condition: {
    age?: number;
    /** LIVE: current objects only; ARCHIVED: noncurrent (previous) versions only. */
    withState?: 'LIVE' | 'ARCHIVED';
    matchesStorageClasses?: GcsStorageClass[];
    /** Newer versions of the object, the live one included. */
    numNewerVersions?: number;
    daysSinceNoncurrentTime?: number;
    matchesPrefixes?: string[];
  };
}

/**
 * A bucket's lifecycle from the store's retention spec (0 = never). Noncurrent rules only appear when the
 * spec asks for them, which it cannot on a hierarchical-namespace bucket (gcpRules sets them to 0 there).
 */
export function gcsLifecycleRules(retention: RetentionSpec): GcsLifecycleRule[] {
  return [
    abortIncompleteUploads(retention),
    ...deleteNoncurrentVersionsBeyondNewest(retention),
    ...purgeNoncurrentVersions(retention),
    ...moveCurrentObjects(retention),
    ...deleteCurrentObjects(retention),
  ];
}

function abortIncompleteUploads({ abortIncompleteUploadDays }: RetentionSpec): GcsLifecycleRule {
  // Age is the only condition Cloud Storage accepts for this action.
  return {
    action: { type: 'AbortIncompleteMultipartUpload' },
    condition: { age: abortIncompleteUploadDays },
  };
}

/**
 * Bounded copies: previous versions past the newest `keepNoncurrentVersions` are deleted at once. Every
 * condition of a rule must hold, so this count has its own rule: in one rule with daysSinceNoncurrentTime,
 * the last versions of a key written once (never N newer) would never be deleted. numNewerVersions counts
 * the live version too, hence the + 1; of a key deleted outright that keeps one previous version more.
 */
function deleteNoncurrentVersionsBeyondNewest(retention: RetentionSpec): GcsLifecycleRule[] {
  const { keepNoncurrentVersions, noncurrentExpireDays } = retention;
  if (keepNoncurrentVersions === 0 || noncurrentExpireDays === 0) return [];
  return [
    {
      action: { type: 'Delete' },
      condition: { withState: 'ARCHIVED', numNewerVersions: keepNoncurrentVersions + 1 },
    },
  ];
}

/**
 * Purge: every noncurrent version goes `noncurrentExpireDays` after it stopped being current, into soft
 * delete for softDeleteDays more. 0 means the bucket has no versions (hierarchical namespace); config
 * refuses 0 on a versioned tier.
 */
function purgeNoncurrentVersions({ noncurrentExpireDays }: RetentionSpec): GcsLifecycleRule[] {
  if (noncurrentExpireDays === 0) return [];
  return [
    {
      action: { type: 'Delete' },
      condition: { withState: 'ARCHIVED', daysSinceNoncurrentTime: noncurrentExpireDays },
    },
  ];
}

// Each move names the classes it starts from, so no rule ever sends an object back to a warmer class.
function moveCurrentObjects({ coolAfterDays, archiveAfterDays }: RetentionSpec): GcsLifecycleRule[] {
  const moves: GcsLifecycleRule[] = [];
  if (coolAfterDays > 0) {
    moves.push(setStorageClass(GCS_COOL_STORAGE_CLASS, coolAfterDays, [GCS_DEFAULT_STORAGE_CLASS]));
  }
  if (archiveAfterDays > 0) {
    moves.push(
      setStorageClass(GCS_ARCHIVE_STORAGE_CLASS, archiveAfterDays, [
        GCS_DEFAULT_STORAGE_CLASS,
        GCS_COOL_STORAGE_CLASS,
      ]),
    );
  }
  return moves;
}

function setStorageClass(
  storageClass: GcsStorageClass,
  age: number,
  from: GcsStorageClass[],
): GcsLifecycleRule {
  return {
    action: { type: 'SetStorageClass', storageClass },
    condition: { age, withState: 'LIVE', matchesStorageClasses: from },
  };
}

/** In a versioned bucket this makes the object a previous version, which the noncurrent rule then removes. */
function deleteCurrentObjects({ expireAfterDays, expirePrefixes }: RetentionSpec): GcsLifecycleRule[] {
  if (expireAfterDays === 0) return [];
  return [
    {
      action: { type: 'Delete' },
      condition: {
        age: expireAfterDays,
        withState: 'LIVE',
        ...(expirePrefixes.length > 0 ? { matchesPrefixes: [...expirePrefixes] } : {}),
      },
    },
  ];
}

/**
 * Costs a retention spec may run into that depend on when objects are deleted, so they are warnings
 * rather than config errors (gcpRules refuses the expiries that bill every object early).
 */
export function gcsRetentionWarnings(tier: Tier, retention: RetentionSpec): string[] {
  const warnings: string[] = [];
  if (tier === 'standard' && retention.noncurrentExpireDays > 0) {
    for (const { storageClass, from, until } of coldPeriods(retention)) {
      const minimum = MINIMUM_STORAGE_DAYS[storageClass];
      const unsafeUntil = Math.min(until, minimum - retention.noncurrentExpireDays);
      if (from < unsafeUntil) {
        warnings.push(
          `a checkpoint overwritten or deleted between day ${from} (in ${storageClass} from then) and day ` +
            `${unsafeUntil} can be removed as a previous version ${retention.noncurrentExpireDays} days ` +
            `later, before ${storageClass}'s ${minimum}-day minimum storage duration, and is then billed as if ` +
            `kept ${minimum} days`,
        );
      }
    }
  }
  return warnings;
}

/** The ages (days since creation) at which a current object is in each cold class. */
function coldPeriods({ coolAfterDays, archiveAfterDays }: RetentionSpec) {
  const periods: { storageClass: GcsStorageClass; from: number; until: number }[] = [];
  if (coolAfterDays > 0) {
    periods.push({
      storageClass: GCS_COOL_STORAGE_CLASS,
      from: coolAfterDays,
      until: archiveAfterDays > 0 ? archiveAfterDays : Infinity,
    });
  }
  if (archiveAfterDays > 0) {
    periods.push({ storageClass: GCS_ARCHIVE_STORAGE_CLASS, from: archiveAfterDays, until: Infinity });
  }
  return periods;
}
