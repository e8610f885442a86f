import { violationsOf } from '../../../testing';
import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, REPOSITORY, awsCiViolations, type CiRole } from '../../../testing/aws-ci';
import {
  AZURE_PRINCIPALS,
  GCP_POOL,
  azureCiResources,
  ciBootstrap,
  ciViolationsOf,
  gcpAccount,
  gcpCiResources,
  gcpDeployFederatedWith,
  gcpSubject,
} from '../../../testing/ci-identities';
import { ciTrustPullRequestsPreviewOnly } from './ci-trust-pull-requests-preview-only';

const violations = (...roles: CiRole[]) =>
  awsCiViolations(ciTrustPullRequestsPreviewOnly, storeFixture({}), roles);

describe('ci-trust-pull-requests-preview-only', () => {
  it('passes pull requests reaching the preview role only', async () => {
    expect(await violations(...ALL_PURPOSES)).toEqual([]);
  });

  it('flags a deploy role that also trusts pull requests', async () => {
    expect(
      await violations(
        { purpose: 'preview' },
        { purpose: 'deploy-dev' },
        {
          purpose: 'deploy-prod',
          trust: [`repo:${REPOSITORY}:environment:prod`, `repo:${REPOSITORY}:pull_request`],
        },
      ),
    ).toEqual([
      `ci deploy-prod (role/checkpoints-ci-deploy-prod): its trust policy statement #1 trusts pull-request jobs, which only the preview identity may: admits a pull request of this repository (sub repo:${REPOSITORY}:pull_request)`,
    ]);
  });
});

describe('ci-trust-pull-requests-preview-only on GCP and Azure', () => {
  const PULL_REQUEST = `repo:${REPOSITORY}:pull_request`;
  const DEPLOY_ACCOUNT = `serviceAccount:${gcpAccount('deploy-prod')}`;
  const federation = (binding: string, member: string) =>
    `iam.serviceAccounts.getAccessToken from roles/iam.workloadIdentityUser on serviceAccounts/${gcpAccount('deploy-prod')} (IAMMember ${binding}) (${member})`;

  it('refuses a GCP deploy account that trusts pull requests, naming the identity, the binding and the permission', async () => {
    const render = gcpCiResources({
      subjects: {
        preview: [PULL_REQUEST],
        'deploy-prod': [`repo:${REPOSITORY}:environment:prod`, PULL_REQUEST],
      },
    });
    expect(await ciViolationsOf(ciTrustPullRequestsPreviewOnly, render)).toEqual([
      `ci deploy-prod (${DEPLOY_ACCOUNT}): its ${federation('deploy-prod-federation-1', gcpSubject(PULL_REQUEST))} trusts pull-request jobs, which only the preview identity may: admits a pull request of this repository (sub ${PULL_REQUEST})`,
    ]);
  });

  it("refuses the whole pool's principalSet bound to the GCP deploy account", async () => {
    const pool = `principalSet://iam.googleapis.com/${GCP_POOL}/*`;
    const render = gcpDeployFederatedWith(pool);
    expect(await ciViolationsOf(ciTrustPullRequestsPreviewOnly, render)).toEqual([
      `ci deploy-prod (${DEPLOY_ACCOUNT}): its ${federation('deploy-prod-federation-0', pool)} trusts pull-request jobs, which only the preview identity may: admits a pull request of this repository (sub ${PULL_REQUEST})`,
    ]);
  });

  it('refuses an Azure deploy identity federated with pull requests, naming the identity and the credential', async () => {
    const render = azureCiResources({
      credentials: {
        preview: [{ subject: PULL_REQUEST }],
        'deploy-prod': [{ subject: `repo:${REPOSITORY}:environment:prod` }, { subject: PULL_REQUEST }],
      },
    });
    expect(await ciViolationsOf(ciTrustPullRequestsPreviewOnly, render)).toEqual([
      `ci deploy-prod (${AZURE_PRINCIPALS['deploy-prod']}): its federated credential github-1 of checkpoints-ci-deploy-prod trusts pull-request jobs, which only the preview identity may: admits a pull request of this repository (sub ${PULL_REQUEST})`,
    ]);
  });

  it('judges the bootstrap render synthesized alone, with no bootstrap render configured', async () => {
    const { resources, file } = ciBootstrap(
      azureCiResources({
        credentials: { preview: [{ subject: PULL_REQUEST }], 'deploy-prod': [{ subject: PULL_REQUEST }] },
      }),
    );
    file.remove();
    expect(await violationsOf(ciTrustPullRequestsPreviewOnly, resources)).toEqual([
      expect.stringMatching(
        /^ci deploy-prod \(.*\): its federated credential github-0 .* trusts pull-request jobs/,
      ),
    ]);
  });
});
