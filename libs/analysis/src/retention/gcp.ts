import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import {
  HOURS_PER_DAY,
  isSoftDeleted,
  liveVersion,
  matchesPrefixes,
  permanentlyDelete,
  type LifecycleModel,
  type StoreLifecycle,
  type StoredVersion,
} from './replay';
import { list, numberOr, record } from './values';
import type { TierRecovery } from './model';

/**
 * The standard tier is versioned (previous versions, then soft delete); the high-throughput tier has a
 * hierarchical namespace and no versions, and soft delete keeps what is deleted or overwritten
 * (https://cloud.google.com/storage/docs/soft-delete).
 */
export const GCS_RECOVERY: Record<'standard' | 'high-throughput', TierRecovery> = {
  standard: { delete: true, overwrite: true, versions: true },
  'high-throughput': { delete: true, overwrite: true, versions: false },
};

/** The conditions of a GCS lifecycle rule the simulator knows; any other condition makes a rule never match. */
export interface GcsCondition {
  age?: number;
  withState?: 'LIVE' | 'ARCHIVED' | 'ANY';
  numNewerVersions?: number;
  daysSinceNoncurrentTime?: number;
  matchesPrefixes?: string[];
  unknown?: string[];
}

export interface GcsRule {
  action: string;
  condition: GcsCondition;
}

export interface GcsBucket {
  versioned: boolean;
  hierarchicalNamespace: boolean;
  softDeleteDays: number;
  rules: GcsRule[];
  /** The bucket retention policy's period in days (0: no policy), and whether it is locked (irreversible). */
  retentionDays?: number;
  retentionLocked?: boolean;
}

const SECONDS_PER_DAY = 86_400;
const KNOWN_CONDITIONS = new Set([
  'age',
  'withState',
  'numNewerVersions',
  'daysSinceNoncurrentTime',
  'matchesPrefixes',
  'matchesStorageClasses',
]);

/**
 * Cloud Storage's documented lifecycle semantics.
 *
 * - A rule acts on an object only when every condition of the rule holds ("all conditions must be met");
 *   `numNewerVersions` is met when at least N versions, the live one included, are newer than this one;
 *   `daysSinceNoncurrentTime` counts from when the version became noncurrent; `age` from creation;
 *   `withState` LIVE / ARCHIVED selects live or noncurrent versions; `matchesPrefix` the object names.
 *   Actions are asynchronous, taken within about 24 hours of the conditions holding (modelled as the next
 *   daily pass). https://cloud.google.com/storage/docs/lifecycle#conditions
 * - In a versioned bucket, deleting (by a user or a lifecycle Delete) the live version makes it noncurrent;
 *   deleting a noncurrent version removes it. https://cloud.google.com/storage/docs/object-versioning
 * - Soft delete keeps every object that is deleted or overwritten, by a user or by lifecycle, for the
 *   retention duration before it is permanently gone; lifecycle does not act on soft-deleted objects.
 *   https://cloud.google.com/storage/docs/soft-delete ("preserves objects and buckets that get deleted or
 *   overwritten"; "Object Lifecycle Management ... don't affect soft-deleted objects")
 * - Buckets with hierarchical namespace cannot enable Object Versioning.
 *   https://cloud.google.com/storage/docs/hns-overview#limitations
 * - A bucket retention policy holds every object, by its creation time: "Any attempt to overwrite or delete
 *   objects younger than the retention period will result in a PERMISSION_DENIED error" (Storage JSON API,
 *   Bucket.retentionPolicy; https://cloud.google.com/storage/docs/bucket-lock: objects "can only be deleted
 *   or replaced once their age is greater than the retention period"). The job's request is refused and the
 *   object stays as it was. A lifecycle Delete is a delete too: while the object is younger it does not
 *   happen, and since the rule's conditions still hold, a later daily pass deletes it once it is old enough.
 *   Whether the policy is locked changes only who may shorten or remove it, not what it holds.
 * - Soft delete comes after the lock: "Features like Autoclass, Object Lifecycle Management, Bucket Lock and
 *   Object Retention Lock are compatible with soft delete but don't affect soft-deleted objects"
 *   (https://cloud.google.com/storage/docs/soft-delete), so an object deleted once its period is over stays
 *   restorable for the soft-delete duration.
 */
export function gcsModel(bucket: GcsBucket): LifecycleModel {
  const versioned = bucket.versioned && !bucket.hierarchicalNamespace;
  const deletes = bucket.rules.filter((rule) => rule.action === 'Delete');
  const retentionHours = (bucket.retentionDays ?? 0) * HOURS_PER_DAY;
  const held = (version: StoredVersion, at: number) => at - version.writtenAt < retentionHours;
  const retire = (object: Parameters<LifecycleModel['remove']>[0], version: StoredVersion, at: number) => {
    if (versioned && version.noncurrentAt === undefined) version.noncurrentAt = at;
    else permanentlyDelete(object, version, at, bucket.softDeleteDays);
  };
  return {
    write(object, version) {
      const live = liveVersion(object);
      if (live && held(live, version.writtenAt)) return 'refused';
      if (live) retire(object, live, version.writtenAt);
      object.versions.unshift(version);
      return undefined;
    },
    remove(object, at) {
      const live = liveVersion(object);
      if (live && held(live, at)) return 'refused';
      if (live) retire(object, live, at);
      return undefined;
    },
    lifecycle(object, at) {
      const stored = object.versions.filter((version) => !isSoftDeleted(version));
      const doomed = stored.filter(
        (version, index) =>
          !held(version, at) &&
          deletes.some((rule) => conditionsHold(rule.condition, object.key, version, index, at)),
      );
      for (const version of doomed) retire(object, version, at);
    },
  };
}

