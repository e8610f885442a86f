import fc from 'fast-check';
import {
  awsRules,
  azureRules,
  ConfigError,
  gcpRules,
  loadStackSpec,
  type CloudRules,
  type ConfigIssue,
} from '../src';
import { isAbsent, limitOf, NUMERIC_KEYS, type NumericKey, type Range } from '../src/limits';
import { CLOUDS, type Cloud } from '../src/spec';
import { cloudsOf } from '../src/schema';

const RULES: Record<Cloud, CloudRules> = {
  aws: awsRules.forRegion('us-east-1'),
  gcp: gcpRules({ region: 'us-central1' }),
  azure: azureRules,
};

/**
 * A standard store in which only the key under test can be wrong: the keys it is compared with are set so
 * that every value of its range passes the rules that relate keys (archive after cool, expiry after every
 * transition, Azure's baseline lifecycle policy, a key generation only with a customer-managed key).
 */
function storeWith(path: string, value: number, cloud: Cloud): Record<string, unknown> {
  const [block, key, leaf] = path.split('.');
  const store: Record<string, unknown> = { name: 'llm', dataClassification: 'internal', tier: 'standard' };
  const retention: Record<string, unknown> = {};
  if (path === 'retention.archiveAfterDays' && cloud !== 'azure') retention['coolAfterDays'] = 0;
  if (path === 'retention.expireAfterDays')
    retention['coolAfterDays'] = cloud === 'azure' && value === 0 ? 30 : 0;
  if (path === 'retention.coolAfterDays' && cloud === 'azure' && value === 0)
    retention['expireAfterDays'] = 1;
  if (path === 'keyGeneration') store['encryption'] = 'customer-managed';
  if (block === 'retention') store['retention'] = { ...retention, [key!]: value };
  else if (block === 'workload') store['workload'] = { [key!]: value };
  else if (block === 'recovery') store['recovery'] = { [key!]: { [leaf!]: value } };
  else store[block!] = value;
  return store;
}

