import type { RenderedResource } from '@checkpoints/render';
import { bindingsOf, deniesIt, denyRulesOf, gcpPermissionFinder } from '../access/gcp';
import { ciPrincipal, stringInput, type Principal } from '../access/model';
import type { CiChange } from './changes';
import type {
  Admission,
  GithubTokenClaims,
  IdentityTrust,
  ProbeToken,
  RepositoryRef,
  TrustPath,
} from './model';

/**
 * What lets a federated token act as a service account: a binding of a role holding
 * iam.serviceAccounts.getAccessToken (roles/iam.workloadIdentityUser) to a pool's principal or principalSet.
 * https://cloud.google.com/iam/docs/workload-identity-federation#impersonation
 */
const IMPERSONATE = 'iam.serviceAccounts.getAccessToken';

const IMMUTABLE_NOTE =
  "GCP attribute conditions read every claim of the token: a provider can require assertion.repository_id and assertion.repository_owner_id (https://cloud.google.com/iam/docs/workload-identity-federation-with-deployment-pipelines#github-actions, 'attribute conditions')";

interface Provider {
  pool: string;
  where: string;
  issuer: string | undefined;
  condition: string | undefined;
  mapping: Record<string, string>;
}

/** The CI service accounts of the bootstrap render (`preview`, `deploy-<env>`), by member. */
function ciAccounts(resources: readonly RenderedResource[]): { principal: Principal; email: string }[] {
  return resources.flatMap((account) => {
    if (account.type !== 'gcp:serviceaccount/account:Account') return [];
    const email = `${stringInput(account, 'accountId') ?? ''}@${stringInput(account, 'project') ?? ''}.iam.gserviceaccount.com`;
    const principal = ciPrincipal(account, `serviceAccount:${email}`);
    return principal ? [{ principal, email }] : [];
  });
}

function providersOf(resources: readonly RenderedResource[]): Provider[] {
  return resources.flatMap((r) => {
    if (r.type !== 'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider') return [];
    const oidc = r.inputs['oidc'] as { issuerUri?: unknown } | undefined;
    const mapping = r.inputs['attributeMapping'];
    return [
      {
        pool: stringInput(r, 'workloadIdentityPoolId') ?? '',
        where: `provider ${stringInput(r, 'workloadIdentityPoolProviderId') ?? r.name}`,
        issuer: typeof oidc?.issuerUri === 'string' ? oidc.issuerUri : undefined,
        condition: stringInput(r, 'attributeCondition'),
        mapping:
          mapping && typeof mapping === 'object'
            ? Object.fromEntries(
                Object.entries(mapping as Record<string, unknown>).filter(
                  (entry): entry is [string, string] => typeof entry[1] === 'string',
                ),
              )
            : {},
      },
    ];
  });
}

/** What a mapping or condition operand reads from the token; undefined when it is not a plain claim. */
function claimOf(expression: string, token: ProbeToken, mapping: Record<string, string>): string | undefined {
  const claim = /^assertion\.([a-z_]+)$/.exec(expression.trim())?.[1];
  if (claim) return token.claims[claim as keyof GithubTokenClaims];
  const attribute = /^(attribute\.[a-z_]+|google\.subject)$/.exec(expression.trim())?.[1];
  const mapped = attribute ? mapping[attribute] : undefined;
  return mapped === undefined ? undefined : claimOf(mapped, token, {});
}

/**
 * A provider's attribute condition (CEL) over one token: conjunctions and disjunctions of `==` and `!=`
 * between a claim (`assertion.x`, a mapped `attribute.x`) and a string literal, in parentheses or not.
 * Anything else cannot be evaluated here: the token counts as admitted and the verdict says so.
 * https://cloud.google.com/iam/docs/workload-identity-federation#conditions
 */
export function attributeConditionAdmits(
  condition: string | undefined,
  token: ProbeToken,
  mapping: Record<string, string>,
): Admission {
  if (condition === undefined || condition.trim() === '') return { admitted: true };
  const verdict = evaluate(condition, token, mapping);
  return verdict === undefined
    ? {
        admitted: true,
        assumed: `attribute condition '${condition}' is not evaluated here: counted as admitting`,
      }
    : { admitted: verdict };
}

