import { violationsOf } from '../../../testing';
import { previewProps, UNKNOWN_ARRAY, UNKNOWN_STRING } from '../../../testing/rules';
import { gcpIamNoPublicMembers } from './gcp-iam-no-public-members';

const EXPECTED = 'must name specific principals (user:, group:, serviceAccount:, principal://…)';

describe('gcp-iam-no-public-members', () => {
  it('passes the grants of the gcp-gcs stack and of bootstrap', async () => {
    expect(
      await violationsOf(gcpIamNoPublicMembers, [
        {
          type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
          props: {
            bucket: 'checkpoints-gcp-prod-llm-pretrain-hot-4c5d98',
            role: 'roles/storage.objectUser',
            member:
              'principalSet://iam.googleapis.com/projects/418230967154/locations/global/workloadIdentityPools/ml-platform-prod-7310.svc.id.goog/namespace/training',
          },
        },
        {
          type: 'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember',
          props: {
            cryptoKeyId: 'projects/p/locations/us-central1/keyRings/r/cryptoKeys/k',
            role: 'roles/cloudkms.cryptoKeyEncrypterDecrypter',
            member: 'serviceAccount:service-123456789012@gs-project-accounts.iam.gserviceaccount.com',
          },
        },
        {
          type: 'gcp:projects/iAMMember:IAMMember',
          props: {
            project: 'acme-checkpoints-ci',
            role: 'roles/storage.admin',
            member: 'serviceAccount:deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com',
          },
        },
      ]),
    ).toEqual([]);
  });

  it('flags public members in a member, a binding and a policy', async () => {
    expect(
      await violationsOf(gcpIamNoPublicMembers, [
        {
          type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
          props: { bucket: 'b', role: 'roles/storage.objectViewer', member: 'allUsers' },
        },
        {
          type: 'gcp:kms/cryptoKeyIAMBinding:CryptoKeyIAMBinding',
          props: {
            cryptoKeyId: 'k',
            role: 'roles/cloudkms.cryptoKeyDecrypter',
            members: ['group:ml@example.com', 'allAuthenticatedUsers'],
          },
        },
        {
          type: 'gcp:projects/iAMPolicy:IAMPolicy',
          props: {
            project: 'p',
            policyData: JSON.stringify({
              bindings: [
                { role: 'roles/storage.objectViewer', members: ['principalSet://goog/public:all'] },
                { role: 'roles/logging.viewer', members: ['group:ops@example.com'] },
              ],
            }),
          },
        },
      ]),
    ).toEqual([
      `member "allUsers" makes roles/storage.objectViewer public; ${EXPECTED}`,
      `member "allAuthenticatedUsers" makes roles/cloudkms.cryptoKeyDecrypter public; ${EXPECTED}`,
      `member "principalSet://goog/public:all" makes roles/storage.objectViewer public; ${EXPECTED}`,
    ]);
  });

  it('passes members not known yet on a real preview (checked again at pulumi up), and flags the known ones', async () => {
    expect(
      await violationsOf(gcpIamNoPublicMembers, [
        {
          type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
          props: previewProps({
            bucket: UNKNOWN_STRING,
            role: 'roles/storage.objectUser',
            member: UNKNOWN_STRING,
          }),
        },
        {
          type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
          props: previewProps({
            bucket: 'b',
            role: 'roles/storage.objectViewer',
            members: UNKNOWN_ARRAY,
          }),
        },
        {
          type: 'gcp:storage/bucketIAMPolicy:BucketIAMPolicy',
          props: previewProps({ bucket: 'b', policyData: UNKNOWN_STRING }),
        },
        {
          type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
          props: previewProps({
            bucket: 'b',
            role: 'roles/storage.objectViewer',
            members: [UNKNOWN_STRING, 'allUsers'],
          }),
        },
      ]),
    ).toEqual([`member "allUsers" makes roles/storage.objectViewer public; ${EXPECTED}`]);
  });
});
