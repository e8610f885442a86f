import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_STRING } from '../../../testing/rules';
import { gcpGcsEncryptionKey } from './gcp-gcs-encryption-key';
import { BUCKET, versionedBucket } from '../../../testing/gcp';

const EXPECTED =
  'must be a Cloud KMS key ID projects/<project>/locations/<location>/keyRings/<ring>/cryptoKeys/<key>, or encryption left unset for Google-managed encryption';

describe('gcp-gcs-encryption-key', () => {
  it('passes a customer-managed key, Google-managed encryption, and a key created in the same update', async () => {
    expect(
      await violationsOf(gcpGcsEncryptionKey, [
        { type: BUCKET, props: versionedBucket() },
        { type: BUCKET, props: versionedBucket({ encryption: undefined }) },
        { type: BUCKET, props: versionedBucket({ encryption: { defaultKmsKeyName: '[unknown]' } }) },
        {
          type: BUCKET,
          props: previewProps(versionedBucket({ encryption: { defaultKmsKeyName: UNKNOWN_STRING } })),
        },
      ]),
    ).toEqual([]);
  });

  it.each<[unknown, string]>([
    ['', `encryption.defaultKmsKeyName is ""; ${EXPECTED}`],
    ['checkpoints-key', `encryption.defaultKmsKeyName is "checkpoints-key"; ${EXPECTED}`],
    [
      'projects/p/locations/us-central1/keyRings/r',
      `encryption.defaultKmsKeyName is "projects/p/locations/us-central1/keyRings/r"; ${EXPECTED}`,
    ],
  ])('flags defaultKmsKeyName %j', async (key, message) => {
    expect(
      await violationsOf(gcpGcsEncryptionKey, [
        { type: BUCKET, props: versionedBucket({ encryption: { defaultKmsKeyName: key } }) },
      ]),
    ).toEqual([message]);
  });
});
