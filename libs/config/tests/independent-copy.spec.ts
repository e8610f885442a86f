import {
  awsRules,
  azureIndependentCopyIssues,
  azureRules,
  ConfigError,
  gcpRules,
  loadStackSpec,
  type CloudRules,
} from '../src';

function config(stores: unknown[], environment = 'prod'): Record<string, string> {
  return {
    'checkpoints:environment': environment,
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    'checkpoints:stores': JSON.stringify(
      stores.map((s) => ({ network: { public: true }, ...(s as object) })),
    ),
  };
}

const restricted = (extra: Record<string, unknown> = {}) => ({
  name: 'llm-pretrain',
  dataClassification: 'restricted',
  ...extra,
});

function issuesOf(stores: unknown[], rules: CloudRules, environment = 'prod') {
  try {
    loadStackSpec(config(stores, environment), rules);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('recovery.independentCopy', () => {
  const aws = awsRules.forRegion('us-east-1');

  it('is on for a restricted prod store on AWS, for its recovery window', () => {
    const spec = loadStackSpec(config([restricted({ retention: { noncurrentExpireDays: 14 } })]), aws);
    expect(spec.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 14 });
  });

  it('is off outside prod and for other classifications unless asked for', () => {
    expect(
      loadStackSpec(config([restricted()], 'dev'), aws).stores[0]?.recovery.independentCopy,
    ).toBeUndefined();
    const confidential = restricted({ dataClassification: 'confidential' });
    expect(loadStackSpec(config([confidential]), aws).stores[0]?.recovery.independentCopy).toBeUndefined();
    const asked = restricted({
      dataClassification: 'internal',
      recovery: { independentCopy: { enabled: true, retentionDays: 30 } },
    });
    expect(loadStackSpec(config([asked], 'dev'), aws).stores[0]?.recovery.independentCopy).toEqual({
      retentionDays: 30,
    });
  });

  it('a restricted prod store may turn it off explicitly', () => {
    const off = restricted({ recovery: { independentCopy: { enabled: false } } });
    expect(loadStackSpec(config([off]), aws).stores[0]?.recovery.independentCopy).toBeUndefined();
  });

  it("a recovery window shorter than the vault lock is copied for the lock's 7 days", () => {
    const spec = loadStackSpec(config([restricted({ retention: { noncurrentExpireDays: 3 } })]), aws);
    expect(spec.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 7 });
  });

  it('a recovery window beyond what continuous backup keeps is copied for 35 days', () => {
    const spec = loadStackSpec(config([restricted({ retention: { noncurrentExpireDays: 90 } })]), aws);
    expect(spec.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 35 });
  });

  it('refuses a retention continuous backup cannot keep, naming key, value and range', () => {
    const [issue, ...more] = issuesOf(
      [restricted({ recovery: { independentCopy: { enabled: true, retentionDays: 36 } } })],
      aws,
    );
    expect(more).toEqual([]);
    expect(issue?.path).toBe('checkpoints:stores[0].recovery.independentCopy.retentionDays');
    expect(issue?.value).toBe(36);
    expect(issue?.message).toMatch(/7 to 35/);
  });

  it('refuses it on a directory bucket, saying why (AWS Backup needs versioning)', () => {
    const fast = restricted({
      tier: 'high-throughput',
      zone: 'use1-az4',
      recovery: { independentCopy: { enabled: true } },
    });
    const issues = issuesOf([fast], aws);
    expect(issues.map((issue) => issue.path)).toEqual(['checkpoints:stores[0].recovery.independentCopy']);
    expect(issues[0]?.message).toMatch(/AWS Backup backs up only buckets with S3 Versioning/);
  });

  it('a restricted prod directory bucket gets no copy by default (the access rules judge it)', () => {
    const fast = restricted({ tier: 'high-throughput', zone: 'use1-az4' });
    expect(loadStackSpec(config([fast]), aws).stores[0]?.recovery.independentCopy).toBeUndefined();
  });
});

