import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { awsS3AbortIncompleteUploads } from './aws-s3-abort-incomplete-uploads';
import { compliantBucket, compliantDirectoryBucket } from '../../../testing/aws';

const EXPECTED =
  'expected an enabled rule for every object (no filter, or an empty one) with abortIncompleteMultipartUpload.daysAfterInitiation';

const abort = (extra: Record<string, unknown> = {}) => ({
  id: 'abort',
  status: 'Enabled',
  abortIncompleteMultipartUpload: { daysAfterInitiation: 1 },
  ...extra,
});

describe('aws-s3-abort-incomplete-uploads', () => {
  it('passes buckets of both kinds that abort incomplete uploads of every object', async () => {
    expect(
      await violationsOf(awsS3AbortIncompleteUploads, [...compliantBucket(), ...compliantDirectoryBucket()]),
    ).toEqual([]);
  });

  it('passes a rule among others, with no filter or an empty prefix, and a day count unknown on a preview', async () => {
    const resources = compliantBucket({
      lifecycle: {
        rules: [
          { id: 'expire', status: 'Enabled', filter: {}, expiration: { days: 30 } },
          abort({
            filter: { prefix: '' },
            abortIncompleteMultipartUpload: { daysAfterInitiation: UNKNOWN_STRING },
          }),
        ],
      },
    });
    expect(await violationsOf(awsS3AbortIncompleteUploads, onPreview(resources))).toEqual([]);
    expect(
      await violationsOf(awsS3AbortIncompleteUploads, compliantBucket({ lifecycle: { rules: [abort()] } })),
    ).toEqual([]);
  });

  it('flags buckets with no lifecycle configuration', async () => {
    expect(
      await violationsOf(awsS3AbortIncompleteUploads, [
        ...compliantBucket({ lifecycle: null }),
        ...compliantDirectoryBucket({ lifecycle: null }),
      ]),
    ).toEqual([
      `bucket 'ckpt-bucket' has no BucketLifecycleConfiguration; ${EXPECTED}`,
      `bucket 'ckpt--use1-az4--x-s3' has no BucketLifecycleConfiguration; ${EXPECTED}`,
    ]);
  });

  it.each([
    [
      'expires objects but never aborts uploads',
      { id: 'expire', status: 'Enabled', expiration: { days: 30 } },
    ],
    ['aborts uploads under one prefix only', abort({ filter: { prefix: 'tmp/' } })],
    ['has its abort rule disabled', abort({ status: 'Disabled' })],
  ])('flags a lifecycle that %s', async (_title, lifecycleRule) => {
    expect(
      await violationsOf(
        awsS3AbortIncompleteUploads,
        compliantBucket({ lifecycle: { rules: [lifecycleRule] } }),
      ),
    ).toEqual([
      `BucketLifecycleConfiguration 'ckpt-bucket-lifecycle': no rule aborts incomplete multipart uploads; ${EXPECTED}`,
    ]);
  });
});
