import { violationsOf } from '../../../testing';
import { onPreview, urnOf } from '../../../testing/rules';
import { azureStoragePrivateEndpointDns } from './azure-storage-private-endpoint-dns';
import { ACCOUNT_ID } from '../../../testing/azure';
import { T } from './support';

const SUBNET =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/gpu-nodes';
const zone = (name: string) =>
  `/subscriptions/00000000-0000-4000-a000-00000000000a/resourceGroups/hub-dns/providers/Microsoft.Network/privateDnsZones/${name}`;
const endpoint = (service: string, environment = 'prod', parent?: string) => ({
  type: T.privateEndpoint,
  name: `llm-pretrain-${service}`,
  props: {
    resourceGroupName: 'rg-checkpoints-prod',
    privateEndpointName: `prodllm-${service}`,
    subnet: { id: SUBNET },
    privateLinkServiceConnections: [
      { name: `prodllm-${service}`, privateLinkServiceId: ACCOUNT_ID, groupIds: [service] },
    ],
    tags: { environment },
  },
  ...(parent ? { parent } : {}),
});
const zoneGroup = (service: string, zoneName: string) => ({
  type: T.privateDnsZoneGroup,
  name: `llm-pretrain-${service}-dns`,
  props: {
    resourceGroupName: 'rg-checkpoints-prod',
    privateEndpointName: `prodllm-${service}`,
    privateDnsZoneGroupName: 'default',
    privateDnsZoneConfigs: [{ name: zoneName.replace(/\./g, '-'), privateDnsZoneId: zone(zoneName) }],
  },
});

describe('azure-storage-private-endpoint-dns', () => {
  it('passes prod endpoints registered in the zone of their sub-resource, and dev endpoints without', async () => {
    expect(
      await violationsOf(
        azureStoragePrivateEndpointDns,
        onPreview([
          endpoint('dfs'),
          endpoint('blob'),
          zoneGroup('dfs', 'privatelink.dfs.core.windows.net'),
          zoneGroup('blob', 'privatelink.blob.core.windows.net'),
          { ...endpoint('dfs', 'dev'), name: 'dev-dfs' },
        ]),
      ),
    ).toEqual([]);
  });

  it('passes prod endpoints without a zone group when the store says managed-by-policy', async () => {
    const store = {
      type: 'checkpoints:azure:CheckpointStore',
      name: 'llm-pretrain',
      props: { network: { privateDnsZones: 'managed-by-policy' } },
    };
    expect(
      await violationsOf(azureStoragePrivateEndpointDns, [
        store,
        endpoint('dfs', 'prod', urnOf(store)),
        endpoint('blob', 'prod', urnOf(store)),
      ]),
    ).toEqual([]);
  });

  it('flags a prod endpoint without a zone group, and one registered in the zone of another service', async () => {
    expect(
      await violationsOf(azureStoragePrivateEndpointDns, [
        endpoint('dfs'),
        endpoint('blob'),
        zoneGroup('blob', 'privatelink.dfs.core.windows.net'),
      ]),
    ).toEqual([
      'PrivateEndpoint "prodllm-dfs" (prod) has no DNS zone group; expected a PrivateDnsZoneGroup in privatelink.dfs.core.windows.net, or network.privateDnsZones: managed-by-policy on the store',
      'PrivateEndpoint "prodllm-blob" (prod) has a DNS zone group in privatelink.dfs.core.windows.net only; expected a PrivateDnsZoneGroup in privatelink.blob.core.windows.net, or network.privateDnsZones: managed-by-policy on the store',
    ]);
  });
});
