import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_BOOLEAN } from '../../../testing/rules';
import { gcpGcsUniformBucketLevelAccess } from './gcp-gcs-uniform-bucket-level-access';
import { BUCKET, hierarchicalBucket, versionedBucket } from '../../../testing/gcp';

describe('gcp-gcs-uniform-bucket-level-access', () => {
  it('passes both tiers of the store bucket', async () => {
    expect(
      await violationsOf(gcpGcsUniformBucketLevelAccess, [
        { type: BUCKET, props: versionedBucket() },
        { type: BUCKET, props: hierarchicalBucket() },
      ]),
    ).toEqual([]);
  });

  it.each<[unknown, string]>([
    [false, 'uniformBucketLevelAccess is false; must be true (IAM only, no ACLs)'],
    [undefined, 'uniformBucketLevelAccess is not set; must be true (IAM only, no ACLs)'],
    ['true', 'uniformBucketLevelAccess is "true"; must be true (IAM only, no ACLs)'],
  ])('flags uniformBucketLevelAccess %j', async (value, message) => {
    expect(
      await violationsOf(gcpGcsUniformBucketLevelAccess, [
        { type: BUCKET, props: versionedBucket({ uniformBucketLevelAccess: value }) },
      ]),
    ).toEqual([message]);
  });

  it('flags a value unknown on a real preview', async () => {
    const props = previewProps(versionedBucket({ uniformBucketLevelAccess: UNKNOWN_BOOLEAN }));
    expect(await violationsOf(gcpGcsUniformBucketLevelAccess, [{ type: BUCKET, props }])).toEqual([
      'uniformBucketLevelAccess is unknown during preview; must be true (IAM only, no ACLs)',
    ]);
  });
});
