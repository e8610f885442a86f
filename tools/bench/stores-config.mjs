/**
 * An N-store prod stack config for the render series of `npm run bench`: the stack's own
 * Pulumi.prod.yaml with its `checkpoints:stores` list replaced by N copies of its stores, one in five
 * a copy of its first high-throughput store and the others copies of its first standard store, each
 * with a name of its own. Copying the checked-in prod stores keeps every key the stack requires in prod
 * (perimeter, encryption, ...) without this script knowing them.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';

/** The config of `<stackDir>/Pulumi.prod.yaml` with `count` stores. */
export function storesConfig(stackDir, count) {
  const file = join(stackDir, 'Pulumi.prod.yaml');
  const document = parse(readFileSync(file, 'utf8'));
  const stores = document?.config?.['checkpoints:stores'];
  if (!Array.isArray(stores)) throw new Error(`${file}: no checkpoints:stores list to copy`);
  const standard = stores.find((store) => (store.tier ?? 'standard') === 'standard');
  const fast = stores.find((store) => store.tier === 'high-throughput') ?? standard;
  if (!standard) throw new Error(`${file}: no standard-tier store to copy`);
  const copies = Array.from({ length: count }, (_, index) => ({
    ...JSON.parse(JSON.stringify(index % 5 === 4 ? fast : standard)),
    name: `ckpt-${String(index + 1).padStart(4, '0')}`,
  }));
  return { config: { ...document.config, 'checkpoints:stores': copies } };
}

/** Writes the N-store config to `file` (a Pulumi stack config file synth reads with --config-file). */
export function writeStoresConfig(stackDir, count, file) {
  writeFileSync(file, stringify(storesConfig(stackDir, count)));
  return file;
}
