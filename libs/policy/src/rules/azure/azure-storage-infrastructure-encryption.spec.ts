import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_OBJECT, UNKNOWN_STRING } from '../../../testing/rules';
import { azureStorageInfrastructureEncryption } from './azure-storage-infrastructure-encryption';
import { account, accountProps } from '../../../testing/azure';

describe('azure-storage-infrastructure-encryption', () => {
  it('passes Microsoft-managed and customer-managed keys with infrastructure encryption, also on a preview', async () => {
    const customerManaged = accountProps({
      encryption: {
        requireInfrastructureEncryption: true,
        keySource: 'Microsoft.Keyvault',
        // On a first preview the key and vault are created in the same update: their names are unknown.
        keyVaultProperties: { keyName: UNKNOWN_STRING, keyVaultUri: UNKNOWN_STRING },
        encryptionIdentity: { encryptionUserAssignedIdentity: UNKNOWN_STRING },
        services: { blob: { enabled: true, keyType: 'Account' } },
      },
    });
    expect(
      await violationsOf(
        azureStorageInfrastructureEncryption,
        onPreview([account, { ...account, props: customerManaged }]),
      ),
    ).toEqual([]);
  });

  it('flags an account without infrastructure encryption', async () => {
    expect(
      await violationsOf(azureStorageInfrastructureEncryption, [
        { ...account, props: accountProps({ encryption: { keySource: 'Microsoft.Storage' } }) },
        { ...account, props: accountProps({ encryption: undefined }) },
      ]),
    ).toEqual([
      'encryption.requireInfrastructureEncryption is not set; expected true (it cannot be turned on after the account is created)',
      'encryption.requireInfrastructureEncryption is not set; expected true (it cannot be turned on after the account is created)',
    ]);
  });

  it('flags an encryption block unknown on a preview: the setting must be a literal', async () => {
    expect(
      await violationsOf(
        azureStorageInfrastructureEncryption,
        onPreview([{ ...account, props: accountProps({ encryption: UNKNOWN_OBJECT }) }]),
      ),
    ).toEqual([
      'encryption.requireInfrastructureEncryption is unknown during preview; expected true (it cannot be turned on after the account is created)',
    ]);
  });
});
