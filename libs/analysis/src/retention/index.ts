/**
 * Retention you can prove: what a store's rendered lifecycle settings delete and keep, replayed day by day
 * against each cloud's documented semantics, and judged against the retention promises of the store spec (docs/config.md).
 */
import type { Cloud, RetentionSpec, Tier } from '@checkpoints/config';
import { storesOf, type Render, type RenderedResource, type RenderedStore } from '@checkpoints/render';
import { s3Lifecycle, S3_RECOVERY } from './aws';
import { adlsLifecycle, ADLS_RECOVERY } from './azure';
import { gcsLifecycle, GCS_RECOVERY } from './gcp';
import { HOURS_PER_DAY, replayLifecycle, type JobEvent, type KeyTrace, type StoreLifecycle } from './replay';
import { projectionInputsOf, projectStore, type StoreProjection } from './projection';
import { record } from './values';
import type { TierRecovery } from './model';

export { HOURS_PER_DAY, replay, replayLifecycle } from './replay';
export type { JobEvent, JobOutcome, KeyTrace, LifecycleModel, StoredObject, StoredVersion } from './replay';
export { s3Model, s3BucketOf, type S3Bucket, type S3Rule } from './aws';
export { awsIndependentCopyOf, type AwsIndependentCopy } from './aws-copy';
export { azureIndependentCopyOf, type AzureCopiedAccount, type AzureIndependentCopy } from './azure-copy';
export { gcpIndependentCopyOf, type GcpIndependentCopy } from './gcp-copy';
export { gcsModel, gcsBucketOf, type GcsBucket, type GcsRule } from './gcp';
export { adlsModel, adlsAccountOf, type AdlsAccount, type AdlsDeleteRule } from './azure';
export {
  classesByAge,
  projectStore,
  projectionInputsOf,
  gib,
  type BytesByState,
  type ProjectionInputs,
  type StoreProjection,
  type StoreSeries,
} from './projection';
export type { TierRecovery } from './model';
export {
  PRICE_TABLES,
  hasOwnPrice,
  priceOf,
  type PriceEntry,
  type PriceTable,
  type PriceUse,
} from './prices';
export { priceCoverage, requiredPrices, type RequiredPrice } from './price-coverage';
export {
  AUDIT_ENTRY_BYTES,
  HOURS_PER_MONTH,
  PART_MIB,
  billStore,
  type BillInputs,
  type BillLine,
  type StoreBill,
} from './bill';

const RECOVERY: Record<Cloud, Record<Tier, TierRecovery>> = {
  aws: S3_RECOVERY,
  gcp: GCS_RECOVERY,
  azure: ADLS_RECOVERY,
};

/**
 * Days every cloud may take beyond the spec's own days: lifecycle runs once a day and acts up to a day
 * after its condition holds (S3 also rounds up to the next midnight UTC), and an S3 delete marker left
 * alone is removed by the pass after its last version.
 */
export const LIFECYCLE_SLACK_DAYS = 2;

/** What the store spec states, as the store's component carries it in the render. */
export interface RetentionStatement {
  tier: Tier;
  retention: Pick<
    RetentionSpec,
    | 'keepNoncurrentVersions'
    | 'noncurrentExpireDays'
    | 'expireAfterDays'
    | 'softDeleteDays'
    | 'keptPrefixes'
    | 'expirePrefixes'
  >;
  /** `recovery.retentionLock.days`: every version is kept at least this long after its write (0: no lock). */
  lockDays: number;
  /** `recovery.independentCopy.retentionDays`: the copy outside CI's reach keeps a checkpoint this long (0: none). */
  copyDays: number;
}

export type RetentionPromise = 'purge' | 'recovery' | 'bounded-copies' | 'live-data' | 'lock';

/** A job request a retention lock turns down while the checkpoint is younger than the lock. */
export type LockedRequest = 'delete' | 'overwrite';

/** A promise the rendered settings break, with the first day it is seen broken. */
export interface BrokenPromise {
  promise: RetentionPromise;
  /** Day of the replay (from the first write) on which the promise is first broken. */
  day: number;
  message: string;
}

