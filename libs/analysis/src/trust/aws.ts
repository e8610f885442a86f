import type { RenderedResource } from '@checkpoints/render';
import { ciPrincipal, jsonOf, stringInput } from '../access/model';
import { globMatches, type Admission, type IdentityTrust, type ProbeToken, type TrustPath } from './model';

/** GitHub's issuer as IAM names its condition keys: `token.actions.githubusercontent.com:sub`. */
const GITHUB_HOST = 'token.actions.githubusercontent.com';

/**
 * The claims IAM lets a trust policy read from a GitHub token: `aud` and `sub` only ("Support for custom
 * claims for OIDC is unavailable in AWS", https://docs.github.com/en/actions/how-tos/secure-your-work/security-harden-deployments/oidc-in-aws).
 * The repository's ids reach a condition only inside `sub`, when the repository's subject template is
 * customized to carry `repository_id` / `repository_owner_id` (GitHub's REST API
 * `PUT /repos/{owner}/{repo}/actions/oidc/customization/sub`), which the bootstrap does not manage.
 */
const TOKEN_KEYS: Record<string, keyof ProbeToken['claims']> = {
  [`${GITHUB_HOST}:aud`]: 'aud',
  [`${GITHUB_HOST}:sub`]: 'sub',
};

/** What aws-actions/configure-aws-credentials requests (https://github.com/aws-actions/configure-aws-credentials, `audience` input default). */
const STS_AUDIENCE = 'sts.amazonaws.com';

const IMMUTABLE_NOTE =
  "AWS trust conditions read only the token's aud and sub: the repository is bound by name (its ids reach IAM only through a customized subject template)";

interface TrustStatement {
  Sid?: string;
  Effect?: string;
  Principal?: unknown;
  NotPrincipal?: unknown;
  Action?: unknown;
  NotAction?: unknown;
  Condition?: unknown;
}

/** The trust of every CI role of the bootstrap render: who can assume it with a GitHub token. */
export function awsCiTrust(bootstrap: readonly RenderedResource[]): IdentityTrust[] {
  return bootstrap.flatMap((role): IdentityTrust[] => {
    if (role.type !== 'aws:iam/role:Role') return [];
    const name = stringInput(role, 'name') ?? role.name;
    const identity = ciPrincipal(role, `role/${name}`);
    if (!identity) return [];
    return [
      {
        cloud: 'aws',
        identity,
        audience: STS_AUDIENCE,
        paths: trustPaths(role),
        immutableIdsBindable: false,
        immutableIdsNote: IMMUTABLE_NOTE,
      },
    ];
  });
}

function trustPaths(role: RenderedResource): TrustPath[] {
  const document = jsonOf(role.inputs['assumeRolePolicy']) as { Statement?: unknown } | undefined;
  const list = document && typeof document === 'object' ? [document.Statement ?? []].flat() : undefined;
  if (!list || list.length === 0 || !list.every((statement) => statement && typeof statement === 'object')) {
    // Unknown at preview or not a policy document: whoever it names could be anyone.
    return [
      {
        where: 'trust policy',
        subjects: ['*'],
        bindsImmutableIds: false,
        admits: () => ({
          admitted: true,
          assumed: 'the trust policy is unknown or not a policy document: taken to trust any token',
        }),
      },
    ];
  }
  const statements = list as TrustStatement[];
  const denies = statements.filter((statement) => statement.Effect === 'Deny');
  return statements.flatMap((statement, index): TrustPath[] => {
    if (statement.Effect !== 'Allow' || !allowsWebIdentity(statement)) return [];
    const where = `trust policy ${statement.Sid ?? `statement #${index + 1}`}`;
    const federated = federatedProviders(statement);
    return [
      {
        where,
        subjects: subjectsOf(statement),
        bindsImmutableIds: false,
        admits: (token) => {
          const denied = denies.some(
            (deny) => allowsWebIdentity(deny) && conditionHolds(deny.Condition, token, 'deny').admitted,
          );
          if (denied) return { admitted: false };
          if (!federated.some((provider) => provider.endsWith(`oidc-provider/${GITHUB_HOST}`)))
            return {
              admitted: true,
              assumed: `it trusts ${JSON.stringify(statement.Principal ?? statement.NotPrincipal)}, not GitHub's OIDC provider alone: taken to admit any token`,
            };
          return conditionHolds(statement.Condition, token, 'allow');
        },
      },
    ];
  });
}

