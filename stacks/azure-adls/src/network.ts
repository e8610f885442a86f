import { PrivateDnsZoneGroup } from '@pulumi/azure-native/network/privateDnsZoneGroup';
import { PrivateEndpoint } from '@pulumi/azure-native/network/privateEndpoint';
import type { StorageAccount, StorageAccountArgs } from '@pulumi/azure-native/storage/storageAccount';
import { parseIpv4Range, type NetworkSpec } from '@checkpoints/config';
import type { StoreScope } from './scope';

type AccountNetwork = Required<Pick<StorageAccountArgs, 'publicNetworkAccess' | 'networkRuleSet'>>;

/**
 * The account's data-plane perimeter from `store.network`
 * (https://learn.microsoft.com/azure/storage/common/storage-network-security):
 * - no block, or `public: true`: every network, as before (an Entra ID token and a role are still needed);
 * - otherwise default-deny: the listed subnets (service endpoint `Microsoft.Storage` on them) and public
 *   IPv4 ranges are allowed, a private endpoint is always allowed (it is not subject to the firewall);
 * - a private endpoint and no list: public network access off, so only the endpoint reaches the account.
 * `bypass: None`: no trusted-service, logging or metrics exception. Resource logs reach Log Analytics
 * through diagnostic settings, which need no bypass, and the account's key is in Key Vault, whose own
 * firewall carries the trusted-service exception (createVault).
 */
export function accountNetwork(network: NetworkSpec | undefined): AccountNetwork {
  if (network === undefined || network.public) {
    return {
      publicNetworkAccess: 'Enabled',
      networkRuleSet: { defaultAction: 'Allow', bypass: 'AzureServices' },
    };
  }
  const privateOnly =
    network.privateEndpointSubnet !== undefined && network.subnets.length === 0 && network.cidrs.length === 0;
  return {
    publicNetworkAccess: privateOnly ? 'Disabled' : 'Enabled',
    networkRuleSet: {
      defaultAction: 'Deny',
      bypass: 'None',
      virtualNetworkRules: network.subnets.map((id) => ({ virtualNetworkResourceId: id, action: 'Allow' })),
      ipRules: network.cidrs
        .flatMap(ipRuleValues)
        .map((value) => ({ iPAddressOrRange: value, action: 'Allow' })),
    },
  };
}

/**
 * Azure takes single addresses and ranges of /30 and wider, not /31 or /32 ranges ("Configure these ranges
 * by using individual IP address rules", https://learn.microsoft.com/azure/storage/common/storage-network-security-limitations):
 * a /32 becomes its address, a /31 its two addresses.
 */
export function ipRuleValues(cidr: string): string[] {
  const range = parseIpv4Range(cidr);
  if (range === undefined) return [cidr];
  const [address, prefix] = range;
  if (prefix < 31) return [cidr];
  const count = prefix === 31 ? 2 : 1;
  const first = address - (address % count);
  return Array.from({ length: count }, (_, offset) => ipv4Text(first + offset));
}

function ipv4Text(address: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(address / 2 ** shift) % 256).join('.');
}

/** The two storage endpoints a job uses: `dfs` (ADLS Gen2, abfss://) and `blob` (the SDKs' blob calls). */
export const PRIVATE_ENDPOINT_SERVICES = ['dfs', 'blob'] as const;

type PrivateEndpointService = (typeof PRIVATE_ENDPOINT_SERVICES)[number];

/**
 * Private endpoints of the account's `dfs` and `blob` services in `network.privateEndpointSubnet`. They
 * are named after the account so a re-run finds them. With `network.privateDnsZones` each endpoint gets a
 * DNS zone group in its service's zone, which keeps the A record of `<account>.privatelink.<service>.core.windows.net`
 * in step with the endpoint's address; with `managed-by-policy` the platform's Azure Policy creates it
 * (docs/azure.md, "Private endpoints and DNS").
 */
export function createPrivateEndpoints(
  scope: StoreScope,
  account: StorageAccount,
  accountName: string,
): PrivateEndpoint[] {
  const network = scope.store.network;
  const subnet = network?.privateEndpointSubnet;
  if (subnet === undefined || network?.public) return [];
  const zones = typeof network?.privateDnsZones === 'object' ? network.privateDnsZones : undefined;
  return PRIVATE_ENDPOINT_SERVICES.map((service) => {
    const endpointName = `${accountName}-${service}`;
    const endpoint = new PrivateEndpoint(
      `${scope.store.name}-${service}`,
      {
        resourceGroupName: scope.resourceGroupName,
        privateEndpointName: endpointName,
        location: scope.location,
        subnet: { id: subnet },
        privateLinkServiceConnections: [
          {
            name: endpointName,
            privateLinkServiceId: account.id,
            groupIds: [service],
          },
        ],
        tags: scope.tags,
      },
      { parent: scope.parent },
    );
    if (zones) registerInZone(scope, endpoint, endpointName, service, zones[service]);
    return endpoint;
  });
}

/**
 * The endpoint's DNS zone group (PUT .../privateEndpoints/<endpoint>/privateDnsZoneGroups/<name>,
 * https://learn.microsoft.com/rest/api/virtualnetwork/private-dns-zone-groups/create-or-update): Azure keeps
 * the endpoint's A record in the zone for as long as the group exists
 * (https://learn.microsoft.com/azure/private-link/private-endpoint-dns).
 * Its one zone config is named after the zone (a name of our choosing, unique within the group).
 */
function registerInZone(
  scope: StoreScope,
  endpoint: PrivateEndpoint,
  endpointName: string,
  service: PrivateEndpointService,
  zoneId: string,
): PrivateDnsZoneGroup {
  return new PrivateDnsZoneGroup(
    `${scope.store.name}-${service}-dns`,
    {
      resourceGroupName: scope.resourceGroupName,
      privateEndpointName: endpointName,
      privateDnsZoneGroupName: 'default',
      privateDnsZoneConfigs: [{ name: zoneNameOf(zoneId), privateDnsZoneId: zoneId }],
    },
    { parent: scope.parent, dependsOn: [endpoint] },
  );
}

function zoneNameOf(zoneId: string): string {
  return (zoneId.split('/').pop() ?? zoneId).replace(/\./g, '-');
}
