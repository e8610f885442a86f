/**
 * The storage and cost projection: the steady-state bytes a store holds under a training job's checkpoint
 * workload, per state and storage class, from the same replay that judges the retention promises, and the
 * store's whole monthly bill under that workload (bill.ts, priced from the dated tables of prices.ts).
 * Pure: no cloud call.
 */
import { WORKLOAD_DEFAULTS, type Cloud, type WorkloadSpec } from '@checkpoints/config';
import {
  HOURS_PER_DAY,
  nextMidnight,
  replayLifecycle,
  type CopiesAt,
  type JobEvent,
  type StoreLifecycle,
} from './replay';
import { billStore, HOURS_PER_MONTH, type StoreBill } from './bill';
import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import { list, numberOr, record } from './values';

const GIB = 2 ** 30;
/** The projection replays a job's kept checkpoints for at most this many days (100 years). */
const MAX_KEPT_DAYS = 36_500;
const FIRST_WRITE = 10;
const CHECKPOINT_KEY = 'run-1/step-1000/model.pt';
const LATEST_KEY = 'run-1/latest.pt';

export interface BytesByState {
  live: number;
  noncurrent: number;
  softDeleted: number;
}

/** What `analysis.retention[].projection` carries (the PR report reads exactly these fields). */
export interface StoreProjection {
  /**
   * The store's monthly total at list price: its bill's (`bill.total`) and its independent copy's; null when a
   * price is in no table.
   */
  monthlyCost: number | null;
  currency: 'USD';
  bytesByState: BytesByState;
  bytesByClass: Record<string, number>;
  priceTable: { date: string; source: string };
  assumptions: string[];
  missingPrices: string[];
  /** The whole bill: every line with its price and the workload figure it used (bill.ts). */
  bill: StoreBill;
  /** The first 90 days of the workload from an empty store, replayed (the PR comment's chart). */
  series: StoreSeries;
}

/** The series runs this many days from the job's first write, with a point every `stepDays`. */
const SERIES_DAYS = 90;
const SERIES_STEP_DAYS = 5;

/**
 * The store filling up under the workload, from empty on day 0: each point is one day of the replay
 * (`stepDays` apart, day 0 first). Once the oldest copies are purged, the stored bytes level off at
 * `bytesByState`'s total.
 */
export interface StoreSeries {
  stepDays: number;
  /** Mean stored bytes (live, noncurrent and soft-deleted copies) over the day that ends at each point. */
  storedBytes: number[];
  /**
   * The bill spent from day 0 to each point, USD: storage from the replayed bytes of each class at the
   * bill's rate for that class, every other line at its monthly rate from day 0; null when the bill has no
   * total or prices no class the replay fills.
   */
  cumulativeUsd: number[] | null;
}

/** What the projection reads from the store component's inputs. */
export interface ProjectionInputs {
  /** AWS region, GCS bucket location or Azure location; undefined when the render does not say. */
  location: string | undefined;
  /** The workload keys the spec states. */
  workload: Partial<WorkloadSpec>;
  /** The spec records data access (AWS `audit`, GCP `audit.enabled`): priced as audit log volume. */
  audit: boolean;
  /** Every resource of the render: a stack trail that records the store's data events is outside the store. */
  renderResources: readonly RenderedResource[];
  /** `recovery.independentCopy.retentionDays` (0: no copy), priced in the bill's `independentCopy`. */
  copyDays: number;
}

/** The projection's reading of the store component's inputs `{ location, workload, audit }`. */
export function projectionInputsOf(
  inputs: Record<string, unknown>,
  renderResources: readonly RenderedResource[] = [],
): ProjectionInputs {
  const given = record(inputs['workload']);
  const workload: Partial<WorkloadSpec> = {};
  for (const key of Object.keys(WORKLOAD_DEFAULTS) as (keyof WorkloadSpec)[]) {
    if (typeof given[key] === 'number') workload[key] = given[key];
  }
  const location = inputs['location'];
  const audit = inputs['audit'];
  return {
    location: typeof location === 'string' && location.length > 0 ? location.toLowerCase() : undefined,
    workload,
    audit: audit === true || record(audit)['enabled'] === true,
    renderResources,
    copyDays: numberOr(record(inputs['independentCopy'])['retentionDays'], 0),
  };
}