/** The simulated figures of one store: what synth prints and the render JSON carries. */
export interface StoreRetention {
  store: string;
  cloud: Cloud;
  tier: Tier | null;
  /** Days a checkpoint deleted by a job stays restorable (0: not at all; null: never purged). */
  deleteRecoveryDays: number | null;
  /** Days the previous content of an overwritten checkpoint stays restorable (0: not at all; null: never purged). */
  overwriteRecoveryDays: number | null;
  /** Most days from "no longer live" to physically gone, over deletes, overwrites and expiry; null: never. */
  purgeWithinDays: number | null;
  /** The bound the spec states for it. */
  promisedPurgeWithinDays: number | null;
  /** Most stored copies of an object overwritten every hour, steady state; null: grows without bound. */
  hourlyCopies: number | null;
  /** Age in days at which lifecycle first deletes a live checkpoint; null: never. */
  expiresAfterDays: number | null;
  /**
   * The lock the render carries: days each version is locked after its write, and the job requests of the
   * replay it refused (a refused delete leaves the checkpoint live); null: no lock.
   */
  lock: { days: number; refuses: LockedRequest[] } | null;
  notes: string[];
  broken: BrokenPromise[];
  /** Steady-state stored bytes and estimated monthly cost under the spec's workload (projection.ts). */
  projection: StoreProjection;
}

const DELETED_KEY = 'run-1/step-1000/model.pt';
const HOURLY_KEY = 'run-1/latest.pt';
const FIRST_WRITE = 10;
const CHANGE = FIRST_WRITE + HOURS_PER_DAY;
const MAX_HOURLY_DAYS = 1_500;

/** A store's broken promises, in the words the policy pack reports them. */
export function brokenPromiseMessages(store: StoreRetention): string[] {
  return store.broken.map(
    (broken) =>
      `store ${store.store} breaks the ${broken.promise} promise on day ${broken.day}: ${broken.message}`,
  );
}

/** Each cloud's reading of a store's rendered resources. */
function lifecycleOf(cloud: Cloud, resources: readonly RenderedResource[]): StoreLifecycle {
  if (cloud === 'aws') return s3Lifecycle(resources);
  if (cloud === 'gcp') return gcsLifecycle(resources);
  return adlsLifecycle(resources);
}

/** The retention of every store of a render. */
export function retentionOf(render: Pick<Render, 'resources'>): StoreRetention[] {
  const components = new Map(render.resources.map((resource) => [resource.urn, resource]));
  return storesOf(render).map((store) => {
    const component = components.get(store.urn);
    return simulateStore(store, statementOf(component), component?.inputs ?? {}, render.resources);
  });
}

/** The spec's retention as the store component's inputs carry it; undefined when the render has none. */
export function statementOf(component: RenderedResource | undefined): RetentionStatement | undefined {
  const inputs = component?.inputs ?? {};
  const retention = record(inputs['retention']);
  const tier = inputs['tier'];
  if ((tier !== 'standard' && tier !== 'high-throughput') || Object.keys(retention).length === 0) {
    return undefined;
  }
  const number = (key: string) => (typeof retention[key] === 'number' ? (retention[key] as number) : 0);
  const strings = (key: string) =>
    Array.isArray(retention[key]) ? (retention[key] as unknown[]).map(String) : [];
  const lockDays = record(inputs['retentionLock'])['days'];
  const copyDays = record(inputs['independentCopy'])['retentionDays'];
  return {
    tier,
    lockDays: typeof lockDays === 'number' ? lockDays : 0,
    copyDays: typeof copyDays === 'number' ? copyDays : 0,
    retention: {
      keepNoncurrentVersions: number('keepNoncurrentVersions'),
      noncurrentExpireDays: number('noncurrentExpireDays'),
      expireAfterDays: number('expireAfterDays'),
      softDeleteDays: number('softDeleteDays'),
      keptPrefixes: strings('keptPrefixes'),
      expirePrefixes: strings('expirePrefixes'),
    },
  };
}

/**
 * The purge bound a spec states: its noncurrent and soft-delete days, plus the clouds' scheduling slack; in a
 * locked store a version cannot go before its lock ends, so the lock's days count from the write instead.
 */
export function promisedPurgeDays(cloud: Cloud, statement: RetentionStatement): number {
  const { noncurrentExpireDays, softDeleteDays } = statement.retention;
  const versions = RECOVERY[cloud][statement.tier].versions ? noncurrentExpireDays : 0;
  const unlocked = versions + softDeleteDays + LIFECYCLE_SLACK_DAYS;
  return statement.lockDays > 0
    ? Math.max(unlocked, statement.lockDays + softDeleteDays + LIFECYCLE_SLACK_DAYS)
    : unlocked;
}

function purgeTerms(statement: RetentionStatement | undefined): string {
  const terms = `noncurrentExpireDays + softDeleteDays + ${LIFECYCLE_SLACK_DAYS}`;
  return statement !== undefined && statement.lockDays > 0
    ? `the larger of ${terms} and retentionLock.days + softDeleteDays + ${LIFECYCLE_SLACK_DAYS}`
    : terms;
}

