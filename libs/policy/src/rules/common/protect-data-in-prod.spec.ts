import { standardTagSet, violationsOf } from '../../../testing';
import { protectDataInProd } from './protect-data-in-prod';

describe('protect-data-in-prod', () => {
  it('passes a protected prod bucket and an unprotected dev bucket', async () => {
    expect(
      await violationsOf(protectDataInProd, [
        { type: 'gcp:storage/bucket:Bucket', props: { labels: standardTagSet('prod') }, protect: true },
        { type: 'gcp:storage/bucket:Bucket', props: { labels: standardTagSet('dev') }, protect: false },
      ]),
    ).toEqual([]);
  });

  it('flags an unprotected prod storage account, naming the config key that drives the option', async () => {
    expect(
      await violationsOf(protectDataInProd, [
        {
          type: 'azure-native:storage:StorageAccount',
          props: { tags: standardTagSet('prod') },
          protect: false,
        },
      ]),
    ).toEqual([
      "azure-native:storage:StorageAccount in prod holds checkpoints or their key without the 'protect' resource option: set checkpoints:stores[i].protect to true for the store named 'llm-pretrain', or remove that key (prod defaults to true); a deploy may then no longer delete it",
    ]);
  });

  it('names the key without a store name when the resource carries none', async () => {
    const { 'checkpoint-store': _store, ...tags } = standardTagSet('prod');
    expect(
      await violationsOf(protectDataInProd, [{ type: 'aws:kms/key:Key', props: { tags }, protect: false }]),
    ).toEqual([
      "aws:kms/key:Key in prod holds checkpoints or their key without the 'protect' resource option: set checkpoints:stores[i].protect to true for its store, or remove that key (prod defaults to true); a deploy may then no longer delete it",
    ]);
  });
});