/**
 * The storage classes a live checkpoint passes through with its age, [class, from hour of age], as the
 * render sets them: S3 lifecycle `transitions` (a directory bucket has the one class EXPRESS_ONEZONE), GCS
 * `SetStorageClass` rules on live objects by `age` from the bucket's `storageClass`, Azure `tierToCool`
 * from the account's access tier and redundancy (premium block blob accounts have no tiers).
 */
export function classesByAge(cloud: Cloud, resources: readonly RenderedResource[]): [string, number][] {
  const classes =
    cloud === 'aws' ? s3Classes(resources) : cloud === 'gcp' ? gcsClasses(resources) : adlsClasses(resources);
  return classes.sort((a, b) => a[1] - b[1]);
}

function s3Classes(resources: readonly RenderedResource[]): [string, number][] {
  if (resourcesOfType(resources, 'aws:s3/directoryBucket:DirectoryBucket').length > 0) {
    return [['EXPRESS_ONEZONE', 0]];
  }
  const rules = resourcesOfType(resources, 'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration')
    .flatMap((resource) => list(resource.inputs['rules']).map(record))
    .filter((rule) => rule['status'] === 'Enabled');
  const moves = rules.flatMap((rule) => {
    const prefix = String(record(rule['filter'])['prefix'] ?? rule['prefix'] ?? '');
    if (!CHECKPOINT_KEY.startsWith(prefix)) return [];
    return list(rule['transitions']).flatMap((value): [string, number][] => {
      const transition = record(value);
      const days = transition['days'];
      return typeof days === 'number' ? [[String(transition['storageClass']), days * HOURS_PER_DAY]] : [];
    });
  });
  return [['STANDARD', 0], ...moves];
}

function gcsClasses(resources: readonly RenderedResource[]): [string, number][] {
  const [bucket] = resourcesOfType(resources, 'gcp:storage/bucket:Bucket');
  const base = String(bucket?.inputs['storageClass'] ?? 'STANDARD');
  const moves = list(bucket?.inputs['lifecycleRules']).flatMap((value): [string, number][] => {
    const rule = record(value);
    const action = record(rule['action']);
    const condition = record(rule['condition']);
    const age = condition['age'];
    if (
      action['type'] !== 'SetStorageClass' ||
      typeof age !== 'number' ||
      condition['withState'] === 'ARCHIVED'
    ) {
      return [];
    }
    return [[String(action['storageClass']), age * HOURS_PER_DAY]];
  });
  return [[base, 0], ...moves];
}

function adlsClasses(resources: readonly RenderedResource[]): [string, number][] {
  const [account] = resourcesOfType(resources, 'azure-native:storage:StorageAccount');
  const [performance, redundancy] = String(record(account?.inputs['sku'])['name'] ?? '').split('_');
  const accessTier = account?.inputs['accessTier'];
  const suffix = redundancy === undefined ? '' : `_${redundancy.toUpperCase()}`;
  if (performance === 'Premium') return [[`PREMIUM${suffix}`, 0]];
  const base = typeof accessTier === 'string' ? accessTier.toUpperCase() : 'HOT';
  const moves = resourcesOfType(resources, 'azure-native:storage:ManagementPolicy').flatMap((policy) =>
    list(record(policy.inputs['policy'])['rules']).flatMap((value): [string, number][] => {
      const rule = record(value);
      if (rule['enabled'] === false) return [];
      const cool = record(record(record(record(rule['definition'])['actions'])['baseBlob'])['tierToCool']);
      const days = cool['daysAfterModificationGreaterThan'];
      return typeof days === 'number' ? [[`COOL${suffix}`, days * HOURS_PER_DAY]] : [];
    }),
  );
  return [[`${base}${suffix}`, 0], ...moves];
}

