import { violationsOf } from '../../../testing';
import { gcpGcsNoBucketObjects } from './gcp-gcs-no-bucket-objects';
import { BUCKET, versionedBucket } from '../../../testing/gcp';

describe('gcp-gcs-no-bucket-objects', () => {
  it('passes a bucket', async () => {
    expect(await violationsOf(gcpGcsNoBucketObjects, [{ type: BUCKET, props: versionedBucket() }])).toEqual(
      [],
    );
  });

  it('flags an object created by the stack', async () => {
    expect(
      await violationsOf(gcpGcsNoBucketObjects, [
        {
          type: 'gcp:storage/bucketObject:BucketObject',
          props: { bucket: 'checkpoints', name: 'step-0/README', content: 'hello' },
        },
      ]),
    ).toEqual([
      'gcp:storage/bucketObject:BucketObject makes the stack own an object in a bucket; must not be used: objects are written by the jobs that use the store, never by a deploy',
    ]);
  });
});
