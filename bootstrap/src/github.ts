import type { Environment } from '@checkpoints/config';
import type { Repository } from './config';

/** Issuer of the OIDC tokens GitHub Actions mints for a job (`permissions: id-token: write`). */
export const GITHUB_OIDC_ISSUER = 'https://token.actions.githubusercontent.com';
/** The issuer as AWS names it in condition keys: `<host>:aud`, `<host>:sub`. */
export const GITHUB_OIDC_HOST = 'token.actions.githubusercontent.com';

/** Audience of the tokens CI exchanges with each cloud: what `aws-actions/configure-aws-credentials` and `azure/login` request. */
export const AWS_STS_AUDIENCE = 'sts.amazonaws.com';
export const AZURE_TOKEN_EXCHANGE_AUDIENCE = 'api://AzureADTokenExchange';

/**
 * The GitHub environment the nightly drift workflow (`.github/workflows/drift.yml`) runs its jobs in, with
 * the read-only preview identities. Restricted to the main branch, it is what keeps a workflow of any
 * other branch from minting the drift subject. Never one of the deploy environments (dev | staging |
 * prod): a deploy identity must not trust it.
 */
export const DRIFT_ENVIRONMENT = 'drift';

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

/** `sub` of a job of the nightly drift workflow, which declares `environment: drift`. */
export function driftSubject(repository: Repository): string {
  return `repo:${repository.fullName}:environment:${DRIFT_ENVIRONMENT}`;
}

/**
 * A token subject an identity trusts. `key` names what trusting it takes where a cloud needs one
 * resource per subject: the Azure federated credential `github-<key>`, for instance.
 */
export interface TrustedSubject {
  key: string;
  subject: string;
}

/**
 * The subjects the read-only preview identities trust, exactly: pull requests (pr.yml) and the drift
 * environment (drift.yml). The first is the one they always trusted; resources named after it keep
 * their names.
 */
export function previewSubjects(repository: Repository): [TrustedSubject, ...TrustedSubject[]] {
  return [
    { key: 'pull-request', subject: pullRequestSubject(repository) },
    { key: `environment-${DRIFT_ENVIRONMENT}`, subject: driftSubject(repository) },
  ];
}

/** The one subject the deploy identity of an environment trusts. */
export function deploySubjects(
  repository: Repository,
  environment: Environment,
): [TrustedSubject, ...TrustedSubject[]] {
  return [{ key: `environment-${environment}`, subject: environmentSubject(repository, environment) }];
}