describe('recovery.independentCopy on Azure', () => {
  const asked = (extra: Record<string, unknown> = {}, copy: Record<string, unknown> = {}) =>
    restricted({ recovery: { independentCopy: { enabled: true, ...copy } }, ...extra });

  it('is off by default, even for a restricted prod store (the preview needs enrolment)', () => {
    expect(
      loadStackSpec(config([restricted()]), azureRules).stores[0]?.recovery.independentCopy,
    ).toBeUndefined();
  });

  it("keeps the store's soft-delete window when asked without days, at least the vaulted backup's 7", () => {
    const spec = loadStackSpec(config([asked({ retention: { softDeleteDays: 30 } })]), azureRules);
    expect(spec.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 30 });
    const short = loadStackSpec(config([asked({ retention: { softDeleteDays: 7 } })]), azureRules);
    expect(short.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 7 });
  });

  it('takes up to 3650 days and refuses more, naming key, value and range', () => {
    const spec = loadStackSpec(config([asked({}, { retentionDays: 3650 })]), azureRules);
    expect(spec.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 3650 });
    const [issue, ...more] = issuesOf([asked({}, { retentionDays: 3651 })], azureRules);
    expect(more).toEqual([]);
    expect(issue?.path).toBe('checkpoints:stores[0].recovery.independentCopy.retentionDays');
    expect(issue?.value).toBe(3651);
    expect(issue?.message).toMatch(/7 to 3650/);
  });

  it('refuses it on a premium account and beside a geo-zone-redundant replica, saying why', () => {
    const fast = issuesOf([asked({ tier: 'high-throughput' })], azureRules);
    expect(fast.map((issue) => issue.path)).toContain('checkpoints:stores[0].recovery.independentCopy');
    expect(fast.find((issue) => issue.path.endsWith('independentCopy'))?.message).toMatch(
      /standard general-purpose v2 accounts only/,
    );
    const replicated = issuesOf(
      [asked({ recovery: { replicaRegion: 'southeastasia', independentCopy: { enabled: true } } })],
      azureRules,
    );
    expect(replicated.find((issue) => issue.path.endsWith('independentCopy'))?.message).toMatch(
      /LRS, ZRS and GRS accounts only/,
    );
  });

  it('is refused outside the regions vaulted backup of ADLS is offered in', () => {
    const spec = loadStackSpec(config([asked()]), azureRules);
    expect(azureIndependentCopyIssues(spec.stores, 'eastasia')).toEqual([]);
    const [issue, ...more] = azureIndependentCopyIssues(spec.stores, 'eastus2');
    expect(more).toEqual([]);
    expect(issue?.path).toBe('checkpoints:stores[0].recovery.independentCopy');
    expect(issue?.message).toMatch(/cannot be honoured in eastus2: .*eastasia, centralindia only/);
  });
});

describe('recovery.independentCopy on gcp', () => {
  const gcp = gcpRules({ project: 'ml-platform-prod-7310', region: 'us-central1' });

  it('is on for a restricted prod store without an IP filter, for its recovery window', () => {
    const spec = loadStackSpec(config([restricted({ retention: { noncurrentExpireDays: 30 } })]), gcp);
    expect(spec.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 30 });
  });

  it("keeps a short window for soft delete's 7 days and a long one for its 90", () => {
    const short = loadStackSpec(config([restricted({ retention: { noncurrentExpireDays: 3 } })]), gcp);
    expect(short.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 7 });
    const long = loadStackSpec(config([restricted({ retention: { noncurrentExpireDays: 200 } })]), gcp);
    expect(long.stores[0]?.recovery.independentCopy).toEqual({ retentionDays: 90 });
  });

  it('accepts 90 days on gcp and refuses 91, naming key, value and range', () => {
    const ninety = restricted({ recovery: { independentCopy: { enabled: true, retentionDays: 90 } } });
    expect(loadStackSpec(config([ninety]), gcp).stores[0]?.recovery.independentCopy).toEqual({
      retentionDays: 90,
    });
    const [issue, ...more] = issuesOf(
      [restricted({ recovery: { independentCopy: { enabled: true, retentionDays: 91 } } })],
      gcp,
    );
    expect(more).toEqual([]);
    expect(issue?.path).toBe('checkpoints:stores[0].recovery.independentCopy.retentionDays');
    expect(issue?.value).toBe(91);
    expect(issue?.message).toMatch(/7 to 90/);
  });

  it('refuses it behind an enabled IP filter, saying the filter refuses the transfer agent', () => {
    const filtered = restricted({
      network: { networks: ['projects/ml-platform-prod-7310/global/networks/training'] },
      recovery: { independentCopy: { enabled: true } },
    });
    const issues = issuesOf([filtered], gcp);
    expect(issues.map((issue) => issue.path)).toEqual(['checkpoints:stores[0].recovery.independentCopy']);
    expect(issues[0]?.message).toMatch(/refuses the Storage Transfer Service agent/);
  });

  it('gives a restricted prod store behind an IP filter no copy by default (the access rules judge it)', () => {
    const filtered = restricted({
      network: { networks: ['projects/ml-platform-prod-7310/global/networks/training'] },
    });
    expect(loadStackSpec(config([filtered]), gcp).stores[0]?.recovery.independentCopy).toBeUndefined();
  });
});
