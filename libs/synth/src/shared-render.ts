/**
 * `make` made once per key, its result frozen: for tests that only read a render, which is a function
 * of its config alone. Call it at module level: jest gives each test file its own module registry, so
 * each file its own renders. Frozen, a render a test changes throws instead of changing what the next
 * test reads.
 */
export function sharedPerKey<Args extends unknown[], Result>(
  make: (...args: Args) => Promise<Result>,
  keyOf: (...args: Args) => string,
): (...args: Args) => Promise<Result> {
  const made = new Map<string, Promise<Result>>();
  return (...args) => {
    const key = keyOf(...args);
    let result = made.get(key);
    if (result === undefined) {
      result = make(...args).then(deepFreeze);
      made.set(key, result);
    }
    return result;
  };
}

/** Freezes `value` and everything it holds. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}
