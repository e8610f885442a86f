import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_STRING } from '../../../testing/rules';
import { gcpGcsPublicAccessPrevention } from './gcp-gcs-public-access-prevention';
import { BUCKET, hierarchicalBucket, versionedBucket } from '../../../testing/gcp';

describe('gcp-gcs-public-access-prevention', () => {
  it('passes both tiers of the store bucket', async () => {
    expect(
      await violationsOf(gcpGcsPublicAccessPrevention, [
        { type: BUCKET, props: versionedBucket() },
        { type: BUCKET, props: hierarchicalBucket() },
      ]),
    ).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'inherited',
      { publicAccessPrevention: 'inherited' },
      'publicAccessPrevention is "inherited"; must be "enforced" (unset or "inherited" follows the project)',
    ],
    [
      'unset',
      { publicAccessPrevention: undefined },
      'publicAccessPrevention is not set; must be "enforced" (unset or "inherited" follows the project)',
    ],
    [
      'unknown in synth',
      { publicAccessPrevention: '[unknown]' },
      'publicAccessPrevention is unknown during preview; must be "enforced" (unset or "inherited" follows the project)',
    ],
  ])('flags a bucket with public access prevention %s', async (_title, overrides, message) => {
    expect(
      await violationsOf(gcpGcsPublicAccessPrevention, [{ type: BUCKET, props: versionedBucket(overrides) }]),
    ).toEqual([message]);
  });

  it('flags a value unknown on a real preview, where it must be a literal', async () => {
    const props = previewProps(versionedBucket({ publicAccessPrevention: UNKNOWN_STRING }));
    expect(await violationsOf(gcpGcsPublicAccessPrevention, [{ type: BUCKET, props }])).toEqual([
      'publicAccessPrevention is unknown during preview; must be "enforced" (unset or "inherited" follows the project)',
    ]);
  });

  it('ignores other resource types', async () => {
    expect(
      await violationsOf(gcpGcsPublicAccessPrevention, [
        { type: 'gcp:storage/anywhereCache:AnywhereCache', props: { publicAccessPrevention: 'inherited' } },
      ]),
    ).toEqual([]);
  });
});
