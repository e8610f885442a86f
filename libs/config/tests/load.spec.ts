import { ConfigError, loadStackSpec, type CloudRules, type ConfigIssue } from '../src';

const noRules: CloudRules = { cloud: 'aws', storeKeys: ['zone'] };

function config(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      `checkpoints:${key}`,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

const base = { environment: 'dev', owner: 'ml-platform', costCenter: 'cc-1234' };

function issuesOf(values: Record<string, unknown>, rules: CloudRules = noRules): ConfigIssue[] {
  try {
    loadStackSpec(config(values), rules);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('defaults', () => {
  it.each([
    ['dev', 'provider-managed', false],
    ['staging', 'provider-managed', false],
    ['prod', 'customer-managed', true],
  ])('environment %s: encryption %s, protect %s', (environment, encryption, protect) => {
    const spec = loadStackSpec(
      config({ ...base, environment, stores: [{ name: 'llm', dataClassification: 'internal' }] }),
      noRules,
    );
    expect(spec.stores[0]).toEqual({
      name: 'llm',
      dataClassification: 'internal',
      tier: 'standard',
      encryption,
      protect,
      retention: {
        keepNoncurrentVersions: 3,
        noncurrentExpireDays: 7,
        coolAfterDays: 30,
        archiveAfterDays: 0,
        expireAfterDays: 0,
        abortIncompleteUploadDays: 1,
        softDeleteDays: 7,
        keptPrefixes: [],
        expirePrefixes: [],
      },
      access: { writers: [], readers: [] },
    });
  });

  it('lets a cloud lower defaults a tier cannot honour, and explicit values still win', () => {
    const rules: CloudRules = {
      cloud: 'gcp',
      storeKeys: ['zone'],
      retentionDefaults: (tier) => (tier === 'high-throughput' ? { keepNoncurrentVersions: 0 } : {}),
    };
    const spec = loadStackSpec(
      config({
        ...base,
        stores: [
          { name: 'fast', dataClassification: 'internal', tier: 'high-throughput' },
          { name: 'slow', dataClassification: 'internal', retention: { coolAfterDays: 0 } },
        ],
      }),
      rules,
    );
    expect(spec.stores[0]?.retention.keepNoncurrentVersions).toBe(0);
    expect(spec.stores[1]?.retention.keepNoncurrentVersions).toBe(3);
    expect(spec.stores[1]?.retention.coolAfterDays).toBe(0);
  });
});

describe('bad config', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'missing environment',
      { owner: 'a', costCenter: 'b', stores: [{ name: 'ab', dataClassification: 'public' }] },
      'checkpoints:environment',
      'is required: one of dev | staging | prod',
    ],
    [
      'bad environment',
      { ...base, environment: 'production', stores: [{ name: 'ab', dataClassification: 'public' }] },
      'checkpoints:environment',
      'allowed: one of dev | staging | prod',
    ],
    [
      'typo at top level',
      { ...base, enviroment: 'dev', stores: [{ name: 'ab', dataClassification: 'public' }] },
      'checkpoints:enviroment',
      "did you mean 'environment'?",
    ],
    [
      'typo in retention',
      { ...base, stores: [{ name: 'ab', dataClassification: 'public', retention: { coolAfterDay: 3 } }] },
      'checkpoints:stores[0].retention.coolAfterDay',
      "did you mean 'coolAfterDays'?",
    ],
    [
      'negative age',
      {
        ...base,
        stores: [
          { name: 'ab', dataClassification: 'public' },
          { name: 'cd', dataClassification: 'public', retention: { coolAfterDays: -5 } },
        ],
      },
      'checkpoints:stores[1].retention.coolAfterDays',
      'allowed: a whole number of days from 0 (never)',
    ],
    [
      'bad store name',
      { ...base, stores: [{ name: 'LLM_pretrain', dataClassification: 'public' }] },
      'checkpoints:stores[0].name',
      'allowed: a store name matching',
    ],
    [
      'bad tier',
      { ...base, stores: [{ name: 'ab', dataClassification: 'public', tier: 'fast' }] },
      'checkpoints:stores[0].tier',
      'allowed: one of standard | high-throughput',
    ],
    ['no stores', { ...base, stores: [] }, 'checkpoints:stores', 'allowed: a list of at least one store'],
    ['stores as text', { ...base, stores: 'llm' }, 'checkpoints:stores', 'must be a YAML list of stores'],
    [
      'duplicate names',
      {
        ...base,
        stores: [
          { name: 'ab', dataClassification: 'public' },
          { name: 'ab', dataClassification: 'public' },
        ],
      },
      'checkpoints:stores[1].name',
      'store names must be unique',
    ],
    [
      'archive before cool',
      {
        ...base,
        stores: [
          {
            name: 'ab',
            dataClassification: 'public',
            retention: { coolAfterDays: 60, archiveAfterDays: 30 },
          },
        ],
      },
      'checkpoints:stores[0].retention.archiveAfterDays',
      'must be greater than retention.coolAfterDays (60)',
    ],
    [
      'expiry before archive',
      {
        ...base,
        stores: [
          {
            name: 'ab',
            dataClassification: 'public',
            retention: { coolAfterDays: 30, archiveAfterDays: 90, expireAfterDays: 60 },
          },
        ],
      },
      'checkpoints:stores[0].retention.expireAfterDays',
      'must be greater than every transition age (90)',
    ],
    [
      'zone on standard tier',
      { ...base, stores: [{ name: 'ab', dataClassification: 'public', zone: 'use1-az4' }] },
      'checkpoints:stores[0].zone',
      "applies only to tier 'high-throughput'",
    ],
    [
      'key of another cloud',
      { ...base, resourceGroupName: 'rg', stores: [{ name: 'ab', dataClassification: 'public' }] },
      'checkpoints:resourceGroupName',
      'is not used on aws; it applies on azure only',
    ],
    [
      'principal listed twice',
      { ...base, stores: [{ name: 'ab', dataClassification: 'public', access: { readers: ['x', 'x'] } }] },
      'checkpoints:stores[0].access.readers[1]',
      'is listed twice',
    ],
  ])('%s', (_title, values, path, message) => {
    const issues = issuesOf(values);
    const issue = issues.find((i) => i.path === path);
    expect(issue).toBeDefined();
    expect(issue?.message).toContain(message);
  });

  it('lists every problem at once with the value given, and names the source', () => {
    let error: unknown;
    try {
      loadStackSpec(
        config({ ...base, environment: 'qa', stores: [{ name: 'ab', dataClassification: 'secret' }] }),
        noRules,
        'Pulumi.dev.yaml',
      );
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as Error).message;
    expect(message).toContain('Invalid stack config in Pulumi.dev.yaml (2 problems)');
    expect(message).toContain('checkpoints:environment: got "qa"; allowed: one of dev | staging | prod');
    expect(message).toContain('checkpoints:stores[0].dataClassification: got "secret"');
  });

  it('runs the cloud rules with paths relative to the store', () => {
    const rules: CloudRules = {
      cloud: 'aws',
      checkStore: (store, raw, report) => {
        if (raw.retention?.softDeleteDays !== undefined)
          report('retention.softDeleteDays', store.retention.softDeleteDays, 'S3 has no soft delete');
      },
    };
    const issues = issuesOf(
      { ...base, stores: [{ name: 'ab', dataClassification: 'public', retention: { softDeleteDays: 10 } }] },
      rules,
    );
    expect(issues).toEqual([
      { path: 'checkpoints:stores[0].retention.softDeleteDays', value: 10, message: 'S3 has no soft delete' },
    ]);
  });

  it('ignores other namespaces', () => {
    const spec = loadStackSpec(
      {
        ...config({ ...base, stores: [{ name: 'ab', dataClassification: 'public' }] }),
        'aws:region': 'us-east-1',
      },
      noRules,
    );
    expect(spec.stores).toHaveLength(1);
  });
});

