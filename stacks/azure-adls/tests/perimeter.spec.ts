import { accountNetworkOf, networkAllows, planChanges } from '@checkpoints/analysis';
import { byName, customResources, render, type Snapshot } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { PROD_NETWORK, PROJECT, refusal, sharedRenderStack, stackConfig, SUBSCRIPTION, T } from './render';

const SUBNET =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/gpu-nodes';
const OTHER_SUBNET = SUBNET.replace('/gpu-nodes', '/web');
const store = { name: 'llm', dataClassification: 'internal' };

function network(snapshot: Snapshot, name = 'llm') {
  return accountNetworkOf(byName(snapshot, T.account, name), snapshot.resources);
}

const ofType = (snapshot: Snapshot, type: string) => customResources(snapshot).filter((r) => r.type === type);

describe('network perimeter', () => {
  it('without a network block (dev) the account takes every network, as before', async () => {
    const allowed = networkAllows(network(await sharedRenderStack({ stores: [store] })), {
      kind: 'internet',
      address: '192.0.2.10',
    });
    expect(allowed.allowed).toBe(true);
  });

  it('with subnets and cidrs: the listed subnet and range reach the account, other networks are refused', async () => {
    const snapshot = await sharedRenderStack({
      stores: [{ ...store, network: { subnets: [SUBNET], cidrs: ['203.0.113.0/24', '198.51.100.7/32'] } }],
    });
    const rules = network(snapshot);
    const verdict = (origin: Parameters<typeof networkAllows>[1]) => networkAllows(rules, origin).allowed;
    expect(verdict({ kind: 'subnet', subnet: SUBNET, serviceEndpoint: true })).toBe(true);
    expect(verdict({ kind: 'subnet', subnet: OTHER_SUBNET, serviceEndpoint: true })).toBe(false);
    expect(verdict({ kind: 'internet', address: '203.0.113.200' })).toBe(true);
    expect(verdict({ kind: 'internet', address: '198.51.100.7' })).toBe(true);
    expect(verdict({ kind: 'internet', address: '198.51.100.8' })).toBe(false);
    // No exception for trusted services: nothing the store needs comes through it.
    expect(verdict({ kind: 'trusted-service' })).toBe(false);
    // Azure takes a /32 only as a bare address.
    expect(rules.ipRules).toEqual(['203.0.113.0/24', '198.51.100.7']);
    expect(ofType(snapshot, T.privateEndpoint)).toEqual([]);
  });

  it('with a private endpoint subnet only: dfs and blob endpoints, public network access off', async () => {
    const snapshot = await sharedRenderStack({
      stores: [{ ...store, network: { privateEndpointSubnet: SUBNET } }],
    });
    const rules = network(snapshot);
    expect(rules.publicNetworkAccess).toBe('Disabled');
    expect(networkAllows(rules, { kind: 'private-endpoint' }).allowed).toBe(true);
    expect(networkAllows(rules, { kind: 'subnet', subnet: SUBNET, serviceEndpoint: true }).allowed).toBe(
      false,
    );
    expect(networkAllows(rules, { kind: 'internet', address: '203.0.113.1' }).allowed).toBe(false);
    const accountName = String(byName(snapshot, T.account, 'llm').inputs['accountName']);
    const endpoints = ofType(snapshot, T.privateEndpoint);
    expect(
      endpoints.map((endpoint) => [
        (endpoint.inputs['subnet'] as { id: string }).id,
        endpoint.inputs['privateLinkServiceConnections'],
      ]),
    ).toEqual(
      ['dfs', 'blob'].map((service) => [
        SUBNET,
        [
          expect.objectContaining({
            groupIds: [service],
            privateLinkServiceId: expect.stringContaining(`/storageAccounts/${accountName}`),
          }),
        ],
      ]),
    );
  });

  it('a private endpoint beside subnets keeps the public endpoint for the subnets', async () => {
    const snapshot = await sharedRenderStack({
      stores: [{ ...store, network: { subnets: [SUBNET], privateEndpointSubnet: SUBNET } }],
    });
    const rules = network(snapshot);
    expect(networkAllows(rules, { kind: 'subnet', subnet: SUBNET, serviceEndpoint: true }).allowed).toBe(
      true,
    );
    expect(networkAllows(rules, { kind: 'private-endpoint' }).allowed).toBe(true);
  });

  const zoneId = (zone: string) =>
    `/subscriptions/00000000-0000-4000-a000-00000000000a/resourceGroups/hub-dns/providers/Microsoft.Network/privateDnsZones/${zone}`;
  const ZONES = {
    blob: zoneId('privatelink.blob.core.windows.net'),
    dfs: zoneId('privatelink.dfs.core.windows.net'),
  };

  it('with private DNS zones: each endpoint has a zone group in the zone of its own service', async () => {
    const snapshot = await sharedRenderStack({
      stores: [{ ...store, network: { privateEndpointSubnet: SUBNET, privateDnsZones: ZONES } }],
    });
    const endpointService = Object.fromEntries(
      ofType(snapshot, T.privateEndpoint).map((endpoint) => [
        endpoint.inputs['privateEndpointName'],
        (endpoint.inputs['privateLinkServiceConnections'] as { groupIds: string[] }[])[0]?.groupIds[0],
      ]),
    );
    const zonesByService = ofType(snapshot, T.privateDnsZoneGroup).map((group) => [
      endpointService[String(group.inputs['privateEndpointName'])],
      (group.inputs['privateDnsZoneConfigs'] as { privateDnsZoneId: string }[]).map(
        (c) => c.privateDnsZoneId,
      ),
    ]);
    expect(zonesByService.sort()).toEqual([
      ['blob', [ZONES.blob]],
      ['dfs', [ZONES.dfs]],
    ]);
  });

  it('with managed-by-policy (or no zones outside prod): endpoints without a zone group', async () => {
    for (const network of [
      { privateEndpointSubnet: SUBNET, privateDnsZones: 'managed-by-policy' },
      { privateEndpointSubnet: SUBNET },
    ]) {
      const snapshot = await sharedRenderStack({ stores: [{ ...store, network }] });
      expect([ofType(snapshot, T.privateEndpoint).length, ofType(snapshot, T.privateDnsZoneGroup)]).toEqual([
        2,
        [],
      ]);
    }
  });

  it.each<[string, Record<string, unknown>, string, string, string]>([
    [
      'the dfs zone for blob',
      { privateEndpointSubnet: SUBNET, privateDnsZones: { blob: ZONES.dfs, dfs: ZONES.dfs } },
      'dev',
      'network.privateDnsZones.blob',
      'privatelink.blob.core.windows.net private DNS zone',
    ],
    [
      'zones without a private endpoint subnet',
      { subnets: [SUBNET], privateDnsZones: ZONES },
      'dev',
      'network.privateDnsZones',
      'needs network.privateEndpointSubnet',
    ],
    [
      'subnets in prod, where the account is private-only',
      { subnets: [SUBNET], privateEndpointSubnet: SUBNET, privateDnsZones: ZONES },
      'prod',
      'network.subnets',
      'cannot reach a prod account, which is private-only',
    ],
    [
      'public: true beside a private endpoint subnet',
      { public: true, privateEndpointSubnet: SUBNET },
      'dev',
      'network.privateEndpointSubnet',
      'cannot be combined with network.public: true',
    ],
    [
      'a private endpoint without zones in prod',
      { privateEndpointSubnet: SUBNET },
      'prod',
      'network.privateDnsZones',
      'is required in prod',
    ],
  ])('refuses %s before any resource is registered', async (_, network, environment, path, message) => {
    const { issues, registered } = await refusal(
      stackConfig({ environment, stores: [{ ...store, network }] }),
    );
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [`checkpoints:stores[0].${path}`, expect.stringContaining(message)],
    ]);
    expect(registered.filter((r) => r.custom)).toEqual([]);
  });

  it('prod: the account is private-only, reached through its blob and dfs endpoints, unless the store is public', async () => {
    const snapshot = await sharedRenderStack(
      { environment: 'prod', stores: [{ ...store, network: PROD_NETWORK }] },
      'prod',
    );
    const rules = network(snapshot);
    expect(rules.publicNetworkAccess).toBe('Disabled');
    expect(networkAllows(rules, { kind: 'internet', address: '203.0.113.9' }).allowed).toBe(false);
    expect(networkAllows(rules, { kind: 'subnet', subnet: SUBNET, serviceEndpoint: true }).allowed).toBe(
      false,
    );
    expect(networkAllows(rules, { kind: 'private-endpoint' }).allowed).toBe(true);
    const groups = ofType(snapshot, T.privateEndpoint).flatMap((endpoint) =>
      (endpoint.inputs['privateLinkServiceConnections'] as { groupIds: string[] }[]).flatMap(
        (c) => c.groupIds,
      ),
    );
    expect(groups.sort()).toEqual(['blob', 'dfs']);
    const open = await sharedRenderStack(
      { environment: 'prod', stores: [{ ...store, network: { public: true } }] },
      'prod',
    );
    expect(network(open).publicNetworkAccess).toBe('Enabled');
    expect(ofType(open, T.privateEndpoint)).toEqual([]);
  });

  it('refuses a prod store with neither a private endpoint subnet nor public: true, naming both keys', async () => {
    const { issues } = await refusal(
      stackConfig({ environment: 'prod', stores: [{ ...store, network: { subnets: [SUBNET] } }] }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].network.subnets',
      'checkpoints:stores[0].network.privateEndpointSubnet',
    ]);
  });

  it('refuses a private range in cidrs before any resource is registered', async () => {
    const { issues, registered } = await refusal(
      stackConfig({ stores: [{ ...store, network: { cidrs: ['10.0.0.0/8'] } }] }),
    );
    expect(issues.map((issue) => issue.path)).toEqual(['checkpoints:stores[0].network.cidrs[0]']);
    expect(registered.filter((r) => r.custom)).toEqual([]);
  });
});

