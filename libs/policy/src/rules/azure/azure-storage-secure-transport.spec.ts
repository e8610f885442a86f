import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { azureStorageSecureTransport } from './azure-storage-secure-transport';
import { account, accountProps } from '../../../testing/azure';

describe('azure-storage-secure-transport', () => {
  it('passes HTTPS only with TLS 1.2, or 1.3', async () => {
    expect(
      await violationsOf(
        azureStorageSecureTransport,
        onPreview([account, { ...account, props: accountProps({ minimumTlsVersion: 'TLS1_3' }) }]),
      ),
    ).toEqual([]);
  });

  it('flags HTTP allowed and an old or default minimum TLS version', async () => {
    expect(
      await violationsOf(azureStorageSecureTransport, [
        { ...account, props: accountProps({ enableHttpsTrafficOnly: false, minimumTlsVersion: 'TLS1_0' }) },
        { ...account, props: accountProps({ minimumTlsVersion: undefined }) },
      ]),
    ).toEqual([
      'enableHttpsTrafficOnly is false; expected true (secure transfer required)',
      'minimumTlsVersion is "TLS1_0"; expected "TLS1_2" (or "TLS1_3")',
      'minimumTlsVersion is not set; expected "TLS1_2" (or "TLS1_3")',
    ]);
  });

  it('flags an unknown enableHttpsTrafficOnly on a preview', async () => {
    expect(
      await violationsOf(
        azureStorageSecureTransport,
        onPreview([{ ...account, props: accountProps({ enableHttpsTrafficOnly: UNKNOWN_BOOLEAN }) }]),
      ),
    ).toEqual(['enableHttpsTrafficOnly is unknown during preview; expected true (secure transfer required)']);
  });
});
