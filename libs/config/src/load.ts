import type { z } from 'zod';
import { closestKey, ConfigError, valueAt, type ConfigIssue } from './issues';
import {
  ALLOWED,
  KNOWN_KEYS,
  stackShellSchema,
  storeSchema,
  type RawStackShell,
  type RawStore,
} from './schema';
import {
  CONFIG_NAMESPACE,
  defaultEncryption,
  defaultProtect,
  RETENTION_DEFAULTS,
  type Cloud,
  type Environment,
  type RetentionSpec,
  type StackSpec,
  type StoreSpec,
  type Tier,
} from './spec';

/** Reports a problem at a path relative to the object being checked. */
export type Report = (relativePath: string, value: unknown, message: string) => void;

/**
 * What a cloud adds to the common spec: which optional keys it honours, defaults
 * a tier cannot honour, and its own limits, so they fail here and not minutes into `up`.
 */
export interface CloudRules {
  cloud: Cloud;
  /** Optional stack keys this cloud honours; the others are refused with a message. */
  stackKeys?: readonly 'resourceGroupName'[];
  /** Optional store keys this cloud honours; the others are refused with a message. */
  storeKeys?: readonly ('zone' | 'location')[];
  /** Retention defaults for a tier, where the common default cannot apply (e.g. no versioning). */
  retentionDefaults?(tier: Tier): Partial<RetentionSpec>;
  /** Cloud limits on one store; `raw` is the store as written, to tell explicit values from defaults. */
  checkStore?(store: StoreSpec, raw: RawStore, report: Report): void;
}

const CLOUD_ONLY_KEYS: Record<string, string> = {
  resourceGroupName: 'azure',
  zone: 'aws and gcp (high-throughput tier)',
  location: 'gcp',
};

/**
 * Validates the `checkpoints:` namespace of a stack's config and applies the defaults.
 * @param allConfig every config key of the stack (`namespace:key` -> string value), as `pulumi.runtime.allConfig()` gives it.
 * @param source where the config came from, named in the error (e.g. `Pulumi.prod.yaml`).
 * @throws ConfigError listing every problem, before any resource is registered.
 */
export function loadStackSpec(
  allConfig: Record<string, string>,
  rules: CloudRules,
  source?: string,
): StackSpec {
  const input = readNamespace(allConfig);
  const issues: ConfigIssue[] = [...input.issues];
  const stack = stackShellSchema.safeParse(input.values);
  if (!stack.success) issues.push(...zodIssues(stack.error.issues, [], input.values));

  // Each store is validated on its own, so one store's typo does not hide another store's cloud limits.
  const environment = stack.success ? stack.data.environment : 'dev';
  const rawStores = Array.isArray(input.values['stores']) ? (input.values['stores'] as unknown[]) : [];
  const stores: { index: number; raw: RawStore; spec: StoreSpec }[] = [];
  rawStores.forEach((candidate, index) => {
    const store = storeSchema.safeParse(candidate);
    if (!store.success) {
      issues.push(...zodIssues(store.error.issues, ['stores', index], input.values));
      return;
    }
    stores.push({ index, raw: store.data, spec: storeWithDefaults(store.data, environment, rules) });
  });

  if (stack.success) checkStackKeys(stack.data, rules, issues);
  checkUniqueNames(stores, issues);
  for (const { index, raw, spec } of stores) {
    const report: Report = (relativePath, value, message) =>
      issues.push({ path: joinPath(`${CONFIG_NAMESPACE}:stores[${index}]`, relativePath), value, message });
    checkStoreKeys(raw, index, rules, issues);
    checkStore(spec, report);
    rules.checkStore?.(spec, raw, report);
  }
  if (!stack.success || issues.length > 0) throw new ConfigError(issues, source);
  const spec: StackSpec = {
    environment: stack.data.environment,
    owner: stack.data.owner,
    costCenter: stack.data.costCenter,
    stores: stores.map((store) => store.spec),
  };
  if (stack.data.resourceGroupName !== undefined) spec.resourceGroupName = stack.data.resourceGroupName;
  return spec;
}