/** Replays the documented workloads against one store and judges every promise. */
export function simulateStore(
  store: RenderedStore,
  statement: RetentionStatement | undefined,
  componentInputs: Record<string, unknown> = {},
  renderResources: readonly RenderedResource[] = store.resources,
): StoreRetention {
  const lifecycle = lifecycleOf(store.cloud, store.resources);
  const horizon =
    Math.ceil(lifecycle.days.reduce((sum, days) => sum + days, 0) + (lifecycle.lockDays ?? 0)) + 30;
  const broken: BrokenPromise[] = [];
  const expirePrefixes = statement?.retention.expirePrefixes ?? [];
  const deletedKey = expirePrefixes.length > 0 ? `${expirePrefixes[0]}${DELETED_KEY}` : DELETED_KEY;

  const deleted = replayLifecycle(lifecycle, deletedKey, [write(FIRST_WRITE), remove(CHANGE)], horizon);
  const overwritten = replayLifecycle(lifecycle, deletedKey, [write(FIRST_WRITE), write(CHANGE)], horizon);
  const kept = replayLifecycle(lifecycle, deletedKey, [write(FIRST_WRITE)], horizon);

  const refuses: LockedRequest[] = [];
  if (deleted.refused.some((event) => event.kind === 'delete')) refuses.push('delete');
  if (overwritten.refused.some((event) => event.kind === 'write')) refuses.push('overwrite');
  const deleteRecovery = since(deleted.goneAt.get(1), CHANGE);
  const overwriteRecovery = since(overwritten.goneAt.get(1), CHANGE);
  const deletePurge = since(deleted.emptyAt, CHANGE);
  const expiry = kept.liveUntil === undefined ? undefined : kept.liveUntil - FIRST_WRITE;
  const expiryPurge = kept.liveUntil === undefined ? 0 : since(kept.emptyAt, kept.liveUntil);
  // Each way data stops being live, from that hour until nothing of it is stored; a request the lock
  // refused left the checkpoint live, so there is nothing of it to purge.
  const purges = [
    { what: 'a checkpoint deleted by a job', from: CHANGE, hours: deletePurge, refused: 'delete' },
    {
      what: 'the previous content of an overwritten checkpoint',
      from: CHANGE,
      hours: overwriteRecovery,
      refused: 'overwrite',
    },
    { what: 'a checkpoint expired by the policy', from: kept.liveUntil ?? 0, hours: expiryPurge },
  ].filter((purge) => !refuses.includes(purge.refused as LockedRequest));
  const slowest = purges.reduce((worst, purge) => (purge.hours > worst.hours ? purge : worst));
  const purgeHours = slowest.hours;
  const promised = statement ? promisedPurgeDays(store.cloud, statement) : null;

  if (!Number.isFinite(purgeHours)) {
    broken.push({
      promise: 'purge',
      day: horizon,
      message: `${slowest.what} is still stored on day ${horizon} of the replay: nothing ever purges it`,
    });
  } else if (promised !== null && purgeHours > promised * HOURS_PER_DAY) {
    broken.push({
      promise: 'purge',
      day: Math.floor((slowest.from + promised * HOURS_PER_DAY) / HOURS_PER_DAY) + 1,
      message: `${slowest.what} stays stored ${days(purgeHours)} days after it stops being live, beyond the ${promised} days the spec states (${purgeTerms(statement)})`,
    });
  }

  if (statement) {
    judgeRecovery(store.cloud, statement, { deleteRecovery, overwriteRecovery }, refuses, broken);
    judgeLiveData(lifecycle, statement, expiry, horizon, broken);
    judgeLock(
      lifecycle,
      statement,
      [
        { what: 'a checkpoint deleted by a job', trace: deleted },
        { what: 'the previous content of an overwritten checkpoint', trace: overwritten },
        { what: 'a checkpoint kept by the policy', trace: kept },
      ],
      broken,
    );
  }
  const lockNotes = refuses.map(
    (request) =>
      `the ${lifecycle.lockDays}-day retention lock refused a job's ${request} of a locked checkpoint in the replay: the checkpoint stays as it was (docs/${store.cloud}.md, "Retention lock", says for how long)`,
  );
  const outlasted = !refuses.includes('overwrite') && lockOutlastsProbe(lifecycle);
  const hourly = outlasted ? copiesWithin(overwriteRecovery) : hourlyCopies(lifecycle);
  if (outlasted) {
    lockNotes.push(
      `the ${lifecycle.lockDays}-day lock outlasts the ${MAX_HOURLY_DAYS}-day hourly replay: its ${hourly ?? 'unbounded'} copies are the bound the overwrite replay gives (one copy per hour a replaced copy stays, plus the live one)`,
    );
  }
  if (hourly === null) {
    broken.push({
      promise: 'bounded-copies',
      day: hourlyHorizon(lifecycle),
      message: `an object overwritten every hour holds more stored copies every week (${HOURLY_KEY}): nothing bounds them`,
    });
  }

  return {
    store: store.name,
    cloud: store.cloud,
    tier: statement?.tier ?? null,
    deleteRecoveryDays: refuses.includes('delete') ? null : finiteDays(deleteRecovery),
    overwriteRecoveryDays: refuses.includes('overwrite') ? null : finiteDays(overwriteRecovery),
    purgeWithinDays: Number.isFinite(purgeHours) ? days(purgeHours) : null,
    promisedPurgeWithinDays: promised,
    hourlyCopies: hourly,
    expiresAfterDays: expiry === undefined ? null : days(expiry),
    lock: lifecycle.lockDays ? { days: lifecycle.lockDays, refuses } : null,
    notes: lockNotes.length === 0 ? lifecycle.notes : [...lifecycle.notes, ...lockNotes],
    broken,
    projection: projectStore(
      store.cloud,
      store.resources,
      lifecycle,
      projectionInputsOf(componentInputs, renderResources),
      horizon,
    ),
  };
}

