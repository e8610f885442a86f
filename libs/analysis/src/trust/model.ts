import type { Principal } from '../access/model';

/**
 * Who can become a CI identity, in cloud-neutral terms. Every cloud's file (aws.ts, gcp.ts, azure.ts) turns
 * what its renders hold (an IAM trust policy, a workload identity provider and its bindings, federated
 * credentials) into an IdentityTrust whose paths answer one question: does the cloud let this token in?
 * The rules never read a cloud's documents: they ask every path about the probe tokens below, the GitHub
 * Actions tokens a job of this repository, another repository or a renamed one can get, so that a
 * wildcard, an operator or a condition is judged by what it admits, not by how it is spelt.
 */

/**
 * The claims of a GitHub Actions OIDC token the clouds can match on.
 * https://docs.github.com/en/actions/reference/security/oidc (OIDC token claims: `sub`, `aud`,
 * `repository`, `repository_owner`, `repository_id`, `repository_owner_id`, `environment`, `event_name`,
 * `ref`, `job_workflow_ref`).
 */
export interface GithubTokenClaims {
  iss: string;
  aud: string;
  sub: string;
  repository: string;
  repository_owner: string;
  repository_id: string;
  repository_owner_id: string;
  event_name: string;
  ref: string;
  job_workflow_ref: string;
  environment?: string;
}

/** Where a probe token comes from, as the rules judge it. */
export type TokenOrigin =
  /** A job of this repository. */
  | 'this-repository'
  /** A job of another repository of the same owner. */
  | 'same-owner'
  /** A job of a repository of another owner. */
  | 'other-owner'
  /** A job of a repository that took this repository's name (and owner's name) after a rename: other ids. */
  | 'renamed';

/** What the job the token was minted for runs as. */
export type TokenContext =
  { kind: 'pull_request' } | { kind: 'environment'; name: string } | { kind: 'branch'; name: string };

export interface ProbeToken {
  origin: TokenOrigin;
  context: TokenContext;
  claims: GithubTokenClaims;
}

/** This repository as the probes name it; ids are the immutable numbers GitHub mints tokens with. */
export interface RepositoryRef {
  fullName: string;
  id?: string;
  ownerId?: string;
}

/** What a path says about one token: admitted or not, and what it assumed to say so (fail closed). */
export interface Admission {
  admitted: boolean;
  /** What could not be read or evaluated and was taken to admit the token. */
  assumed?: string;
}

/** One way into an identity: a trust policy statement, a binding, a federated credential. */
export interface TrustPath {
  /** In the cloud's words: `trust policy statement #1`, `federated credential github-pull-request`. */
  where: string;
  /** The subjects it names, as written (exact values or patterns), for the access table. */
  subjects: readonly string[];
  /** Whether it requires the immutable repository or owner id (or a subject that carries them). */
  bindsImmutableIds: boolean;
  admits(token: ProbeToken): Admission;
}

export interface IdentityTrust {
  identity: Principal;
  /** The audience the cloud's login step requests in its tokens (`sts.amazonaws.com` for AWS). */
  audience: string;
  paths: readonly TrustPath[];
  /**
   * Whether the cloud can bind the identity to the immutable repository ids: when it cannot (AWS trust
   * conditions read only `aud` and `sub`), a path that binds only the name is reported, not refused.
   */
  immutableIdsBindable: boolean;
  /** Why the cloud could bind them, or why it cannot: shown with the identity's trust. */
  immutableIdsNote: string;
}

/** A probe token a path admits. */
export interface Reach {
  token: ProbeToken;
  path: TrustPath;
  assumed?: string;
}

const ISSUER = 'https://token.actions.githubusercontent.com';
/** Owner and repository names no shipped configuration uses, standing for any other. */
const OTHER_OWNER = 'someone-else';
const OTHER_REPOSITORY = 'another-repository';
/** Ids standing for "not this repository's": GitHub's ids are positive integers. */
const OTHER_ID = '999999999';
const OTHER_OWNER_ID = '888888888';
const DEFAULT_ID = '100000001';
const DEFAULT_OWNER_ID = '100000002';

