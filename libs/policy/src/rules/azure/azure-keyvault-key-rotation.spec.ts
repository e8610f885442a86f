import { violationsOf } from '../../../testing';
import { onPreview } from '../../../testing/rules';
import { azureKeyvaultKeyRotation, durationDays } from './azure-keyvault-key-rotation';
import { T } from './support';

const key = (rotationPolicy: unknown) => ({
  type: T.key,
  name: 'llm-pretrain',
  props: { keyName: 'checkpoints-llm-pretrain', properties: { kty: 'RSA', keySize: 3072, rotationPolicy } },
});
const ROTATING = {
  attributes: { expiryTime: 'P2Y' },
  lifetimeActions: [
    { trigger: { timeAfterCreate: 'P1Y' }, action: { type: 'rotate' } },
    { trigger: { timeBeforeExpiry: 'P30D' }, action: { type: 'notify' } },
  ],
};

describe('azure-keyvault-key-rotation', () => {
  it('passes a key that expires after two years, rotates after one and notifies 30 days before expiry', async () => {
    expect(await violationsOf(azureKeyvaultKeyRotation, onPreview([key(ROTATING)]))).toEqual([]);
  });

  it('flags a key without expiry', async () => {
    expect(
      await violationsOf(azureKeyvaultKeyRotation, [key({ lifetimeActions: ROTATING.lifetimeActions })]),
    ).toEqual([
      'properties.rotationPolicy.attributes.expiryTime is not set; expected an ISO 8601 duration such as P2Y',
    ]);
  });

  it('flags a key that would expire before it rotates, and one nobody is told about', async () => {
    expect(
      await violationsOf(azureKeyvaultKeyRotation, [
        key({
          attributes: { expiryTime: 'P90D' },
          lifetimeActions: [{ trigger: { timeAfterCreate: 'P1Y' }, action: { type: 'Rotate' } }],
        }),
      ]),
    ).toEqual([
      'no rotate action before the key expires (expiryTime P90D); expected a lifetimeAction of type rotate triggered earlier',
      'no notify action before the key expires; expected a lifetimeAction of type notify (timeBeforeExpiry), which raises the near-expiry event',
    ]);
  });

  it.each([
    ['P2Y', 730],
    ['P30D', 30],
    ['P1Y6M', 533],
    ['P2W', 14],
    ['2 years', undefined],
  ])('reads the ISO 8601 duration %s as %s days', (value, days) => {
    expect(durationDays(value)).toBe(days);
  });
});
