import type { z } from 'zod';
import { closestKey, ConfigError, valueAt, type ConfigIssue } from './issues';
import { isAbsent, limitOf, numericKey } from './limits';
import {
  allowedWords,
  CLOUD_STACK_KEYS,
  CLOUD_STORE_KEYS,
  KEY_DOCS,
  keysAt,
  schemaAt,
  schemasFor,
  type CloudStackKey,
  type CloudStoreKey,
  type RawStackShell,
  type RawStore,
  type Schemas,
} from './schema';
import {
  CONFIG_NAMESPACE,
  defaultAudit,
  defaultEncryption,
  defaultProtect,
  RETENTION_DEFAULTS,
  type Cloud,
  type Environment,
  type NetworkSpec,
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
  /** The cloud whose limits (limits.ts) the schema enforces; absent: the limits every cloud shares. */
  limits?: Cloud;
  /** Optional stack keys this cloud honours; the others are refused with a message. */
  stackKeys?: readonly CloudStackKey[];
  /** Optional store keys (paths within a store) this cloud honours; the others are refused with a message. */
  storeKeys?: readonly CloudStoreKey[];
  /** Retention defaults for a tier, where the common default cannot apply (e.g. no versioning). */
  retentionDefaults?(tier: Tier): Partial<RetentionSpec>;
  /** Cloud limits on one store; `raw` is the store as written, to tell explicit values from defaults. */
  checkStore?(store: StoreSpec, raw: RawStore, report: Report): void;
  /**
   * Why a principal is from outside the stack (another account, project or subscription, another
   * environment, CI, a consumer domain), or undefined: a prod store refuses it unless
   * `checkpoints:externalPrincipals` lists it.
   */
  outsider?(principal: string): string | undefined;
  /**
   * How the cloud's independent copy (`recovery.independentCopy`) departs from the default: whether a restricted
   * prod store gets one without asking (absent: yes, when `storeKeys` lists the key), and the days it keeps
   * when the spec names none (absent: the store's version window, within the cloud's range of the key).
   */
  independentCopy?: { byDefault?(spec: StoreSpec): boolean; defaultDays?(spec: StoreSpec): number };
}

export interface LoadOptions {
  /** Whether a config key holds a secret (`pulumi.runtime.isConfigSecret` in a program). */
  isSecret?: (key: string) => boolean;
}

/**
 * Every `checkpoints:` value ends up in tags, labels or resource names (owner, cost center, store names),
 * which every reader of the account sees and no cloud encrypts: a secret there would be published.
 */
function secretIssues(allConfig: Record<string, string>, isSecret: LoadOptions['isSecret']): ConfigIssue[] {
  if (!isSecret) return [];
  return Object.keys(allConfig)
    .filter((key) => key.startsWith(CONFIG_NAMESPACE + ':') && isSecret(key))
    .map((key) => ({
      path: key,
      value: '[secret]',
      message:
        'must not be a secret: checkpoints: values become tags, labels and resource names, which are not secret; set it as plain config (pulumi config set, without --secret)',
    }));
}

/**
 * Two stores whose derived cloud names coincide would fight over one bucket, account, vault or identity.
 * `namesOf` gives a store's physical names per namespace in which they must be unique (e.g. 'S3 bucket').
 */
export function physicalNameIssues(
  stores: readonly StoreSpec[],
  namesOf: (store: StoreSpec) => Record<string, string | readonly string[]>,
): ConfigIssue[] {
  const owners = new Map<string, number>();
  // Per store, the earlier stores it collides with and the names they share.
  const collisions = new Map<number, Map<number, string[]>>();
  stores.forEach((store, index) => {
    for (const [namespace, value] of Object.entries(namesOf(store))) {
      for (const name of typeof value === 'string' ? [value] : value) {
        const key = `${namespace}\u0000${name}`;
        const owner = owners.get(key);
        if (owner === undefined) owners.set(key, index);
        else if (owner !== index) {
          const shared = collisions.get(index) ?? new Map<number, string[]>();
          shared.set(owner, [...(shared.get(owner) ?? []), `${namespace} '${name}'`]);
          collisions.set(index, shared);
        }
      }
    }
  });
  return [...collisions].flatMap(([index, shared]) =>
    [...shared].map(([owner, sharedNames]) => ({
      path: `${CONFIG_NAMESPACE}:stores[${index}].name`,
      value: stores[index]?.name,
      message: `derives the same cloud names as stores[${owner}] (${stores[owner]?.name}): ${sharedNames.join(', ')}; rename one of the two stores`,
    })),
  );
}

