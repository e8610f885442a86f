import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import {
  HOURS_PER_DAY,
  liveVersion,
  matchesPrefixes,
  nextMidnight,
  type LifecycleModel,
  type StoreLifecycle,
  type StoredObject,
  type StoredVersion,
} from './replay';
import { list, record } from './values';
import type { TierRecovery } from './model';

/**
 * The standard tier is a versioned general purpose bucket: previous versions restore a delete or an
 * overwrite. The high-throughput tier is an S3 Express One Zone directory bucket, which has no versioning
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-differences.html), so neither.
 */
export const S3_RECOVERY: Record<'standard' | 'high-throughput', TierRecovery> = {
  standard: { delete: true, overwrite: true, versions: true },
  'high-throughput': { delete: false, overwrite: false, versions: false },
};

/** One S3 lifecycle rule as the simulator reads it from `BucketLifecycleConfiguration` inputs. */
export interface S3Rule {
  id: string;
  enabled: boolean;
  /** The filter's prefix; '' is every object. */
  prefix: string;
  expirationDays?: number;
  expiredObjectDeleteMarker?: boolean;
  noncurrentDays?: number;
  newerNoncurrentVersions?: number;
}

export interface S3Bucket {
  /** S3 Express One Zone directory bucket: no versioning, one storage class. */
  directory: boolean;
  versioned: boolean;
  rules: S3Rule[];
  /** S3 Object Lock default retention: days every new version is locked after its write; absent: no lock. */
  lockDays?: number;
}

/**
 * S3's documented lifecycle semantics.
 *
 * - Lifecycle times are the rule's days added to the object's creation time (or, for noncurrent actions,
 *   the time it became noncurrent), rounded up to the next midnight UTC; lifecycle runs daily from there.
 *   https://docs.aws.amazon.com/AmazonS3/latest/userguide/intro-lifecycle-rules.html ("Amazon S3 calculates
 *   the time by adding the number of days specified in the rule to the object creation time and rounding the
 *   resulting time to the next day midnight UTC")
 * - Expiration in a versioning-enabled bucket adds a delete marker and makes the current version noncurrent;
 *   it does nothing when the current version is already a delete marker; a delete marker that is the only
 *   version left (an expired object delete marker) is removed by ExpiredObjectDeleteMarker, or by a rule
 *   that expires current versions.
 *   https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html
 *   https://docs.aws.amazon.com/AmazonS3/latest/userguide/ManagingDelMarkers.html
 * - NoncurrentVersionExpiration deletes a noncurrent version NoncurrentDays after it became noncurrent;
 *   with NewerNoncurrentVersions N, only once N more recent noncurrent versions exist ("If there are this
 *   many more recent noncurrent versions, Amazon S3 will take the associated action").
 *   https://docs.aws.amazon.com/AmazonS3/latest/API/API_NoncurrentVersionExpiration.html
 * - Directory buckets have no versioning: a delete or an overwrite removes the object at once, and
 *   expiration deletes it permanently.
 *   https://docs.aws.amazon.com/AmazonS3/latest/userguide/directory-buckets-objects-lifecycle.html
 * - Object Lock (a default retention of N days, `lockDays`) locks each object version, not the key, until its
 *   write time plus N days; a lock does not prevent new versions from being created or delete markers from
 *   being added on top of the object (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock.html),
 *   so a job's delete (no version ID) adds a delete marker and an overwrite adds a version, both allowed, and the
 *   version they make noncurrent stays locked. A delete marker takes no retention period
 *   (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-delete-markers).
 * - Lifecycle keeps working on locked objects, delete markers included, but no expiration deletes a locked
 *   version (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-lifecycle):
 *   a noncurrent version whose rule is due while it is locked goes on the first pass after its lock ends.
 * - Deleting a locked version takes s3:BypassGovernanceRetention and the bypass header (GOVERNANCE) or is
 *   impossible (COMPLIANCE) (object-lock-managing.html#object-lock-managing-bypass); no job deletes versions here.
 */
export function s3Model(bucket: S3Bucket): LifecycleModel {
  const rules = bucket.rules.filter((rule) => rule.enabled);
  const versioned = bucket.versioned && !bucket.directory;
  // Object Lock works only on versioned buckets (object-lock.html): an unversioned render locks nothing.
  const lockHours = versioned ? (bucket.lockDays ?? 0) * HOURS_PER_DAY : 0;
  const locked = (version: StoredVersion, at: number) =>
    version.deleteMarker !== true && at < version.writtenAt + lockHours;
  return {
    write(object, version) {
      const current = object.versions[0];
      if (!versioned) object.versions = [];
      else if (current && current.noncurrentAt === undefined) current.noncurrentAt = version.writtenAt;
      object.versions.unshift(version);
    },
    remove(object, at) {
      if (!versioned) {
        object.versions = [];
        return;
      }
      addDeleteMarker(object, at);
    },
    lifecycle(object, at) {
      const applying = rules.filter((rule) => matchesPrefixes(object.key, [rule.prefix]));
      if (!versioned) {
        const live = liveVersion(object);
        if (live && applying.some((rule) => expiresAt(rule, live.writtenAt) <= at)) object.versions = [];
        return;
      }
      // Every action is decided on the state the pass starts from.
      const doomed = new Set<StoredVersion>();
      const noncurrent = object.versions.filter((version) => version.noncurrentAt !== undefined);
      noncurrent.forEach((version, newerNoncurrent) => {
        // A locked version stays whatever the rules say: checked first, as most versions of a locked store are.
        if (locked(version, at)) return;
        const expired = applying.some(
          (rule) =>
            rule.noncurrentDays !== undefined &&
            nextMidnight((version.noncurrentAt ?? 0) + rule.noncurrentDays * HOURS_PER_DAY) <= at &&
            newerNoncurrent >= (rule.newerNoncurrentVersions ?? 0),
        );
        if (expired) doomed.add(version);
      });
      const [current] = object.versions;
      const loneMarker = object.versions.length === 1 && current?.deleteMarker === true;
      const removesLoneMarker = applying.some(
        (rule) => rule.expiredObjectDeleteMarker === true || rule.expirationDays !== undefined,
      );
      if (loneMarker && removesLoneMarker && current) doomed.add(current);
      const live = liveVersion(object);
      const expireLive = live && applying.some((rule) => expiresAt(rule, live.writtenAt) <= at);
      if (doomed.size > 0) object.versions = object.versions.filter((version) => !doomed.has(version));
      if (expireLive) addDeleteMarker(object, at);
    },
  };
}