describe('every problem in one run', () => {
  it("reports one store's typo and another store's cloud limit together", () => {
    const rules: CloudRules = {
      cloud: 'aws',
      checkStore: (store, _raw, report) => {
        if (store.retention.coolAfterDays > 0 && store.retention.coolAfterDays < 30) {
          report('retention.coolAfterDays', store.retention.coolAfterDays, 'S3 needs at least 30 days');
        }
      },
    };
    const issues = issuesOf(
      {
        ...base,
        environment: 'production',
        stores: [
          { name: 'LLM', dataClassification: 'public' },
          { name: 'ok-store', dataClassification: 'public', retention: { coolAfterDays: 10 } },
        ],
      },
      rules,
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:environment',
      'checkpoints:stores[0].name',
      'checkpoints:stores[1].retention.coolAfterDays',
    ]);
  });
});

describe('kept and expiring prefixes', () => {
  const withRetention = (retention: Record<string, unknown>) => ({
    ...base,
    stores: [{ name: 'llm', dataClassification: 'internal', retention }],
  });

  it('accepts expiry scoped to prefixes that never meet a kept one', () => {
    const spec = loadStackSpec(
      config(
        withRetention({
          expireAfterDays: 60,
          keptPrefixes: ['releases/'],
          expirePrefixes: ['runs/', 'tmp/'],
        }),
      ),
      noRules,
    );
    expect(spec.stores[0]?.retention).toMatchObject({
      keptPrefixes: ['releases/'],
      expirePrefixes: ['runs/', 'tmp/'],
    });
  });

  it.each<[string, Record<string, unknown>, string, unknown, string]>([
    [
      'kept prefixes with store-wide expiry',
      { expireAfterDays: 60, keptPrefixes: ['releases/'] },
      'retention.expirePrefixes',
      [],
      'is required when retention.keptPrefixes is set and expireAfterDays is above 0: lifecycle filters cannot exclude a prefix, so expiry must name the prefixes it applies to (e.g. [runs/]), none of them inside releases/',
    ],
    [
      'an expiring prefix above a kept one',
      { expireAfterDays: 60, keptPrefixes: ['runs/released/'], expirePrefixes: ['runs/'] },
      'retention.expirePrefixes[0]',
      'runs/',
      'overlaps kept prefix runs/released/: objects there would expire; use prefixes that neither contain nor lie inside a kept prefix',
    ],
    [
      'an expiring prefix inside a kept one',
      { expireAfterDays: 60, keptPrefixes: ['releases/'], expirePrefixes: ['releases/tmp/'] },
      'retention.expirePrefixes[0]',
      'releases/tmp/',
      'overlaps kept prefix releases/: objects there would expire; use prefixes that neither contain nor lie inside a kept prefix',
    ],
    [
      'a prefix listed twice',
      { keptPrefixes: ['releases/', 'releases/'] },
      'retention.keptPrefixes[1]',
      'releases/',
      'is listed twice',
    ],
    [
      'a prefix that is not a folder',
      { keptPrefixes: ['releases'] },
      'retention.keptPrefixes[0]',
      'releases',
      "allowed: a list of at most 10 folder prefixes such as releases/ (letters, digits, '.', '_', '-', separated and ended by '/')",
    ],
  ])('refuses %s', (_title, retention, path, value, message) => {
    expect(issuesOf(withRetention(retention))).toEqual([
      { path: `checkpoints:stores[0].${path}`, value, message },
    ]);
  });
});