/** Whether the statement covers sts:AssumeRoleWithWebIdentity (Action or NotAction, wildcards as IAM matches them). */
function allowsWebIdentity(statement: TrustStatement): boolean {
  const matches = (names: unknown) =>
    [names]
      .flat()
      .some((name) => typeof name === 'string' && globMatches(name, 'sts:AssumeRoleWithWebIdentity', true));
  if (statement.NotAction !== undefined) return !matches(statement.NotAction);
  return matches(statement.Action);
}

/** The statement's principals; anything but a Federated provider list counts as `*`. */
function federatedProviders(statement: TrustStatement): string[] {
  if (statement.NotPrincipal !== undefined) return ['*'];
  const principal = statement.Principal;
  if (principal === '*' || principal === null || typeof principal !== 'object') return ['*'];
  const entries = Object.entries(principal as Record<string, unknown>);
  if (entries.some(([type]) => type !== 'Federated')) return ['*'];
  return entries.flatMap(([, ids]) => [ids].flat().map(String));
}

function subjectsOf(statement: TrustStatement): string[] {
  const condition = (statement.Condition ?? {}) as Record<string, Record<string, unknown>>;
  const subjects = Object.values(condition).flatMap((keys) =>
    keys && typeof keys === 'object' ? [keys[`${GITHUB_HOST}:sub`] ?? []].flat().map(String) : [],
  );
  return subjects.length > 0 ? subjects : ['* (no sub condition)'];
}

/**
 * Whether every condition of the block holds for the token. IAM's string operators over the claims IAM
 * reads (`aud`, `sub`, single-valued: `ForAnyValue:`/`ForAllValues:` behave as the plain operator on a
 * present key, `...IfExists` too), and `Null`. A key or operator this cannot evaluate is taken to hold
 * for an Allow (it could let the token in) and not to hold for a Deny (it could fail to stop it).
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html,
 * .../reference_policies_condition-single-vs-multi-valued-context-keys.html
 */
function conditionHolds(block: unknown, token: ProbeToken, effect: 'allow' | 'deny'): Admission {
  if (block === undefined) return { admitted: true };
  if (!block || typeof block !== 'object') return unevaluable(effect, `condition ${JSON.stringify(block)}`);
  const assumed: string[] = [];
  for (const [operator, keys] of Object.entries(block as Record<string, unknown>)) {
    if (!keys || typeof keys !== 'object') return unevaluable(effect, `condition operator ${operator}`);
    for (const [key, expected] of Object.entries(keys as Record<string, unknown>)) {
      const claim = TOKEN_KEYS[key];
      const verdict = claim
        ? operatorHolds(operator, token.claims[claim] ?? '', [expected].flat().map(String))
        : undefined;
      if (verdict === false) return { admitted: false };
      if (verdict === undefined) {
        if (effect === 'deny') return { admitted: false };
        assumed.push(`${operator} on ${key}`);
      }
    }
  }
  return assumed.length > 0
    ? { admitted: true, assumed: `could not evaluate ${assumed.join(', ')}: taken to hold` }
    : { admitted: true };
}

function unevaluable(effect: 'allow' | 'deny', what: string): Admission {
  return effect === 'deny'
    ? { admitted: false }
    : { admitted: true, assumed: `could not evaluate ${what}: taken to hold` };
}

function operatorHolds(operator: string, value: string, expected: readonly string[]): boolean | undefined {
  const base = operator.replace(/^For(AnyValue|AllValues):/, '').replace(/IfExists$/, '');
  switch (base) {
    case 'StringEquals':
      return expected.includes(value);
    case 'StringEqualsIgnoreCase':
      return expected.some((item) => item.toLowerCase() === value.toLowerCase());
    case 'StringLike':
      return expected.some((pattern) => globMatches(pattern, value));
    case 'StringNotEquals':
      return !expected.includes(value);
    case 'StringNotEqualsIgnoreCase':
      return !expected.some((item) => item.toLowerCase() === value.toLowerCase());
    case 'StringNotLike':
      return !expected.some((pattern) => globMatches(pattern, value));
    case 'Null':
      // The claim is present: `Null: false` holds, `Null: true` does not.
      return expected.every((item) => item === 'false');
    default:
      return undefined;
  }
}