function expiresAt(rule: S3Rule, writtenAt: number): number {
  if (rule.expirationDays === undefined) return Infinity;
  return nextMidnight(writtenAt + rule.expirationDays * HOURS_PER_DAY);
}

function addDeleteMarker(object: StoredObject, at: number): void {
  const current = object.versions[0];
  if (!current || current.deleteMarker) return;
  current.noncurrentAt = at;
  object.versions.unshift({ generation: -at - 1, writtenAt: at, deleteMarker: true });
}

/** The bucket of an S3 store as its render describes it. */
export function s3BucketOf(resources: readonly RenderedResource[]): S3Bucket {
  const directory = resourcesOfType(resources, 'aws:s3/directoryBucket:DirectoryBucket').length > 0;
  const versioned = resourcesOfType(resources, 'aws:s3/bucketVersioning:BucketVersioning').some(
    (resource) => record(resource.inputs['versioningConfiguration'])['status'] === 'Enabled',
  );
  const rules = resourcesOfType(
    resources,
    'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration',
  ).flatMap((resource) => list(resource.inputs['rules']).map(s3Rule));
  const lockDays = s3LockDays(resources);
  return { directory, versioned, rules, ...(lockDays === undefined ? {} : { lockDays }) };
}

/**
 * The default retention of the bucket's Object Lock configuration, in days: `days`, or `years` at 365 days (the
 * shortest a year locks). Both modes lock; which one is allowed is the policy pack's question.
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_DefaultRetention.html ("Days or Years, not both")
 */
function s3LockDays(resources: readonly RenderedResource[]): number | undefined {
  const days = resourcesOfType(
    resources,
    'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration',
  ).flatMap((resource) => {
    const retention = record(record(resource.inputs['rule'])['defaultRetention']);
    if (typeof retention['days'] === 'number') return [retention['days']];
    return typeof retention['years'] === 'number' ? [retention['years'] * 365] : [];
  });
  return days.length === 0 ? undefined : Math.min(...days);
}

function s3Rule(value: unknown): S3Rule {
  const rule = record(value);
  const filter = record(rule['filter']);
  const expiration = record(rule['expiration']);
  const noncurrent = record(rule['noncurrentVersionExpiration']);
  const parsed: S3Rule = {
    id: String(rule['id'] ?? ''),
    enabled: rule['status'] === 'Enabled',
    prefix: String(filter['prefix'] ?? rule['prefix'] ?? ''),
  };
  if (typeof expiration['days'] === 'number') parsed.expirationDays = expiration['days'];
  if (expiration['expiredObjectDeleteMarker'] === true) parsed.expiredObjectDeleteMarker = true;
  if (typeof noncurrent['noncurrentDays'] === 'number') parsed.noncurrentDays = noncurrent['noncurrentDays'];
  if (typeof noncurrent['newerNoncurrentVersions'] === 'number') {
    parsed.newerNoncurrentVersions = noncurrent['newerNoncurrentVersions'];
  }
  return parsed;
}

/** What the S3 store can and cannot recover, for the report. */
export function s3Lifecycle(resources: readonly RenderedResource[]): StoreLifecycle {
  const bucket = s3BucketOf(resources);
  const notes = bucket.directory
    ? [
        'S3 Express One Zone directory bucket: no versioning, so a delete or an overwrite is immediate and cannot be undone',
      ]
    : bucket.versioned
      ? []
      : ['the bucket is not versioned: a delete or an overwrite cannot be undone'];
  const copyDays = bucket.rules.map((rule) => rule.noncurrentDays ?? 0);
  // `settings` (the replay cache key) is the whole bucket, its lock included.
  return {
    model: s3Model(bucket),
    settings: JSON.stringify(['aws', bucket]),
    notes,
    days: bucket.rules.flatMap(ruleDays),
    copyDays,
    ...(bucket.lockDays === undefined || bucket.directory || !bucket.versioned
      ? {}
      : { lockDays: bucket.lockDays }),
  };
}

function ruleDays(rule: S3Rule): number[] {
  return [rule.expirationDays ?? 0, rule.noncurrentDays ?? 0];
}
