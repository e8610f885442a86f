import { byName, childrenOf, customResources, ofType, RenderFailure } from '@checkpoints/synth';
import { inputsOf, renderStack, sharedRenderStack, T } from './render';

const GROUP = 'checkpoints-azure-dev-1592ff';
const tags = {
  owner: 'ml-platform',
  'cost-center': 'cc-1234',
  environment: 'dev',
  'data-classification': 'internal',
  'managed-by': 'pulumi',
  'pulumi-project': 'checkpoints-azure',
  'pulumi-stack': 'dev',
  'checkpoint-store': 'llm',
};

// Every control of the security baseline that does not depend on the tier.
const baseline = {
  resourceGroupName: GROUP,
  accountName: 'azuredevllmb6ad56',
  location: 'eastus2',
  isHnsEnabled: true,
  enableHttpsTrafficOnly: true,
  minimumTlsVersion: 'TLS1_2',
  allowBlobPublicAccess: false,
  allowSharedKeyAccess: false,
  allowCrossTenantReplication: false,
  defaultToOAuthAuthentication: true,
  isSftpEnabled: false,
  isLocalUserEnabled: false,
  publicNetworkAccess: 'Enabled',
  networkRuleSet: { defaultAction: 'Allow', bypass: 'AzureServices' },
  encryption: {
    keySource: 'Microsoft.Storage',
    requireInfrastructureEncryption: true,
    services: { blob: { enabled: true, keyType: 'Account' } },
  },
  tags,
};

describe('account baseline per tier', () => {
  it.each([
    ['standard', { kind: 'StorageV2', sku: { name: 'Standard_ZRS' }, accessTier: 'Hot' }],
    ['high-throughput', { kind: 'BlockBlobStorage', sku: { name: 'Premium_ZRS' } }],
  ])('%s', async (tier, accountType) => {
    const snapshot = await sharedRenderStack({
      stores: [{ name: 'llm', dataClassification: 'internal', tier, retention: { expireAfterDays: 400 } }],
    });
    expect(inputsOf(snapshot, T.account, 'llm')).toEqual({ ...baseline, ...accountType });
  });
});

describe('filesystem and recovery', () => {
  it.each([7, 30, 365])('blob and container soft delete for %i days, no versioning', async (days) => {
    const snapshot = await sharedRenderStack({
      stores: [{ name: 'llm', dataClassification: 'internal', retention: { softDeleteDays: days } }],
    });
    expect(inputsOf(snapshot, T.blobService, 'llm')).toEqual({
      resourceGroupName: GROUP,
      accountName: 'azuredevllmb6ad56',
      blobServicesName: 'default',
      deleteRetentionPolicy: { enabled: true, days },
      containerDeleteRetentionPolicy: { enabled: true, days },
    });
  });

  it('creates one private filesystem per store, once soft delete is on', async () => {
    const snapshot = await sharedRenderStack({ stores: [{ name: 'llm', dataClassification: 'internal' }] });
    const filesystem = byName(snapshot, T.filesystem, 'llm');
    expect(filesystem.inputs).toEqual({
      resourceGroupName: GROUP,
      accountName: 'azuredevllmb6ad56',
      containerName: 'checkpoints-llm',
      publicAccess: 'None',
    });
    expect(filesystem.dependsOn).toContain(byName(snapshot, T.blobService, 'llm').urn);
    expect(filesystem.dependsOn).toContain(byName(snapshot, T.account, 'llm').urn);
  });
});