function evaluate(text: string, token: ProbeToken, mapping: Record<string, string>): boolean | undefined {
  const expression = text.trim();
  const inner = stripParentheses(expression);
  if (inner !== expression) return evaluate(inner, token, mapping);
  for (const [operator, combine] of [
    ['||', (a: boolean[]) => a.some(Boolean)],
    ['&&', (a: boolean[]) => a.every(Boolean)],
  ] as const) {
    const parts = splitTopLevel(expression, operator);
    if (parts.length > 1) {
      const verdicts = parts.map((part) => evaluate(part, token, mapping));
      if (operator === '||' && verdicts.includes(true)) return true;
      if (operator === '&&' && verdicts.includes(false)) return false;
      return verdicts.includes(undefined) ? undefined : combine(verdicts as boolean[]);
    }
  }
  const comparison = /^([a-z_.]+)\s*(==|!=)\s*(['"])([^'"]*)\3$/.exec(expression);
  if (!comparison) return undefined;
  const value = claimOf(comparison[1] ?? '', token, mapping);
  if (value === undefined) return undefined;
  return comparison[2] === '==' ? value === comparison[4] : value !== comparison[4];
}

function stripParentheses(text: string): string {
  if (!text.startsWith('(') || !text.endsWith(')')) return text;
  let depth = 0;
  for (let at = 0; at < text.length; at += 1) {
    if (text[at] === '(') depth += 1;
    if (text[at] === ')') depth -= 1;
    if (depth === 0 && at < text.length - 1) return text;
  }
  return text.slice(1, -1).trim();
}

function splitTopLevel(text: string, operator: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let quote: string | undefined;
  let start = 0;
  for (let at = 0; at < text.length; at += 1) {
    const character = text[at];
    if (quote) {
      if (character === quote) quote = undefined;
      continue;
    }
    if (character === "'" || character === '"') quote = character;
    else if (character === '(') depth += 1;
    else if (character === ')') depth -= 1;
    else if (depth === 0 && text.startsWith(operator, at)) {
      parts.push(text.slice(start, at));
      start = at + operator.length;
      at += operator.length - 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}

const POOL_MEMBER =
  /^(principal|principalSet):\/\/iam\.googleapis\.com\/projects\/[^/]+\/locations\/global\/workloadIdentityPools\/([^/]+)\/(.+)$/;

/**
 * One binding's member as a trust path: `principal://.../subject/S` admits the tokens whose mapped
 * google.subject is S, `principalSet://.../attribute.A/V` those whose mapped attribute A is V,
 * `principalSet://.../*` every token of the pool; each only if one of the pool's providers admits the
 * token first (issuer and attribute condition). https://cloud.google.com/iam/docs/principal-identifiers
 */
function memberPath(member: string, where: string, providers: readonly Provider[]): TrustPath | undefined {
  const match = POOL_MEMBER.exec(member);
  if (!match) return undefined;
  const [, kind, pool, rest = ''] = match;
  const own = providers.filter((provider) => provider.pool === pool);
  const subject = kind === 'principal' ? /^subject\/(.+)$/.exec(rest)?.[1] : undefined;
  const attribute = kind === 'principalSet' ? /^(attribute\.[a-z_]+)\/(.+)$/.exec(rest) : undefined;
  const bindsIds = (provider: Provider) =>
    /assertion\.repository_id\s*==/.test(provider.condition ?? '') ||
    /^attribute\.repository(_owner)?_id$/.test(attribute?.[1] ?? '');
  return {
    where: `${where} (${member})`,
    subjects: subject ? [subject] : attribute ? [`${attribute[1]}=${attribute[2]}`] : [rest],
    bindsImmutableIds: own.length > 0 && own.every(bindsIds),
    admits: (token) => {
      for (const provider of own) {
        if (provider.issuer !== undefined && provider.issuer !== token.claims.iss) continue;
        const admission = attributeConditionAdmits(provider.condition, token, provider.mapping);
        if (!admission.admitted) continue;
        const assumed = [admission.assumed];
        let matches: boolean;
        if (subject !== undefined) {
          const mapped = claimOf('google.subject', token, provider.mapping);
          if (mapped === undefined)
            assumed.push(
              `google.subject mapping ${provider.mapping['google.subject'] ?? '(none)'} is not a claim: counted as matching`,
            );
          matches = mapped === undefined || mapped === subject;
        } else if (attribute) {
          const mapped = claimOf(attribute[1] ?? '', token, provider.mapping);
          if (mapped === undefined)
            assumed.push(`${attribute[1] ?? ''} is not mapped from a claim: counted as matching`);
          matches = mapped === undefined || mapped === attribute[2];
        } else {
          matches = true;
          if (rest !== '*')
            assumed.push(`principalSet ${rest} is not evaluated here: counted as every token of the pool`);
        }
        if (!matches) continue;
        const said = assumed.filter((text): text is string => text !== undefined);
        return { admitted: true, ...(said.length > 0 ? { assumed: said.join('; ') } : {}) };
      }
      return { admitted: false };
    },
  };
}

/**
 * This repository as the probes of the trust rules name it: its name, and the immutable IDs the providers'
 * attribute conditions pin, if they do (a token of other IDs is then another repository's).
 */
export function gcpCiRepository(resources: readonly RenderedResource[], fullName: string): RepositoryRef {
  const conditions = providersOf(resources).map((provider) => provider.condition ?? '');
  const pinned = (claim: string) =>
    conditions
      .map((condition) => new RegExp(`assertion\\.${claim}\\s*==\\s*'(\\d+)'`).exec(condition)?.[1])
      .find((id) => id !== undefined);
  const id = pinned('repository_id');
  const ownerId = pinned('repository_owner_id');
  return { fullName, ...(id ? { id } : {}), ...(ownerId ? { ownerId } : {}) };
}

/** Who can become each CI service account of the bootstrap render: its pool members and their providers. */
export function gcpCiTrust(resources: readonly RenderedResource[]): IdentityTrust[] {
  const providers = providersOf(resources);
  const grantOf = gcpPermissionFinder(resources);
  const members = bindingsOf(resources).map((binding) => binding.member);
  return ciAccounts(resources).map(({ principal, email }) => {
    const scopes = [`serviceAccounts/${email}`, `projects/${projectOf(email)}`];
    const paths = [...new Set(members)].flatMap((member) => {
      const reason = POOL_MEMBER.test(member) ? grantOf(member, scopes, IMPERSONATE) : undefined;
      const path = reason ? memberPath(member, reason, providers) : undefined;
      return path ? [path] : [];
    });
    return {
      cloud: 'gcp' as const,
      identity: principal,
      audience: providers[0] ? `https://iam.googleapis.com/${providers[0].pool}` : 'unknown',
      paths,
      immutableIdsBindable: true,
      immutableIdsNote: IMMUTABLE_NOTE,
    };
  });
}

const KEY_POLICY = new Set(['cloudkms.cryptoKeys.setIamPolicy', 'cloudkms.keyRings.setIamPolicy']);
/** What roles/cloudkms.admin holds that loses data (https://cloud.google.com/kms/docs/reference/permissions-and-roles). */
const KEY_ADMIN_POWERS = ['cloudkms.cryptoKeyVersions.destroy', 'cloudkms.cryptoKeyVersions.update'];

const TOKEN_PERMISSIONS = new Set([
  'iam.serviceAccounts.getAccessToken',
  'iam.serviceAccounts.signJwt',
  'iam.serviceAccounts.implicitDelegation',
]);

/** The project of a service account's email (`name@project.iam.gserviceaccount.com`). */
function projectOf(email: string): string {
  return email.split('@')[1]?.split('.')[0] ?? '';
}

/**
 * The permissions that change who CI is or what it may do, per the IAM, Resource Manager and Cloud KMS
 * permission references (https://cloud.google.com/iam/docs/permissions-reference): a service account's IAM
 * policy and keys (https://cloud.google.com/iam/docs/service-account-permissions), the pool and its
 * providers (https://cloud.google.com/iam/docs/manage-workload-identity-pools-providers#required-roles), a
 * project's allow policy, the custom roles CI holds (https://cloud.google.com/iam/docs/creating-custom-roles),
 * the deny policies that guard it (https://cloud.google.com/iam/docs/deny-access#required-permissions), and
 * a key's IAM policy, with which it can make itself the key's admin
 * (https://cloud.google.com/kms/docs/reference/permissions-and-roles).
 */
const CI_CHANGES: readonly {
  target: (ci: string) => string;
  on: 'account' | 'ci-project' | 'stack-project';
  permission: string;
}[] = [
  {
    target: (ci) => `the IAM policy of ${ci}`,
    on: 'account',
    permission: 'iam.serviceAccounts.setIamPolicy',
  },
  { target: (ci) => `the keys of ${ci}`, on: 'account', permission: 'iam.serviceAccountKeys.create' },
  { target: (ci) => `the tokens of ${ci}`, on: 'account', permission: 'iam.serviceAccounts.getAccessToken' },
  { target: (ci) => `the tokens of ${ci}`, on: 'account', permission: 'iam.serviceAccounts.signJwt' },
  {
    target: (ci) => `the tokens of ${ci}`,
    on: 'account',
    permission: 'iam.serviceAccounts.implicitDelegation',
  },
  {
    target: () => 'the workload identity pool',
    on: 'ci-project',
    permission: 'iam.workloadIdentityPools.update',
  },
  {
    target: () => 'the workload identity providers',
    on: 'ci-project',
    permission: 'iam.workloadIdentityPoolProviders.update',
  },
  {
    target: () => 'the workload identity providers',
    on: 'ci-project',
    permission: 'iam.workloadIdentityPoolProviders.create',
  },
  {
    target: () => "CI's project IAM policy",
    on: 'ci-project',
    permission: 'resourcemanager.projects.setIamPolicy',
  },
  {
    target: () => "a stack project's IAM policy (CI's grants there)",
    on: 'stack-project',
    permission: 'resourcemanager.projects.setIamPolicy',
  },
  { target: () => "CI's custom roles", on: 'stack-project', permission: 'iam.roles.update' },
  {
    target: () => 'the deny policies that guard CI',
    on: 'stack-project',
    permission: 'iam.denypolicies.update',
  },
  {
    target: () => 'the deny policies that guard CI',
    on: 'stack-project',
    permission: 'iam.denypolicies.delete',
  },
  {
    target: () => "a store key's IAM policy (it can make itself the key's admin)",
    on: 'stack-project',
    permission: 'cloudkms.cryptoKeys.setIamPolicy',
  },
  {
    target: () => "a store key ring's IAM policy (it can make itself its keys' admin)",
    on: 'stack-project',
    permission: 'cloudkms.keyRings.setIamPolicy',
  },
];

/**
 * Every change a CI service account can make to a CI identity, its trust, its roles, its guards or a store
 * key's IAM policy, from the bootstrap's bindings and the render's (`resources` holds both).
 */
export function gcpCiChanges(resources: readonly RenderedResource[]): CiChange[] {
  const grantOf = gcpPermissionFinder(resources);
  const denies = denyRulesOf(resources);
  const accounts = ciAccounts(resources);
  const ciProjects = [...new Set(accounts.map(({ email }) => projectOf(email)))];
  const stackProjects = [
    ...new Set(
      resources.flatMap((r) => {
        if (
          r.type !== 'gcp:projects/iAMCustomRole:IAMCustomRole' &&
          r.type !== 'gcp:projects/iAMMember:IAMMember'
        )
          return [];
        const project = stringInput(r, 'project');
        return project && !ciProjects.includes(project) ? [project] : [];
      }),
    ),
  ];
  return accounts.flatMap(({ principal }) =>
    CI_CHANGES.flatMap(({ target, on, permission }) => {
      const found: CiChange[] = [];
      // Minting its own tokens is what the identity is for: only another identity's are a change.
      const targets =
        on === 'account'
          ? accounts
              .filter((other) => !(TOKEN_PERMISSIONS.has(permission) && other.principal.id === principal.id))
              .map((other) => ({
                what: target(other.principal.label),
                scopes: [`serviceAccounts/${other.email}`, `projects/${projectOf(other.email)}`],
              }))
          : (on === 'ci-project' ? ciProjects : stackProjects).map((project) => ({
              what: target(''),
              scopes: [`projects/${project}`],
            }));
      for (const { what, scopes } of targets) {
        const reason = grantOf(principal.id, scopes, permission);
        if (!reason) continue;
        if (KEY_POLICY.has(permission)) {
          // Key admin adds disabling and destroying key versions: it is a change only where some of that is
          // neither denied to the identity nor already its own.
          const gained = KEY_ADMIN_POWERS.filter(
            (power) =>
              !grantOf(principal.id, scopes, power) &&
              !denies.some((rule) => deniesIt(rule, principal.id, power, scopes)),
          );
          if (gained.length === 0) continue;
          found.push({
            identity: principal,
            target: what,
            reason: `${reason}, and no deny policy denies it ${gained.join(' or ')}`,
          });
          continue;
        }
        found.push({ identity: principal, target: what, reason });
      }
      return found;
    }),
  );
}
