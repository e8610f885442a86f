import type { StoreRetention } from '@checkpoints/analysis';

/**
 * One or two lines per store: what its lifecycle settings do, as the simulator replayed them
 * (libs/analysis/src/retention), so a reviewer sees the recovery window and purge bound, not rule shapes.
 */
export function retentionLines(stores: readonly StoreRetention[]): string[] {
  if (stores.length === 0) return [];
  const lines = ["Retention (each store's lifecycle replayed against its cloud's documented semantics):"];
  for (const store of stores) {
    lines.push(
      `  ${store.store}: recover a delete ${window(store.deleteRecoveryDays)}, an overwrite ${window(store.overwriteRecoveryDays)}; ` +
        `non-live data purged ${bound(store.purgeWithinDays, store.promisedPurgeWithinDays)}`,
      `    an object overwritten hourly holds ${store.hourlyCopies === null ? 'ever more' : store.hourlyCopies} stored copies; ` +
        `live checkpoints ${store.expiresAfterDays === null ? 'never expire' : `expire after ${store.expiresAfterDays} days`}`,
    );
    for (const note of store.notes) lines.push(`    note: ${note}`);
    for (const broken of store.broken)
      lines.push(`    BROKEN ${broken.promise} (day ${broken.day}): ${broken.message}`);
  }
  return lines;
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
