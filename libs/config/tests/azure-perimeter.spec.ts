import {
  AZURE_GZRS_REGIONS,
  AZURE_REGION_PAIRS,
  azurePrivateDnsIssues,
  azureReplicaIssues,
  awsRules,
  azureRules,
  azureWorkspaceIdIssues,
  ConfigError,
  loadStackSpec,
  parseIpv4Range,
  type ConfigIssue,
  type StoreSpec,
} from '../src';

const base = { environment: 'dev', owner: 'ml-platform', costCenter: 'cc-1234' };
const SUBNET =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/gpu-nodes';
const retention = { retention: { coolAfterDays: 30 } };

function load(store: Record<string, unknown>): StoreSpec[] {
  const stores = JSON.stringify([{ name: 'llm', dataClassification: 'internal', ...retention, ...store }]);
  return loadStackSpec(
    {
      ...Object.fromEntries(Object.entries(base).map(([k, v]) => [`checkpoints:${k}`, v])),
      'checkpoints:stores': stores,
    },
    azureRules,
  ).stores;
}

function issuesOf(store: Record<string, unknown>): ConfigIssue[] {
  try {
    load(store);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

const paths = (issues: ConfigIssue[]) => issues.map((issue) => issue.path);

describe('azure network keys', () => {
  it('takes subnet resource IDs, public IPv4 addresses and ranges, and a private endpoint subnet', () => {
    expect(
      issuesOf({
        network: {
          subnets: [SUBNET],
          cidrs: ['203.0.113.0/24', '198.51.100.7/32', '198.51.100.8/31'],
          privateEndpointSubnet: SUBNET,
        },
      }),
    ).toEqual([]);
  });

  it.each([
    ['a virtual network, not a subnet', SUBNET.replace('/subnets/gpu-nodes', '')],
    ['a subnet name', 'gpu-nodes'],
    ['a subscription that is not a GUID', SUBNET.replace('00000000-0000-4000-a000-000000000001', 'prod')],
  ])('refuses %s in network.subnets and network.privateEndpointSubnet', (_, value) => {
    const issues = issuesOf({ network: { subnets: [value], privateEndpointSubnet: value } });
    expect(paths(issues)).toEqual([
      'checkpoints:stores[0].network.subnets[0]',
      'checkpoints:stores[0].network.privateEndpointSubnet',
    ]);
    expect(issues[0]?.value).toBe(value);
    expect(issues[0]?.message).toContain('must be a subnet resource ID');
  });

  // https://learn.microsoft.com/azure/storage/common/storage-network-security-limitations
  it.each([
    ['IPv6 (IP rules take IPv4 only)', '2001:db8::/32', 'IPv4 only'],
    ['an RFC 1918 range', '10.1.0.0/16', 'private range'],
    ['a range containing an RFC 1918 range', '172.0.0.0/8', 'private range'],
    ['shared address space (RFC 6598)', '100.64.1.0/24', 'private range'],
    ['a private address', '192.168.1.10/32', 'private range'],
  ])('refuses %s in network.cidrs', (_, cidr, reason) => {
    const issues = issuesOf({ network: { cidrs: [cidr] } });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:stores[0].network.cidrs[0]', cidr],
    ]);
    expect(issues[0]?.message).toContain(reason);
  });

  const zone = (name: string, group = 'hub-dns') =>
    `/subscriptions/00000000-0000-4000-a000-00000000000a/resourceGroups/${group}/providers/Microsoft.Network/privateDnsZones/${name}`;
  const ZONES = {
    blob: zone('privatelink.blob.core.windows.net'),
    dfs: zone('privatelink.dfs.core.windows.net'),
  };

  it('takes the zones of both services, in any case, or managed-by-policy', () => {
    const upper = {
      blob: ZONES.blob.toUpperCase().replace('/SUBSCRIPTIONS', '/subscriptions'),
      dfs: ZONES.dfs,
    };
    for (const privateDnsZones of [ZONES, upper, 'managed-by-policy']) {
      expect(issuesOf({ network: { privateEndpointSubnet: SUBNET, privateDnsZones } })).toEqual([]);
    }
    expect(load({ network: { privateEndpointSubnet: SUBNET, privateDnsZones: ZONES } })[0]?.network).toEqual(
      expect.objectContaining({ privateDnsZones: ZONES }),
    );
  });

  // https://learn.microsoft.com/azure/private-link/private-endpoint-dns (Storage: blob and dfs zones)
  it.each([
    ['the blob zone for dfs', { ...ZONES, dfs: ZONES.blob }, 'dfs', 'privatelink.dfs.core.windows.net'],
    ['a public DNS zone', { ...ZONES, blob: zone('blob.core.windows.net') }, 'blob', 'privatelink.blob'],
    [
      'a zone name instead of its ID',
      { ...ZONES, blob: 'privatelink.blob.core.windows.net' },
      'blob',
      'must be the resource ID',
    ],
    [
      'a public DNS zone resource type',
      { ...ZONES, dfs: ZONES.dfs.replace('privateDnsZones', 'dnsZones') },
      'dfs',
      'must be the resource ID',
    ],
  ])('refuses %s', (_, privateDnsZones, service, message) => {
    const issues = issuesOf({ network: { privateEndpointSubnet: SUBNET, privateDnsZones } });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      [
        `checkpoints:stores[0].network.privateDnsZones.${service}`,
        privateDnsZones[service as 'blob' | 'dfs'],
      ],
    ]);
    expect(issues[0]?.message).toContain(message);
  });

  it.each([
    ['one zone left out', { blob: ZONES.blob }],
    ['another word than managed-by-policy', 'managed-by-platform'],
  ])('refuses %s, naming what is allowed', (_, privateDnsZones) => {
    const issues = issuesOf({ network: { privateEndpointSubnet: SUBNET, privateDnsZones } });
    expect(issues.map((issue) => issue.path)).toEqual(['checkpoints:stores[0].network.privateDnsZones']);
    expect(issues[0]?.message).toContain('managed-by-policy when Azure Policy creates the zone groups');
  });

  it('refuses zones without a private endpoint subnet, whose endpoints they would name', () => {
    const issues = issuesOf({ network: { subnets: [SUBNET], privateDnsZones: ZONES } });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:stores[0].network.privateDnsZones', ZONES],
    ]);
    expect(issues[0]?.message).toContain('needs network.privateEndpointSubnet');
  });

  it('is an Azure key: refused on another cloud', () => {
    expect(() =>
      loadStackSpec(
        {
          ...Object.fromEntries(Object.entries(base).map(([k, v]) => [`checkpoints:${k}`, v])),
          'checkpoints:stores': JSON.stringify([
            {
              name: 'llm',
              dataClassification: 'internal',
              network: { cidrs: ['203.0.113.0/24'], privateDnsZones: 'managed-by-policy' },
            },
          ]),
        },
        awsRules,
      ),
    ).toThrow(
      /network\.privateDnsZones: got "managed-by-policy"; is not used on aws; it applies on azure only/,
    );
  });

  it.each<[string, Record<string, unknown>, string, string[]]>([
    [
      'a private endpoint without zones in prod',
      { privateEndpointSubnet: SUBNET },
      'prod',
      ['checkpoints:stores[0].network.privateDnsZones'],
    ],
    ['the same outside prod', { privateEndpointSubnet: SUBNET }, 'staging', []],
    ['zones in prod', { privateEndpointSubnet: SUBNET, privateDnsZones: ZONES }, 'prod', []],
    [
      'managed-by-policy in prod',
      { privateEndpointSubnet: SUBNET, privateDnsZones: 'managed-by-policy' },
      'prod',
      [],
    ],
    ['no private endpoint in prod', { subnets: [SUBNET] }, 'prod', []],
  ])('azurePrivateDnsIssues: %s', (_, network, environment, expected) => {
    const issues = azurePrivateDnsIssues(load({ network }), environment as 'prod');
    expect(issues.map((issue) => issue.path)).toEqual(expected);
    for (const issue of issues) expect(issue.message).toContain('privateDnsZones: managed-by-policy');
  });

  it('parses IPv4 ranges, a bare address as /32', () => {
    expect(parseIpv4Range('203.0.113.9')).toEqual([3405803785, 32]);
    expect(parseIpv4Range('203.0.113.0/24')).toEqual([3405803776, 24]);
    expect(parseIpv4Range('256.0.0.1')).toBeUndefined();
  });
});

