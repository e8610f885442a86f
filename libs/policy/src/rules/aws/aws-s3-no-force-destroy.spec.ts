import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { awsS3NoForceDestroy } from './aws-s3-no-force-destroy';
import { BUCKET, DIRECTORY_BUCKET, T } from '../../../testing/aws';

const EXPECTED = 'expected false or not set, so a non-empty bucket is never deleted';

describe('aws-s3-no-force-destroy', () => {
  it('passes buckets that leave forceDestroy unset or false', async () => {
    expect(
      await violationsOf(awsS3NoForceDestroy, [
        { type: T.bucket, props: { bucket: BUCKET } },
        { type: T.directoryBucket, props: { bucket: DIRECTORY_BUCKET, forceDestroy: false } },
      ]),
    ).toEqual([]);
  });

  it('flags forceDestroy true, and unknown on a preview', async () => {
    expect(
      await violationsOf(awsS3NoForceDestroy, [{ type: T.directoryBucket, props: { forceDestroy: true } }]),
    ).toEqual([`forceDestroy is true; ${EXPECTED}`]);
    expect(
      await violationsOf(
        awsS3NoForceDestroy,
        onPreview([{ type: T.bucket, props: { forceDestroy: UNKNOWN_BOOLEAN } }]),
      ),
    ).toEqual([`forceDestroy is unknown during preview; ${EXPECTED}`]);
  });

  it('reads synth\'s unknown mark as on a real preview, not as the text "[unknown]"', async () => {
    expect(
      await violationsOf(awsS3NoForceDestroy, [{ type: T.bucket, props: { forceDestroy: '[unknown]' } }]),
    ).toEqual([`forceDestroy is unknown during preview; ${EXPECTED}`]);
  });
});