export type { CloudStackKey, CloudStoreKey } from './schema';

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
  options: LoadOptions = {},
): StackSpec {
  const schemas = schemasFor(rules.limits);
  const input = readNamespace(allConfig, schemas);
  const issues: ConfigIssue[] = [...input.issues, ...secretIssues(allConfig, options.isSecret)];
  const stack = schemas.stackShell.safeParse(input.values);
  const context: IssueContext = { root: input.values, cloud: rules.cloud, schemas, limits: rules.limits };
  if (!stack.success) {
    const shellIssues = zodIssues(stack.error.issues, [], context);
    // A key already explained (an empty `stores`, or one written in another namespace) gets one line, not two.
    issues.push(...shellIssues.filter((issue) => !input.explained.has(issue.path)));
  }

  // Each store is validated on its own, so one store's typo does not hide another store's cloud limits;
  // a store with a mistake is still checked on the parts that parsed, so a second run shows nothing new.
  const environment = stack.success ? stack.data.environment : 'dev';
  const rawStores = Array.isArray(input.values['stores']) ? (input.values['stores'] as unknown[]) : [];
  const stores: CheckedStore[] = [];
  rawStores.forEach((candidate, index) => {
    const store = schemas.store.safeParse(candidate);
    if (store.success) {
      stores.push({ index, raw: store.data, spec: storeWithDefaults(store.data, environment, rules) });
      return;
    }
    issues.push(...zodIssues(store.error.issues, ['stores', index], context));
    const partial = parsedParts(candidate, store.error.issues, schemas);
    if (partial) {
      stores.push({
        index,
        raw: partial.raw,
        spec: storeWithDefaults(partial.raw, environment, rules),
        failed: partial.failed,
      });
    }
  });

  if (stack.success) checkStackKeys(stack.data, rules, issues);
  checkUniqueNames(stores, issues);
  checkFormerNames(stores, issues);
  for (const { index, raw, spec, failed } of stores) {
    const report: Report = (relativePath, value, message) => {
      if (failed && isUnder(relativePath, failed)) return;
      issues.push({ path: joinPath(`${CONFIG_NAMESPACE}:stores[${index}]`, relativePath), value, message });
    };
    checkStoreKeys(raw, index, rules, issues);
    checkStore(spec, raw, environment, rules, report);
    rules.checkStore?.(spec, raw, report);
    if (environment === 'prod')
      checkOutsiders(spec, rules, stack.success ? stack.data.externalPrincipals : [], report);
  }
  if (!stack.success || issues.length > 0) throw new ConfigError(storeByStore(issues), source);
  const spec: StackSpec = {
    environment: stack.data.environment,
    owner: stack.data.owner,
    costCenter: stack.data.costCenter,
    stores: stores.map((store) => withExternal(store.spec, stack.data.externalPrincipals ?? [])),
    ...(stack.data.externalPrincipals ? { externalPrincipals: stack.data.externalPrincipals } : {}),
    ...(stack.data.ciRunners === undefined ? {} : { ciRunners: stack.data.ciRunners }),
  };
  for (const key of Object.keys(CLOUD_STACK_KEYS) as CloudStackKey[]) {
    const value = stack.data[key];
    if (value !== undefined) Object.assign(spec, { [key]: value });
  }
  return spec;
}

