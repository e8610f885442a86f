import { violationsOf } from '../../../testing';
import { ciViolationsOf, gcpCiResources, gcpSubject } from '../../../testing/ci-identities';
import { gcpCiTrust } from './gcp-ci-trust';

const judge = (options: Parameters<typeof gcpCiResources>[0]) =>
  ciViolationsOf(gcpCiTrust, gcpCiResources(options));

describe('gcp-ci-trust', () => {
  it('passes deploy-prod reachable from its environment only, pull requests from the preview account, ids pinned', async () => {
    expect(await judge({})).toEqual([]);
  });

  it('flags a deploy account that trusts pull requests, naming the identity, the binding and the permission', async () => {
    expect(
      await judge({
        subjects: {
          preview: ['repo:acme/checkpoint-storage:pull_request'],
          'deploy-prod': [
            'repo:acme/checkpoint-storage:environment:prod',
            'repo:acme/checkpoint-storage:pull_request',
          ],
        },
      }),
    ).toEqual([
      `ci deploy-prod trusts pull-request jobs, which only the preview identity may: a pull request of this repository (sub repo:acme/checkpoint-storage:pull_request) gets in through iam.serviceAccounts.getAccessToken from roles/iam.workloadIdentityUser on serviceAccounts/checkpoints-ci-deploy-prod@acme-checkpoints-ci.iam.gserviceaccount.com (IAMMember deploy-prod-federation-1) (${gcpSubject('repo:acme/checkpoint-storage:pull_request')})`,
    ]);
  });

  it('flags a provider without an attribute condition: a repository that takes the name gets in', async () => {
    const violations = await judge({ condition: '' });
    expect(
      violations.some((v) => v.startsWith('ci deploy-prod trusts the repository by its renamable name')),
    ).toBe(true);
  });

  it("flags a principalSet of the owner's repositories: another repository of the owner gets in", async () => {
    const owner =
      'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/checkpoints-ci/attribute.repository_owner/acme';
    const violations = await judge({
      condition: "assertion.repository_owner == 'acme'",
      subjects: { preview: ['repo:acme/checkpoint-storage:pull_request'], 'deploy-prod': [owner] },
    });
    expect(violations.some((v) => v.startsWith('ci deploy-prod trusts another repository'))).toBe(true);
  });

  it('flags a provider that pins the repository by name only', async () => {
    const violations = await judge({ condition: "assertion.repository == 'acme/checkpoint-storage'" });
    expect(violations.every((v) => v.includes('by its renamable name, not its immutable id'))).toBe(true);
    expect(violations).toHaveLength(2);
  });

  it('flags a principalSet of the whole pool bound to the deploy account', async () => {
    const pool =
      'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/checkpoints-ci/*';
    const violations = await judge({
      subjects: { preview: ['repo:acme/checkpoint-storage:pull_request'], 'deploy-prod': [pool] },
    });
    expect(violations.some((v) => v.startsWith('ci deploy-prod trusts pull-request jobs'))).toBe(true);
    expect(
      violations.some((v) => v.startsWith('ci deploy-prod trusts jobs outside its GitHub environment prod')),
    ).toBe(true);
  });

  it('says nothing of a render with no GCP store that is not the bootstrap', async () => {
    expect(await violationsOf(gcpCiTrust, [])).toEqual([]);
  });
});
