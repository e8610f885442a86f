import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { BUCKET, versionedBucket } from '../../../testing/gcp';
import { gcpGcsNoConvenienceAccess } from './gcp-gcs-no-convenience-access';

const STORE_URN = 'urn:pulumi:test::spec::checkpoints:gcp:CheckpointStore::llm-pretrain';
const NAME = 'checkpoints-gcp-prod-llm-pretrain-4300f0';
const LEGACY = [
  'roles/storage.legacyBucketReader',
  'roles/storage.legacyObjectReader',
  'roles/storage.legacyBucketOwner',
  'roles/storage.legacyObjectOwner',
];

/** A prod store's bucket, with `extra` resources of the store. */
function prodStore(extra: ResourceUnderTest[]): ResourceUnderTest[] {
  return [
    { type: 'checkpoints:gcp:CheckpointStore', name: 'llm-pretrain', props: {} },
    {
      type: BUCKET,
      name: 'llm-pretrain-bucket',
      parent: STORE_URN,
      props: versionedBucket({ project: 'ml-platform-prod-7310' }),
    },
    ...extra.map((resource) => ({ ...resource, parent: STORE_URN })),
  ];
}

const cleared = (roles: readonly string[]): ResourceUnderTest[] =>
  roles.map((role) => ({
    type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
    name: `llm-pretrain-no-${role}`,
    props: { bucket: NAME, role, members: [] },
  }));

describe('gcp-gcs-no-convenience-access', () => {
  it('passes a prod bucket whose legacy roles are bound to no one', async () => {
    expect(await violationsOf(gcpGcsNoConvenienceAccess, prodStore(cleared(LEGACY)))).toEqual([]);
  });

  it('flags the convenience binding a prod bucket keeps: project viewers read every object', async () => {
    const violations = await violationsOf(
      gcpGcsNoConvenienceAccess,
      prodStore(cleared(['roles/storage.legacyBucketOwner', 'roles/storage.legacyObjectOwner'])),
    );
    expect(violations).toEqual([
      'store llm-pretrain (prod): project viewers can read checkpoint data as holders of a basic role on the project: storage.objects.get from roles/storage.legacyObjectReader on buckets/checkpoints-gcp-prod-llm-pretrain-4300f0 (GCS default bucket policy (convenience values))',
    ]);
  });
});