function classAt(classes: readonly [string, number][], age: number): string {
  let current = classes[0]?.[0] ?? 'unknown';
  for (const [name, from] of classes) if (age >= from) current = name;
  return current;
}

/** GiB-hours per state and class of one replayed key, from the copies after each event. */
interface Occupancy {
  byState: BytesByState;
  byClass: Record<string, number>;
}

function occupancy(
  copies: readonly CopiesAt[],
  until: number,
  classOf: (at: number, state: keyof BytesByState) => string,
  boundaries: readonly number[],
  from = 0,
): Occupancy {
  const result: Occupancy = { byState: { live: 0, noncurrent: 0, softDeleted: 0 }, byClass: {} };
  copies.forEach((copy, index) => {
    const start = Math.max(copy.at, from);
    const end = Math.min(copies[index + 1]?.at ?? until, until);
    if (end <= start) return;
    for (const state of ['live', 'noncurrent', 'softDeleted'] as const) {
      if (copy[state] === 0) continue;
      // A copy may change class inside the span: split it at the class boundaries.
      const cuts = [start, ...boundaries.filter((at) => at > start && at < end), end];
      for (let i = 0; i + 1 < cuts.length; i += 1) {
        const [spanStart, spanEnd] = [cuts[i] ?? start, cuts[i + 1] ?? end];
        const name = classOf(spanStart, state);
        const amount = copy[state] * (spanEnd - spanStart);
        result.byState[state] += amount;
        result.byClass[name] = (result.byClass[name] ?? 0) + amount;
      }
    }
  });
  return result;
}

/**
 * The steady state of a job that writes a checkpoint every `intervalHours` under a new key and deletes the
 * oldest beyond `keepLast`, and overwrites `latest.pt` every `latestOverwriteHours`: by Little's law, the
 * stored copies of the checkpoint stream are one checkpoint's replayed copy-hours over the interval.
 */
