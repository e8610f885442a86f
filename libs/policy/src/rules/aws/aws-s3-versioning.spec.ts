import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { awsS3Versioning } from './aws-s3-versioning';
import { compliantBucket, compliantDirectoryBucket, T } from '../../../testing/aws';

describe('aws-s3-versioning', () => {
  it('passes a versioned bucket, also on a preview', async () => {
    expect(await violationsOf(awsS3Versioning, compliantBucket())).toEqual([]);
    expect(await violationsOf(awsS3Versioning, onPreview(compliantBucket()))).toEqual([]);
  });

  it('leaves directory buckets alone: they have no versioning', async () => {
    expect(await violationsOf(awsS3Versioning, compliantDirectoryBucket())).toEqual([]);
  });

  it('accepts the deprecated V2 type token', async () => {
    const resources = compliantBucket().map((resource) =>
      resource.type === T.versioning
        ? { ...resource, type: 'aws:s3/bucketVersioningV2:BucketVersioningV2' }
        : resource,
    );
    expect(await violationsOf(awsS3Versioning, resources)).toEqual([]);
  });

  it('flags an unversioned bucket', async () => {
    expect(await violationsOf(awsS3Versioning, compliantBucket({ versioning: null }))).toEqual([
      `bucket 'ckpt-bucket' has no BucketVersioning; expected versioningConfiguration.status "Enabled"`,
    ]);
  });

  it('flags suspended or unknown versioning', async () => {
    expect(
      await violationsOf(
        awsS3Versioning,
        compliantBucket({ versioning: { versioningConfiguration: { status: 'Suspended' } } }),
      ),
    ).toEqual([
      `BucketVersioning 'ckpt-bucket-versioning': versioningConfiguration.status is "Suspended"; expected "Enabled"`,
    ]);
    expect(
      await violationsOf(
        awsS3Versioning,
        onPreview(compliantBucket({ versioning: { versioningConfiguration: UNKNOWN_STRING } })),
      ),
    ).toEqual([
      `BucketVersioning 'ckpt-bucket-versioning': versioningConfiguration.status is unknown during preview; expected "Enabled"`,
    ]);
  });
});
