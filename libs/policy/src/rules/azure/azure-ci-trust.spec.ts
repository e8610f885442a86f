import { azureCiResources, ciViolationsOf } from '../../../testing/ci-identities';
import { azureCiTrust } from './azure-ci-trust';

const judge = (options: Parameters<typeof azureCiResources>[0]) =>
  ciViolationsOf(azureCiTrust, azureCiResources(options));
const PULL_REQUEST = 'repo:acme/checkpoint-storage:pull_request';

describe('azure-ci-trust', () => {
  it('passes deploy-prod federated with its environment only and the preview identity with pull requests', async () => {
    expect(await judge({})).toEqual([]);
  });

  it('flags a deploy identity federated with pull requests, naming the identity and the credential', async () => {
    expect(
      await judge({
        credentials: {
          preview: [{ subject: PULL_REQUEST }],
          'deploy-prod': [
            { subject: 'repo:acme/checkpoint-storage:environment:prod' },
            { subject: PULL_REQUEST },
          ],
        },
      }),
    ).toEqual([
      `ci deploy-prod trusts pull-request jobs, which only the preview identity may: a pull request of this repository (sub ${PULL_REQUEST}) gets in through federated credential github-1 of checkpoints-ci-deploy-prod`,
    ]);
  });

  it("flags a flexible credential whose claims expression admits the owner's every repository", async () => {
    const violations = await judge({
      credentials: {
        preview: [{ subject: PULL_REQUEST }],
        'deploy-prod': [
          { claimsMatchingExpression: { value: "claims['sub'] matches 'repo:acme/*'", languageVersion: 1 } },
        ],
      },
    });
    expect(violations.some((v) => v.startsWith('ci deploy-prod trusts another repository'))).toBe(true);
  });

  it('counts a claims expression it cannot evaluate as admitting, and says so', async () => {
    const violations = await judge({
      credentials: {
        preview: [{ subject: PULL_REQUEST }],
        'deploy-prod': [
          { claimsMatchingExpression: { value: "claims['ref'] startswith 'refs/'", languageVersion: 1 } },
        ],
      },
    });
    expect(violations.length).toBeGreaterThan(0);
    expect(violations.every((v) => v.includes('is not evaluated here: counted as admitting'))).toBe(true);
  });
});
