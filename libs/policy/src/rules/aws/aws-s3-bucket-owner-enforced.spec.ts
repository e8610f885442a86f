import { violationsOf } from '../../../testing';
import { onPreview } from '../../../testing/rules';
import { awsS3BucketOwnerEnforced } from './aws-s3-bucket-owner-enforced';
import { compliantBucket, compliantDirectoryBucket } from '../../../testing/aws';

describe('aws-s3-bucket-owner-enforced', () => {
  it('passes a bucket with BucketOwnerEnforced, also on a preview', async () => {
    expect(await violationsOf(awsS3BucketOwnerEnforced, compliantBucket())).toEqual([]);
    expect(await violationsOf(awsS3BucketOwnerEnforced, onPreview(compliantBucket()))).toEqual([]);
  });

  it('leaves directory buckets alone: their ownership is always BucketOwnerEnforced', async () => {
    expect(await violationsOf(awsS3BucketOwnerEnforced, compliantDirectoryBucket())).toEqual([]);
  });

  it('flags a bucket with no ownership controls', async () => {
    expect(await violationsOf(awsS3BucketOwnerEnforced, compliantBucket({ ownership: null }))).toEqual([
      `bucket 'ckpt-bucket' has no BucketOwnershipControls; expected rule.objectOwnership "BucketOwnerEnforced" (ACLs disabled)`,
    ]);
  });

  it('flags ownership that keeps ACLs working', async () => {
    expect(
      await violationsOf(
        awsS3BucketOwnerEnforced,
        compliantBucket({ ownership: { rule: { objectOwnership: 'ObjectWriter' } } }),
      ),
    ).toEqual([
      `BucketOwnershipControls 'ckpt-bucket-ownership': rule.objectOwnership is "ObjectWriter"; expected "BucketOwnerEnforced" (ACLs disabled)`,
    ]);
  });
});