/**
 * The tokens a job can get: from this repository, another of its owner, another owner's, and a repository
 * that took this one's name; for a pull request, each deploy environment, the extra environments named
 * (drift) and an environment no one declared, and the default branch and another branch.
 * `sub` as GitHub's default template builds it: `repo:<owner>/<name>:pull_request`,
 * `repo:<owner>/<name>:environment:<env>`, `repo:<owner>/<name>:ref:refs/heads/<branch>`
 * (https://docs.github.com/en/actions/reference/security/oidc, "Example subject claims").
 */
export function probeTokens(
  repository: RepositoryRef,
  environments: readonly string[],
  audience: string,
): ProbeToken[] {
  const [owner = '', name = ''] = repository.fullName.split('/');
  const id = repository.id ?? DEFAULT_ID;
  const ownerId = repository.ownerId ?? DEFAULT_OWNER_ID;
  const origins: { origin: TokenOrigin; owner: string; name: string; id: string; ownerId: string }[] = [
    { origin: 'this-repository', owner, name, id, ownerId },
    { origin: 'same-owner', owner, name: OTHER_REPOSITORY, id: OTHER_ID, ownerId },
    { origin: 'other-owner', owner: OTHER_OWNER, name, id: OTHER_ID, ownerId: OTHER_OWNER_ID },
    { origin: 'renamed', owner, name, id: OTHER_ID, ownerId: OTHER_OWNER_ID },
  ];
  const contexts: TokenContext[] = [
    { kind: 'pull_request' },
    ...[...new Set([...environments, 'undeclared-environment'])].map((environment): TokenContext => ({
      kind: 'environment',
      name: environment,
    })),
    { kind: 'branch', name: 'main' },
    { kind: 'branch', name: 'feature' },
  ];
  return origins.flatMap((from) =>
    contexts.map((context): ProbeToken => {
      const fullName = `${from.owner}/${from.name}`;
      const ref = context.kind === 'branch' ? `refs/heads/${context.name}` : 'refs/heads/main';
      return {
        origin: from.origin,
        context,
        claims: {
          iss: ISSUER,
          aud: audience,
          sub: `repo:${fullName}:${contextSubject(context)}`,
          repository: fullName,
          repository_owner: from.owner,
          repository_id: from.id,
          repository_owner_id: from.ownerId,
          event_name: context.kind === 'pull_request' ? 'pull_request' : 'push',
          ref,
          job_workflow_ref: `${fullName}/.github/workflows/ci.yml@${ref}`,
          ...(context.kind === 'environment' ? { environment: context.name } : {}),
        },
      };
    }),
  );
}

function contextSubject(context: TokenContext): string {
  if (context.kind === 'pull_request') return 'pull_request';
  if (context.kind === 'environment') return `environment:${context.name}`;
  return `ref:refs/heads/${context.name}`;
}

/** Every probe token some path of the identity admits. */
export function reachOf(trust: IdentityTrust, tokens: readonly ProbeToken[]): Reach[] {
  return tokens.flatMap((token) =>
    trust.paths.flatMap((path) => {
      const admission = path.admits(token);
      return admission.admitted
        ? [{ token, path, ...(admission.assumed ? { assumed: admission.assumed } : {}) }]
        : [];
    }),
  );
}

/** A token in a reader's words: `a pull request of someone-else/checkpoint-storage`. */
export function tokenLabel(token: ProbeToken): string {
  const job =
    token.context.kind === 'pull_request'
      ? 'a pull request'
      : token.context.kind === 'environment'
        ? `a job in environment ${token.context.name}`
        : `a push to branch ${token.context.name}`;
  const from = {
    'this-repository': 'this repository',
    'same-owner': `another repository of the owner (${token.claims.repository})`,
    'other-owner': `a repository of another owner (${token.claims.repository})`,
    renamed: `a repository that took this one's name after a rename (${token.claims.repository}, id ${token.claims.repository_id})`,
  }[token.origin];
  return `${job} of ${from}`;
}