export function projectStore(
  cloud: Cloud,
  resources: readonly RenderedResource[],
  lifecycle: StoreLifecycle,
  inputs: ProjectionInputs,
  settlingDays: number,
): StoreProjection {
  const workload: WorkloadSpec = { ...WORKLOAD_DEFAULTS, ...inputs.workload };
  const assumptions: string[] = [];
  const defaulted = (Object.keys(WORKLOAD_DEFAULTS) as (keyof WorkloadSpec)[]).filter(
    (key) => inputs.workload[key] === undefined,
  );
  if (defaulted.length > 0) {
    assumptions.push(
      `workload not stated in the spec, default assumed: ${defaulted.map((key) => `${key} ${WORKLOAD_DEFAULTS[key]}`).join(', ')}`,
    );
  }
  assumptions.push(
    `a checkpoint of ${workload.checkpointSizeGiB} GiB every ${workload.intervalHours} h under a new key, the job deleting the oldest beyond ${workload.keepLast}` +
      (workload.latestOverwriteHours > 0
        ? `, and latest.pt (${workload.checkpointSizeGiB} GiB) overwritten every ${workload.latestOverwriteHours} h`
        : ', no latest.pt'),
    'the whole bill at list price (pay-as-you-go, first volume tier, no free tier or discount): each line names its price and the workload figure it used',
    'storage classes follow the rendered transitions of live objects by age; a copy that stops being live stays in the class it was in',
  );

  const classes = classesByAge(cloud, resources);
  const keptHours = Math.min(workload.keepLast * workload.intervalHours, MAX_KEPT_DAYS * HOURS_PER_DAY);
  if (keptHours < workload.keepLast * workload.intervalHours) {
    assumptions.push(
      `the job keeps checkpoints over ${MAX_KEPT_DAYS} days: the first ${MAX_KEPT_DAYS} days are replayed`,
    );
  }
  const deleteAt = FIRST_WRITE + keptHours;
  const horizon = Math.ceil(deleteAt / HOURS_PER_DAY) + settlingDays;
  const events: JobEvent[] = [{ at: FIRST_WRITE, kind: 'write' }];
  if (keptHours === workload.keepLast * workload.intervalHours) events.push({ at: deleteAt, kind: 'delete' });
  const checkpoint = replayLifecycle(lifecycle, CHECKPOINT_KEY, events, horizon);
  const liveUntil = checkpoint.liveUntil ?? horizon * HOURS_PER_DAY;
  const stream = occupancy(
    checkpoint.copies,
    horizon * HOURS_PER_DAY,
    (at, state) => classAt(classes, (state === 'live' ? at : Math.min(at, liveUntil)) - FIRST_WRITE),
    classes.map(([, from]) => FIRST_WRITE + from),
  );
  if (checkpoint.emptyAt === undefined) {
    assumptions.push(
      `a deleted checkpoint is still stored on day ${horizon} of the replay (never purged): stored bytes grow without bound, the figures are the first ${horizon} days only`,
    );
  }
  const scale = (workload.checkpointSizeGiB * GIB) / workload.intervalHours;
  const bytesByState: BytesByState = {
    live: stream.byState.live * scale,
    noncurrent: stream.byState.noncurrent * scale,
    softDeleted: stream.byState.softDeleted * scale,
  };
  const bytesByClass: Record<string, number> = {};
  for (const [name, hours] of Object.entries(stream.byClass)) bytesByClass[name] = hours * scale;

  let latestBytes = 0;
  if (workload.latestOverwriteHours > 0) {
    const latest = latestOccupancy(lifecycle, workload.latestOverwriteHours, classes[0]?.[0] ?? 'unknown');
    const size = workload.checkpointSizeGiB * GIB;
    latestBytes = (latest.byState.live + latest.byState.noncurrent + latest.byState.softDeleted) * size;
    for (const state of ['live', 'noncurrent', 'softDeleted'] as const) {
      bytesByState[state] += latest.byState[state] * size;
    }
    for (const [name, copies] of Object.entries(latest.byClass)) {
      bytesByClass[name] = (bytesByClass[name] ?? 0) + copies * size;
    }
  }

  const bill = billStore({
    cloud,
    location: inputs.location,
    resources,
    renderResources: inputs.renderResources,
    audit: inputs.audit,
    workload,
    defaulted,
    bytesByClass,
    checkpointClassHours: stream.byClass,
    latestBytes,
    classes,
    keptHours,
    copyDays: inputs.copyDays,
  });
  const [table] = bill.priceTables;
  return {
    // The store's whole monthly cost includes its independent copy; unknown while either is.
    monthlyCost:
      bill.total === null || (bill.independentCopy !== null && bill.independentCopy.total === null)
        ? null
        : Math.round((bill.total + (bill.independentCopy?.total ?? 0)) * 100) / 100,
    currency: 'USD',
    bytesByState: roundedBytes(bytesByState),
    bytesByClass: Object.fromEntries(Object.entries(bytesByClass).map(([k, v]) => [k, Math.round(v)])),
    priceTable: {
      date: table?.retrieved ?? '',
      source: `libs/analysis/data/prices-${cloud}.json`,
    },
    assumptions,
    missingPrices: bill.missing,
    bill,
    series: seriesOf(lifecycle, workload, classes, keptHours, bytesByClass, bill),
  };
}

/**
 * The replay of the job from an empty store: its checkpoints written every `intervalHours` from hour
 * FIRST_WRITE (the steady state's checkpoint, so the series levels off at the steady state), each deleted
 * by the job `keptHours` later, and latest.pt overwritten from hour 0. The lifecycle runs at midnight, so a
 * checkpoint's copies depend only on its write's hour of day: one replay per hour of day, shifted by days.
 */
