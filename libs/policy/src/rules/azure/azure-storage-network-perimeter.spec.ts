import { violationsOf } from '../../../testing';
import { onPreview, urnOf } from '../../../testing/rules';
import { azureStorageNetworkPerimeter } from './azure-storage-network-perimeter';
import { accountProps } from '../../../testing/azure';
import { T } from './support';

const SUBNET =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/gpu-nodes';
const prodAccount = (overrides: Record<string, unknown>, parent?: string) => ({
  type: T.storageAccount,
  name: 'llm-pretrain',
  props: accountProps({ tags: { environment: 'prod' }, ...overrides }),
  ...(parent ? { parent } : {}),
});

describe('azure-storage-network-perimeter', () => {
  it('passes prod accounts that deny by default or take private endpoints only, and dev accounts open to all', async () => {
    expect(
      await violationsOf(
        azureStorageNetworkPerimeter,
        onPreview([
          prodAccount({
            publicNetworkAccess: 'Enabled',
            networkRuleSet: {
              defaultAction: 'Deny',
              virtualNetworkRules: [{ virtualNetworkResourceId: SUBNET }],
            },
          }),
          { ...prodAccount({ publicNetworkAccess: 'Disabled' }), name: 'private' },
          {
            ...prodAccount({ tags: { environment: 'dev' }, networkRuleSet: { defaultAction: 'Allow' } }),
            name: 'dev',
          },
        ]),
      ),
    ).toEqual([]);
  });

  it('passes a prod account open to every network when its store says network: { public: true }', async () => {
    const store = {
      type: 'checkpoints:azure:CheckpointStore',
      name: 'llm-pretrain',
      props: { network: { public: true } },
    };
    expect(
      await violationsOf(azureStorageNetworkPerimeter, [
        store,
        prodAccount({ networkRuleSet: { defaultAction: 'Allow' } }, urnOf(store)),
      ]),
    ).toEqual([]);
  });

  it('flags a prod account open to every network whose store does not say public: true', async () => {
    expect(
      await violationsOf(azureStorageNetworkPerimeter, [
        prodAccount({ publicNetworkAccess: 'Enabled', networkRuleSet: { defaultAction: 'Allow' } }),
      ]),
    ).toEqual([
      "storage account 'prodllmpretrain4ba09a' (prod): networkRuleSet.defaultAction is \"Allow\" and publicNetworkAccess is \"Enabled\"; expected defaultAction 'Deny' (or publicNetworkAccess 'Disabled'), or network: { public: true } on the store",
    ]);
  });
});
