import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, REPOSITORY, githubTrust, awsCiViolations, type CiRole } from '../../../testing/aws-ci';
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
