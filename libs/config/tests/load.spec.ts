import fc from 'fast-check';
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
    ['dev', 'provider-managed', false, false],
    ['staging', 'provider-managed', false, false],
    ['prod', 'customer-managed', true, true],
  ])('environment %s: encryption %s, protect %s, audit %s', (environment, encryption, protect, audit) => {
    const network = { public: true };
    const spec = loadStackSpec(
      config({ ...base, environment, stores: [{ name: 'llm', dataClassification: 'internal', network }] }),
      noRules,
    );
    expect(spec.stores[0]).toEqual({
      name: 'llm',
      formerNames: [],
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
      audit,
      network: { public: true, cidrs: [], vpcEndpoints: [], vpcs: [], networks: [], subnets: [] },
      recovery: { turboReplication: false, readableReplica: false },
      keyGeneration: 1,
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

describe('messages: one line per problem, in words that state the rule', () => {
  const store = { name: 'ab', dataClassification: 'public' };
  const gcpLike: CloudRules = { cloud: 'gcp', storeKeys: ['zone', 'location'] };

  function rawIssues(allConfig: Record<string, string>, rules: CloudRules = noRules): ConfigIssue[] {
    try {
      loadStackSpec(allConfig, rules);
    } catch (error) {
      if (error instanceof ConfigError) return [...error.issues];
      throw error;
    }
    throw new Error('expected a ConfigError');
  }

  it.each([
    ['null', 'null'],
    ['nothing', ''],
  ])('an empty stores key (%s) is one line saying it is empty', (_title, text) => {
    expect(rawIssues({ ...config(base), 'checkpoints:stores': text })).toEqual([
      {
        path: 'checkpoints:stores',
        value: undefined,
        message:
          'is empty; allowed: a list of at least one store, each a block with at least name and dataClassification',
      },
    ]);
  });

  it('a number too large to represent is named as such, not shown as null', () => {
    const allConfig = {
      ...config(base),
      'checkpoints:stores':
        '[{"name":"ab","dataClassification":"public","retention":{"coolAfterDays":1e400}}]',
    };
    let message = '';
    try {
      loadStackSpec(allConfig, noRules);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      'checkpoints:stores[0].retention.coolAfterDays: got a number too large to represent; allowed: a whole number of days',
    );
    expect(message).not.toContain('got null');
  });

  it('a number past the safe-integer range and the maximum is one line, not two', () => {
    const issues = issuesOf({ ...base, stores: [{ ...store, retention: { expireAfterDays: 1e20 } }] });
    expect(issues).toEqual([
      {
        path: 'checkpoints:stores[0].retention.expireAfterDays',
        value: 1e20,
        message: 'allowed: a whole number of days from 0 (never) to 36500',
      },
    ]);
  });

  it.each<[string, string, string]>([
    [
      'checkpoint:stores',
      'checkpoint:stores',
      "is ignored: the namespace 'checkpoint:' is not read; write it as checkpoints:stores",
    ],
    [
      'an un-namespaced stores key',
      'checkpoints-aws:stores',
      "is ignored: a key written without a namespace goes to the project's namespace 'checkpoints-aws:', which the stores do not read; write it as checkpoints:stores",
    ],
  ])('%s: one line naming the key the user meant', (_title, key, message) => {
    const allConfig = { ...config(base), [key]: JSON.stringify([store]) };
    expect(rawIssues(allConfig)).toEqual([{ path: key, value: undefined, message }]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a stack key',
      { environment: 'dev', owner: 'ml', costCenter: 'cc', store: [store] },
      'checkpoints:store',
      'stores',
    ],
    [
      'a store key',
      { ...base, stores: [{ nmae: 'ab', dataClassification: 'public' }] },
      'checkpoints:stores[0].nmae',
      'name',
    ],
  ])(
    'a typo of a required key (%s) is one line, without "is required" for the key it stands for',
    (_t, values, path, meant) => {
      const issues = issuesOf(values);
      expect(issues.map((issue) => issue.path)).toEqual([path]);
      expect(issues[0]?.message).toContain(`did you mean '${meant}'?`);
    },
  );

  it('a key of another namespace that is not a stack key is left alone', () => {
    const allConfig = { ...config({ ...base, stores: [store] }), 'checkpoints-aws:notes': 'x' };
    expect(loadStackSpec(allConfig, noRules).stores).toHaveLength(1);
  });

  it.each<[string, CloudRules, string, string]>([
    ['region on aws', noRules, 'region', 'aws:region'],
    ['project on gcp', gcpLike, 'project', 'gcp:project'],
    ['location on azure', { cloud: 'azure', storeKeys: [] }, 'location', 'azure-native:location'],
  ])('a provider key under checkpoints: (%s) points to the provider key', (_title, rules, key, target) => {
    const issues = issuesOf({ ...base, [key]: 'somewhere', stores: [store] }, rules);
    expect(issues).toEqual([
      {
        path: `checkpoints:${key}`,
        value: undefined,
        message: `unknown key: the ${rules.cloud} provider reads this setting from ${target}, not from the checkpoints: namespace; set ${target} instead`,
      },
    ]);
  });

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'retention as a number',
      { retention: 30 },
      'checkpoints:stores[0].retention',
      'allowed: a block of retention keys (keepNoncurrentVersions, noncurrentExpireDays, coolAfterDays, archiveAfterDays, expireAfterDays, abortIncompleteUploadDays, softDeleteDays, keptPrefixes, expirePrefixes), e.g. retention: { coolAfterDays: 30 }',
    ],
    [
      'access as a list',
      { access: ['arn:aws:iam::123456789012:root'] },
      'checkpoints:stores[0].access',
      'allowed: a block with the lists writers and readers, e.g. access: { readers: [PRINCIPAL] }',
    ],
    [
      'an empty principal',
      { access: { writers: [''] } },
      'checkpoints:stores[0].access.writers[0]',
      "is empty; empty strings are refused: a principal in the cloud's own format (a non-empty string)",
    ],
    [
      'a number as a principal',
      { access: { readers: [42] } },
      'checkpoints:stores[0].access.readers[0]',
      "allowed: a principal in the cloud's own format (a non-empty string)",
    ],
  ])('%s: says what is allowed', (_title, extra, path, message) => {
    expect(issuesOf({ ...base, stores: [{ ...store, ...extra }] })).toEqual([
      { path, value: expect.anything() as unknown, message },
    ]);
  });

  it('a zone on a cloud without zones gets one line, not a tier hint as well', () => {
    const issues = issuesOf(
      { ...base, stores: [{ ...store, zone: '2' }] },
      { cloud: 'azure', storeKeys: [] },
    );
    expect(issues).toEqual([
      {
        path: 'checkpoints:stores[0].zone',
        value: '2',
        message: 'is not used on azure; it applies on aws and gcp (high-throughput tier) only',
      },
    ]);
  });

  describe('a store with a mistake is still checked on the parts that parsed', () => {
    const coolAtLeast30: CloudRules = {
      cloud: 'aws',
      checkStore: (spec, _raw, report) => {
        if (spec.retention.coolAfterDays > 0 && spec.retention.coolAfterDays < 30)
          report('retention.coolAfterDays', spec.retention.coolAfterDays, 'S3 needs at least 30 days');
        if (spec.retention.expireAfterDays > 0 && spec.retention.expireAfterDays < 40)
          report('retention.expireAfterDays', spec.retention.expireAfterDays, 'too soon for this cloud');
      },
    };

    it.each<[string, Record<string, unknown>, string[]]>([
      [
        'a bad classification and a cloud limit',
        { name: 'ab', dataClassification: 'secret', retention: { coolAfterDays: 10 } },
        ['checkpoints:stores[0].dataClassification', 'checkpoints:stores[0].retention.coolAfterDays'],
      ],
      [
        'a bad name, a typo and a cloud limit',
        { name: 'A', dataClassification: 'public', protec: true, retention: { coolAfterDays: 10 } },
        [
          'checkpoints:stores[0].name',
          'checkpoints:stores[0].protec',
          'checkpoints:stores[0].retention.coolAfterDays',
        ],
      ],
      [
        'one retention key of the wrong type and another over a cloud limit',
        {
          name: 'ab',
          dataClassification: 'public',
          retention: { coolAfterDays: 'ten', expireAfterDays: 35 },
        },
        ['checkpoints:stores[0].retention.coolAfterDays', 'checkpoints:stores[0].retention.expireAfterDays'],
      ],
    ])('%s: every problem in one run, each once', (_title, candidate, paths) => {
      const issues = issuesOf({ ...base, stores: [candidate] }, coolAtLeast30);
      expect(issues.map((issue) => issue.path)).toEqual(paths);
    });

    it('one bad principal leaves the other principals checked, at their own indexes', () => {
      const noWildcards: CloudRules = {
        cloud: 'aws',
        checkStore: (spec, _raw, report) =>
          spec.access.writers.forEach((writer, index) => {
            if (writer.includes('*')) report(`access.writers[${index}]`, writer, 'wildcards are not allowed');
          }),
      };
      const issues = issuesOf(
        { ...base, stores: [{ ...store, access: { writers: ['', 'ok', 'arn:*', ''] } }] },
        noWildcards,
      );
      expect(issues.map((issue) => [issue.path, issue.message.split(';')[0]])).toEqual([
        ['checkpoints:stores[0].access.writers[0]', 'is empty'],
        ['checkpoints:stores[0].access.writers[3]', 'is empty'],
        ['checkpoints:stores[0].access.writers[2]', 'wildcards are not allowed'],
      ]);
    });

    it('the part that failed is not checked again with a default in its place', () => {
      const issues = issuesOf(
        {
          ...base,
          stores: [{ name: 'ab', dataClassification: 'public', retention: { expireAfterDays: -1 } }],
        },
        {
          cloud: 'aws',
          checkStore: (_spec, _raw, report) => report('retention.expireAfterDays', 0, 'default'),
        },
      );
      expect(issues.map((issue) => issue.message)).toEqual([
        'allowed: a whole number of days from 0 (never) to 36500',
      ]);
    });
  });
});

describe('messages: a property over any value a user can write', () => {
  const storeKeys = ['name', 'dataClassification', 'tier', 'zone', 'protect', 'retention', 'access'];
  const anyValue = fc.oneof(
    fc.jsonValue(),
    fc.constantFrom(Infinity, -Infinity, 1e20, '', [''], { coolAfterDays: 'x' }, { writers: [''] }),
  );

  it("never shows the validator's own text and never reports one key twice", () => {
    fc.assert(
      fc.property(fc.constantFrom(...storeKeys), anyValue, (key, value) => {
        let issues: ConfigIssue[] = [];
        try {
          loadStackSpec(
            config({ ...base, stores: [{ name: 'ab', dataClassification: 'public', [key]: value }] }),
            noRules,
          );
        } catch (error) {
          if (!(error instanceof ConfigError)) throw error;
          issues = [...error.issues];
        }
        const paths = issues.map((issue) => issue.path);
        expect(new Set(paths).size).toBe(paths.length);
        for (const issue of issues)
          expect(issue.message).not.toMatch(/Invalid input|Too (big|small)|expected \w+, received/);
      }),
    );
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

describe('workload (the storage and cost projection)', () => {
  const withWorkload = (workload: unknown) => ({
    ...base,
    stores: [{ name: 'llm', dataClassification: 'internal', workload }],
  });

  it('carries the keys the spec states and leaves the rest to the documented defaults', () => {
    const spec = loadStackSpec(config(withWorkload({ checkpointSizeGiB: 140.5, keepLast: 3 })), noRules);
    expect(spec.stores[0]?.workload).toEqual({ checkpointSizeGiB: 140.5, keepLast: 3 });
    const none = loadStackSpec(
      config({ ...base, stores: [{ name: 'llm', dataClassification: 'internal' }] }),
      noRules,
    );
    expect(none.stores[0]?.workload).toBeUndefined();
  });

  it.each<[string, unknown, string, unknown, string]>([
    [
      'a checkpoint of no size',
      { checkpointSizeGiB: 0 },
      'workload.checkpointSizeGiB',
      0,
      'allowed: a number of GiB above 0 and at most 1048576 (the size of one checkpoint)',
    ],
    [
      'a size as text',
      { checkpointSizeGiB: '140GB' },
      'workload.checkpointSizeGiB',
      '140GB',
      'allowed: a number of GiB above 0 and at most 1048576 (the size of one checkpoint)',
    ],
    [
      'a fractional interval',
      { intervalHours: 1.5 },
      'workload.intervalHours',
      1.5,
      'allowed: a whole number of hours from 1 to 8760 (how often the job writes a checkpoint)',
    ],
    [
      'an interval of 0',
      { intervalHours: 0 },
      'workload.intervalHours',
      0,
      'allowed: a whole number of hours from 1 to 8760 (how often the job writes a checkpoint)',
    ],
    [
      'keeping no checkpoint',
      { keepLast: 0 },
      'workload.keepLast',
      0,
      'allowed: a whole number from 1 to 10000 (checkpoints the job keeps before it deletes the oldest)',
    ],
    [
      'a negative latest.pt period',
      { latestOverwriteHours: -1 },
      'workload.latestOverwriteHours',
      -1,
      'allowed: a whole number of hours from 0 (no latest.pt) to 8760 (how often the job overwrites latest.pt)',
    ],
    [
      'a fractional restart count',
      { restartsPerMonth: 2.5 },
      'workload.restartsPerMonth',
      2.5,
      'allowed: a whole number from 0 (no restarts) to 744 (job restarts per month)',
    ],
    [
      'negative read-backs',
      { readBacksPerDay: -1 },
      'workload.readBacksPerDay',
      -1,
      'allowed: a number from 0 (no read-backs) to 96 (whole checkpoints read back per day)',
    ],
    [
      'a typo',
      { keepLats: 3 },
      'workload.keepLats',
      undefined,
      "unknown key; did you mean 'keepLast'? known keys here: checkpointSizeGiB, intervalHours, keepLast, latestOverwriteHours, readBacksPerDay, restartsPerMonth",
    ],
    [
      'a number in place of the block',
      5,
      'workload',
      5,
      'allowed: a block of workload keys (checkpointSizeGiB, intervalHours, keepLast, latestOverwriteHours, readBacksPerDay, restartsPerMonth), e.g. workload: { checkpointSizeGiB: 140, intervalHours: 2 }',
    ],
  ])('%s is refused with the key, the value and what is allowed', (_, workload, path, value, message) => {
    expect(issuesOf(withWorkload(workload))).toEqual([
      { path: `checkpoints:stores[0].${path}`, value, message },
    ]);
  });

  it('one bad workload key leaves the others checked', () => {
    const issues = issuesOf(withWorkload({ intervalHours: 0, keepLast: 0 }));
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].workload.intervalHours',
      'checkpoints:stores[0].workload.keepLast',
    ]);
  });
});
