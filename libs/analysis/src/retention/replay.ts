/**
 * The cloud-neutral half of the retention simulator: an object's stored versions, hour by hour, and the
 * replay of a job's writes and deletes against a cloud's lifecycle model (aws.ts, gcp.ts, azure.ts).
 * Time is in hours since day 0, 00:00 UTC; every cloud's lifecycle runs once a day, at midnight UTC.
 */

export const HOURS_PER_DAY = 24;

/** One stored copy of a key: the live object, a previous version, a delete marker or a soft-deleted copy. */
export interface StoredVersion {
  generation: number;
  writtenAt: number;
  /** When a newer write or a delete made this version noncurrent (versioned stores only). */
  noncurrentAt?: number;
  /** S3 only: the marker a delete leaves in a versioned bucket. */
  deleteMarker?: true;
  /** When the store permanently deleted it into soft delete; it is purged at `hardDeleteAt`. */
  softDeletedAt?: number;
  hardDeleteAt?: number;
}

/** Every stored copy of one key, newest first. */
export interface StoredObject {
  key: string;
  versions: StoredVersion[];
}

/** `refused`: the store turned the job's request down (a retention lock) and nothing changed. */
export type JobOutcome = 'refused' | undefined;

/** What a cloud does with a store's objects; each cloud's file implements it from the rendered settings. */
export interface LifecycleModel {
  /** A job writes the key: a new object, or an overwrite of the live one. */
  write(object: StoredObject, version: StoredVersion): JobOutcome | void;
  /** A job deletes the key. */
  remove(object: StoredObject, at: number): JobOutcome | void;
  /** The daily lifecycle pass at `at`, a midnight UTC. */
  lifecycle(object: StoredObject, at: number): void;
}

/** The live version of a key, if any. */
export function liveVersion(object: StoredObject): StoredVersion | undefined {
  const newest = object.versions[0];
  if (!newest || newest.deleteMarker || newest.noncurrentAt !== undefined || isSoftDeleted(newest)) {
    return undefined;
  }
  return newest;
}

export function isSoftDeleted(version: StoredVersion): boolean {
  return version.softDeletedAt !== undefined;
}

/**
 * A permanent delete: into soft delete for `softDeleteDays` when the store has it, else gone at once.
 * Soft-deleted copies keep their place in the list, so they still count as stored (and billed) copies.
 */
export function permanentlyDelete(
  object: StoredObject,
  version: StoredVersion,
  at: number,
  softDeleteDays: number,
): void {
  if (softDeleteDays > 0) {
    version.softDeletedAt = at;
    version.hardDeleteAt = at + softDeleteDays * HOURS_PER_DAY;
    return;
  }
  object.versions = object.versions.filter((candidate) => candidate !== version);
}

/** Soft-deleted copies whose retention has run out are gone; returns when each went. */
function purgeSoftDeleted(object: StoredObject, at: number): Map<number, number> {
  const purged = new Map<number, number>();
  object.versions = object.versions.filter((version) => {
    if (version.hardDeleteAt === undefined || version.hardDeleteAt > at) return true;
    purged.set(version.generation, version.hardDeleteAt);
    return false;
  });
  return purged;
}

/** The stored copies of a key from hour `at` until the next event. */
export interface CopiesAt {
  at: number;
  count: number;
  live: number;
  noncurrent: number;
  softDeleted: number;
}

export type JobEvent = { at: number; kind: 'write' } | { at: number; kind: 'delete' };

/** What happened to one key over the replay. */
export interface KeyTrace {
  /** Hour each generation stopped being stored at all (absent: still stored at the end). */
  goneAt: Map<number, number>;
  /** Hour the key last stopped being live (absent: live at the end, or never written). */
  liveUntil?: number;
  /** Hour the key last became fully purged: no version, marker or soft-deleted copy (absent: still stored). */
  emptyAt?: number;
  /** Stored copies (delete markers excluded) after each event, with the hour, and how many are in each state. */
  copies: CopiesAt[];
  /** The job's writes and deletes the store refused (a retention lock), in order. */
  refused: JobEvent[];
}

/**
 * Replays a job's writes and deletes of one key and the daily lifecycle passes up to `horizonDays`.
 * At equal hours the lifecycle pass runs first: it starts at midnight, before a job's write of that hour.
 */
