import { violationsOf } from '../../../testing';
import { gcpGcsNoLegacyAcls } from './gcp-gcs-no-legacy-acls';
import { BUCKET, versionedBucket } from '../../../testing/gcp';

describe('gcp-gcs-no-legacy-acls', () => {
  it('passes a bucket and its IAM grants', async () => {
    expect(
      await violationsOf(gcpGcsNoLegacyAcls, [
        { type: BUCKET, props: versionedBucket() },
        {
          type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
          props: { bucket: 'b', role: 'roles/storage.objectViewer', member: 'group:ml-eval@example.com' },
        },
      ]),
    ).toEqual([]);
  });

  it.each([
    'gcp:storage/bucketAccessControl:BucketAccessControl',
    'gcp:storage/defaultObjectACL:DefaultObjectACL',
    'gcp:storage/defaultObjectAccessControl:DefaultObjectAccessControl',
    'gcp:storage/objectAccessControl:ObjectAccessControl',
  ])('flags %s', async (type) => {
    expect(
      await violationsOf(gcpGcsNoLegacyAcls, [
        { type, props: { bucket: 'b', entity: 'allUsers', role: 'READER' } },
      ]),
    ).toEqual([
      `${type} manages legacy ACLs; must not be used: grant access with IAM on the bucket (BucketIAMMember with a roles/storage.object* role)`,
    ]);
  });

  it('flags a bucket ACL and its canned ACL', async () => {
    expect(
      await violationsOf(gcpGcsNoLegacyAcls, [
        { type: 'gcp:storage/bucketACL:BucketACL', props: { bucket: 'b', predefinedAcl: 'publicRead' } },
        { type: 'gcp:storage/objectACL:ObjectACL', props: { bucket: 'b', object: 'o', roleEntities: [] } },
      ]),
    ).toEqual([
      'gcp:storage/bucketACL:BucketACL manages legacy ACLs; must not be used: grant access with IAM on the bucket (BucketIAMMember with a roles/storage.object* role)',
      'predefinedAcl is "publicRead", a canned legacy ACL; must not be set',
      'gcp:storage/objectACL:ObjectACL manages legacy ACLs; must not be used: grant access with IAM on the bucket (BucketIAMMember with a roles/storage.object* role)',
    ]);
  });
});
