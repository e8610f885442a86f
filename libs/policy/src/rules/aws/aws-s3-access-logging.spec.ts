import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { FIXTURE_BUCKET, storeFixture } from '../../../testing/aws';
import { awsS3AccessLogging } from './aws-s3-access-logging';

const LOG_BUCKET = 'ckpt-access-log';

/** The stack's access log bucket and the store bucket's logging into it (`target` overrides the target). */
function logged(target = LOG_BUCKET): ResourceUnderTest[] {
  return [
    { type: 'aws:s3/bucket:Bucket', name: 'access-log-bucket', props: { bucket: LOG_BUCKET } },
    {
      type: 'aws:s3/bucketLogging:BucketLogging',
      name: 'ckpt-access-logging',
      props: { bucket: FIXTURE_BUCKET, targetBucket: target, targetPrefix: `${FIXTURE_BUCKET}/` },
    },
  ];
}

describe('aws-s3-access-logging', () => {
  it("passes an audited store whose bucket logs its requests into the stack's access log bucket", async () => {
    expect(await violationsOf(awsS3AccessLogging, [...storeFixture({ key: true }), ...logged()])).toEqual([]);
  });

  it('flags an audited store bucket without server access logging', async () => {
    expect(await violationsOf(awsS3AccessLogging, storeFixture({ key: true }))).toEqual([
      'store ckpt: store bucket ckpt-bucket: no server access logging (BucketLogging) (S3.9)',
    ]);
  });

  it('flags a bucket logging into itself, or into a bucket the render does not hold', async () => {
    expect(
      await violationsOf(awsS3AccessLogging, [...storeFixture({ key: true }), ...logged(FIXTURE_BUCKET)]),
    ).toEqual(['store ckpt: store bucket ckpt-bucket: logs into itself (S3.9)']);
    expect(
      await violationsOf(awsS3AccessLogging, [...storeFixture({ key: true }), ...logged('elsewhere')]),
    ).toEqual([
      'store ckpt: store bucket ckpt-bucket: access-log target elsewhere is not a bucket of the render (S3.9)',
    ]);
  });

  it('accepts an unaudited store without access logs (audit: false), as the compliance view declares', async () => {
    expect(
      await violationsOf(awsS3AccessLogging, storeFixture({ key: true, audit: false, environment: 'dev' })),
    ).toEqual([]);
  });
});
