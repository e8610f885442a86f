/** A Map or a WeakMap: what `memo` keeps values in. */
interface Store<Key, Value> {
  get(key: Key): Value | undefined;
  set(key: Key, value: Value): unknown;
}

/**
 * The value `store` keeps for `key`, made by `make` the first time it is asked for. Made again when `make`
 * gave undefined.
 */
export function memo<Key, Value>(store: Store<Key, Value>, key: Key, make: () => Value): Value {
  let value = store.get(key);
  if (value === undefined) {
    value = make();
    store.set(key, value);
  }
  return value;
}

/** A number per distinct text, the first one 0: the same text always gets the same number. */
export function numberOfText(numbers: Map<string, number>, text: string): number {
  return memo(numbers, text, () => numbers.size);
}
