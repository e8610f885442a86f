import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { awsS3PublicAccessBlock } from './aws-s3-public-access-block';
import { BUCKET, compliantBucket, compliantDirectoryBucket, T } from '../../../testing/aws';

const FLAGS = 'blockPublicAcls, blockPublicPolicy, ignorePublicAcls, restrictPublicBuckets';

describe('aws-s3-public-access-block', () => {
  it('passes a bucket whose public access block sets all four flags', async () => {
    expect(await violationsOf(awsS3PublicAccessBlock, compliantBucket())).toEqual([]);
  });

  it('passes on a first preview: the block is linked to its bucket by propertyDependencies only', async () => {
    expect(await violationsOf(awsS3PublicAccessBlock, onPreview(compliantBucket()))).toEqual([]);
  });

  it('passes a block that names a known bucket without a property dependency', async () => {
    const [bucket] = compliantBucket({ publicAccessBlock: null });
    expect(
      await violationsOf(awsS3PublicAccessBlock, [
        bucket!,
        {
          type: T.publicAccessBlock,
          name: 'imported-block',
          props: {
            bucket: BUCKET,
            blockPublicAcls: true,
            blockPublicPolicy: true,
            ignorePublicAcls: true,
            restrictPublicBuckets: true,
          },
        },
      ]),
    ).toEqual([]);
  });

  it('leaves directory buckets alone: they always block public access', async () => {
    expect(await violationsOf(awsS3PublicAccessBlock, compliantDirectoryBucket())).toEqual([]);
  });

  it('flags a bucket with no public access block', async () => {
    expect(await violationsOf(awsS3PublicAccessBlock, compliantBucket({ publicAccessBlock: null }))).toEqual([
      `bucket 'ckpt-bucket' has no BucketPublicAccessBlock; expected one with ${FLAGS} all true`,
    ]);
  });

  it('flags flags that are off, not set, or unknown on a preview', async () => {
    const resources = compliantBucket({
      publicAccessBlock: {
        blockPublicAcls: true,
        blockPublicPolicy: false,
        ignorePublicAcls: UNKNOWN_BOOLEAN,
      },
    });
    expect(await violationsOf(awsS3PublicAccessBlock, onPreview(resources))).toEqual([
      "BucketPublicAccessBlock 'ckpt-bucket-publicAccessBlock': blockPublicPolicy is false, ignorePublicAcls is unknown during preview, restrictPublicBuckets is not set; " +
        `expected ${FLAGS} all true`,
    ]);
  });
});
