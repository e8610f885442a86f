import { standardTagSet, violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { awsS3NoAcls } from './aws-s3-no-acls';
import { BUCKET, T } from '../../../testing/aws';

const INSTEAD = 'access is granted by IAM and bucket policies only (object ownership BucketOwnerEnforced)';

describe('aws-s3-no-acls', () => {
  it('passes a bucket and an object with no ACL', async () => {
    expect(
      await violationsOf(awsS3NoAcls, [
        { type: T.bucket, props: { bucket: BUCKET, tags: standardTagSet() } },
        { type: 'aws:s3/bucketObjectv2:BucketObjectv2', props: { bucket: BUCKET, key: 'README' } },
      ]),
    ).toEqual([]);
  });

  it('flags ACL resources', async () => {
    expect(
      await violationsOf(awsS3NoAcls, [
        { type: 'aws:s3/bucketAclV2:BucketAclV2', props: { bucket: BUCKET, acl: 'private' } },
      ]),
    ).toEqual([`aws:s3/bucketAclV2:BucketAclV2 sets a legacy S3 ACL; expected no ACL resource: ${INSTEAD}`]);
  });

  it('flags a canned ACL, grants, and an ACL unknown on a preview', async () => {
    expect(
      await violationsOf(awsS3NoAcls, [
        {
          type: T.bucket,
          props: {
            bucket: BUCKET,
            acl: 'public-read',
            grants: [
              {
                type: 'Group',
                permissions: ['READ'],
                uri: 'http://acs.amazonaws.com/groups/global/AllUsers',
              },
            ],
          },
        },
      ]),
    ).toEqual([
      `acl is "public-read"; expected no acl: ${INSTEAD}`,
      `grants sets 1 ACL grant(s); expected none: ${INSTEAD}`,
    ]);
    expect(
      await violationsOf(
        awsS3NoAcls,
        onPreview([
          { type: 'aws:s3/bucketObject:BucketObject', props: { bucket: BUCKET, acl: UNKNOWN_STRING } },
        ]),
      ),
    ).toEqual([`acl is unknown during preview; expected no acl: ${INSTEAD}`]);
  });
});