/** The store with the listed external principals its access names, for the component's inputs. */
function withExternal(store: StoreSpec, listed: readonly { principal: string; reason: string }[]): StoreSpec {
  const named = new Set([...store.access.writers, ...store.access.readers]);
  const external = listed.filter((entry) => named.has(entry.principal)).map((entry) => ({ ...entry }));
  return external.length === 0 ? store : { ...store, access: { ...store.access, external } };
}

/** A prod store names a principal from outside the stack only when `externalPrincipals` lists it, with why. */
function checkOutsiders(
  store: StoreSpec,
  rules: CloudRules,
  listed: readonly { principal: string }[] | undefined,
  report: Report,
): void {
  const allowed = new Set((listed ?? []).map((entry) => entry.principal));
  for (const list of ['writers', 'readers'] as const) {
    store.access[list].forEach((principal, index) => {
      const why = rules.outsider?.(principal);
      if (why === undefined || allowed.has(principal)) return;
      report(
        `access.${list}[${index}]`,
        principal,
        `${why}: a prod store refuses it; allowed: a principal of this stack's own account, project or subscription, or one listed with its reason in ${CONFIG_NAMESPACE}:externalPrincipals ({ principal: ${principal}, reason: "why" })`,
      );
    });
  }
}

/** The issues store by store (stack keys first), each store's in the order they were found. */
function storeByStore(issues: readonly ConfigIssue[]): ConfigIssue[] {
  const storeOf = (issue: ConfigIssue) => Number(/^[^:]*:stores\[(\d+)\]/.exec(issue.path)?.[1] ?? -1);
  return issues
    .map((issue, found) => ({ issue, found, store: storeOf(issue) }))
    .sort((a, b) => a.store - b.store || a.found - b.found)
    .map(({ issue }) => issue);
}

interface CheckedStore {
  index: number;
  raw: RawStore;
  spec: StoreSpec;
  /** Parts of the store (relative paths) that did not parse and are already reported; absent when it parsed. */
  failed?: readonly string[];
}

/** Placeholders for required keys that did not parse, so the cloud rules can check the rest of the store. */
const PLACEHOLDERS: Readonly<Record<string, unknown>> = {
  name: 'unparsed-store',
  dataClassification: 'restricted',
};

/** Stands in for a list entry that did not parse, so the entries after it keep their indexes. */
const UNPARSED_ENTRY = 'unparsed-entry';

/** Blocks whose keys are parts on their own: one bad retention age leaves the other ages checked. */
const BLOCKS: readonly string[] = ['retention', 'access', 'workload', 'network', 'recovery'];

/**
 * The store without the parts that failed validation (defaults take their place), and those parts as
 * relative paths. Unknown keys are dropped (they are reported as typos). Undefined when the store is not
 * an object at all.
 */
function parsedParts(
  candidate: unknown,
  found: readonly z.core.$ZodIssue[],
  schemas: Schemas,
): { raw: RawStore; failed: string[] } | undefined {
  if (!isBlock(candidate)) return undefined;
  const store: Record<string, unknown> = { ...candidate };
  for (const block of BLOCKS) {
    const value = store[block];
    if (isBlock(value)) store[block] = { ...value };
  }
  const failed = new Set<string>();
  for (const issue of found) {
    const path = issue.path.filter((s): s is string | number => typeof s !== 'symbol');
    const [first, second] = path;
    const container =
      typeof first === 'string' && BLOCKS.includes(first) && isBlock(store[first])
        ? (store[first] as Record<string, unknown>)
        : undefined;
    if (issue.code === 'unrecognized_keys') {
      const target = path.length === 0 ? store : container;
      for (const key of issue.keys) if (target) delete target[key];
      continue;
    }
    if (typeof first !== 'string') return undefined;
    const [, , third] = path;
    const list = container && typeof second === 'string' ? container[second] : undefined;
    if (Array.isArray(list) && typeof third === 'number' && container && typeof second === 'string') {
      // One bad principal leaves the others checked: a stand-in keeps the indexes, its reports are dropped.
      const copy = [...(list as unknown[])];
      copy[third] = UNPARSED_ENTRY;
      container[second] = copy;
      failed.add(`${first}.${second}[${third}]`);
      continue;
    }
    if (container && typeof second === 'string') {
      delete container[second];
      failed.add(`${first}.${second}`);
    } else {
      delete store[first];
      failed.add(first);
    }
  }
  for (const [key, placeholder] of Object.entries(PLACEHOLDERS)) {
    if (store[key] === undefined) store[key] = placeholder;
  }
  const reparsed = schemas.store.safeParse(store);
  return reparsed.success ? { raw: reparsed.data, failed: [...failed] } : undefined;
}

