import { azureRules, ConfigError, loadStackSpec, type ConfigIssue, type StoreSpec } from '../src';

const base = { environment: 'dev', owner: 'ml-platform', costCenter: 'cc-1234' };
const objectId = '0f8fad5b-d9cb-469f-a165-70867728950e';
const group = `group:${objectId}`;

function config(values: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(values).map(([key, value]) => [
      `checkpoints:${key}`,
      typeof value === 'string' ? value : JSON.stringify(value),
    ]),
  );
}

function storeOf(store: Record<string, unknown>): StoreSpec {
  const spec = loadStackSpec(
    config({ ...base, stores: [{ name: 'llm', dataClassification: 'internal', ...store }] }),
    azureRules,
  );
  const [first] = spec.stores;
  if (!first) throw new Error('no store');
  return first;
}

function issuesOf(store: Record<string, unknown>): ConfigIssue[] {
  try {
    loadStackSpec(
      config({ ...base, stores: [{ name: 'llm', dataClassification: 'internal', ...store }] }),
      azureRules,
    );
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('azure retention defaults', () => {
  it.each([
    ['standard', { coolAfterDays: 30, archiveAfterDays: 0 }],
    ['high-throughput', { coolAfterDays: 0, archiveAfterDays: 0 }],
  ] as const)(
    '%s: no versioning, no upload cleanup, tiers only where the account has them',
    (tier, tiers) => {
      expect(storeOf({ tier, retention: { expireAfterDays: 400 } }).retention).toEqual({
        keepNoncurrentVersions: 0,
        noncurrentExpireDays: 0,
        abortIncompleteUploadDays: 0,
        expireAfterDays: 400,
        softDeleteDays: 7,
        keptPrefixes: [],
        expirePrefixes: [],
        ...tiers,
      });
    },
  );

  it('accepts 0 (never) for every feature the account does not have, so one spec fits every cloud', () => {
    const store = storeOf({
      tier: 'high-throughput',
      retention: {
        keepNoncurrentVersions: 0,
        noncurrentExpireDays: 0,
        abortIncompleteUploadDays: 0,
        coolAfterDays: 0,
        archiveAfterDays: 0,
        expireAfterDays: 14,
      },
    });
    expect(store.retention.expireAfterDays).toBe(14);
  });

  it('keeps what the account supports as written', () => {
    const access = {
      writers: [`servicePrincipal:${objectId}`],
      readers: [`group:${objectId.toUpperCase()}`],
    };
    const store = storeOf({
      retention: { coolAfterDays: 14, expireAfterDays: 90, softDeleteDays: 30 },
      access,
    });
    expect(store.retention).toMatchObject({ coolAfterDays: 14, expireAfterDays: 90, softDeleteDays: 30 });
    expect(store.access).toEqual(access);
  });

  it('honours resourceGroupName', () => {
    const spec = loadStackSpec(
      config({
        ...base,
        resourceGroupName: 'rg-ml-checkpoints',
        stores: [{ name: 'llm', dataClassification: 'internal' }],
      }),
      azureRules,
    );
    expect(spec.resourceGroupName).toBe('rg-ml-checkpoints');
  });
});

describe('azure bad config', () => {
  const versioning =
    'ADLS Gen2 accounts have a hierarchical namespace, which cannot have blob versioning, so there are no ' +
    'previous versions to keep; deleted files stay recoverable for retention.softDeleteDays instead. Remove ';
  const uploads =
    'ADLS Gen2 has no rule for incomplete uploads: blocks that are never committed are discarded by the ' +
    'service after 7 days. Remove retention.abortIncompleteUploadDays or set it to 0';
  const tiers =
    "premium block blob accounts (tier 'high-throughput') have no access tiers, so nothing can move to cool " +
    'or archive; use tier: standard or remove ';
  const archive =
    'the archive tier is not available on zone-redundant (ZRS) accounts, which standard stores use so ' +
    'checkpoints survive a zone outage; use retention.coolAfterDays and retention.expireAfterDays, or set 0 (never)';
  const principal =
    "must be 'user:', 'group:' or 'servicePrincipal:' followed by the principal's Microsoft Entra object ID, " +
    'e.g. group:3f2504e0-4f89-41d3-9a0c-0305e82c3301 (a group: `az ad group show -g <name> --query id -o tsv`; ' +
    'an app or managed identity: its service principal, `az ad sp show --id <client-id> --query id -o tsv`; ' +
    'the application (client) ID is not an object ID)';
  const twice = `names object ID ${objectId} a second time`;
  const upper = objectId.toUpperCase();

  // [title, store keys, path under checkpoints:stores[0], value given, message]: the only problem reported.
  it.each<[string, Record<string, unknown>, string, unknown, string]>([
    [
      'versions kept',
      { retention: { keepNoncurrentVersions: 3 } },
      'retention.keepNoncurrentVersions',
      3,
      `${versioning}retention.keepNoncurrentVersions or set it to 0`,
    ],
    [
      'version expiry',
      { retention: { noncurrentExpireDays: 7 } },
      'retention.noncurrentExpireDays',
      7,
      `${versioning}retention.noncurrentExpireDays or set it to 0`,
    ],
    [
      'incomplete uploads',
      { retention: { abortIncompleteUploadDays: 1 } },
      'retention.abortIncompleteUploadDays',
      1,
      uploads,
    ],
    [
      'cool on high-throughput',
      { tier: 'high-throughput', retention: { coolAfterDays: 30 } },
      'retention.coolAfterDays',
      30,
      `${tiers}retention.coolAfterDays or set it to 0`,
    ],
    [
      'archive on high-throughput',
      { tier: 'high-throughput', retention: { archiveAfterDays: 90, expireAfterDays: 120 } },
      'retention.archiveAfterDays',
      90,
      `${tiers}retention.archiveAfterDays or set it to 0`,
    ],
    [
      'archive on a zone-redundant standard store',
      { retention: { coolAfterDays: 30, archiveAfterDays: 90 } },
      'retention.archiveAfterDays',
      90,
      archive,
    ],
    [
      'a bare object ID, without its type',
      { access: { writers: [objectId] } },
      'access.writers[0]',
      objectId,
      principal,
    ],
    [
      'an e-mail address',
      { access: { writers: ['user:alice@contoso.com'] } },
      'access.writers[0]',
      'user:alice@contoso.com',
      principal,
    ],
    [
      'a GCP-style member',
      { access: { readers: [group, `serviceAccount:${objectId}`] } },
      'access.readers[1]',
      `serviceAccount:${objectId}`,
      principal,
    ],
    [
      'a capitalised type',
      { access: { readers: [`Group:${objectId}`] } },
      'access.readers[0]',
      `Group:${objectId}`,
      principal,
    ],
    [
      'an object ID in braces',
      { access: { readers: [`group:{${objectId}}`] } },
      'access.readers[0]',
      `group:{${objectId}}`,
      principal,
    ],
    [
      'one object ID twice, in another case',
      { access: { readers: [group, `group:${upper}`] } },
      'access.readers[1]',
      `group:${upper}`,
      twice,
    ],
    [
      'one object ID twice, with another type',
      { access: { writers: [group, `user:${objectId}`] } },
      'access.writers[1]',
      `user:${objectId}`,
      twice,
    ],
    [
      'one entry twice: reported once, by the common rules',
      { access: { writers: [group, group] } },
      'access.writers[1]',
      group,
      'is listed twice',
    ],
    [
      'a zone',
      { tier: 'high-throughput', zone: '1', retention: { expireAfterDays: 14 } },
      'zone',
      '1',
      'is not used on azure; it applies on aws and gcp (high-throughput tier) only',
    ],
    [
      'a location',
      { location: 'westeurope' },
      'location',
      'westeurope',
      'is not used on azure; it applies on gcp only',
    ],
  ])('%s', (_title, store, path, value, message) => {
    expect(issuesOf(store)).toEqual([{ path: `checkpoints:stores[0].${path}`, value, message }]);
  });

  it('lists every problem of a store copied from another cloud at once', () => {
    const issues = issuesOf({
      tier: 'high-throughput',
      zone: 'use1-az4',
      retention: { keepNoncurrentVersions: 3, coolAfterDays: 7, abortIncompleteUploadDays: 1 },
      access: { writers: ['arn:aws:iam::123456789012:role/trainer'] },
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].retention.keepNoncurrentVersions',
      'checkpoints:stores[0].retention.abortIncompleteUploadDays',
      'checkpoints:stores[0].zone',
      'checkpoints:stores[0].retention.coolAfterDays',
      'checkpoints:stores[0].access.writers[0]',
    ]);
  });
});

describe('lifecycle policy required by the baseline', () => {
  const base = {
    'checkpoints:environment': 'dev',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
  };
  const load = (store: Record<string, unknown>) => () =>
    loadStackSpec(
      {
        ...base,
        'checkpoints:stores': JSON.stringify([{ name: 'llm', dataClassification: 'internal', ...store }]),
      },
      azureRules,
    );

  it.each([
    [{ tier: 'high-throughput' }, 'set retention.expireAfterDays above 0'],
    [{ retention: { coolAfterDays: 0 } }, 'set retention.coolAfterDays or retention.expireAfterDays above 0'],
  ])('refuses %j, which would leave no lifecycle rule', (store, hint) => {
    expect(load(store)).toThrow(
      `checkpoints:stores[0].retention.expireAfterDays: got 0; leaves the account without a lifecycle management policy, which the baseline requires of every account; ${hint}`,
    );
  });

  it.each([[{ tier: 'high-throughput', retention: { expireAfterDays: 14 } }], [{}]])(
    'accepts %j',
    (store) => {
      expect(load(store)).not.toThrow();
    },
  );
});
