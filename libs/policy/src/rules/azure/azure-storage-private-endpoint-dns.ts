import type { PolicyResource } from '@pulumi/policy';
import { AZURE_STORAGE_PRIVATE_DNS_ZONES, PRIVATE_DNS_MANAGED_BY_POLICY } from '@checkpoints/config';
import { stackRule } from '../define';
import { read, readList, shown, UNKNOWN } from '../inputs';
import { environmentTag, isAzureType, T } from './support';

type StorageService = keyof typeof AZURE_STORAGE_PRIVATE_DNS_ZONES;

export const azureStoragePrivateEndpointDns = stackRule({
  name: 'azure-storage-private-endpoint-dns',
  description:
    "Every prod private endpoint of a store has a DNS zone group naming the private DNS zone of its sub-resource (privatelink.blob.core.windows.net for blob, privatelink.dfs.core.windows.net for dfs), unless its store declares network.privateDnsZones: managed-by-policy (Azure Policy creates the zone groups; recorded in the store component's inputs): without the records a job resolves the account to its public endpoint",
  source:
    'Checkpoint security baseline (private endpoints with their DNS zone groups); Microsoft Learn: Azure Private Endpoint private DNS zone values (https://learn.microsoft.com/azure/private-link/private-endpoint-dns); Cloud Adoption Framework: Private Link and DNS integration at scale',
  validate: (args, report) => {
    const groups = args.resources.filter((r) => isAzureType(r.type, T.privateDnsZoneGroup));
    for (const endpoint of args.resources.filter((r) => isAzureType(r.type, T.privateEndpoint))) {
      if (environmentTag(endpoint) !== 'prod') continue;
      if (read(endpoint.parent?.props, 'network', 'privateDnsZones') === PRIVATE_DNS_MANAGED_BY_POLICY)
        continue;
      const name = read(endpoint.props, 'privateEndpointName');
      if (name === UNKNOWN) continue;
      const expected = expectedZones(endpoint);
      // A zone group names its endpoint by name: it is a child resource of the endpoint.
      const zones = groups
        .filter((group) => read(group.props, 'privateEndpointName') === name)
        .flatMap((group) => zoneNames(group));
      if (zones.includes(UNKNOWN)) continue;
      const missing = expected.filter((zone) => !zones.includes(zone));
      if (zones.length > 0 && missing.length === 0) continue;
      report(
        `PrivateEndpoint ${shown(name)} (prod) has ${zones.length === 0 ? 'no DNS zone group' : `a DNS zone group in ${zones.join(', ')} only`}; expected a PrivateDnsZoneGroup in ${expected.join(', ') || 'its private DNS zone'}, or network.privateDnsZones: ${PRIVATE_DNS_MANAGED_BY_POLICY} on the store`,
        endpoint.urn,
      );
    }
  },
});

/** The zones of the storage sub-resources the endpoint connects to (the table in @checkpoints/config). */
function expectedZones(endpoint: PolicyResource): string[] {
  const connections = readList(endpoint.props, 'privateLinkServiceConnections');
  if (connections === UNKNOWN || connections === undefined) return [];
  return connections.flatMap((connection) => {
    const ids = readList(connection, 'groupIds');
    if (ids === UNKNOWN || ids === undefined) return [];
    return ids.flatMap((id) =>
      typeof id === 'string' && id in AZURE_STORAGE_PRIVATE_DNS_ZONES
        ? [AZURE_STORAGE_PRIVATE_DNS_ZONES[id as StorageService]]
        : [],
    );
  });
}

/** The zone names (the last segment of each privateDnsZoneId), lowercased; UNKNOWN where not known yet. */
function zoneNames(group: PolicyResource): (string | typeof UNKNOWN)[] {
  const configs = readList(group.props, 'privateDnsZoneConfigs');
  if (configs === UNKNOWN) return [UNKNOWN];
  return (configs ?? []).map((config) => {
    const id = read(config, 'privateDnsZoneId');
    if (id === UNKNOWN) return UNKNOWN;
    return typeof id === 'string' ? (id.split('/').pop() ?? '').toLowerCase() : '';
  });
}
