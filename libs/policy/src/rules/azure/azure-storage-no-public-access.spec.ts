import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { azureStorageNoPublicAccess } from './azure-storage-no-public-access';
import { account, accountProps } from '../../../testing/azure';
import { T } from './support';

const container = (props: Record<string, unknown>) => ({
  type: T.blobContainer,
  name: 'llm-pretrain',
  props,
});

describe('azure-storage-no-public-access', () => {
  it('passes a private account and private filesystems, also on a preview', async () => {
    const resources = [
      account,
      container({ containerName: 'checkpoints', publicAccess: 'None' }),
      container({ containerName: 'checkpoints' }),
      container({ containerName: 'checkpoints', publicAccess: UNKNOWN_STRING }),
    ];
    expect(await violationsOf(azureStorageNoPublicAccess, onPreview(resources))).toEqual([]);
  });

  it('flags an account that allows anonymous blob access, or leaves it to the default', async () => {
    expect(
      await violationsOf(azureStorageNoPublicAccess, [
        { ...account, props: accountProps({ allowBlobPublicAccess: true }) },
        { ...account, props: accountProps({ allowBlobPublicAccess: undefined }) },
      ]),
    ).toEqual([
      'allowBlobPublicAccess is true; expected false, so that no container of the account can be read anonymously',
      'allowBlobPublicAccess is not set; expected false, so that no container of the account can be read anonymously',
    ]);
  });

  it('flags an unknown allowBlobPublicAccess on a preview: the baseline requires a literal false', async () => {
    expect(
      await violationsOf(
        azureStorageNoPublicAccess,
        onPreview([{ ...account, props: accountProps({ allowBlobPublicAccess: UNKNOWN_STRING }) }]),
      ),
    ).toEqual([
      'allowBlobPublicAccess is unknown during preview; expected false, so that no container of the account can be read anonymously',
    ]);
  });

  it('flags a public filesystem', async () => {
    expect(
      await violationsOf(azureStorageNoPublicAccess, [
        container({ containerName: 'c', publicAccess: 'Container' }),
      ]),
    ).toEqual(['publicAccess is "Container"; expected "None" or not set (filesystems are private)']);
  });

  it('matches the account at a pinned API version too', async () => {
    expect(
      await violationsOf(azureStorageNoPublicAccess, [
        {
          type: 'azure-native:storage/v20240101:StorageAccount',
          props: accountProps({ allowBlobPublicAccess: true }),
        },
      ]),
    ).toEqual([
      'allowBlobPublicAccess is true; expected false, so that no container of the account can be read anonymously',
    ]);
  });
});