function isBlock(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

function isUnder(relativePath: string, parts: readonly string[]): boolean {
  return parts.some(
    (part) =>
      relativePath === part || relativePath.startsWith(`${part}.`) || relativePath.startsWith(`${part}[`),
  );
}

/** Provider keys users put under `checkpoints:` by mistake, and where each cloud reads them. */
const PROVIDER_KEYS: Readonly<Record<Cloud, Readonly<Record<string, string>>>> = {
  aws: { region: 'aws:region', location: 'aws:region', profile: 'aws:profile' },
  gcp: { region: 'gcp:region', location: 'gcp:region', project: 'gcp:project' },
  azure: {
    region: 'azure-native:location',
    location: 'azure-native:location',
    subscriptionId: 'azure-native:subscriptionId',
  },
};

function readNamespace(
  allConfig: Record<string, string>,
  schemas: Schemas,
): {
  values: Record<string, unknown>;
  issues: ConfigIssue[];
  /** Full key paths already explained by an issue here. */
  explained: Set<string>;
} {
  const values: Record<string, unknown> = {};
  const issues: ConfigIssue[] = [];
  const explained = new Set<string>();
  const prefix = CONFIG_NAMESPACE + ':';
  for (const [fullKey, text] of Object.entries(allConfig)) {
    if (!fullKey.startsWith(prefix)) {
      const misplaced = misplacedKey(fullKey, Object.keys(schemas.stack.shape));
      if (misplaced) {
        issues.push({ path: fullKey, value: undefined, message: misplaced.message });
        explained.add(misplaced.meant);
      }
      continue;
    }
    const key = fullKey.slice(prefix.length);
    if (key === 'stores' && isEmptyText(text)) {
      const stores = KEY_DOCS.get(schemas.stack.shape.stores)?.allowed ?? 'a list of stores';
      issues.push({ path: fullKey, value: undefined, message: `is empty; allowed: ${stores}` });
      explained.add(fullKey);
      continue;
    }
    values[key] = parseValue(text);
    if (key === 'stores' && typeof values[key] === 'string') {
      issues.push({ path: fullKey, value: text, message: 'must be a YAML list of stores, not a string' });
      explained.add(fullKey);
      delete values[key];
    }
  }
  return { values, issues, explained };
}

/** YAML `stores:` with nothing after it reaches the program as empty text or `null`. */
function isEmptyText(text: string): boolean {
  return ['', 'null', '~'].includes(text.trim());
}

/**
 * A stack key written in a namespace the platform does not read: `checkpoint:stores` (a typo), or an
 * un-namespaced `stores:`, which Pulumi files under the project's name (`checkpoints-aws:stores`).
 */
function misplacedKey(
  fullKey: string,
  stackKeys: readonly string[],
): { message: string; meant: string } | undefined {
  const separator = fullKey.indexOf(':');
  if (separator < 0) return undefined;
  const namespace = fullKey.slice(0, separator);
  const key = fullKey.slice(separator + 1);
  const looksLikeOurs = namespace.startsWith('checkpoint') || closestKey(namespace, [CONFIG_NAMESPACE]);
  if (!looksLikeOurs) return undefined;
  const meantKey = stackKeys.includes(key) ? key : closestKey(key, stackKeys);
  if (meantKey === undefined) return undefined;
  const meant = `${CONFIG_NAMESPACE}:${meantKey}`;
  const why = namespace.startsWith(`${CONFIG_NAMESPACE}-`)
    ? `a key written without a namespace goes to the project's namespace '${namespace}:', which the stores do not read`
    : `the namespace '${namespace}:' is not read`;
  return { meant, message: `is ignored: ${why}; write it as ${meant}` };
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

/** A problem found by the schema; `meant` is the known key a typo most likely stands for. */
type SchemaIssue = ConfigIssue & { meant?: string };

/** What turning zod's issues into the user's words needs. */
interface IssueContext {
  /** The config as written. */
  root: Record<string, unknown>;
  cloud: Cloud;
  schemas: Schemas;
  limits: Cloud | undefined;
}

function zodIssues(
  found: readonly z.core.$ZodIssue[],
  prefix: readonly (string | number)[],
  context: IssueContext,
): ConfigIssue[] {
  const issues = found.flatMap((issue) => toConfigIssues(issue, prefix, context));
  // A typo of a required key (`nmae`) is one problem: the "is required" line of the key it stands for goes.
  const meant = new Set(issues.flatMap((issue) => (issue.meant ? [issue.meant] : [])));
  // zod may report one value twice (e.g. 1e20 is past both the safe-integer range and the key's maximum):
  // the user gets one line per key.
  const seen = new Set<string>();
  return issues
    .filter(
      (issue) =>
        !(issue.value === undefined && meant.has(issue.path) && issue.message.startsWith('is required')),
    )
    .filter((issue) => !seen.has(issue.path) && Boolean(seen.add(issue.path)))
    .map(({ path, value, message }) => ({ path, value, message }));
}

function toConfigIssues(
  issue: z.core.$ZodIssue,
  prefix: readonly (string | number)[],
  context: IssueContext,
): SchemaIssue[] {
  const { root, cloud } = context;
  const segments = [...prefix, ...issue.path.filter((s): s is string | number => typeof s !== 'symbol')];
  const value = valueAt(root, segments);
  if (issue.code === 'unrecognized_keys') {
    const known = keysAt(context.schemas.stack, segments);
    return issue.keys.map((key) => {
      const path = formatPath([...segments, key]);
      const providerKey = segments.length === 0 ? PROVIDER_KEYS[cloud][key] : undefined;
      if (providerKey !== undefined) {
        return {
          path,
          value: undefined,
          message: `unknown key: the ${cloud} provider reads this setting from ${providerKey}, not from the ${CONFIG_NAMESPACE}: namespace; set ${providerKey} instead`,
        };
      }
      const hint = closestKey(key, known);
      const suggestion = hint ? `did you mean '${hint}'? ` : '';
      const typo: SchemaIssue = {
        path,
        value: undefined,
        message: `unknown key; ${suggestion}known keys here: ${known.join(', ')}`,
      };
      if (hint) typo.meant = formatPath([...segments, hint]);
      return typo;
    });
  }
  const type = schemaAt(context.schemas.stack, segments);
  const numeric = type && KEY_DOCS.get(type)?.numeric;
  const limit = numeric && limitOf(numeric, context.limits);
  if (limit && typeof value === 'number' && Number.isFinite(value)) {
    // A feature the cloud lacks, or a cloud bound with its own reason: the reason is the whole message.
    const message = isAbsent(limit)
      ? limit.message(tierAt(root, segments))
      : value < limit.min
        ? limit.messages?.below
        : value > limit.max
          ? limit.messages?.above
          : undefined;
    if (message !== undefined) return [{ path: formatPath(segments), value, message }];
  }
  const allowed = allowedAt(segments, issue, context);
  if (value === undefined) return [{ path: formatPath(segments), value, message: `is required: ${allowed}` }];
  if (value === '') {
    return [
      { path: formatPath(segments), value, message: `is empty; empty strings are refused: ${allowed}` },
    ];
  }
  return [{ path: formatPath(segments), value, message: `allowed: ${allowed}` }];
}

/** The tier of the store a path lies in, as written (the default when absent or not a tier). */
function tierAt(root: Record<string, unknown>, segments: readonly (string | number)[]): Tier {
  const tier = segments[0] === 'stores' ? valueAt(root, [...segments.slice(0, 2), 'tier']) : undefined;
  return tier === 'high-throughput' ? 'high-throughput' : 'standard';
}

/** What the key at `segments` allows, in the user's words: from its registered words, else from the rule zod applied. */
function allowedAt(
  segments: readonly (string | number)[],
  issue: z.core.$ZodIssue,
  context: IssueContext,
): string {
  const last = segments[segments.length - 1];
  if (typeof last === 'number') {
    const list = schemaAt(context.schemas.stack, segments.slice(0, -1));
    const words = list && KEY_DOCS.get(list);
    const item = words?.item ?? words?.allowed;
    if (item !== undefined) return item;
  }
  const type = schemaAt(context.schemas.stack, segments);
  const words = type && allowedWords(type, context.limits, tierAt(context.root, segments));
  return words ?? expectedByRule(issue);
}

/** A key without words (e.g. one just added to the schema) still gets words, never zod's text. */
function expectedByRule(issue: z.core.$ZodIssue): string {
  const kind = (origin: string) =>
    origin === 'string' ? 'a string' : origin === 'array' ? 'a list' : 'a number';
  const unit = (origin: string) =>
    origin === 'string' ? ' characters' : origin === 'array' ? ' entries' : '';
  switch (issue.code) {
    case 'invalid_type':
      return TYPE_WORDS[issue.expected] ?? `a ${issue.expected}`;
    case 'too_small':
      if (issue.origin === 'string' && Number(issue.minimum) === 1) return 'a non-empty string';
      return `${kind(issue.origin)} of at least ${String(issue.minimum)}${unit(issue.origin)}`;
    case 'too_big':
      return `${kind(issue.origin)} of at most ${String(issue.maximum)}${unit(issue.origin)}`;
    case 'invalid_value':
      return `one of ${issue.values.map(String).join(' | ')}`;
    default:
      return 'a value of the type docs/config.md gives for this key';
  }
}

const TYPE_WORDS: Readonly<Record<string, string>> = {
  number: 'a number',
  int: 'a whole number',
  string: 'a string',
  boolean: 'true or false',
  object: 'a block of keys',
  array: 'a list',
};

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
    formerNames: store.formerNames ?? [],
    dataClassification: store.dataClassification,
    tier,
    encryption: store.encryption ?? defaultEncryption(environment),
    audit: store.audit ?? defaultAudit(environment, store.dataClassification),
    keyGeneration: store.keyGeneration ?? 1,
    recovery: { turboReplication: false, readableReplica: false },
    protect: store.protect ?? defaultProtect(environment),
    retention: { ...RETENTION_DEFAULTS, ...rules.retentionDefaults?.(tier), ...store.retention },
    access: { writers: store.access?.writers ?? [], readers: store.access?.readers ?? [] },
  };
  if (store.zone !== undefined) spec.zone = store.zone;
  if (store.location !== undefined) spec.location = store.location;
  if (store.workload !== undefined) spec.workload = { ...store.workload };
  if (store.acknowledge !== undefined) spec.acknowledge = { weakening: store.acknowledge.weakening };
  if (store.network !== undefined) {
    const network: NetworkSpec = {
      public: store.network.public ?? false,
      cidrs: store.network.cidrs ?? [],
      vpcEndpoints: store.network.vpcEndpoints ?? [],
      vpcs: store.network.vpcs ?? [],
      networks: store.network.networks ?? [],
      subnets: store.network.subnets ?? [],
    };
    if (store.network.privateEndpointSubnet !== undefined) {
      network.privateEndpointSubnet = store.network.privateEndpointSubnet;
    }
    const zones = store.network.privateDnsZones;
    if (zones !== undefined) network.privateDnsZones = typeof zones === 'string' ? zones : { ...zones };
    spec.network = network;
  }
  const { replicaRegion, turboReplication, readableReplica, retentionLock, independentCopy } =
    store.recovery ?? {};
  spec.recovery = {
    turboReplication: turboReplication ?? false,
    readableReplica: readableReplica ?? false,
  };
  if (replicaRegion !== undefined) spec.recovery.replicaRegion = replicaRegion;
  if (retentionLock !== undefined) spec.recovery.retentionLock = { ...retentionLock };
  // By default a restricted prod store gets a copy where its cloud builds one for it (CloudRules.independentCopy).
  const copied =
    (independentCopy && (independentCopy.enabled ?? true)) ??
    (environment === 'prod' &&
      spec.dataClassification === 'restricted' &&
      tier === 'standard' &&
      rules.storeKeys?.includes('recovery.independentCopy') === true &&
      rules.independentCopy?.byDefault?.(spec) !== false);
  if (copied) {
    spec.recovery.independentCopy = {
      retentionDays:
        independentCopy?.retentionDays ??
        rules.independentCopy?.defaultDays?.(spec) ??
        copyDaysFor(spec.retention.noncurrentExpireDays, rules),
    };
  }
  return spec;
}

