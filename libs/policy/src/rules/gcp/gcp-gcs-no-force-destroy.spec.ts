import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { gcpGcsNoForceDestroy } from './gcp-gcs-no-force-destroy';
import { BUCKET, versionedBucket } from '../../../testing/gcp';

describe('gcp-gcs-no-force-destroy', () => {
  it('passes forceDestroy false or unset', async () => {
    expect(
      await violationsOf(gcpGcsNoForceDestroy, [
        { type: BUCKET, props: versionedBucket() },
        { type: BUCKET, props: versionedBucket({ forceDestroy: undefined }) },
      ]),
    ).toEqual([]);
  });

  it('flags forceDestroy true', async () => {
    expect(
      await violationsOf(gcpGcsNoForceDestroy, [
        { type: BUCKET, props: versionedBucket({ forceDestroy: true }) },
      ]),
    ).toEqual(['forceDestroy is true; must be false or unset']);
  });

  it('flags forceDestroy unknown on a real preview', async () => {
    const props = previewProps(versionedBucket({ forceDestroy: UNKNOWN_BOOLEAN }));
    expect(await violationsOf(gcpGcsNoForceDestroy, [{ type: BUCKET, props }])).toEqual([
      'forceDestroy is unknown during preview; must be false or unset',
    ]);
  });
});
