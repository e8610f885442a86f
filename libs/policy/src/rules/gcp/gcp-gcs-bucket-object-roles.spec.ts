import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_STRING } from '../../../testing/rules';
import { gcpGcsBucketObjectRoles } from './gcp-gcs-bucket-object-roles';

const EXPECTED =
  'must be one of roles/storage.objectViewer, roles/storage.objectCreator, roles/storage.objectUser';
const member = (role: string, type = 'gcp:storage/bucketIAMMember:BucketIAMMember') => ({
  type,
  props: { bucket: 'checkpoints-gcp-prod-llm-pretrain-4300f0', role, member: 'group:ml-eval@example.com' },
});

describe('gcp-gcs-bucket-object-roles', () => {
  it('passes object roles on buckets and managed folders, any predefined role at project level, and a legacy role bound to no one', async () => {
    expect(
      await violationsOf(gcpGcsBucketObjectRoles, [
        member('roles/storage.objectUser'),
        member('roles/storage.objectViewer'),
        member('roles/storage.objectCreator', 'gcp:storage/managedFolderIamMember:ManagedFolderIamMember'),
        member('roles/storage.admin', 'gcp:projects/iAMMember:IAMMember'),
        {
          type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
          props: { bucket: 'b', role: 'roles/storage.legacyObjectOwner', members: [] },
        },
        {
          type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
          props: previewProps({
            bucket: UNKNOWN_STRING,
            role: 'roles/storage.objectUser',
            member: UNKNOWN_STRING,
          }),
        },
      ]),
    ).toEqual([]);
  });

  it('flags bucket, admin and legacy roles on a bucket', async () => {
    expect(
      await violationsOf(gcpGcsBucketObjectRoles, [
        member('roles/storage.admin'),
        member('roles/storage.objectAdmin'),
        {
          type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
          props: { bucket: 'b', role: 'roles/storage.legacyBucketOwner', members: ['group:ml@example.com'] },
        },
        {
          type: 'gcp:storage/bucketIAMPolicy:BucketIAMPolicy',
          props: {
            bucket: 'b',
            policyData: JSON.stringify({
              bindings: [
                { role: 'roles/storage.objectViewer', members: ['group:ml@example.com'] },
                { role: 'projects/p/roles/checkpointAdmin', members: ['group:ml@example.com'] },
              ],
            }),
          },
        },
      ]),
    ).toEqual([
      `role "roles/storage.admin" on a bucket; ${EXPECTED}`,
      `role "roles/storage.objectAdmin" on a bucket; ${EXPECTED}`,
      `role "roles/storage.legacyBucketOwner" on a bucket; ${EXPECTED}`,
      `role "projects/p/roles/checkpointAdmin" on a bucket; ${EXPECTED}`,
    ]);
  });
});