/** The store's recovery window, within what the cloud's copy keeps. */
function copyDaysFor(windowDays: number, rules: CloudRules): number {
  const key = numericKey('recovery.independentCopy.retentionDays');
  const limit = key && limitOf(key, rules.limits);
  if (!limit || isAbsent(limit)) return windowDays;
  return Math.min(Math.max(limit.min, windowDays), limit.max);
}

function otherCloudKeyIssue(rules: CloudRules, path: string, value: unknown, appliesOn: string): ConfigIssue {
  return { path, value, message: `is not used on ${rules.cloud}; it applies on ${appliesOn} only` };
}

function checkStackKeys(raw: RawStackShell, rules: CloudRules, issues: ConfigIssue[]): void {
  for (const key of Object.keys(CLOUD_STACK_KEYS) as CloudStackKey[]) {
    if (raw[key] !== undefined && !rules.stackKeys?.includes(key)) {
      const appliesOn = CLOUD_STACK_KEYS[key].words;
      issues.push(otherCloudKeyIssue(rules, `${CONFIG_NAMESPACE}:${key}`, raw[key], appliesOn));
    }
  }
}

function checkStoreKeys(store: RawStore, index: number, rules: CloudRules, issues: ConfigIssue[]): void {
  for (const key of Object.keys(CLOUD_STORE_KEYS) as CloudStoreKey[]) {
    const appliesOn = CLOUD_STORE_KEYS[key].words;
    const value = key.split('.').reduce<unknown>((at, part) => (isBlock(at) ? at[part] : undefined), store);
    if (value !== undefined && !rules.storeKeys?.includes(key)) {
      issues.push(otherCloudKeyIssue(rules, `${CONFIG_NAMESPACE}:stores[${index}].${key}`, value, appliesOn));
    }
  }
}