export function replay(
  model: LifecycleModel,
  key: string,
  events: readonly JobEvent[],
  horizonDays: number,
  options: { generations: boolean } = { generations: true },
): KeyTrace {
  const object: StoredObject = { key, versions: [] };
  const trace: KeyTrace = { goneAt: new Map(), copies: [], refused: [] };
  const passes: ({ kind: 'lifecycle' } & { at: number })[] = [];
  for (let day = 1; day <= horizonDays; day += 1) passes.push({ kind: 'lifecycle', at: day * HOURS_PER_DAY });
  const timeline = [...passes, ...events].sort(
    (a, b) => a.at - b.at || Number(b.kind === 'lifecycle') - Number(a.kind === 'lifecycle'),
  );
  let generation = 0;
  let wasLive = false;
  timeline.forEach((event, index) => {
    // Without generations nothing is traced per version: no set of them is built for every event.
    const before = options.generations ? new Set(object.versions.map((version) => version.generation)) : NONE;
    if (event.kind === 'lifecycle') model.lifecycle(object, event.at);
    else if (event.kind === 'write') {
      generation += 1;
      if (model.write(object, { generation, writtenAt: event.at }) === 'refused') trace.refused.push(event);
    } else if (model.remove(object, event.at) === 'refused') trace.refused.push(event);
    // Soft-deleted copies end at their own hour, which may fall between two events. One pass over the
    // versions per event finds them, counts the copies and the ends before the next event (a key
    // overwritten hourly under a year's lock holds thousands of versions).
    const next = timeline[index + 1]?.at ?? Infinity;
    let survey = surveyVersions(object, event.at, next);
    let purged = NOTHING_PURGED;
    if (survey.expired) {
      purged = purgeSoftDeleted(object, event.at);
      survey = surveyVersions(object, event.at, next);
    }

    if (before.size > 0) {
      const after = new Set(object.versions.map((version) => version.generation));
      for (const gone of before) if (!after.has(gone)) trace.goneAt.set(gone, purged.get(gone) ?? event.at);
    }
    const isLive = liveVersion(object) !== undefined;
    if (wasLive && !isLive) trace.liveUntil = event.at;
    if (isLive) delete trace.liveUntil;
    wasLive = isLive;
    if (object.versions.length === 0 && before.size > 0) {
      trace.emptyAt = Math.max(...[...before].map((gone) => trace.goneAt.get(gone) ?? event.at));
    }
    if (object.versions.length > 0) delete trace.emptyAt;
    trace.copies.push({ at: event.at, ...survey.copies });
    // A soft-deleted copy that ends before the next event stops being stored (and billed) at its own hour.
    for (const end of survey.ends) trace.copies.push({ at: end, ...storedCopies(object, end) });
  });
  return trace;
}

const NONE: ReadonlySet<number> = new Set();
const NOTHING_PURGED: ReadonlyMap<number, number> = new Map();

/**
 * The versions at hour `at`, in one pass: whether a soft-deleted copy's retention has run out (`expired`),
 * the stored copies (those copies no longer count), and the distinct hours before `next` at which a
 * soft-deleted copy ends, in order.
 */
function surveyVersions(
  object: StoredObject,
  at: number,
  next: number,
): { expired: boolean; copies: Omit<CopiesAt, 'at'>; ends: number[] } {
  const live = liveVersion(object);
  const copies = { count: 0, live: 0, noncurrent: 0, softDeleted: 0 };
  const ends: number[] = [];
  let expired = false;
  for (const version of object.versions) {
    const { hardDeleteAt } = version;
    if (hardDeleteAt !== undefined && hardDeleteAt <= at) {
      expired = true;
      continue;
    }
    if (hardDeleteAt !== undefined && hardDeleteAt < next && !ends.includes(hardDeleteAt))
      ends.push(hardDeleteAt);
    if (version.deleteMarker) continue;
    copies.count += 1;
    if (isSoftDeleted(version)) copies.softDeleted += 1;
    else if (version === live) copies.live += 1;
    else copies.noncurrent += 1;
  }
  return { expired, copies, ends: ends.sort((a, b) => a - b) };
}

/** The stored copies at hour `at`: soft-deleted copies whose retention ended by then are gone. */
function storedCopies(object: StoredObject, at: number): Omit<CopiesAt, 'at'> {
  return surveyVersions(object, at, at).copies;
}

/** The next midnight UTC strictly after `at`. */
export function nextMidnight(at: number): number {
  return (Math.floor(at / HOURS_PER_DAY) + 1) * HOURS_PER_DAY;
}

/** Whether a key falls under a lifecycle filter's prefixes (none: the whole store). */
export function matchesPrefixes(key: string, prefixes: readonly string[] | undefined): boolean {
  if (prefixes === undefined || prefixes.length === 0) return true;
  return prefixes.some((prefix) => key.startsWith(prefix));
}

/** A store's lifecycle as one cloud's file reads it from the render. */
export interface StoreLifecycle {
  model: LifecycleModel;
  /**
   * The settings the model is a function of, as a string (the cloud's reading of the rendered lifecycle):
   * replays of lifecycles with equal settings are the same, so `replayLifecycle` runs each once.
   */
  settings?: string;
  /** What the store cannot do, in the words of the report (e.g. no recovery of an overwrite). */
  notes: string[];
  /** Every day count in the rendered settings: the replay runs long enough for all of them to act. */
  days: number[];
  /** The day counts that decide how long replaced copies stay (noncurrent and soft-delete days). */
  copyDays: number[];
  /**
   * Days every version stays locked after its write, as the cloud's reader finds the lock in the render
   * (S3 Object Lock default retention, a GCS bucket retention policy, an Azure container immutability
   * policy); absent: no lock.
   */
  lockDays?: number;
}

const REPLAY_CACHE_LIMIT = 10_000;
const replays = new Map<string, KeyTrace>();

/**
 * `replay` of a store's lifecycle, run once per distinct settings, key, events and horizon in a process: the
 * replay is a pure function of them, and the stores of a stack mostly share their lifecycle (a 200-store
 * render replayed the same few lifecycles some 2,000 times). The trace is shared: callers only read it.
 */
export function replayLifecycle(
  lifecycle: StoreLifecycle,
  key: string,
  events: readonly JobEvent[],
  horizonDays: number,
  options: { generations: boolean } = { generations: true },
): KeyTrace {
  if (lifecycle.settings === undefined) return replay(lifecycle.model, key, events, horizonDays, options);
  const cacheKey = JSON.stringify([lifecycle.settings, key, horizonDays, options.generations, events]);
  let trace = replays.get(cacheKey);
  if (trace === undefined) {
    if (replays.size >= REPLAY_CACHE_LIMIT) replays.clear();
    trace = replay(lifecycle.model, key, events, horizonDays, options);
    replays.set(cacheKey, trace);
  }
  return trace;
}
