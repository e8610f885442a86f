import {
  awsRules,
  azureRules,
  ConfigError,
  gcpRules,
  loadStackSpec,
  type CloudRules,
  type ConfigIssue,
} from '../src';

const stack = { environment: 'prod', owner: 'ml-platform', costCenter: 'cc-1234' };

function config(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      `checkpoints:${key}`,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

function load(store: Record<string, unknown>, rules: CloudRules = awsRules, environment = 'prod') {
  return loadStackSpec(
    config({ ...stack, environment, stores: [{ name: 'llm', dataClassification: 'internal', ...store }] }),
    rules,
  );
}

function issues(store: Record<string, unknown>, rules: CloudRules = awsRules, environment = 'prod') {
  try {
    load(store, rules, environment);
  } catch (error) {
    if (error instanceof ConfigError)
      return error.issues.map(({ path, message }: ConfigIssue) => ({ path, message }));
    throw error;
  }
  return [];
}

describe('network perimeter', () => {
  it('is required in prod, with the way to accept every network named', () => {
    expect(issues({})).toEqual([
      { path: 'checkpoints:stores[0].network', message: expect.stringContaining('is required in prod') },
    ]);
    expect(issues({})[0]?.message).toContain('network: { public: true }');
  });

  it('is optional outside prod: absent means every network, as before', () => {
    expect(load({}, awsRules, 'dev').stores[0]?.network).toBeUndefined();
  });

  it('takes public: true as the explicit relaxation', () => {
    expect(load({ network: { public: true } }).stores[0]?.network?.public).toBe(true);
  });

  it('refuses a block that admits no network, in every environment', () => {
    for (const environment of ['dev', 'prod']) {
      expect(issues({ network: {} }, awsRules, environment)).toEqual([
        { path: 'checkpoints:stores[0].network', message: expect.stringContaining('admits no network') },
      ]);
    }
  });

  it('refuses public: true beside lists it would make pointless', () => {
    expect(issues({ network: { public: true, cidrs: ['203.0.113.0/24'] } })).toEqual([
      { path: 'checkpoints:stores[0].network.public', message: expect.stringContaining('network.cidrs') },
    ]);
  });

  it.each([
    ['vpcEndpoints', ['vpce-0a1b2c3d4e5f60718'], gcpRules(), 'aws'],
    ['vpcs', ['vpc-0a1b2c3d4e5f60718'], azureRules, 'aws'],
    ['networks', ['projects/p/global/networks/n'], awsRules, 'gcp'],
    [
      'subnets',
      ['/subscriptions/s/resourceGroups/g/providers/Microsoft.Network/virtualNetworks/v/subnets/a'],
      awsRules,
      'azure',
    ],
  ])('refuses network.%s on a cloud that has no such thing', (key, value, rules, appliesOn) => {
    const found = issues({ network: { cidrs: ['203.0.113.0/24'], [key]: value } }, rules);
    expect(found).toContainEqual({
      path: `checkpoints:stores[0].network.${key}`,
      message: `is not used on ${rules.cloud}; it applies on ${appliesOn} only`,
    });
  });

  it('names the CIDR entry that is not a range, and what one looks like', () => {
    expect(issues({ network: { cidrs: ['203.0.113.0/24', '10.0.0.300/8'] } })).toEqual([
      { path: 'checkpoints:stores[0].network.cidrs[1]', message: expect.stringContaining('203.0.113.0/24') },
    ]);
  });

  it('accepts IPv6 ranges', () => {
    expect(load({ network: { cidrs: ['2001:db8::/32'] } }).stores[0]?.network?.cidrs).toEqual([
      '2001:db8::/32',
    ]);
  });

  it('refuses an entry listed twice', () => {
    expect(issues({ network: { cidrs: ['203.0.113.0/24', '203.0.113.0/24'] } })).toEqual([
      { path: 'checkpoints:stores[0].network.cidrs[1]', message: 'is listed twice' },
    ]);
  });

  it('hints at the key meant by a typo inside the block', () => {
    expect(issues({ network: { public: true, cidr: ['203.0.113.0/24'] } })[0]?.message).toContain(
      "did you mean 'cidrs'?",
    );
  });
});

describe('audit', () => {
  it.each([
    ['dev', 'internal', false],
    ['dev', 'public', false],
    ['dev', 'confidential', true],
    ['staging', 'restricted', true],
    ['prod', 'internal', true],
    ['prod', 'public', true],
  ])('in %s a %s store is audited: %s', (environment, dataClassification, audited) => {
    const network = { public: true };
    expect(load({ dataClassification, network }, awsRules, environment).stores[0]?.audit).toBe(audited);
  });

  it('can be turned off outside prod, never in prod', () => {
    const network = { public: true };
    expect(
      load({ dataClassification: 'confidential', audit: false, network }, awsRules, 'dev').stores[0]?.audit,
    ).toBe(false);
    expect(issues({ audit: false, network })).toEqual([
      { path: 'checkpoints:stores[0].audit', message: expect.stringContaining('cannot be false in prod') },
    ]);
  });
});

describe('recovery and key generation', () => {
  const network = { public: true };

  it('defaults to no copy, no lock and generation 1', () => {
    const store = load({ network }).stores[0];
    expect(store?.recovery).toEqual({ turboReplication: false, readableReplica: false });
    expect(store?.keyGeneration).toBe(1);
  });

  it('refuses the cloud-only recovery switches elsewhere', () => {
    expect(issues({ network, recovery: { turboReplication: true } })).toContainEqual({
      path: 'checkpoints:stores[0].recovery.turboReplication',
      message: 'is not used on aws; it applies on gcp only',
    });
    expect(issues({ network, recovery: { readableReplica: true } }, gcpRules())).toContainEqual({
      path: 'checkpoints:stores[0].recovery.readableReplica',
      message: 'is not used on gcp; it applies on azure only',
    });
  });

  it('refuses a retention lock without a folder prefix or with no days', () => {
    expect(issues({ network, recovery: { retentionLock: { prefix: 'releases', days: 30 } } })).toEqual([
      {
        path: 'checkpoints:stores[0].recovery.retentionLock.prefix',
        message: expect.stringContaining('releases/'),
      },
    ]);
    expect(issues({ network, recovery: { retentionLock: { prefix: 'releases/', days: 0 } } })).toEqual([
      {
        path: 'checkpoints:stores[0].recovery.retentionLock.days',
        message: expect.stringContaining('from 1 to'),
      },
    ]);
  });

  it('requires a replica region in prod beside a retention lock, on every cloud, naming the key and what is allowed', () => {
    const recovery = { retentionLock: { days: 365 } };
    for (const rules of [awsRules, gcpRules({ region: 'us-central1' }), azureRules]) {
      expect(issues({ network, recovery }, rules)).toEqual([
        {
          path: 'checkpoints:stores[0].recovery.replicaRegion',
          message: expect.stringMatching(
            /^is required in prod beside recovery\.retentionLock .*allowed: a region of the same cloud other than the store's own/,
          ),
        },
      ]);
      expect(issues({ network, recovery }, rules, 'dev')).toEqual([]);
    }
  });

  it('refuses a key generation where the store has no key of its own', () => {
    expect(issues({ network, encryption: 'provider-managed', keyGeneration: 2 })).toEqual([
      { path: 'checkpoints:stores[0].keyGeneration', message: expect.stringContaining('customer-managed') },
    ]);
  });
});

describe('audit destinations are stack keys of one cloud each', () => {
  it.each([
    ['organizationTrail', 'arn:aws:cloudtrail:us-east-1:111122223333:trail/org', gcpRules(), 'aws'],
    ['auditExemptMembers', ['serviceAccount:a@p.iam.gserviceaccount.com'], awsRules, 'gcp'],
    [
      'logAnalyticsWorkspaceId',
      '/subscriptions/s/resourceGroups/g/providers/Microsoft.OperationalInsights/workspaces/w',
      awsRules,
      'azure',
    ],
  ])('%s is refused off its cloud', (key, value, rules, appliesOn) => {
    let found: ConfigIssue[] = [];
    try {
      loadStackSpec(
        config({
          ...stack,
          [key]: value,
          stores: [{ name: 'llm', dataClassification: 'internal', network: { public: true } }],
        }),
        rules,
      );
    } catch (error) {
      if (error instanceof ConfigError) found = [...error.issues];
    }
    expect(found.map(({ path, message }) => ({ path, message }))).toContainEqual({
      path: `checkpoints:${key}`,
      message: `is not used on ${rules.cloud}; it applies on ${appliesOn} only`,
    });
  });
});
