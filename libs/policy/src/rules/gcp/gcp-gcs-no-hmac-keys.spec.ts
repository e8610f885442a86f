import { violationsOf } from '../../../testing';
import { gcpGcsNoHmacKeys } from './gcp-gcs-no-hmac-keys';

describe('gcp-gcs-no-hmac-keys', () => {
  it('passes a service account used without a key', async () => {
    expect(
      await violationsOf(gcpGcsNoHmacKeys, [
        { type: 'gcp:serviceaccount/account:Account', props: { accountId: 'llm-pretrain-writer-4300f0' } },
      ]),
    ).toEqual([]);
  });

  it('flags an HMAC key', async () => {
    expect(
      await violationsOf(gcpGcsNoHmacKeys, [
        {
          type: 'gcp:storage/hmacKey:HmacKey',
          props: { serviceAccountEmail: 'writer@ml-platform-prod-7310.iam.gserviceaccount.com' },
        },
      ]),
    ).toEqual([
      "gcp:storage/hmacKey:HmacKey creates a shared secret; must not be used: authenticate as the store's service account through Workload Identity instead",
    ]);
  });
});