function conditionsHold(
  condition: GcsCondition,
  key: string,
  version: StoredVersion,
  newerVersions: number,
  at: number,
): boolean {
  if (condition.unknown && condition.unknown.length > 0) return false;
  const live = version.noncurrentAt === undefined;
  if (condition.withState === 'LIVE' && !live) return false;
  if (condition.withState === 'ARCHIVED' && live) return false;
  if (condition.age !== undefined && at - version.writtenAt < condition.age * HOURS_PER_DAY) return false;
  if (condition.numNewerVersions !== undefined && newerVersions < condition.numNewerVersions) return false;
  if (condition.daysSinceNoncurrentTime !== undefined) {
    if (live) return false;
    if (at - (version.noncurrentAt ?? at) < condition.daysSinceNoncurrentTime * HOURS_PER_DAY) return false;
  }
  return matchesPrefixes(key, condition.matchesPrefixes);
}

/** The bucket of a GCS store as its render describes it. */
export function gcsBucketOf(resources: readonly RenderedResource[]): GcsBucket | undefined {
  const [bucket] = resourcesOfType(resources, 'gcp:storage/bucket:Bucket');
  if (!bucket) return undefined;
  const { inputs } = bucket;
  const seconds = numberOr(record(inputs['softDeletePolicy'])['retentionDurationSeconds'], 0);
  const policy = record(inputs['retentionPolicy']);
  // @pulumi/gcp 9.37 BucketRetentionPolicy.retentionPeriod is a string of seconds.
  const retentionSeconds = Number(policy['retentionPeriod'] ?? 0);
  return {
    versioned: record(inputs['versioning'])['enabled'] === true,
    hierarchicalNamespace: record(inputs['hierarchicalNamespace'])['enabled'] === true,
    softDeleteDays: seconds / SECONDS_PER_DAY,
    rules: list(inputs['lifecycleRules']).map(gcsRule),
    retentionDays: Number.isFinite(retentionSeconds) ? retentionSeconds / SECONDS_PER_DAY : 0,
    retentionLocked: policy['isLocked'] === true,
  };
}

function gcsRule(value: unknown): GcsRule {
  const rule = record(value);
  const raw = record(rule['condition']);
  const condition: GcsCondition = {};
  if (typeof raw['age'] === 'number') condition.age = raw['age'];
  const state = raw['withState'];
  if (state === 'LIVE' || state === 'ARCHIVED' || state === 'ANY') condition.withState = state;
  if (typeof raw['numNewerVersions'] === 'number') condition.numNewerVersions = raw['numNewerVersions'];
  if (typeof raw['daysSinceNoncurrentTime'] === 'number') {
    condition.daysSinceNoncurrentTime = raw['daysSinceNoncurrentTime'];
  }
  const prefixes = list(raw['matchesPrefixes']).map(String);
  if (prefixes.length > 0) condition.matchesPrefixes = prefixes;
  // Storage classes decide only which class an object moves to, never whether it is deleted.
  const unknown = Object.keys(raw).filter((key) => !KNOWN_CONDITIONS.has(key));
  if (unknown.length > 0) condition.unknown = unknown;
  return { action: String(record(rule['action'])['type'] ?? ''), condition };
}

export function gcsLifecycle(resources: readonly RenderedResource[]): StoreLifecycle {
  const bucket: GcsBucket = gcsBucketOf(resources) ?? {
    versioned: false,
    hierarchicalNamespace: false,
    softDeleteDays: 0,
    rules: [],
  };
  const notes: string[] = [];
  const lockDays = bucket.retentionDays ?? 0;
  if (!bucket.versioned || bucket.hierarchicalNamespace) {
    const recovered = `recovered from soft delete only, by a storage admin, within ${bucket.softDeleteDays} days`;
    notes.push(
      bucket.softDeleteDays === 0
        ? 'no object versions and no soft delete: a delete or an overwrite cannot be undone'
        : lockDays > 0 && !bucket.hierarchicalNamespace
          ? `no object versions (a retention policy excludes them): once its ${lockDays}-day lock is over, a deleted object is ${recovered}`
          : `no object versions${bucket.hierarchicalNamespace ? ' (hierarchical namespace)' : ''}: a deleted or overwritten object is ${recovered}`,
    );
  }
  if (bucket.retentionLocked) {
    notes.push(
      'the retention policy is locked: it can never be shortened or removed, and the bucket cannot be deleted before every object is past it',
    );
  }
  const days = bucket.rules.flatMap((rule) => [
    rule.condition.age ?? 0,
    rule.condition.daysSinceNoncurrentTime ?? 0,
  ]);
  const copyDays = bucket.rules.map((rule) => rule.condition.daysSinceNoncurrentTime ?? 0);
  return {
    model: gcsModel(bucket),
    settings: JSON.stringify(['gcp', bucket]),
    notes,
    days: [...days, bucket.softDeleteDays],
    copyDays: [Math.max(0, ...copyDays) + bucket.softDeleteDays],
    ...(lockDays > 0 ? { lockDays } : {}),
  };
}
