import { awsRules, azureRules, ConfigError, gcpRules, loadStackSpec, type CloudRules } from '../src';

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

  it('is refused on azure, which does not build it yet, and is off there by default', () => {
    const issues = issuesOf([restricted({ recovery: { independentCopy: { enabled: true } } })], azureRules);
    const copy = issues.filter((issue) => issue.path.endsWith('recovery.independentCopy'));
    expect(copy).toHaveLength(1);
    expect(copy[0]?.message).toMatch(/is not used on azure; it applies on aws and gcp .*not built yet/);
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