function issuesOf(cloud: Cloud, store: Record<string, unknown>): ConfigIssue[] {
  const config = {
    'checkpoints:environment': 'dev',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    'checkpoints:stores': JSON.stringify([store]),
  };
  try {
    loadStackSpec(config, RULES[cloud]);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

/** The messages of a standard store with this retention, in dev. */
function messagesOf(cloud: Cloud, retention: Record<string, unknown>): string[] {
  return issuesOf(cloud, { name: 'llm', dataClassification: 'internal', retention }).map(
    (issue) => issue.message,
  );
}

/** Every range a message states, e.g. `7 to 90`. */
function rangesIn(messages: readonly string[]): string[] {
  return messages.flatMap((message) => [...message.matchAll(/\b\d+(?: \([^)]*\))? to \d+\b/g)].map(String));
}

describe('a limit is stated the same way each time a value misses it', () => {
  it('GCP softDeleteDays: 400, then 200 after a fix, are both told 7 to 90; 90 is accepted', () => {
    const first = messagesOf('gcp', { softDeleteDays: 400 });
    expect(first).toHaveLength(1);
    expect(rangesIn(first)).toEqual(['7 to 90']);
    expect(messagesOf('gcp', { softDeleteDays: 200 })).toEqual(first);
    expect(rangesIn(messagesOf('gcp', { softDeleteDays: 3 }))).toEqual(['7 to 90']);
    expect(messagesOf('gcp', { softDeleteDays: 90 })).toEqual([]);
  });

  it('AWS softDeleteDays: 400, then 200, are both told S3 has no soft delete', () => {
    const first = messagesOf('aws', { softDeleteDays: 400 });
    expect(first).toEqual([expect.stringContaining('S3 has no soft delete')]);
    expect(messagesOf('aws', { softDeleteDays: 200 })).toEqual(first);
  });

  it('Azure softDeleteDays: 400, then 3, are both told 7 to 365', () => {
    const retention = { coolAfterDays: 30 };
    const first = messagesOf('azure', { ...retention, softDeleteDays: 400 });
    expect(first).toHaveLength(1);
    expect(rangesIn(first)).toEqual(['7 to 365']);
    expect(rangesIn(messagesOf('azure', { ...retention, softDeleteDays: 3 }))).toEqual(['7 to 365']);
    expect(messagesOf('azure', { ...retention, softDeleteDays: 365 })).toEqual([]);
  });
});

/** The message states the range: `1 to 365`, `from 0 (never) to 36500`, `above 0 and at most 1048576`. */
function statesRange(message: string, range: Range): boolean {
  if (range.exclusiveMin) return message.includes(`above ${range.min} and at most ${range.max}`);
  return new RegExp(`\\b${range.min}(?: \\([^)]*\\))? to ${range.max}\\b`).test(message);
}

/** A numeric key under a block only some clouds honour (CLOUD_STORE_KEYS) is judged on those clouds. */
const honours = (path: string, cloud: Cloud) =>
  cloudsOf('store', path.split('.').slice(0, 2).join('.'))?.includes(cloud) ?? true;
const cases = NUMERIC_KEYS.flatMap((key) =>
  CLOUDS.filter((cloud) => honours(key.path, cloud)).map((cloud) => [key.path, cloud, key] as const),
);

describe.each(cases)('%s on %s', (path, cloud, key: NumericKey) => {
  const limit = limitOf(key, cloud);
  const at = `checkpoints:stores[0].${path}`;
  const accepted = (value: number) => expect(issuesOf(cloud, storeWith(path, value, cloud))).toEqual([]);
  const refused = (value: number, states: (message: string) => boolean) => {
    const issues = issuesOf(cloud, storeWith(path, value, cloud));
    expect(issues).toEqual([{ path: at, value, message: expect.any(String) }]);
    expect(states(issues[0]!.message)).toBe(true);
  };

  if (isAbsent(limit)) {
    it('accepts 0 only, and says why, with "set it to 0"', () => {
      accepted(0);
      fc.assert(
        fc.property(fc.integer({ min: 1, max: key.common.max + 10 }), (value) =>
          refused(value, (message) => /\bset (it to )?0\b/.test(message)),
        ),
        { numRuns: 20 },
      );
    });
    return;
  }

  const step = key.integer ? 1 : 0.5;
  const inside = key.integer
    ? fc.integer({ min: Math.max(limit.min, limit.max - 1000), max: limit.max })
    : fc.double({ min: limit.max / 2, max: limit.max, noNaN: true });
  const justBelow = limit.exclusiveMin ? limit.min : limit.min - step;
  const below = key.integer
    ? fc.integer({ min: justBelow - 1000, max: justBelow })
    : // JSON has no -0: the stack config would hold 0.
      fc.double({ min: justBelow - 1000, max: justBelow, noNaN: true }).map((value) => value + 0);
  const above = key.integer
    ? fc.integer({ min: limit.max + 1, max: limit.max + 1000 })
    : fc.double({ min: limit.max + step, max: limit.max + 1000, noNaN: true });
  const states = (message: string) => statesRange(message, limit);

  it(`accepts ${limit.exclusiveMin ? 'just above ' : ''}${limit.min} and ${limit.max}, and values just inside`, () => {
    accepted(limit.exclusiveMin ? Number.EPSILON : limit.min);
    accepted(limit.max);
    fc.assert(
      fc.property(inside, (value) => accepted(value)),
      { numRuns: 20 },
    );
  });

  it(`refuses ${justBelow} and ${limit.max + step}, and values just outside, stating ${limit.min} to ${limit.max}`, () => {
    refused(justBelow, states);
    refused(limit.max + step, states);
    fc.assert(
      fc.property(below, (value) => refused(value, states)),
      { numRuns: 20 },
    );
    fc.assert(
      fc.property(above, (value) => refused(value, states)),
      { numRuns: 20 },
    );
  });
});
