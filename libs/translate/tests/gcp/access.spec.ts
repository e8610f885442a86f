import { GCS_BUCKET_ROLES, gcsBucketGrants, type GcsBucketGrant } from '../../src/gcp/access';

describe('GCS_BUCKET_ROLES', () => {
  it('grants predefined object roles only', () => {
    expect(GCS_BUCKET_ROLES).toEqual({
      writer: 'roles/storage.objectUser',
      reader: 'roles/storage.objectViewer',
    });
  });
});

describe('gcsBucketGrants', () => {
  it.each<[string, { writers: string[]; readers: string[] }, GcsBucketGrant[]]>([
    ['nobody else', { writers: [], readers: [] }, []],
    [
      'a writer group and a reader service account',
      {
        writers: ['group:ml-training@example.com'],
        readers: ['serviceAccount:eval@ml-prod-4821.iam.gserviceaccount.com'],
      },
      [
        { purpose: 'writer', role: 'roles/storage.objectUser', member: 'group:ml-training@example.com' },
        {
          purpose: 'reader',
          role: 'roles/storage.objectViewer',
          member: 'serviceAccount:eval@ml-prod-4821.iam.gserviceaccount.com',
        },
      ],
    ],
    [
      'a GKE namespace writing through Workload Identity, read by a user too',
      {
        writers: [
          'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/ml-prod-4821.svc.id.goog/namespace/training',
        ],
        readers: ['user:alice@example.com', 'group:ml-eval@example.com'],
      },
      [
        {
          purpose: 'writer',
          role: 'roles/storage.objectUser',
          member:
            'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/ml-prod-4821.svc.id.goog/namespace/training',
        },
        { purpose: 'reader', role: 'roles/storage.objectViewer', member: 'user:alice@example.com' },
        { purpose: 'reader', role: 'roles/storage.objectViewer', member: 'group:ml-eval@example.com' },
      ],
    ],
  ])('%s', (_title, access, expected) => {
    expect(gcsBucketGrants(access)).toEqual(expected);
  });
});
