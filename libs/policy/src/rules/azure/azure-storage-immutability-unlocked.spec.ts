import { violationsOf } from '../../../testing';
import { urnOf } from '../../../testing/rules';
import { azureStorageImmutabilityUnlocked } from './azure-storage-immutability-unlocked';
import { T } from './support';

const store = {
  type: 'checkpoints:azure:CheckpointStore',
  name: 'llm-releases',
  props: { retentionLock: { days: 365 } },
};
const policy = (props: Record<string, unknown>, parent = urnOf(store)) => ({
  type: T.immutabilityPolicy,
  name: 'llm-releases',
  parent,
  props: {
    accountName: 'prodllmreleases1a2b3c',
    containerName: 'checkpoints-llm-releases',
    immutabilityPolicyName: 'default',
    immutabilityPeriodSinceCreationInDays: 365,
    allowProtectedAppendWrites: false,
    allowProtectedAppendWritesAll: false,
    ...props,
  },
});

describe('azure-storage-immutability-unlocked', () => {
  it('passes a locked store whose filesystem has an unlocked policy of its days without appends, and a store without a lock', async () => {
    const other = { ...store, name: 'llm-pretrain', props: {} };
    expect(
      await violationsOf(azureStorageImmutabilityUnlocked, [store, policy({ state: 'Unlocked' }), other]),
    ).toEqual([]);
  });

  it('flags a missing policy, a shorter period, protected appends and a Locked policy', async () => {
    const second = { ...store, name: 'llm-archive' };
    expect(
      await violationsOf(azureStorageImmutabilityUnlocked, [
        store,
        second,
        policy({
          immutabilityPeriodSinceCreationInDays: 30,
          allowProtectedAppendWrites: true,
          allowProtectedAppendWritesAll: true,
          state: 'Locked',
        }),
      ]),
    ).toEqual([
      "immutability policy 'llm-releases': immutabilityPeriodSinceCreationInDays is 30; expected 365 (recovery.retentionLock.days of store 'llm-releases')",
      "store 'llm-archive' states recovery.retentionLock { days: 365 } but its filesystem has no immutability policy; expected a BlobContainerImmutabilityPolicy of 365 days",
      "immutability policy 'llm-releases': allowProtectedAppendWrites is true; expected false (no block may be added to a locked checkpoint)",
      "immutability policy 'llm-releases': allowProtectedAppendWritesAll is true; expected false (no block may be added to a locked checkpoint)",
      'immutability policy \'llm-releases\' is Locked: a locked policy can never be lifted or shortened, even by the account owner; the stack sets unlocked policies only (an administrator may lift one, docs/azure.md "Retention lock")',
    ]);
  });
});
