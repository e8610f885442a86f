import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, REPOSITORY, awsCiViolations, type CiRole } from '../../../testing/aws-ci';
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
