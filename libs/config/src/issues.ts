/** One problem found in stack config: where, what was given, what is allowed. */
export interface ConfigIssue {
  /** Full key path as the user writes it, e.g. `checkpoints:stores[1].retention.coolAfterDays`. */
  path: string;
  /** The value given (undefined when the key is missing). */
  value: unknown;
  /** What is wrong and what is allowed. */
  message: string;
  /**
   * Set when the value is valid but the deployed store cannot take it (a setting its cloud only sets at
   * creation): a refusal with a migration path, which a review shows as such rather than as a typo.
   */
  refusal?: true;
}

/** Thrown before any resource is registered; lists every problem at once. */
export class ConfigError extends Error {
  readonly issues: readonly ConfigIssue[];

  constructor(issues: readonly ConfigIssue[], source?: string) {
    super(formatIssues(issues, source));
    this.name = 'ConfigError';
    // Pulumi's runner prints errors carrying this marker (its RunError protocol) without a stack trace.
    Object.defineProperty(this, '__pulumiRunError', { value: true });
    this.issues = issues;
  }
}

export function describeValue(value: unknown): string {
  if (value === undefined) return 'nothing';
  // JSON.parse reads a literal beyond the double range (e.g. 1e400) as Infinity, which JSON shows as null.
  if (typeof value === 'number' && !Number.isFinite(value)) return 'a number too large to represent';
  const json = JSON.stringify(value, (_key, item: unknown) =>
    typeof item === 'number' && !Number.isFinite(item) ? '<number too large>' : item,
  );
  return json.length > 80 ? `${json.slice(0, 77)}...` : json;
}

export function formatIssues(issues: readonly ConfigIssue[], source?: string): string {
  const where = source ? ` in ${source}` : '';
  const header = `Invalid stack config${where} (${issues.length} problem${issues.length === 1 ? '' : 's'}):`;
  const lines = issues.map((issue) =>
    issue.value === undefined
      ? `  - ${issue.path}: ${issue.message}`
      : `  - ${issue.path}: got ${describeValue(issue.value)}; ${issue.message}`,
  );
  return [header, ...lines].join('\n');
}

/** Closest known key within a small edit distance, for "did you mean" hints on typos. */
export function closestKey(given: string, known: readonly string[]): string | undefined {
  let best: { key: string; distance: number } | undefined;
  for (const key of known) {
    const distance = editDistance(given.toLowerCase(), key.toLowerCase());
    if (!best || distance < best.distance) best = { key, distance };
  }
  if (!best) return undefined;
  const tolerance = Math.max(2, Math.floor(best.key.length / 3));
  return best.distance <= tolerance ? best.key : undefined;
}

/** The known values nearest to `given` (fewest edits first, ties in table order), for "did you mean" lists. */
export function nearestValues(given: string, known: readonly string[], count = 3): string[] {
  const lowered = given.toLowerCase();
  return known
    .map((value, order) => ({ value, order, distance: editDistance(lowered, value.toLowerCase()) }))
    .sort((a, b) => a.distance - b.distance || a.order - b.order)
    .slice(0, count)
    .map((entry) => entry.value);
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1);
      current[j] = Math.min((previous[j] ?? 0) + 1, (current[j - 1] ?? 0) + 1, substitution);
    }
    previous = current;
  }
  return previous[b.length] ?? 0;
}

/** The value at a key path (as zod reports paths) in the config as written; undefined when absent. */
export function valueAt(root: unknown, segments: readonly (string | number)[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string | number, unknown>)[segment];
  }
  return current;
}
