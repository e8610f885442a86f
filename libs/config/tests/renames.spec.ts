import {
  ConfigError,
  firstName,
  loadStackSpec,
  physicalNameIssues,
  type CloudRules,
  type ConfigIssue,
} from '../src';

const rules: CloudRules = { cloud: 'aws' };
const base = { environment: 'dev', owner: 'ml-platform', costCenter: 'cc-1234' };

function config(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      `checkpoints:${key}`,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

function issuesOf(run: () => unknown): ConfigIssue[] {
  try {
    run();
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

const stores = (...list: Record<string, unknown>[]) =>
  config({ ...base, stores: list.map((store) => ({ dataClassification: 'internal', ...store })) });

describe('formerNames', () => {
  it('keeps the earlier names, oldest first, and derives physical names from the first', () => {
    const spec = loadStackSpec(stores({ name: 'llm-v3', formerNames: ['llm', 'llm-v2'] }), rules);
    expect(spec.stores[0]?.formerNames).toEqual(['llm', 'llm-v2']);
    expect(firstName(spec.stores[0]!)).toBe('llm');
  });

  it('defaults to none, and a store without former names is its own first name', () => {
    const spec = loadStackSpec(stores({ name: 'llm' }), rules);
    expect(spec.stores[0]?.formerNames).toEqual([]);
    expect(firstName(spec.stores[0]!)).toBe('llm');
  });

  it.each([
    [
      'its own name',
      [{ name: 'llm', formerNames: ['llm'] }],
      'stores[0].formerNames[0]',
      "is the store's current name",
    ],
    [
      'a name twice',
      [{ name: 'llm', formerNames: ['old', 'old'] }],
      'stores[0].formerNames[1]',
      'is listed twice',
    ],
    [
      "another store's name",
      [{ name: 'llm', formerNames: ['fast'] }, { name: 'fast' }],
      'stores[0].formerNames[0]',
      'is already stores[1].name',
    ],
    [
      "another store's former name",
      [
        { name: 'a1', formerNames: ['old'] },
        { name: 'b1', formerNames: ['old'] },
      ],
      'stores[1].formerNames[0]',
      'is already stores[0].formerNames[0]',
    ],
    [
      'a name no store may have',
      [{ name: 'llm', formerNames: ['Old_Name'] }],
      'stores[0].formerNames[0]',
      'allowed:',
    ],
  ])('refuses %s', (_case, list, path, message) => {
    const issues = issuesOf(() => loadStackSpec(stores(...list), rules));
    expect(issues).toEqual([expect.objectContaining({ path: `checkpoints:${path}` })]);
    expect(issues[0]?.message).toContain(message);
  });
});

describe('physicalNameIssues', () => {
  const spec = loadStackSpec(stores({ name: 'aaa' }, { name: 'bbb' }, { name: 'ccc' }), rules);

  it('names the store whose derived name another store already has, and which name it is', () => {
    const issues = physicalNameIssues(spec.stores, (store) => ({
      'service account': store.name === 'ccc' ? 'shared-sa' : `${store.name}-sa`,
      vault: store.name === 'aaa' || store.name === 'ccc' ? 'shared-vault' : `${store.name}-vault`,
    }));
    expect(issues).toEqual([
      {
        path: 'checkpoints:stores[2].name',
        value: 'ccc',
        message:
          "derives the same cloud names as stores[0] (aaa): vault 'shared-vault'; rename one of the two stores",
      },
    ]);
  });

  it('compares names within one namespace only, and a store may reuse its own name across kinds', () => {
    const issues = physicalNameIssues(spec.stores, (store) => ({
      bucket: `${store.name}-x`,
      role: [`${store.name}-x`, `${store.name}-y`],
    }));
    expect(issues).toEqual([]);
  });
});

describe('secrets', () => {
  it('refuses a checkpoints: value that is a secret, naming the key, since it would land in tags and names', () => {
    const values = stores({ name: 'llm' });
    const issues = issuesOf(() =>
      loadStackSpec(values, rules, 'Pulumi.dev.yaml', { isSecret: (key) => key === 'checkpoints:owner' }),
    );
    expect(issues).toEqual([expect.objectContaining({ path: 'checkpoints:owner', value: '[secret]' })]);
    expect(issues[0]?.message).toContain('tags, labels and resource names');
  });

  it('leaves secrets of other namespaces alone', () => {
    const values = { ...stores({ name: 'llm' }), 'aws:secretKey': 'x' };
    expect(() =>
      loadStackSpec(values, rules, undefined, { isSecret: (key) => key === 'aws:secretKey' }),
    ).not.toThrow();
  });
});