function judgeRecovery(
  cloud: Cloud,
  statement: RetentionStatement,
  measured: { deleteRecovery: number; overwriteRecovery: number },
  refuses: readonly LockedRequest[],
  broken: BrokenPromise[],
): void {
  const can = RECOVERY[cloud][statement.tier];
  const { noncurrentExpireDays, softDeleteDays, keepNoncurrentVersions, expireAfterDays } =
    statement.retention;
  const window = can.versions ? noncurrentExpireDays : softDeleteDays;
  // Once the replacement itself expires it becomes a newer previous version, and from then on
  // keepNoncurrentVersions (not the window) decides how long the overwritten one stays: as documented.
  const replacedByExpiry = can.versions && keepNoncurrentVersions > 0 && expireAfterDays > 0;
  const overwriteWindow = replacedByExpiry ? Math.min(window, expireAfterDays) : window;
  const checks = [
    {
      what: 'deleted',
      able: can.delete && !refuses.includes('delete'),
      hours: measured.deleteRecovery,
      window,
    },
    {
      what: 'overwritten',
      able: can.overwrite && !refuses.includes('overwrite'),
      hours: measured.overwriteRecovery,
      window: overwriteWindow,
    },
  ];
  for (const { what, able, hours, window } of checks) {
    if (!able || hours >= window * HOURS_PER_DAY) continue;
    broken.push({
      promise: 'recovery',
      day: Math.floor((CHANGE + hours) / HOURS_PER_DAY),
      message: `${what === 'overwritten' ? 'an' : 'a'} ${what} checkpoint can be restored for ${days(hours)} days only, less than the ${window} days the spec states`,
    });
  }
}

function judgeLiveData(
  lifecycle: StoreLifecycle,
  statement: RetentionStatement,
  expiryHours: number | undefined,
  horizon: number,
  broken: BrokenPromise[],
): void {
  const { expireAfterDays, keptPrefixes, expirePrefixes } = statement.retention;
  if (expiryHours !== undefined && (expireAfterDays === 0 || expiryHours < expireAfterDays * HOURS_PER_DAY)) {
    broken.push({
      promise: 'live-data',
      day: Math.floor((FIRST_WRITE + expiryHours) / HOURS_PER_DAY),
      message:
        expireAfterDays === 0
          ? `a live checkpoint is deleted after ${days(expiryHours)} days, though expireAfterDays is 0 (never)`
          : `a live checkpoint is deleted after ${days(expiryHours)} days, before expireAfterDays (${expireAfterDays})`,
    });
  }
  // Kept prefixes, and with scoped expiry everything outside it, must stay live for the whole replay.
  const neverExpiring = [...keptPrefixes.map((prefix) => `${prefix}${DELETED_KEY}`)];
  if (expirePrefixes.length > 0) neverExpiring.push(`outside-expiry/${DELETED_KEY}`);
  for (const key of neverExpiring) {
    const trace = replayLifecycle(lifecycle, key, [write(FIRST_WRITE)], horizon);
    if (trace.liveUntil === undefined) continue;
    broken.push({
      promise: 'live-data',
      day: Math.floor(trace.liveUntil / HOURS_PER_DAY),
      message: `${key}, which the spec keeps (${keptPrefixes.some((p) => key.startsWith(p)) ? 'keptPrefixes' : 'outside expirePrefixes'}), is deleted on day ${Math.floor(trace.liveUntil / HOURS_PER_DAY)}`,
    });
  }
}

