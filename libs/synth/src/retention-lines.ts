import {
  gib,
  type BillLine,
  type LockedRequest,
  type StoreBill,
  type StoreProjection,
  type StoreRetention,
} from '@checkpoints/analysis';

/**
 * One or two lines per store: what its lifecycle settings do, as the simulator replayed them
 * (libs/analysis/src/retention), so a reviewer sees the recovery window and purge bound, not rule shapes.
 */
export function retentionLines(stores: readonly StoreRetention[]): string[] {
  if (stores.length === 0) return [];
  const lines = ["Retention (each store's lifecycle replayed against its cloud's documented semantics):"];
  for (const store of stores) {
    lines.push(
      `  ${store.store}: recover a delete ${recovery(store, 'delete')}, an overwrite ${recovery(store, 'overwrite')}; ` +
        `non-live data purged ${bound(store.purgeWithinDays, store.promisedPurgeWithinDays)}`,
      `    an object overwritten hourly holds ${store.hourlyCopies === null ? 'ever more' : store.hourlyCopies} stored copies; ` +
        `live checkpoints ${store.expiresAfterDays === null ? 'never expire' : `expire after ${store.expiresAfterDays} days`}`,
    );
    if (store.lock !== null) {
      lines.push(
        `    locked: no version goes before ${store.lock.days} days after its write (retention lock)`,
      );
    }
    lines.push(`    ${projectionLine(store.projection)}`);
    lines.push(...billLines(store.projection.bill).map((line) => `      ${line}`));
    for (const note of store.notes) lines.push(`    note: ${note}`);
    for (const broken of store.broken)
      lines.push(`    BROKEN ${broken.promise} (day ${broken.day}): ${broken.message}`);
  }
  return lines;
}

function recovery(store: StoreRetention, request: LockedRequest): string {
  if (store.lock?.refuses.includes(request)) return `refused (the ${store.lock.days}-day lock keeps it live)`;
  return window(request === 'delete' ? store.deleteRecoveryDays : store.overwriteRecoveryDays);
}

function window(days: number | null): string {
  if (days === null) return 'forever (never purged)';
  return days === 0 ? 'not at all' : `for ${days} days`;
}

function bound(days: number | null, promised: number | null): string {
  const spec = promised === null ? '' : ` (spec: within ${promised})`;
  if (days === null) return `never${spec}`;
  return days === 0 ? `at once${spec}` : `within ${days} days${spec}`;
}

/** Steady-state stored GiB per state and class, and the monthly cost or the prices it lacks. */
export function projectionLine(projection: StoreProjection): string {
  const { live, noncurrent, softDeleted } = projection.bytesByState;
  const classes = Object.entries(projection.bytesByClass)
    .filter(([, bytes]) => bytes > 0)
    .map(([name, bytes]) => `${name} ${amount(bytes)}`)
    .join(', ');
  const cost =
    projection.monthlyCost === null
      ? `cost unknown (no list price for ${projection.missingPrices.join('; ')})`
      : `~${projection.monthlyCost.toFixed(2)} ${projection.currency}/month, the whole bill (list prices of ${projection.priceTable.date})`;
  const assumed = projection.assumptions.some((line) => line.startsWith('workload not stated'))
    ? ' [default workload]'
    : '';
  return `stored: live ${amount(live)}, noncurrent ${amount(noncurrent)}, soft-deleted ${amount(softDeleted)} (${classes || 'nothing'}); ${cost}${assumed}`;
}

/**
 * The bill under the projection line: the workload it priced, one line per charge with its price and the
 * workload figure it used, and what is not the region's own confirmed price.
 */
export function billLines(bill: StoreBill): string[] {
  const w = bill.workload;
  const defaulted = w.defaulted.length > 0 ? ` (defaults: ${w.defaulted.join(', ')})` : '';
  return [
    `workload: ${w.checkpointSizeGiB} GiB every ${w.intervalHours} h, ${w.keepLast} kept, latest.pt every ${w.latestOverwriteHours} h, ${w.readBacksPerDay} read-backs/day, ${w.restartsPerMonth} restarts/month${defaulted}`,
    ...bill.lines.map(chargeLine),
    ...bill.caveats.map((caveat) => `caveat: ${caveat}`),
  ];
}

function chargeLine(line: BillLine): string {
  const flags = line.price.confirmed ? '' : ' unconfirmed';
  return `${line.usd.toFixed(2).padStart(8)} USD  ${line.what}: ${round(line.quantity)} ${line.unit} x ${line.price.usdPerUnit} USD${flags} [${line.workload}]`;
}

function round(value: number): string {
  return value >= 100 ? value.toFixed(0) : value.toPrecision(3).replace(/\.?0+$/, '');
}

function amount(bytes: number): string {
  return `${gib(bytes).toFixed(1)} GiB`;
}
