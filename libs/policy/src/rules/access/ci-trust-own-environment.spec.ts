import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, REPOSITORY, awsCiViolations, type CiRole } from '../../../testing/aws-ci';
import {
  AZURE_PRINCIPALS,
  GCP_POOL,
  azureDeployMatching,
  ciViolationsOf,
  gcpAccount,
  gcpDeployFederatedWith,
} from '../../../testing/ci-identities';
import { ciTrustOwnEnvironment } from './ci-trust-own-environment';

const violations = (...roles: CiRole[]) => awsCiViolations(ciTrustOwnEnvironment, storeFixture({}), roles);

describe('ci-trust-own-environment', () => {
  it('passes deploy roles trusting only their own environment', async () => {
    expect(await violations(...ALL_PURPOSES)).toEqual([]);
  });

  it('flags a prod deploy role trusting the dev environment and the main branch', async () => {
    expect(
      await violations(
        { purpose: 'preview' },
        { purpose: 'deploy-dev' },
        {
          purpose: 'deploy-prod',
          trust: [
            `repo:${REPOSITORY}:environment:prod`,
            `repo:${REPOSITORY}:environment:dev`,
            `repo:${REPOSITORY}:ref:refs/heads/main`,
          ],
        },
      ),
    ).toEqual([
      `ci deploy-prod (role/checkpoints-ci-deploy-prod): its trust policy statement #1 trusts jobs outside its GitHub environment prod: admits a job in environment dev of this repository (sub repo:${REPOSITORY}:environment:dev); a push to branch main of this repository (sub repo:${REPOSITORY}:ref:refs/heads/main)`,
    ]);
  });

  it('fails closed on a trust policy it cannot read (unknown at preview)', async () => {
    const found = await violations(
      { purpose: 'preview' },
      { purpose: 'deploy-dev' },
      { purpose: 'deploy-prod', trust: '[unknown]' as unknown as object },
    );
    expect(found).toEqual([
      expect.stringContaining(
        'ci deploy-prod (role/checkpoints-ci-deploy-prod): its trust policy trusts jobs outside its GitHub environment prod',
      ),
    ]);
    expect(found[0]).toContain(
      '(assumed: the trust policy is unknown or not a policy document: taken to trust any token)',
    );
  });
});

describe('ci-trust-own-environment on GCP and Azure', () => {
  const OUTSIDE = `trusts jobs outside its GitHub environment prod: admits a job in environment undeclared-environment of this repository (sub repo:${REPOSITORY}:environment:undeclared-environment); a push to branch main of this repository (sub repo:${REPOSITORY}:ref:refs/heads/main); a push to branch feature of this repository (sub repo:${REPOSITORY}:ref:refs/heads/feature)`;

  it("refuses the whole pool's principalSet bound to the GCP deploy account", async () => {
    const pool = `principalSet://iam.googleapis.com/${GCP_POOL}/*`;
    const render = gcpDeployFederatedWith(pool);
    expect(await ciViolationsOf(ciTrustOwnEnvironment, render)).toEqual([
      `ci deploy-prod (serviceAccount:${gcpAccount('deploy-prod')}): its iam.serviceAccounts.getAccessToken from roles/iam.workloadIdentityUser on serviceAccounts/${gcpAccount('deploy-prod')} (IAMMember deploy-prod-federation-0) (${pool}) ${OUTSIDE}`,
    ]);
  });

  it('counts an Azure claims expression it cannot evaluate as admitting, and says so', async () => {
    const render = azureDeployMatching("claims['ref'] startswith 'refs/'");
    expect(await ciViolationsOf(ciTrustOwnEnvironment, render)).toEqual([
      `ci deploy-prod (${AZURE_PRINCIPALS['deploy-prod']}): its federated credential github-0 of checkpoints-ci-deploy-prod ${OUTSIDE} (assumed: claims expression 'claims['ref'] startswith 'refs/'' is not evaluated here: counted as admitting)`,
    ]);
  });
});
