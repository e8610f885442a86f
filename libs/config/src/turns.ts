/**
 * Builds each store in a turn of its own: `build` for one store, then a macrotask turn before the next.
 *
 * Why: Pulumi registers a resource asynchronously. A program that constructs every store in one
 * synchronous loop keeps every resource's pending registration alive at once (the SDK makes an `Output`
 * and its promises per declared output property, and each waits for the engine's answer), so the memory of
 * a run grows with the whole stack. A turn after each store lets the engine's answers for that store's
 * resources arrive before the next store is built: the offline render of 500 Azure stores peaked at
 * 1,565 MB built in one loop and at 761 MB store by store (docs/development/benchmarks.md). What is built, and so
 * the stack's resources and outputs, is the same; only the order in which they register changes.
 */
export async function buildStoresInTurns<Store, Built>(
  stores: readonly Store[],
  build: (store: Store) => Built,
): Promise<Built[]> {
  const built: Built[] = [];
  for (const store of stores) {
    built.push(build(store));
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return built;
}
