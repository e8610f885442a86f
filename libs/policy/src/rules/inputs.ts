/**
 * Reading resource inputs the way every rule receives them, on a real preview and in synth, for every cloud.
 *
 * A value the engine has not computed yet (on a first preview, anything built from another resource's
 * outputs: a bucket's ARN, a key's ID, a service account's email) arrives in one of two forms:
 * - on a real preview, behind @pulumi/policy's proxy, which throws its UnknownValueError when the value is
 *   read (left alone, that turns the whole check into an advisory "can't run during preview");
 * - in synth (`libs/synth`), as the string "[unknown]"; synth also writes a secret as "[secret]".
 *
 * The meaning, the same on every cloud (the strictest the three former copies had, from GCP and Azure):
 * - both forms read as the one marker `UNKNOWN`, so synth gives the verdict a real preview gives;
 * - "[secret]" reads as `UNKNOWN` too: synth cannot see the value, so it is never taken for the literal text
 *   and passes only where the rule accepts an unknown;
 * - a path through an unknown object is `UNKNOWN`, never absent (`undefined`);
 * - the policy SDK's error is recognised by its class name or its `unknownTypeSentinel`.
 * The AWS copy took synth's marks for literal strings; the AWS rules now read them as above. Each rule
 * decides what `UNKNOWN` means for it: a violation where the baseline requires a literal, otherwise left to
 * the check at `pulumi up`.
 */
import { SECRET_MARK, UNKNOWN_MARK } from '@checkpoints/render';

/** A value not known at preview time (or a secret synth cannot see). */
export const UNKNOWN: unique symbol = Symbol('unknown during preview');

/** How a render writes an unknown value and a secret. */
const SYNTH_MARKS: ReadonlySet<string> = new Set([UNKNOWN_MARK, SECRET_MARK]);

/** @pulumi/policy's UnknownValueError, recognised without loading the policy SDK's server. */
export function isUnknownValueError(error: unknown): boolean {
  return (
    error instanceof Error &&
    (error.constructor.name === 'UnknownValueError' || 'unknownTypeSentinel' in error)
  );
}

/** `UNKNOWN` for a synth mark, the value otherwise. */
function marked(value: unknown): unknown {
  return typeof value === 'string' && SYNTH_MARKS.has(value) ? UNKNOWN : value;
}

/** What `get` returns, or `UNKNOWN` when it throws the policy SDK's UnknownValueError. */
function guarded(get: () => unknown): unknown {
  try {
    return get();
  } catch (error) {
    if (isUnknownValueError(error)) return UNKNOWN;
    throw error;
  }
}

function property(value: object, key: string | number): unknown {
  return (value as Record<string | number, unknown>)[key];
}

/** The value at `path`: `undefined` when absent, `UNKNOWN` when it (or anything on the way) is not known yet. */
export function read(value: unknown, ...path: (string | number)[]): unknown {
  let current = marked(value);
  for (const key of path) {
    if (current === UNKNOWN) return UNKNOWN;
    if (current === null || typeof current !== 'object') return undefined;
    const parent = current;
    current = guarded(() => marked(property(parent, key)));
  }
  return current;
}

/** The elements of the list at `path`, each read on its own; `UNKNOWN` when the list is; `undefined` when absent. */
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

/** A deep copy of an input with every unknown value replaced by `UNKNOWN`: safe to read and iterate. */
export function plain(value: unknown): unknown {
  const current = marked(value);
  if (current === null || typeof current !== 'object') return current;
  const copy = (key: string | number) => guarded(() => plain(property(current, key)));
  if (Array.isArray(current)) {
    const length = current.length;
    return Array.from({ length }, (_, index) => copy(index));
  }
  return Object.fromEntries(Object.keys(current).map((key) => [key, copy(key)]));
}

/** The inputs of a resource as a plain object (see `plain`). */
export function inputsOf(resource: { props: Record<string, unknown> }): Record<string, unknown> {
  const copy = plain(resource.props);
  return copy !== null && typeof copy === 'object' ? (copy as Record<string, unknown>) : {};
}

/** A value for a message: `true`, `"ObjectWriter"`, `not set`, `unknown during preview`. */
export function shown(value: unknown): string {
  if (value === UNKNOWN) return 'unknown during preview';
  if (value === undefined) return 'not set';
  return JSON.stringify(value);
}

/** How a message states a value: `is not set` (`null` too), `is unknown during preview`, `is "TLS1_0"`. */
export function state(value: unknown): string {
  return `is ${value === null ? 'not set' : shown(value)}`;
}