describe('audit', () => {
  it('sends every read, write and delete of an audited store, and its vault audit events, to the stack workspace', async () => {
    const snapshot = await sharedRenderStack({
      stores: [{ ...store, dataClassification: 'confidential', encryption: 'customer-managed' }],
    });
    const [workspace] = ofType(snapshot, T.workspace);
    expect(workspace?.inputs).toMatchObject({
      retentionInDays: 365,
      tags: expect.objectContaining({ owner: 'ml-platform' }),
    });
    const settings = Object.fromEntries(
      ofType(snapshot, T.diagnostics).map((setting) => [
        String(setting.inputs['resourceUri']).replace(/.*\/providers\//, ''),
        [
          setting.inputs['workspaceId'],
          (setting.inputs['logs'] as { category: string }[]).map((log) => log.category),
        ],
      ]),
    );
    const vault = String(byName(snapshot, T.vault, 'llm').inputs['vaultName']);
    const account = String(byName(snapshot, T.account, 'llm').inputs['accountName']);
    expect(settings).toEqual({
      [`Microsoft.Storage/storageAccounts/${account}/blobServices/default`]: [
        expect.stringContaining('checkpoints-azure-dev'),
        ['StorageRead', 'StorageWrite', 'StorageDelete'],
      ],
      [`Microsoft.KeyVault/vaults/${vault}`]: [
        expect.stringContaining('checkpoints-azure-dev'),
        ['AuditEvent'],
      ],
    });
  });

  it('creates no workspace and no setting when no store is audited (internal in dev)', async () => {
    const snapshot = await sharedRenderStack({ stores: [store] });
    expect([...ofType(snapshot, T.workspace), ...ofType(snapshot, T.diagnostics)]).toEqual([]);
  });

  it('uses the workspace the config names instead of creating one', async () => {
    const workspaceId =
      '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/monitoring/providers/Microsoft.OperationalInsights/workspaces/central-audit';
    const snapshot = await render(checkpointStack, {
      project: PROJECT,
      stack: 'dev',
      config: {
        ...stackConfig({ stores: [{ ...store, audit: true }] }),
        'checkpoints:logAnalyticsWorkspaceId': workspaceId,
      },
    });
    expect(ofType(snapshot, T.workspace)).toEqual([]);
    expect(ofType(snapshot, T.diagnostics).map((setting) => setting.inputs['workspaceId'])).toEqual([
      workspaceId,
    ]);
  });

  it('refuses a workspace ID that is not one', async () => {
    const { issues } = await refusal({
      ...stackConfig({ stores: [store] }),
      'checkpoints:logAnalyticsWorkspaceId': 'central-audit',
    });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:logAnalyticsWorkspaceId', 'central-audit'],
    ]);
  });
});

