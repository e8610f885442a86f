import type { Environment } from '@checkpoints/config';
import type { Repository } from './config';

/** Issuer of the OIDC tokens GitHub Actions mints for a job (`permissions: id-token: write`). */
export const GITHUB_OIDC_ISSUER = 'https://token.actions.githubusercontent.com';
/** The issuer as AWS names it in condition keys: `<host>:aud`, `<host>:sub`. */
export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';

/** Audience of the tokens CI exchanges with each cloud: what `aws-actions/configure-aws-credentials` and `azure/login` request. */
export const AWS_STS_AUDIENCE = 'sts.amazonaws.com';
export const AZURE_TOKEN_EXCHANGE_AUDIENCE = 'api://AzureADTokenExchange';

/** `sub` of a job run for a pull request of the repository (the preview workflow). */
export function pullRequestSubject(repository: Repository): string {
  return `repo:${repository.fullName}:pull_request`;
}

/**
 * `sub` of a job that declares `environment: <env>`: GitHub mints it only once the environment's
 * protection rules (reviewers, branch policy) have passed, which is what gates a deploy.
 */
export function environmentSubject(repository: Repository, environment: Environment): string {
  return `repo:${repository.fullName}:environment:${environment}`;
}