function seriesOf(
  lifecycle: StoreLifecycle,
  workload: WorkloadSpec,
  classes: readonly [string, number][],
  keptHours: number,
  steadyBytesByClass: Record<string, number>,
  bill: StoreBill,
): StoreSeries {
  const horizon = SERIES_DAYS * HOURS_PER_DAY;
  const deletes = keptHours === workload.keepLast * workload.intervalHours;
  const gibHours: Record<string, number>[] = Array.from({ length: SERIES_DAYS }, () => ({}));
  const byHourOfDay = new Map<number, Record<string, number>[]>();
  for (let at = FIRST_WRITE; at < horizon; at += workload.intervalHours) {
    const hour = at % HOURS_PER_DAY;
    let checkpointDays = byHourOfDay.get(hour);
    if (checkpointDays === undefined) {
      const events: JobEvent[] = [{ at: hour, kind: 'write' }];
      if (deletes) events.push({ at: hour + keptHours, kind: 'delete' });
      const trace = replayLifecycle(lifecycle, CHECKPOINT_KEY, events, SERIES_DAYS + 1);
      const liveUntil = trace.liveUntil ?? Infinity;
      checkpointDays = copyHoursByDay(
        trace.copies,
        (time, state) => classAt(classes, (state === 'live' ? time : Math.min(time, liveUntil)) - hour),
        classes.map(([, from]) => hour + from),
      );
      byHourOfDay.set(hour, checkpointDays);
    }
    const firstDay = (at - hour) / HOURS_PER_DAY;
    for (let day = firstDay; day < SERIES_DAYS; day += 1) {
      addScaled(gibHours[day], checkpointDays[day - firstDay], workload.checkpointSizeGiB);
    }
  }
  if (workload.latestOverwriteHours > 0) {
    const writes: JobEvent[] = [];
    for (let at = 0; at < horizon; at += workload.latestOverwriteHours) writes.push({ at, kind: 'write' });
    const trace = replayLifecycle(lifecycle, LATEST_KEY, writes, SERIES_DAYS + 1, { generations: false });
    const baseClass = classes[0]?.[0] ?? 'unknown';
    copyHoursByDay(trace.copies, () => baseClass, []).forEach((hours, day) =>
      addScaled(gibHours[day], hours, workload.checkpointSizeGiB),
    );
  }

  const points = Array.from({ length: SERIES_DAYS / SERIES_STEP_DAYS + 1 }, (_, i) => i * SERIES_STEP_DAYS);
  const storedBytes = points.map((point) =>
    point === 0 ? 0 : Math.round((sum(gibHours[point - 1]) / HOURS_PER_DAY) * GIB),
  );
  return {
    stepDays: SERIES_STEP_DAYS,
    storedBytes,
    cumulativeUsd: cumulativeUsd(gibHours, points, steadyBytesByClass, bill),
  };
}

function cumulativeUsd(
  gibHours: readonly Record<string, number>[],
  points: readonly number[],
  steadyBytesByClass: Record<string, number>,
  bill: StoreBill,
): number[] | null {
  if (bill.total === null) return null;
  // The bill's storage lines of a class (a dual-region or replicated store has several) over its GiB.
  const usdPerGibMonth: Record<string, number> = {};
  let storageUsd = 0;
  for (const [name, bytes] of Object.entries(steadyBytesByClass)) {
    const usd = bill.lines
      .filter((line) => line.what === `storage ${name}` || line.what.startsWith(`storage ${name} (`))
      .reduce((total, line) => total + line.usd, 0);
    storageUsd += usd;
    if (bytes > 0) usdPerGibMonth[name] = usd / (bytes / GIB);
  }
  const otherUsdPerDay = ((bill.total - storageUsd) * HOURS_PER_DAY) / HOURS_PER_MONTH;
  const spentByDay: number[] = [0];
  for (const day of gibHours) {
    let usd = otherUsdPerDay;
    for (const [name, hours] of Object.entries(day)) {
      const rate = usdPerGibMonth[name];
      if (rate === undefined) return null;
      usd += (hours * rate) / HOURS_PER_MONTH;
    }
    spentByDay.push((spentByDay.at(-1) ?? 0) + usd);
  }
  return points.map((point) => Math.round((spentByDay[point] ?? 0) * 100) / 100);
}

