import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, REPOSITORY, awsCiViolations, type CiRole } from '../../../testing/aws-ci';
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