function readNamespace(allConfig: Record<string, string>): {
  values: Record<string, unknown>;
  issues: ConfigIssue[];
} {
  const values: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  const prefix = CONFIG_NAMESPACE + ':';
  for (const [fullKey, text] of Object.entries(allConfig)) {
    if (!fullKey.startsWith(prefix)) continue;
    const key = fullKey.slice(prefix.length);
    values[key] = parseValue(text);
    if (key === 'stores' && typeof values[key] === 'string') {
      issues.push({ path: fullKey, value: text, message: 'must be a YAML list of stores, not a string' });
      delete values[key];
    }
  }
  return { values, issues };
}

/** Pulumi hands structured config values to programs as JSON text. */
function parseValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
    try {
      return JSON.parse(trimmed);
    } catch {
      return text;
    }
  }
  return text;
}

function zodIssues(
  found: readonly z.core.$ZodIssue[],
  prefix: readonly (string | number)[],
  root: Record<string, unknown>,
): ConfigIssue[] {
  return found.flatMap((issue) => toConfigIssues(issue, prefix, root));
}

function toConfigIssues(
  issue: z.core.$ZodIssue,
  prefix: readonly (string | number)[],
  root: Record<string, unknown>,
): ConfigIssue[] {
  const segments = [...prefix, ...issue.path.filter((s): s is string | number => typeof s !== 'symbol')];
  const value = valueAt(root, segments);
  if (issue.code === 'unrecognized_keys') {
    const known = knownKeysFor(segments);
    return issue.keys.map((key) => {
      const hint = closestKey(key, known);
      const suggestion = hint ? `did you mean '${hint}'? ` : '';
      return {
        path: formatPath([...segments, key]),
        value: undefined,
        message: `unknown key; ${suggestion}known keys here: ${known.join(', ')}`,
      };
    });
  }
  const key = [...segments].reverse().find((s): s is string => typeof s === 'string') ?? 'stores';
  const allowed = ALLOWED[key] ?? issue.message;
  if (value === undefined) return [{ path: formatPath(segments), value, message: `is required: ${allowed}` }];
  return [{ path: formatPath(segments), value, message: `allowed: ${allowed}` }];
}

function knownKeysFor(segments: readonly (string | number)[]): readonly string[] {
  const last = [...segments].reverse().find((s): s is string => typeof s === 'string');
  if (segments.length === 0) return KNOWN_KEYS.stack;
  if (last === 'retention') return KNOWN_KEYS.retention;
  if (last === 'access') return KNOWN_KEYS.access;
  return KNOWN_KEYS.store;
}

export function formatPath(segments: readonly (string | number)[]): string {
  let path = CONFIG_NAMESPACE + ':';
  segments.forEach((segment, i) => {
    if (typeof segment === 'number') path += `[${segment}]`;
    else path += i === 0 ? segment : `.${segment}`;
  });
  return path;
}

function joinPath(prefix: string, relativePath: string): string {
  if (!relativePath) return prefix;
  if (prefix.endsWith(':') || relativePath.startsWith('[')) return prefix + relativePath;
  return `${prefix}.${relativePath}`;
}

function storeWithDefaults(store: RawStore, environment: Environment, rules: CloudRules): StoreSpec {
  const tier = store.tier ?? 'standard';
  const spec: StoreSpec = {
    name: store.name,
    dataClassification: store.dataClassification,
    tier,
    encryption: store.encryption ?? defaultEncryption(environment),
    protect: store.protect ?? defaultProtect(environment),
    retention: { ...RETENTION_DEFAULTS, ...rules.retentionDefaults?.(tier), ...store.retention },
    access: { writers: store.access?.writers ?? [], readers: store.access?.readers ?? [] },
  };
  if (store.zone !== undefined) spec.zone = store.zone;
  if (store.location !== undefined) spec.location = store.location;
  return spec;
}

function refuseOtherCloudKey(
  issues: ConfigIssue[],
  rules: CloudRules,
  path: string,
  key: string,
  value: unknown,
) {
  issues.push({
    path,
    value,
    message: `is not used on ${rules.cloud}; it applies on ${CLOUD_ONLY_KEYS[key]} only`,
  });
}

function checkStackKeys(raw: RawStackShell, rules: CloudRules, issues: ConfigIssue[]): void {
  if (raw.resourceGroupName !== undefined && !rules.stackKeys?.includes('resourceGroupName')) {
    refuseOtherCloudKey(
      issues,
      rules,
      `${CONFIG_NAMESPACE}:resourceGroupName`,
      'resourceGroupName',
      raw.resourceGroupName,
    );
  }
}