/**
 * The lock promise: the rendered store locks at least the spec's days, and in every replay no version is
 * gone (deleted, purged by lifecycle, or out of soft delete) before its lock ends.
 */
function judgeLock(
  lifecycle: StoreLifecycle,
  statement: RetentionStatement,
  replays: readonly { what: string; trace: KeyTrace }[],
  broken: BrokenPromise[],
): void {
  if (statement.lockDays === 0) return;
  const rendered = lifecycle.lockDays ?? 0;
  if (rendered < statement.lockDays) {
    broken.push({
      promise: 'lock',
      day: 0,
      message: `the rendered store locks ${rendered === 0 ? 'nothing' : `each version for ${rendered} days only`}, though recovery.retentionLock.days is ${statement.lockDays}`,
    });
  }
  const lockEnds = FIRST_WRITE + statement.lockDays * HOURS_PER_DAY;
  for (const { what, trace } of replays) {
    const gone = trace.goneAt.get(1);
    if (gone === undefined || gone >= lockEnds) continue;
    broken.push({
      promise: 'lock',
      day: Math.floor(gone / HOURS_PER_DAY),
      message: `${what} is gone on day ${Math.floor(gone / HOURS_PER_DAY)}, before its ${statement.lockDays}-day retention lock ends`,
    });
  }
}

/**
 * Long enough for every replaced copy to have gone once (plus slack), then two weeks to compare; a locked
 * copy stays at least as long as its lock.
 */
function hourlyHorizon(lifecycle: Pick<StoreLifecycle, 'copyDays' | 'lockDays'>): number {
  const longest = Math.max(0, ...lifecycle.copyDays, lifecycle.lockDays ?? 0);
  return Math.min(MAX_HOURLY_DAYS, Math.ceil(longest) + LIFECYCLE_SLACK_DAYS + 14);
}

/** Whether a lock keeps replaced copies longer than the hourly replay can run (MAX_HOURLY_DAYS). */
function lockOutlastsProbe(lifecycle: StoreLifecycle): boolean {
  return (lifecycle.lockDays ?? 0) + LIFECYCLE_SLACK_DAYS + 14 > MAX_HOURLY_DAYS;
}

/**
 * The copies of an object overwritten every hour, from the single overwrite's replay: its replaced copy
 * stayed `replacedHours` after the overwrite, a day after its write. A copy of the hourly object stays no
 * longer after its own write than that copy did, plus up to a day for where the daily lifecycle pass falls:
 * its lock counts from its own write, and a rule on noncurrent time (S3 NoncurrentDays, GCS
 * daysSinceNoncurrentTime) or on newer versions (NewerNoncurrentVersions, numNewerVersions) acts no later
 * when it is replaced sooner and more copies follow it. So one copy per hour of that, plus the live one.
 */
function copiesWithin(replacedHours: number): number | null {
  if (!Number.isFinite(replacedHours)) return null;
  return Math.ceil(CHANGE - FIRST_WRITE + replacedHours + HOURS_PER_DAY) + 1;
}

/** Stored copies of an object overwritten every hour: the weekly peak, once it stops growing. */
function hourlyCopies(lifecycle: StoreLifecycle): number | null {
  const horizon = hourlyHorizon(lifecycle);
  const writes: JobEvent[] = [];
  for (let hour = 0; hour < horizon * HOURS_PER_DAY; hour += 1) writes.push(write(hour));
  const trace = replayLifecycle(lifecycle, HOURLY_KEY, writes, horizon, { generations: false });
  const week = 7 * HOURS_PER_DAY;
  const end = horizon * HOURS_PER_DAY;
  const peak = (from: number, to: number) =>
    Math.max(0, ...trace.copies.filter((c) => c.at >= from && c.at < to).map((c) => c.count));
  const last = peak(end - week, end);
  return last > peak(end - 2 * week, end - week) ? null : last;
}

function write(at: number): JobEvent {
  return { at, kind: 'write' };
}

function remove(at: number): JobEvent {
  return { at, kind: 'delete' };
}

function since(at: number | undefined, from: number): number {
  return at === undefined ? Infinity : at - from;
}

function days(hours: number): number {
  return Math.ceil(hours / HOURS_PER_DAY);
}

function finiteDays(hours: number): number | null {
  return Number.isFinite(hours) ? days(hours) : null;
}
