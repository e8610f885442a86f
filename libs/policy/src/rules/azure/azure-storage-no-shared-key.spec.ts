import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { azureStorageNoSharedKey } from './azure-storage-no-shared-key';
import { account, accountProps } from '../../../testing/azure';

describe('azure-storage-no-shared-key', () => {
  it('passes an Entra-ID-only account, also on a preview', async () => {
    expect(await violationsOf(azureStorageNoSharedKey, onPreview([account]))).toEqual([]);
    const { isLocalUserEnabled: _local, ...withoutLocalUsers } = accountProps();
    expect(await violationsOf(azureStorageNoSharedKey, [{ ...account, props: withoutLocalUsers }])).toEqual(
      [],
    );
  });

  it('flags shared keys on, OAuth not the default and local users', async () => {
    expect(
      await violationsOf(azureStorageNoSharedKey, [
        {
          ...account,
          props: accountProps({
            allowSharedKeyAccess: true,
            defaultToOAuthAuthentication: false,
            isLocalUserEnabled: true,
          }),
        },
      ]),
    ).toEqual([
      'allowSharedKeyAccess is true; expected false (Microsoft Entra ID authorization only)',
      'defaultToOAuthAuthentication is false; expected true',
      'isLocalUserEnabled is true; expected false or not set (local users sign in with passwords or SSH keys)',
    ]);
  });

  it('flags shared keys left to the default (allowed), or unknown on a preview', async () => {
    expect(
      await violationsOf(azureStorageNoSharedKey, [
        { ...account, props: accountProps({ allowSharedKeyAccess: undefined }) },
      ]),
    ).toEqual(['allowSharedKeyAccess is not set; expected false (Microsoft Entra ID authorization only)']);
    expect(
      await violationsOf(
        azureStorageNoSharedKey,
        onPreview([{ ...account, props: accountProps({ allowSharedKeyAccess: UNKNOWN_BOOLEAN }) }]),
      ),
    ).toEqual([
      'allowSharedKeyAccess is unknown during preview; expected false (Microsoft Entra ID authorization only)',
    ]);
  });
});
