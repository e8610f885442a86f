import { standardTagSet, violationsOf } from '../../testing';
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

  it('flags an unprotected prod storage account', async () => {
    expect(
      await violationsOf(protectDataInProd, [
        {
          type: 'azure-native:storage:StorageAccount',
          props: { tags: standardTagSet('prod') },
          protect: false,
        },
      ]),
    ).toEqual(["azure-native:storage:StorageAccount in prod must set the 'protect' resource option"]);
  });
});