/** Copy-hours per class on each day of the series, from the copies after each event of a replay. */
function copyHoursByDay(
  copies: readonly CopiesAt[],
  classOf: (at: number, state: keyof BytesByState) => string,
  boundaries: readonly number[],
): Record<string, number>[] {
  const days: Record<string, number>[] = Array.from({ length: SERIES_DAYS }, () => ({}));
  const end = SERIES_DAYS * HOURS_PER_DAY;
  copies.forEach((copy, index) => {
    const spanEnd = Math.min(copies[index + 1]?.at ?? end, end);
    if (spanEnd <= copy.at) return;
    const cuts = [
      copy.at,
      ...[...boundaries, ...midnightsBetween(copy.at, spanEnd)]
        .filter((at) => at > copy.at && at < spanEnd)
        .sort((a, b) => a - b),
      spanEnd,
    ];
    for (const state of ['live', 'noncurrent', 'softDeleted'] as const) {
      if (copy[state] === 0) continue;
      for (let i = 0; i + 1 < cuts.length; i += 1) {
        const [from, to] = [cuts[i] ?? copy.at, cuts[i + 1] ?? spanEnd];
        const day = days[Math.floor(from / HOURS_PER_DAY)];
        if (day === undefined || to <= from) continue;
        const name = classOf(from, state);
        day[name] = (day[name] ?? 0) + copy[state] * (to - from);
      }
    }
  });
  return days;
}

function midnightsBetween(from: number, to: number): number[] {
  const midnights: number[] = [];
  for (let at = nextMidnight(from); at < to; at += HOURS_PER_DAY) midnights.push(at);
  return midnights;
}

function addScaled(
  target: Record<string, number> | undefined,
  add: Record<string, number> | undefined,
  by: number,
) {
  if (target === undefined || add === undefined) return;
  for (const [name, value] of Object.entries(add)) target[name] = (target[name] ?? 0) + value * by;
}

function sum(values: Record<string, number> | undefined): number {
  return Object.values(values ?? {}).reduce((total, value) => total + value, 0);
}

/** Mean stored copies of latest.pt per state over the last week, once its copies have settled. */
function latestOccupancy(lifecycle: StoreLifecycle, everyHours: number, baseClass: string): Occupancy {
  const week = 7 * HOURS_PER_DAY;
  const settle = Math.ceil(Math.max(0, ...lifecycle.copyDays)) + 2;
  const horizon = Math.min(1_500, settle + 14);
  const writes: JobEvent[] = [];
  for (let hour = 0; hour < horizon * HOURS_PER_DAY; hour += everyHours)
    writes.push({ at: hour, kind: 'write' });
  const trace = replayLifecycle(lifecycle, LATEST_KEY, writes, horizon, { generations: false });
  const end = horizon * HOURS_PER_DAY;
  const hours = occupancy(trace.copies, end, () => baseClass, [], end - week);
  const mean = (value: number) => value / week;
  return {
    byState: {
      live: mean(hours.byState.live),
      noncurrent: mean(hours.byState.noncurrent),
      softDeleted: mean(hours.byState.softDeleted),
    },
    byClass: Object.fromEntries(Object.entries(hours.byClass).map(([k, v]) => [k, mean(v)])),
  };
}

function roundedBytes(bytes: BytesByState): BytesByState {
  return {
    live: Math.round(bytes.live),
    noncurrent: Math.round(bytes.noncurrent),
    softDeleted: Math.round(bytes.softDeleted),
  };
}

/** GiB in the projection's words (for synth's line). */
export function gib(bytes: number): number {
  return bytes / GIB;
}
