import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, REPOSITORY, githubTrust, awsCiViolations, type CiRole } from '../../../testing/aws-ci';
import {
  GCP_POOL,
  azureDeployMatching,
  ciViolationsOf,
  gcpAccount,
  gcpDeployFederatedWith,
} from '../../../testing/ci-identities';
import { ciTrustThisRepository } from './ci-trust-this-repository';

const store = storeFixture({ key: true });

const violations = (...roles: CiRole[]) => awsCiViolations(ciTrustThisRepository, store, roles);

describe('ci-trust-this-repository', () => {
  it('passes the shipped trust: each role names this repository exactly', async () => {
    expect(await violations(...ALL_PURPOSES)).toEqual([]);
  });

  it('flags a wildcard owner in a StringLike subject', async () => {
    expect(
      await violations(
        { purpose: 'preview' },
        { purpose: 'deploy-dev' },
        {
          purpose: 'deploy-prod',
          trust: githubTrust(['repo:*/checkpoint-storage:environment:prod'], 'StringLike'),
        },
      ),
    ).toEqual([
      expect.stringMatching(
        /^ci deploy-prod \(role\/checkpoints-ci-deploy-prod\): its trust policy statement #1 trusts another repository \(a wildcard or foreign repository or owner\): admits a job in environment prod of a repository of another owner \(someone-else\/checkpoint-storage\)/,
      ),
    ]);
  });

  it('fails closed when the roles name two repositories: which one is CI’s is unknown', async () => {
    expect(
      await violations(
        { purpose: 'preview' },
        { purpose: 'deploy-dev' },
        { purpose: 'deploy-prod', trust: ['repo:evil/fork:environment:prod'] },
      ),
    ).toEqual([
      `CI trust not judged: the CI identities name different repositories (${REPOSITORY}, evil/fork)`,
    ]);
  });
});

describe('ci-trust-this-repository on GCP and Azure', () => {
  it("refuses a principalSet of the owner's repositories on the GCP deploy account: another repository of the owner gets in", async () => {
    const owner = `principalSet://iam.googleapis.com/${GCP_POOL}/attribute.repository_owner/acme`;
    const render = gcpDeployFederatedWith(owner, "assertion.repository_owner == 'acme'");
    expect(await ciViolationsOf(ciTrustThisRepository, render)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^ci deploy-prod \\(serviceAccount:${gcpAccount('deploy-prod')}\\): its iam\\.serviceAccounts\\.getAccessToken from roles/iam\\.workloadIdentityUser .*\\(IAMMember deploy-prod-federation-0\\) .* trusts another repository \\(a wildcard or foreign repository or owner\\): admits a pull request of another repository of the owner \\(acme/another-repository\\)`,
        ),
      ),
    ]);
  });

  it("refuses an Azure flexible credential whose claims expression admits the owner's every repository", async () => {
    const render = azureDeployMatching("claims['sub'] matches 'repo:acme/*'");
    expect(await ciViolationsOf(ciTrustThisRepository, render)).toEqual([
      expect.stringMatching(
        /^ci deploy-prod \(10000000-0000-4000-8000-000000000003\): its federated credential github-0 of checkpoints-ci-deploy-prod trusts another repository \(a wildcard or foreign repository or owner\): admits a pull request of another repository of the owner \(acme\/another-repository\)/,
      ),
    ]);
  });
});