describe('lifecycle management policy', () => {
  const policy = (baseBlob: Record<string, unknown>) => ({
    resourceGroupName: GROUP,
    accountName: 'azuredevllmb6ad56',
    managementPolicyName: 'default',
    policy: {
      rules: [
        {
          name: 'checkpoint-retention',
          enabled: true,
          type: 'Lifecycle',
          definition: { filters: { blobTypes: ['blockBlob'] }, actions: { baseBlob } },
        },
      ],
    },
  });

  it.each<[string, Record<string, unknown>, Record<string, unknown>]>([
    ['standard defaults: cool after 30 days', {}, { tierToCool: { daysAfterModificationGreaterThan: 30 } }],
    [
      'standard: cool, then delete',
      { retention: { coolAfterDays: 14, expireAfterDays: 90 } },
      {
        tierToCool: { daysAfterModificationGreaterThan: 14 },
        delete: { daysAfterModificationGreaterThan: 90 },
      },
    ],
    [
      'high-throughput: delete only',
      { tier: 'high-throughput', retention: { expireAfterDays: 7 } },
      { delete: { daysAfterModificationGreaterThan: 7 } },
    ],
  ])('%s', async (_title, store, baseBlob) => {
    const snapshot = await sharedRenderStack({
      stores: [{ name: 'llm', dataClassification: 'internal', ...store }],
    });
    expect(inputsOf(snapshot, T.lifecycle, 'llm')).toEqual(policy(baseBlob));
  });

  it.each([
    ['high-throughput defaults', { tier: 'high-throughput' }],
    ['standard with cool turned off', { retention: { coolAfterDays: 0 } }],
  ])('refuses a store whose lifecycle would be empty: %s', async (_title, store) => {
    const failure = await renderStack({
      stores: [{ name: 'llm', dataClassification: 'internal', ...store }],
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RenderFailure);
    expect((failure as RenderFailure).message).toContain(
      'checkpoints:stores[0].retention.expireAfterDays: got 0; leaves the account without a lifecycle management policy',
    );
    expect((failure as RenderFailure).resources.filter((r) => r.custom)).toEqual([]);
  });
});

describe('structure', () => {
  it('parents every store resource to its CheckpointStore', async () => {
    const snapshot = await sharedRenderStack({
      stores: [
        { name: 'llm', dataClassification: 'internal', encryption: 'customer-managed' },
        {
          name: 'vision',
          dataClassification: 'internal',
          tier: 'high-throughput',
          retention: { expireAfterDays: 7 },
        },
      ],
    });
    const stores = ofType(snapshot, T.store);
    expect(stores.map((store) => store.name)).toEqual(['llm', 'vision']);
    const inStores = stores.flatMap((store) => childrenOf(snapshot, store)).map((r) => r.urn);
    const outside = customResources(snapshot).filter((r) => !inStores.includes(r.urn));
    expect(outside.map((r) => r.type)).toEqual([T.group]);
    expect(
      childrenOf(snapshot, stores[0]!)
        .map((r) => `${r.type}::${r.name}`)
        .sort(),
    ).toEqual(
      [
        `${T.identity}::llm-writer`,
        `${T.identity}::llm-reader`,
        `${T.identity}::llm-encryption`,
        `${T.vault}::llm`,
        `${T.key}::llm`,
        `${T.roleAssignment}::llm-encryption-key`,
        `${T.sleep}::llm-encryption-key-in-effect`,
        `${T.account}::llm`,
        `${T.blobService}::llm`,
        `${T.lifecycle}::llm`,
        `${T.filesystem}::llm`,
        `${T.roleAssignment}::llm-writer-identity`,
        `${T.roleAssignment}::llm-reader-identity`,
      ].sort(),
    );
  });

  it('creates one resource group per stack, in the stack location', async () => {
    const snapshot = await sharedRenderStack({
      location: 'westeurope',
      stores: [
        { name: 'llm', dataClassification: 'internal' },
        { name: 'vision', dataClassification: 'restricted' },
      ],
    });
    expect(ofType(snapshot, T.group).map((group) => group.inputs)).toEqual([
      {
        resourceGroupName: GROUP,
        location: 'westeurope',
        // The group holds both stores: it carries the more sensitive classification and no store tag.
        tags: {
          owner: 'ml-platform',
          'cost-center': 'cc-1234',
          environment: 'dev',
          'data-classification': 'restricted',
          'managed-by': 'pulumi',
          'pulumi-project': 'checkpoints-azure',
          'pulumi-stack': 'dev',
        },
      },
    ]);
    expect(inputsOf(snapshot, T.account, 'vision')['location']).toBe('westeurope');
  });

  it('uses an existing resource group when one is named, and creates none', async () => {
    const snapshot = await sharedRenderStack({
      resourceGroupName: 'rg-ml-checkpoints',
      stores: [{ name: 'llm', dataClassification: 'internal', encryption: 'customer-managed' }],
    });
    expect(ofType(snapshot, T.group)).toEqual([]);
    const groups = new Set(
      customResources(snapshot)
        .filter((r) => r.type !== T.roleAssignment)
        .map((r) => r.inputs['resourceGroupName']),
    );
    expect([...groups]).toEqual(['rg-ml-checkpoints']);
  });
});
