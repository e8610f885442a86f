import { standardTagSet, violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { awsKmsKeyRotation } from './aws-kms-key-rotation';
import { T } from '../../../testing/aws';

describe('aws-kms-key-rotation', () => {
  it('passes a rotated symmetric key, and ignores keys AWS cannot rotate', async () => {
    expect(
      await violationsOf(awsKmsKeyRotation, [
        { type: T.key, props: { enableKeyRotation: true, tags: standardTagSet() } },
        { type: T.key, props: { customerMasterKeySpec: 'RSA_2048', keyUsage: 'SIGN_VERIFY' } },
        { type: T.key, props: { keySpec: 'HMAC_256', keyUsage: 'GENERATE_VERIFY_MAC' } },
      ]),
    ).toEqual([]);
  });

  it('flags a symmetric key without rotation, or with rotation unknown on a preview', async () => {
    expect(
      await violationsOf(awsKmsKeyRotation, [
        { type: T.key, props: { customerMasterKeySpec: 'SYMMETRIC_DEFAULT', keyUsage: 'ENCRYPT_DECRYPT' } },
        { type: T.key, props: { enableKeyRotation: false } },
      ]),
    ).toEqual([
      'enableKeyRotation is not set; expected true (automatic yearly rotation)',
      'enableKeyRotation is false; expected true (automatic yearly rotation)',
    ]);
    expect(
      await violationsOf(
        awsKmsKeyRotation,
        onPreview([{ type: T.key, props: { enableKeyRotation: UNKNOWN_BOOLEAN } }]),
      ),
    ).toEqual(['enableKeyRotation is unknown during preview; expected true (automatic yearly rotation)']);
  });
});
