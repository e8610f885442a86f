import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { azureStorageSoftDelete } from './azure-storage-soft-delete';
import { account, accountProps, ACCOUNT_NAME, companion, softDeleteProps } from '../../../testing/azure';
import { T } from './support';

const NAME = 'llm-pretrain-BlobServiceProperties';
const softDelete = (props: Record<string, unknown> = softDeleteProps, name = NAME) =>
  companion(T.blobServiceProperties, props, account, name);

describe('azure-storage-soft-delete', () => {
  it('passes an account with blob and container soft delete, linked through accountName on a preview', async () => {
    expect(await violationsOf(azureStorageSoftDelete, onPreview([account, softDelete()]))).toEqual([]);
  });

  it('links by account name when both are known and there is no dependency', async () => {
    const named = {
      type: T.blobServiceProperties,
      name: NAME,
      props: { ...softDeleteProps, accountName: ACCOUNT_NAME },
    };
    expect(await violationsOf(azureStorageSoftDelete, [account, named])).toEqual([]);
  });

  it('flags an account without BlobServiceProperties', async () => {
    const other = companion(T.blobServiceProperties, softDeleteProps, { ...account, name: 'other' });
    expect(await violationsOf(azureStorageSoftDelete, onPreview([account, other]))).toEqual([
      "storage account 'prodllmpretrain4ba09a' has no BlobServiceProperties; expected deleteRetentionPolicy and containerDeleteRetentionPolicy enabled for at least 7 days",
    ]);
  });

  it('flags soft delete off, too short, unknown, or open to permanent delete', async () => {
    expect(
      await violationsOf(
        azureStorageSoftDelete,
        onPreview([
          account,
          softDelete({
            deleteRetentionPolicy: { enabled: true, days: 3, allowPermanentDelete: true },
            containerDeleteRetentionPolicy: { enabled: false },
          }),
          softDelete({ containerDeleteRetentionPolicy: { enabled: true, days: UNKNOWN_STRING } }, 'second'),
        ]),
      ),
    ).toEqual([
      `BlobServiceProperties '${NAME}': deleteRetentionPolicy.days is 3; expected at least 7`,
      `BlobServiceProperties '${NAME}': containerDeleteRetentionPolicy.enabled is false; expected true`,
      `BlobServiceProperties '${NAME}': deleteRetentionPolicy.allowPermanentDelete is true; expected false or not set`,
      `BlobServiceProperties 'second': deleteRetentionPolicy.enabled is not set; expected true`,
      `BlobServiceProperties 'second': containerDeleteRetentionPolicy.days is unknown during preview; expected at least 7`,
    ]);
  });

  it('flags versioning on a hierarchical-namespace account, not on a flat one', async () => {
    const versioned = { ...softDeleteProps, isVersioningEnabled: true };
    expect(await violationsOf(azureStorageSoftDelete, [account, softDelete(versioned)])).toEqual([
      `BlobServiceProperties '${NAME}': isVersioningEnabled is true on a hierarchical-namespace account; expected false or not set (the service rejects blob versioning there: soft delete is the way back)`,
    ]);
    const flat = { ...account, props: accountProps({ isHnsEnabled: false }) };
    expect(await violationsOf(azureStorageSoftDelete, [flat, softDelete(versioned)])).toEqual([]);
  });

  it('ignores an unknown accountName value: the dependency links it', async () => {
    expect(
      await violationsOf(
        azureStorageSoftDelete,
        onPreview([account, softDelete({ ...softDeleteProps, accountName: UNKNOWN_STRING })]),
      ),
    ).toEqual([]);
  });
});
