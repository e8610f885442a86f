import { standardTagSet, violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_STRING } from '../../../testing/rules';
import { gcpKmsKeyRotation } from './gcp-kms-key-rotation';

const KEY = 'gcp:kms/cryptoKey:CryptoKey';
const key = (overrides: Record<string, unknown> = {}) => ({
  type: KEY,
  props: {
    name: 'checkpoints-llm-pretrain',
    keyRing: 'projects/p/locations/us-central1/keyRings/r',
    purpose: 'ENCRYPT_DECRYPT',
    rotationPeriod: '7776000s',
    labels: standardTagSet('prod'),
    ...overrides,
  },
});
const EXPECTED = 'must be at most "7776000s" (90 days)';

describe('gcp-kms-key-rotation', () => {
  it('passes 90 and 30 days, a default purpose, and an asymmetric key (no automatic rotation)', async () => {
    expect(
      await violationsOf(gcpKmsKeyRotation, [
        key(),
        key({ rotationPeriod: '2592000s', purpose: undefined }),
        key({ purpose: 'ASYMMETRIC_SIGN', rotationPeriod: undefined }),
      ]),
    ).toEqual([]);
  });

  it.each<[string, { type: string; props: Record<string, unknown> }, string]>([
    ['no rotation', key({ rotationPeriod: undefined }), `rotationPeriod is not set; ${EXPECTED}`],
    ['a year', key({ rotationPeriod: '31536000s' }), `rotationPeriod is "31536000s" (365 days); ${EXPECTED}`],
    ['91 days', key({ rotationPeriod: '7862400s' }), `rotationPeriod is "7862400s" (91 days); ${EXPECTED}`],
    [
      'half a second over',
      key({ rotationPeriod: '7776000.5s' }),
      `rotationPeriod is "7776000.5s" (90 days); ${EXPECTED}`,
    ],
    [
      'not in seconds',
      key({ rotationPeriod: '90d' }),
      `rotationPeriod is "90d", not a duration in seconds; ${EXPECTED}, e.g. "7776000s"`,
    ],
    [
      'under a day',
      key({ rotationPeriod: '3600s' }),
      'rotationPeriod is "3600s"; Cloud KMS accepts at least "86400s" (1 day)',
    ],
    [
      'unknown on a real preview',
      { type: KEY, props: previewProps(key({ rotationPeriod: UNKNOWN_STRING }).props) },
      `rotationPeriod is unknown during preview; ${EXPECTED}`,
    ],
  ])('flags %s', async (_title, resource, message) => {
    expect(await violationsOf(gcpKmsKeyRotation, [resource])).toEqual([message]);
  });
});