function checkStoreKeys(store: RawStore, index: number, rules: CloudRules, issues: ConfigIssue[]): void {
  for (const key of ['zone', 'location'] as const) {
    if (store[key] !== undefined && !rules.storeKeys?.includes(key)) {
      refuseOtherCloudKey(issues, rules, `${CONFIG_NAMESPACE}:stores[${index}].${key}`, key, store[key]);
    }
  }
}

function checkUniqueNames(
  stores: readonly { index: number; spec: StoreSpec }[],
  issues: ConfigIssue[],
): void {
  const seen = new Map<string, number>();
  for (const { index, spec } of stores) {
    const first = seen.get(spec.name);
    if (first === undefined) {
      seen.set(spec.name, index);
      continue;
    }
    issues.push({
      path: `${CONFIG_NAMESPACE}:stores[${index}].name`,
      value: spec.name,
      message: `store names must be unique in the stack; stores[${first}] has it too`,
    });
  }
}

function checkStore(store: StoreSpec, report: Report): void {
  const { coolAfterDays, archiveAfterDays, expireAfterDays } = store.retention;
  if (store.zone !== undefined && store.tier !== 'high-throughput') {
    report(
      'zone',
      store.zone,
      "applies only to tier 'high-throughput'; remove it or set tier: high-throughput",
    );
  }
  if (archiveAfterDays > 0 && coolAfterDays > 0 && archiveAfterDays <= coolAfterDays) {
    report(
      'retention.archiveAfterDays',
      archiveAfterDays,
      `must be greater than retention.coolAfterDays (${coolAfterDays}): objects go cool first, then to archive`,
    );
  }
  const latestTransition = Math.max(coolAfterDays, archiveAfterDays);
  if (expireAfterDays > 0 && expireAfterDays <= latestTransition) {
    report(
      'retention.expireAfterDays',
      expireAfterDays,
      `must be greater than every transition age (${latestTransition}) or 0 (never)`,
    );
  }
  checkRetentionPrefixes(store.retention, report);
  checkPrincipalsUnique(store.access.writers, 'access.writers', report);
  checkPrincipalsUnique(store.access.readers, 'access.readers', report);
}

/**
 * No cloud's lifecycle filter can say "everything except releases/", so kept prefixes hold on every cloud
 * only when expiry is scoped to other prefixes: expirePrefixes must be given, and none may contain or lie
 * inside a kept prefix.
 */
function checkRetentionPrefixes(retention: StoreSpec['retention'], report: Report): void {
  const { keptPrefixes, expirePrefixes, expireAfterDays } = retention;
  for (const [key, prefixes] of [
    ['keptPrefixes', keptPrefixes],
    ['expirePrefixes', expirePrefixes],
  ] as const) {
    prefixes.forEach((prefix, index) => {
      if (prefixes.indexOf(prefix) !== index) report(`retention.${key}[${index}]`, prefix, 'is listed twice');
    });
  }
  if (keptPrefixes.length > 0 && expireAfterDays > 0 && expirePrefixes.length === 0) {
    report(
      'retention.expirePrefixes',
      expirePrefixes,
      `is required when retention.keptPrefixes is set and expireAfterDays is above 0: lifecycle filters cannot exclude a prefix, so expiry must name the prefixes it applies to (e.g. [runs/]), none of them inside ${keptPrefixes.join(', ')}`,
    );
  }
  expirePrefixes.forEach((prefix, index) => {
    const kept = keptPrefixes.find(
      (candidate) => candidate.startsWith(prefix) || prefix.startsWith(candidate),
    );
    if (kept !== undefined) {
      report(
        `retention.expirePrefixes[${index}]`,
        prefix,
        `overlaps kept prefix ${kept}: objects there would expire; use prefixes that neither contain nor lie inside a kept prefix`,
      );
    }
  });
}

function checkPrincipalsUnique(principals: readonly string[], path: string, report: Report): void {
  principals.forEach((principal, index) => {
    if (principals.indexOf(principal) !== index) report(`${path}[${index}]`, principal, 'is listed twice');
  });
}