function checkUniqueNames(stores: readonly CheckedStore[], issues: ConfigIssue[]): void {
  const seen = new Map<string, number>();
  for (const { index, spec, failed } of stores) {
    if (failed?.includes('name')) continue;
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

/**
 * A former name identifies the resources a store had under it: it may not be the store's own name, be listed
 * twice, or belong to another store (current or former), or two stores would claim one set of resources.
 */
function checkFormerNames(
  stores: readonly { index: number; spec: StoreSpec }[],
  issues: ConfigIssue[],
): void {
  const claimedBy = new Map<string, string>();
  for (const { index, spec } of stores) claimedBy.set(spec.name, `stores[${index}].name`);
  for (const { index, spec } of stores) {
    spec.formerNames.forEach((former, position) => {
      const path = `${CONFIG_NAMESPACE}:stores[${index}].formerNames[${position}]`;
      const claim = claimedBy.get(former);
      if (former === spec.name) {
        issues.push({ path, value: former, message: "is the store's current name; list only earlier names" });
      } else if (spec.formerNames.indexOf(former) !== position) {
        issues.push({ path, value: former, message: 'is listed twice' });
      } else if (claim !== undefined) {
        issues.push({
          path,
          value: former,
          message: `is already ${claim}: a name identifies one store's resources, so it may belong to one store only`,
        });
      } else {
        claimedBy.set(former, `stores[${index}].formerNames[${position}]`);
      }
    });
  }
}

function checkStore(
  store: StoreSpec,
  raw: RawStore,
  environment: Environment,
  rules: CloudRules,
  report: Report,
): void {
  const { coolAfterDays, archiveAfterDays, expireAfterDays } = store.retention;
  // On a cloud without the key, checkStoreKeys says so; a tier hint as well would contradict it.
  if (store.zone !== undefined && store.tier !== 'high-throughput' && rules.storeKeys?.includes('zone')) {
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
  checkNetwork(store.network, environment, report);
  if (raw.audit === false && environment === 'prod') {
    report(
      'audit',
      raw.audit,
      'cannot be false in prod: every read and write of a prod store is recorded; remove the key',
    );
  }
  if (
    environment === 'prod' &&
    store.tier === 'standard' &&
    store.recovery.retentionLock !== undefined &&
    store.recovery.replicaRegion === undefined
  ) {
    report(
      'recovery.replicaRegion',
      undefined,
      `is required in prod beside recovery.retentionLock (a store of released checkpoints, locked ${store.recovery.retentionLock.days} d): a release is the checkpoint teams restart from, so it keeps a copy in a second region; allowed: a region of the same cloud other than the store's own, e.g. recovery: { replicaRegion: us-west-2, retentionLock: { days: ${store.recovery.retentionLock.days} } }`,
    );
  }
  if (store.keyGeneration > 1 && store.encryption !== 'customer-managed') {
    report(
      'keyGeneration',
      store.keyGeneration,
      'applies only to encryption: customer-managed (a provider-managed key has no name to re-create); remove it',
    );
  }
}

/** The lists of a network block that each admit a set of networks (the cloud-only ones are refused elsewhere). */
const NETWORK_SOURCES = ['cidrs', 'vpcEndpoints', 'vpcs', 'networks', 'subnets'] as const;

/**
 * A prod store states who may reach it: a declared perimeter, or `public: true` said out loud. A block
 * that admits no network at all would lock out every job, so it is refused in every environment.
 */
function checkNetwork(network: StoreSpec['network'], environment: Environment, report: Report): void {
  if (network === undefined) {
    if (environment === 'prod') {
      report(
        'network',
        undefined,
        'is required in prod: list the networks that may reach the store (e.g. network: { vpcEndpoints: [vpce-…] }, ' +
          'see docs/config.md), or set network: { public: true } to accept every network (an identity with access is still required)',
      );
    }
    return;
  }
  const sources = NETWORK_SOURCES.filter((key) => network[key].length > 0);
  if (network.public && sources.length > 0) {
    report(
      'network.public',
      true,
      `accepts every network, so ${sources.map((key) => `network.${key}`).join(' and ')} would restrict nothing: remove public or the lists`,
    );
  }
  if (!network.public && sources.length === 0 && network.privateEndpointSubnet === undefined) {
    report(
      'network',
      network,
      "admits no network: list at least one source (cidrs, or the cloud's own list) or a private endpoint subnet, or set public: true",
    );
  }
  for (const key of NETWORK_SOURCES) {
    network[key].forEach((entry, index) => {
      if (network[key].indexOf(entry) !== index) report(`network.${key}[${index}]`, entry, 'is listed twice');
    });
  }
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
