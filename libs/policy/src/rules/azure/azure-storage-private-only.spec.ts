import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { ACCOUNT_ID, accountProps } from '../../../testing/azure';
import { azureStoragePrivateOnly } from './azure-storage-private-only';

const STORE = 'urn:pulumi:test::spec::checkpoints:azure:CheckpointStore::llm-pretrain';
const SUBNET =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/private-endpoints';

const endpoint = (service: string): ResourceUnderTest => ({
  type: 'azure-native:network:PrivateEndpoint',
  name: `llm-pretrain-${service}`,
  parent: STORE,
  props: {
    privateEndpointName: `prodllm-${service}`,
    subnet: { id: SUBNET },
    privateLinkServiceConnections: [
      { name: `prodllm-${service}`, privateLinkServiceId: ACCOUNT_ID, groupIds: [service] },
    ],
  },
});
const zoneGroup = (service: string): ResourceUnderTest => ({
  type: 'azure-native:network:PrivateDnsZoneGroup',
  name: `llm-pretrain-${service}-dns`,
  parent: STORE,
  props: { privateEndpointName: `prodllm-${service}`, privateDnsZoneGroupName: 'default' },
});

/** A prod store's account with `publicNetworkAccess`, its `services` private endpoints and their zone groups. */
function store(
  publicNetworkAccess: string,
  services = ['blob', 'dfs'],
  component: Record<string, unknown> = {},
  environment = 'prod',
): ResourceUnderTest[] {
  return [
    { type: 'checkpoints:azure:CheckpointStore', name: 'llm-pretrain', props: component },
    {
      type: 'azure-native:storage:StorageAccount',
      name: 'llm-pretrain',
      parent: STORE,
      props: accountProps({ publicNetworkAccess, tags: { environment } }),
    },
    ...services.flatMap((service) => [endpoint(service), zoneGroup(service)]),
  ];
}

describe('azure-storage-private-only', () => {
  it('passes a prod account reached through its blob and dfs private endpoints only', async () => {
    expect(await violationsOf(azureStoragePrivateOnly, store('Disabled'))).toEqual([]);
  });

  it('flags a prod account with public network access, or without its dfs endpoint', async () => {
    expect(await violationsOf(azureStoragePrivateOnly, store('Enabled'))).toEqual([
      'store llm-pretrain: public network access Enabled (CIS Azure 4.6, Azure Policy b2982f36-99f2-4db5-8eff-283140c09693)',
    ]);
    expect(await violationsOf(azureStoragePrivateOnly, store('Disabled', ['blob']))).toEqual([
      'store llm-pretrain: no private endpoint for dfs (CIS Azure 4.9, Azure Policy 6edd7eda-6dd8-40f7-810d-67160c639cd9)',
    ]);
  });

  it('accepts a store that declares network.public: true, and any store outside prod', async () => {
    expect(
      await violationsOf(azureStoragePrivateOnly, store('Enabled', [], { network: { public: true } })),
    ).toEqual([]);
    expect(await violationsOf(azureStoragePrivateOnly, store('Enabled', [], {}, 'dev'))).toEqual([]);
  });
});
