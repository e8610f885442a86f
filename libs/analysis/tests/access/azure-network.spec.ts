import { accountNetworkOf, networkAllows, type AccountNetwork, type NetworkOrigin } from '../../src';
import { renderOf, resource } from './fixtures';

const SUBNET =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/net/providers/Microsoft.Network/virtualNetworks/training/subnets/gpu';
const OTHER_SUBNET = SUBNET.replace('/gpu', '/web');
const SECURITY = 'https://learn.microsoft.com/azure/storage/common/storage-network-security';
const LIMITS = 'https://learn.microsoft.com/azure/storage/common/storage-network-security-limitations';

const open: AccountNetwork = {
  publicNetworkAccess: 'Enabled',
  defaultAction: 'Allow',
  bypass: ['AzureServices'],
  subnets: [],
  ipRules: [],
  privateEndpoint: false,
};
const perimeter: AccountNetwork = {
  ...open,
  defaultAction: 'Deny',
  bypass: ['None'],
  subnets: [SUBNET.toLowerCase()],
  ipRules: ['203.0.113.0/24', '198.51.100.7'],
};

/** One row per documented rule of the storage firewall. */
const rows: {
  rule: string;
  source: string;
  network: AccountNetwork;
  origin: NetworkOrigin;
  allowed: boolean;
}[] = [
  {
    rule: 'default action Allow: every network reaches the account',
    source: SECURITY,
    network: open,
    origin: { kind: 'internet', address: '192.0.2.1' },
    allowed: true,
  },
  {
    rule: 'default action Deny: a listed subnet with the Microsoft.Storage service endpoint is allowed',
    source: `${SECURITY}-virtual-networks`,
    network: perimeter,
    origin: { kind: 'subnet', subnet: SUBNET, serviceEndpoint: true },
    allowed: true,
  },
  {
    rule: 'resource IDs compare without regard to case',
    source: 'https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules',
    network: perimeter,
    origin: { kind: 'subnet', subnet: SUBNET.toUpperCase(), serviceEndpoint: true },
    allowed: true,
  },
  {
    rule: 'a listed subnet without the service endpoint is refused: the rule applies to service endpoint traffic',
    source: `${SECURITY}-virtual-networks`,
    network: perimeter,
    origin: { kind: 'subnet', subnet: SUBNET, serviceEndpoint: false },
    allowed: false,
  },
  {
    rule: 'a subnet no rule names is refused, IP rules do not apply to it',
    source: LIMITS,
    network: perimeter,
    origin: { kind: 'subnet', subnet: OTHER_SUBNET, serviceEndpoint: true },
    allowed: false,
  },
  {
    rule: 'an address in a listed IP range is allowed',
    source: `${SECURITY}-ip-address-range`,
    network: perimeter,
    origin: { kind: 'internet', address: '203.0.113.77' },
    allowed: true,
  },
  {
    rule: 'a single listed address is allowed',
    source: `${SECURITY}-ip-address-range`,
    network: perimeter,
    origin: { kind: 'internet', address: '198.51.100.7' },
    allowed: true,
  },
  {
    rule: 'an address outside every IP rule is refused',
    source: `${SECURITY}-ip-address-range`,
    network: perimeter,
    origin: { kind: 'internet', address: '198.51.100.8' },
    allowed: false,
  },
  {
    rule: 'IPv6 is refused: IP rules take IPv4 only',
    source: LIMITS,
    network: perimeter,
    origin: { kind: 'internet', address: '2001:db8::1' },
    allowed: false,
  },
  {
    rule: 'trusted services are refused without the AzureServices bypass',
    source: `${SECURITY}-trusted-azure-services`,
    network: perimeter,
    origin: { kind: 'trusted-service' },
    allowed: false,
  },
  {
    rule: 'trusted services are allowed with the AzureServices bypass',
    source: `${SECURITY}-trusted-azure-services`,
    network: { ...perimeter, bypass: ['AzureServices'] },
    origin: { kind: 'trusted-service' },
    allowed: true,
  },
  {
    rule: 'a private endpoint is not subject to the firewall',
    source: 'https://learn.microsoft.com/azure/storage/common/storage-private-endpoints',
    network: { ...perimeter, privateEndpoint: true },
    origin: { kind: 'private-endpoint' },
    allowed: true,
  },
  {
    rule: 'public network access disabled: a listed subnet is refused',
    source: `${SECURITY}#public-network-access`,
    network: { ...perimeter, publicNetworkAccess: 'Disabled', privateEndpoint: true },
    origin: { kind: 'subnet', subnet: SUBNET, serviceEndpoint: true },
    allowed: false,
  },
  {
    rule: 'public network access disabled: the private endpoint still reaches the account',
    source: `${SECURITY}#public-network-access`,
    network: { ...perimeter, publicNetworkAccess: 'Disabled', privateEndpoint: true },
    origin: { kind: 'private-endpoint' },
    allowed: true,
  },
  {
    rule: 'no private endpoint, no private endpoint access',
    source: 'https://learn.microsoft.com/azure/storage/common/storage-private-endpoints',
    network: perimeter,
    origin: { kind: 'private-endpoint' },
    allowed: false,
  },
];

describe('azure storage firewall model', () => {
  it.each(rows)('$rule ($source)', ({ network, origin, allowed }) => {
    expect(networkAllows(network, origin).allowed).toBe(allowed);
  });

  it('reads the rendered account and its private endpoints', () => {
    const account = resource('azure-native:storage:StorageAccount', 'llm', {
      accountName: 'ckptllm',
      publicNetworkAccess: 'Disabled',
      networkRuleSet: {
        defaultAction: 'Deny',
        bypass: 'None',
        virtualNetworkRules: [{ virtualNetworkResourceId: SUBNET, action: 'Allow' }],
        ipRules: [{ iPAddressOrRange: '203.0.113.0/24', action: 'Allow' }],
      },
    });
    const endpoint = resource('azure-native:network:PrivateEndpoint', 'llm-dfs', {
      privateLinkServiceConnections: [
        {
          privateLinkServiceId:
            '/subscriptions/s/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/ckptllm',
          groupIds: ['dfs'],
        },
      ],
    });
    const [, , rendered, renderedEndpoint] = renderOf({ type: 'checkpoints:azure:CheckpointStore' }, [
      account,
      endpoint,
    ]).resources;
    expect(accountNetworkOf(rendered!, [rendered!, renderedEndpoint!])).toEqual({
      publicNetworkAccess: 'Disabled',
      defaultAction: 'Deny',
      bypass: ['None'],
      subnets: [SUBNET.toLowerCase()],
      ipRules: ['203.0.113.0/24'],
      privateEndpoint: true,
    });
    expect(accountNetworkOf(rendered!, [rendered!]).privateEndpoint).toBe(false);
  });
});
