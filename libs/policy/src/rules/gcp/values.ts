/**
 * Reading resource inputs the way they arrive on a real preview and in synth. On a real preview a value the
 * engine has not computed yet (the ID of a key created in the same update, a service account's email) is
 * behind @pulumi/policy's proxy, which throws when it is read; synth writes it as "[unknown]" (and a secret as
 * "[secret]"). Rules treat such a value as a violation only where the baseline requires a literal.
 */
import { at } from '../define';

/** A value not known at preview time. */
export const UNKNOWN: unique symbol = Symbol('unknown');

const SYNTH_MARKS: ReadonlySet<string> = new Set(['[unknown]', '[secret]']);

/** @pulumi/policy's UnknownValueError, recognised without loading the policy SDK's server. */
function isUnknownValueError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.constructor.name === 'UnknownValueError' || 'unknownTypeSentinel' in error)
  );
}

/**
 * The value at `path`: `undefined` when absent, UNKNOWN when it, or any object on the way to it, is not
 * computed yet.
 */
export function read(value: unknown, ...path: (string | number)[]): unknown {
  let current = known(value);
  for (const key of path) {
    if (current === UNKNOWN) return UNKNOWN;
    try {
      current = known(at(current, key));
    } catch (error) {
      if (isUnknownValueError(error)) return UNKNOWN;
      throw error;
    }
  }
  return current;
}

function known(value: unknown): unknown {
  if (value === UNKNOWN || (typeof value === 'string' && SYNTH_MARKS.has(value))) return UNKNOWN;
  return value;
}

/** The elements of the list at `path`, each read on its own; `undefined` when absent or not a list. */
export function readList(
  value: unknown,
  ...path: (string | number)[]
): unknown[] | typeof UNKNOWN | undefined {
  const list = read(value, ...path);
  if (list === UNKNOWN) return UNKNOWN;
  if (!Array.isArray(list)) return undefined;
  const length = read(list, 'length');
  if (typeof length !== 'number') return UNKNOWN;
  return Array.from({ length }, (_, index) => read(list, index));
}

/** How a message shows a value: `is not set`, `is unknown during preview`, `is "inherited"`. */
export function state(value: unknown): string {
  if (value === UNKNOWN) return 'is unknown during preview';
  if (value === undefined || value === null) return 'is not set';
  return `is ${JSON.stringify(value)}`;
}