describe('deletion guards', () => {
  it('prod: a CanNotDelete lock on each account and vault, protected itself', async () => {
    const snapshot = await sharedRenderStack({ environment: 'prod', stores: [store] }, 'prod');
    const account = byName(snapshot, T.account, 'llm');
    const vault = byName(snapshot, T.vault, 'llm');
    const group = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${String(account.inputs['resourceGroupName'])}`;
    const locks = Object.fromEntries(
      ofType(snapshot, T.lock).map((lock) => [
        lock.inputs['scope'],
        [lock.inputs['level'], lock.protect, lock.retainOnDelete],
      ]),
    );
    expect(locks).toEqual({
      [`${group}/providers/Microsoft.Storage/storageAccounts/${String(account.inputs['accountName'])}`]: [
        'CanNotDelete',
        true,
        true,
      ],
      [`${group}/providers/Microsoft.KeyVault/vaults/${String(vault.inputs['vaultName'])}`]: [
        'CanNotDelete',
        true,
        true,
      ],
    });
  });

  it('dev: no lock, so a developer can tear a store down', async () => {
    expect(ofType(await sharedRenderStack({ stores: [store] }), T.lock)).toEqual([]);
  });
});

describe('recovery', () => {
  it.each([
    [{ replicaRegion: 'centralus' }, 'Standard_GZRS'],
    [{ replicaRegion: 'centralus', readableReplica: true }, 'Standard_RAGZRS'],
    [{}, 'Standard_ZRS'],
  ])('standard store with %j: %s', async (recovery, sku) => {
    const snapshot = await sharedRenderStack({ stores: [{ ...store, recovery }] });
    expect(byName(snapshot, T.account, 'llm').inputs['sku']).toEqual({ name: sku });
  });

  it('adding the geo copy (ZRS to GZRS) updates the account in place: no data loss', async () => {
    const base = await sharedRenderStack({ stores: [store] });
    const next = await sharedRenderStack({
      stores: [{ ...store, recovery: { replicaRegion: 'centralus' } }],
    });
    const plan = planChanges(base, next);
    const account = plan.stores[0]!.resources.find((change) => change.type === T.account);
    expect([account?.kind, account?.replacedBy]).toEqual(['updated', []]);
    expect(plan.dataLoss).toEqual([]);
  });

  it('refuses a replica region that is not the pair of the location', async () => {
    const { issues } = await refusal(
      stackConfig({ stores: [{ ...store, recovery: { replicaRegion: 'westus2' } }] }),
    );
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      ['checkpoints:stores[0].recovery.replicaRegion', expect.stringContaining('must be centralus')],
    ]);
  });
});

describe('key generations', () => {
  const keyed = { ...store, encryption: 'customer-managed' };

  it('generation 2 creates a vault and key under new physical and logical names and releases the old ones', async () => {
    const base = await sharedRenderStack({ stores: [keyed] });
    const next = await sharedRenderStack({ stores: [{ ...keyed, keyGeneration: 2 }] });
    const oldVault = String(byName(base, T.vault, 'llm').inputs['vaultName']);
    const newVault = String(byName(next, T.vault, 'llm-g2').inputs['vaultName']);
    expect(newVault).not.toBe(oldVault);
    expect(newVault.length).toBeLessThanOrEqual(24);
    expect(byName(next, T.key, 'llm-g2').inputs['keyName']).toBe('checkpoints-llm-g2');
    const plan = planChanges(base, next);
    const changes = plan.stores[0]!.resources.filter((change) => change.kind !== 'unchanged')
      .map((change) => `${change.type} ${change.name} ${change.kind}`)
      .sort();
    expect(changes).toEqual(
      [
        `${T.account} llm updated`,
        `${T.vault} llm released`,
        `${T.key} llm released`,
        `${T.roleAssignment} llm-encryption-key released`,
        `${T.sleep} llm-encryption-key-in-effect released`,
        `${T.vault} llm-g2 created`,
        `${T.key} llm-g2 created`,
        `${T.roleAssignment} llm-encryption-key-g2 created`,
        // The new grant is waited for like the first: the account switches keys once it is in effect.
        `${T.sleep} llm-encryption-key-in-effect-g2 created`,
      ].sort(),
    );
    expect(plan.dataLoss).toEqual([]);
  });

  it('generation 1 keeps every name: nothing changes', async () => {
    const base = await sharedRenderStack({ stores: [keyed] });
    const next = await sharedRenderStack({ stores: [{ ...keyed, keyGeneration: 1 }] });
    expect(
      planChanges(base, next).stores[0]!.resources.filter((change) => change.kind !== 'unchanged'),
    ).toEqual([]);
  });
});
