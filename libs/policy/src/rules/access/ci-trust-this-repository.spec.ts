import { violationsOf } from '../../../testing';
import { storeFixture } from '../../../testing/aws';
import { ALL_PURPOSES, REPOSITORY, githubTrust, withAwsCiBootstrap } from '../../../testing/aws-ci';
import { ciTrustThisRepository } from './ci-trust-this-repository';

const store = storeFixture({ key: true });

async function violations(...roles: Parameters<typeof withAwsCiBootstrap>[0]): Promise<string[]> {
  const bootstrap = withAwsCiBootstrap(roles);
  try {
    return await violationsOf(ciTrustThisRepository, store, {}, bootstrap.path);
  } finally {
    bootstrap.remove();
  }
}

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
