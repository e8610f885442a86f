import { violationsOf } from '../../../testing';
import { gcpIamNoServiceAccountKeys } from './gcp-iam-no-service-account-keys';

describe('gcp-iam-no-service-account-keys', () => {
  it('passes a service account and its Workload Identity binding', async () => {
    expect(
      await violationsOf(gcpIamNoServiceAccountKeys, [
        { type: 'gcp:serviceaccount/account:Account', props: { accountId: 'deploy-prod' } },
        {
          type: 'gcp:serviceaccount/iAMMember:IAMMember',
          props: {
            serviceAccountId: 'projects/p/serviceAccounts/deploy-prod@p.iam.gserviceaccount.com',
            role: 'roles/iam.workloadIdentityUser',
            member:
              'principal://iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/github/subject/repo:acme/x:environment:prod',
          },
        },
      ]),
    ).toEqual([]);
  });

  it('flags a service account key', async () => {
    expect(
      await violationsOf(gcpIamNoServiceAccountKeys, [
        { type: 'gcp:serviceaccount/key:Key', props: { serviceAccountId: 'writer' } },
      ]),
    ).toEqual([
      'gcp:serviceaccount/key:Key creates a user-managed service account key; must not be used: use Workload Identity Federation or an attached service account',
    ]);
  });
});
