/**
 * The stores of a test config with `network` added to each prod store that states none: prod refuses a
 * store without a perimeter (docs/config.md), and most tests are about other keys.
 */
export function withProdNetwork(stores: unknown, environment: string | undefined, network: object): unknown {
  if (environment !== 'prod' || !Array.isArray(stores)) return stores;
  return stores.map((store: unknown) =>
    store !== null && typeof store === 'object' && !('network' in store) ? { ...store, network } : store,
  );
}