/** Why an identity's reach breaks the trust rules; one finding per token and path. */
export interface TrustFinding {
  identity: Principal;
  path: TrustPath;
  token: ProbeToken;
  why: string;
  assumed?: string;
}

/**
 * What may become a CI identity and must not: a token of any other repository (or a renamed one, where
 * the cloud can bind ids); for a deploy identity anything but its own environment of this repository;
 * for any identity but the preview one, a pull request.
 */
export function trustFindings(trust: IdentityTrust, tokens: readonly ProbeToken[]): TrustFinding[] {
  const { identity } = trust;
  return reachOf(trust, tokens).flatMap(({ token, path, assumed }): TrustFinding[] => {
    const why = forbiddenReach(trust, token);
    return why ? [{ identity, path, token, why, ...(assumed ? { assumed } : {}) }] : [];
  });
}

function forbiddenReach(trust: IdentityTrust, token: ProbeToken): string | undefined {
  const { identity } = trust;
  if (token.origin === 'same-owner' || token.origin === 'other-owner')
    return 'trusts another repository (a wildcard or foreign repository or owner)';
  if (token.origin === 'renamed' && trust.immutableIdsBindable)
    return 'trusts the repository by its renamable name, not its immutable id';
  if (token.origin === 'renamed') return undefined;
  if (token.context.kind === 'pull_request' && identity.kind !== 'ci-preview')
    return 'trusts pull-request jobs, which only the preview identity may';
  if (identity.kind === 'ci-deploy') {
    const own = token.context.kind === 'environment' && token.context.name === identity.environment;
    if (!own) return `trusts jobs outside its GitHub environment ${identity.environment ?? '?'}`;
  }
  return undefined;
}

/** This repository, as the CI identities name it: what their exact subjects agree on. */
export type RepositoryVerdict = { repository: string } | { why: string };

/**
 * The repository the identities' exact subjects (`repo:<owner>/<name>:...`, no wildcard) name. Not one
 * (none exact, or two repositories) is a verdict of its own: then nothing says which repository the
 * identities belong to, and the trust rules refuse the render (fail closed).
 */
export function repositoryOf(trusts: readonly IdentityTrust[]): RepositoryVerdict {
  const named = new Set(
    trusts.flatMap((trust) =>
      trust.paths.flatMap((path) =>
        path.subjects.flatMap((subject) => {
          const repository = /^repo:([^:*?]+\/[^:*?]+):[^*?]*$/.exec(subject)?.[1];
          return repository ? [repository] : [];
        }),
      ),
    ),
  );
  const [only, ...others] = [...named];
  if (only !== undefined && others.length === 0) return { repository: only };
  return {
    why:
      only === undefined
        ? 'no CI identity names its repository exactly (every subject is a pattern): which repository CI belongs to is unknown'
        : `the CI identities name different repositories (${[...named].sort().join(', ')})`,
  };
}

/** Every finding of every identity, each asked about the probe tokens of this repository's environments. */
export function judgeTrust(
  trusts: readonly IdentityTrust[],
  repository: RepositoryRef,
  extraEnvironments: readonly string[] = [],
): TrustFinding[] {
  const environments = [
    ...new Set([
      ...trusts.flatMap((trust) => (trust.identity.environment ? [trust.identity.environment] : [])),
      ...extraEnvironments,
    ]),
  ];
  return trusts.flatMap((trust) =>
    trustFindings(trust, probeTokens(repository, environments, trust.audience)),
  );
}

/**
 * Glob matching as IAM's StringLike and GitHub-style subject patterns mean it: `*` any run of characters
 * (`:` and `/` included), `?` one character.
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html#Conditions_String
 */
export function globMatches(pattern: string, value: string, caseInsensitive = false): boolean {
  const source = pattern
    .split('')
    .map((character) =>
      character === '*' ? '.*' : character === '?' ? '.' : character.replace(/[.+^${}()|[\]\\/-]/g, '\\$&'),
    )
    .join('');
  return new RegExp(`^${source}$`, caseInsensitive ? 'is' : 's').test(value);
}