describe('azure recovery keys', () => {
  it('takes a replica region on the standard tier, readable or not', () => {
    expect(load({ recovery: { replicaRegion: 'centralus', readableReplica: true } })[0]?.recovery).toEqual({
      replicaRegion: 'centralus',
      readableReplica: true,
      turboReplication: false,
    });
  });

  it('refuses a replica region on the premium tier, which has no geo-redundant SKU', () => {
    const issues = issuesOf({
      tier: 'high-throughput',
      retention: { expireAfterDays: 7 },
      recovery: { replicaRegion: 'centralus' },
    });
    expect(paths(issues)).toEqual(['checkpoints:stores[0].recovery.replicaRegion']);
    expect(issues[0]?.message).toContain('LRS or ZRS only');
  });

  it('refuses a readable replica without a replica region', () => {
    const issues = issuesOf({ recovery: { readableReplica: true } });
    expect(paths(issues)).toEqual(['checkpoints:stores[0].recovery.readableReplica']);
  });

  it('takes a lock of the whole store on the standard tier, and hands it to the store component', () => {
    expect(load({ recovery: { retentionLock: { days: 365 } } })[0]?.recovery.retentionLock).toEqual({
      days: 365,
    });
  });

  it('refuses a lock of a prefix: ADLS Gen2 immutability policies are container-wide, and says what to do instead', () => {
    const issues = issuesOf({ recovery: { retentionLock: { prefix: 'releases/', days: 365 } } });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:stores[0].recovery.retentionLock.prefix', 'releases/'],
    ]);
    expect(issues[0]?.message).toContain('container-level only');
    expect(issues[0]?.message).toContain('Omit prefix and lock a store of its own');
    expect(issues[0]?.message).toContain('recovery.retentionLock: { days: 365 }');
  });

  it('refuses a lock on the premium tier: no access tiers, and lifecycle deletes do not act on locked blobs', () => {
    const lock = { days: 30 };
    const issues = issuesOf({
      tier: 'high-throughput',
      retention: { expireAfterDays: 60 },
      recovery: { retentionLock: lock },
    });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:stores[0].recovery.retentionLock', lock],
    ]);
    expect(issues[0]?.message).toContain("tier 'high-throughput'");
    expect(issues[0]?.message).toContain('lifecycle-management-overview');
  });

  it('refuses an expiry beside a lock: the lifecycle delete would never act in an immutable container', () => {
    const issues = issuesOf({
      retention: { coolAfterDays: 30, expireAfterDays: 400 },
      recovery: { retentionLock: { days: 365 } },
    });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:stores[0].retention.expireAfterDays', 400],
    ]);
    expect(issues[0]?.message).toContain('Set 0 (never)');
  });

  const replica = (replicaRegion: string) => load({ recovery: { replicaRegion } });

  it('takes the pair of the location, in any spelling', () => {
    expect(azureReplicaIssues(replica('centralus'), 'eastus2')).toEqual([]);
    expect(azureReplicaIssues(replica('westus'), 'East US')).toEqual([]);
  });

  it.each([
    ['a region that is not the pair', 'eastus2', 'westus2', 'must be centralus'],
    ['a nonpaired location', 'polandcentral', 'germanywestcentral', 'has no region pair'],
    ['a paired location without GZRS', 'westus', 'eastus', 'does not offer geo-zone-redundant storage'],
  ])('refuses %s', (_, location, region, message) => {
    const issues = azureReplicaIssues(replica(region), location);
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:stores[0].recovery.replicaRegion', region],
    ]);
    expect(issues[0]?.message).toContain(message);
  });

  it('has a pair for every GZRS region (GZRS copies to the pair)', () => {
    expect(AZURE_GZRS_REGIONS.filter((region) => AZURE_REGION_PAIRS[region] === undefined)).toEqual([]);
  });
});

describe('checkpoints:logAnalyticsWorkspaceId', () => {
  it('takes a workspace resource ID, or nothing', () => {
    expect(
      azureWorkspaceIdIssues(
        '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/monitoring/providers/Microsoft.OperationalInsights/workspaces/central-audit',
      ),
    ).toEqual([]);
    expect(azureWorkspaceIdIssues(undefined)).toEqual([]);
  });

  it.each([
    'central-audit',
    '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/monitoring/providers/Microsoft.Storage/storageAccounts/audit',
  ])('refuses %s with the expected format', (value) => {
    expect(azureWorkspaceIdIssues(value)).toEqual([
      expect.objectContaining({
        path: 'checkpoints:logAnalyticsWorkspaceId',
        value,
        message: expect.stringContaining('workspaces/<name>'),
      }),
    ]);
  });
});
