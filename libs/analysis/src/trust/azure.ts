import type { RenderedResource } from '@checkpoints/render';
import { assignmentsOf, roleAnswers, roleDefinitionsOf, roleGuid, under } from '../access/azure';
import { evaluateCondition, readCondition } from '../access/azure-condition';
import { ciPrincipal, stringInput, type Principal } from '../access/model';
import { globMatches, type IdentityTrust, type TrustPath } from './model';
import type { CiChange } from './changes';

/** What azure/login requests (https://github.com/Azure/login#login-with-openid-connect-oidc-recommended). */
const TOKEN_EXCHANGE_AUDIENCE = 'api://AzureADTokenExchange';

const IMMUTABLE_NOTE =
  "Azure federated credentials match the token's issuer, subject and audience only (https://learn.microsoft.com/entra/workload-id/workload-identity-federation-create-trust); flexible credentials match claims['sub'] patterns (https://learn.microsoft.com/entra/workload-id/workload-identities-flexible-federated-identity-credentials): the repository is bound by name, its ids only through a customized subject template";

interface Credential {
  identity: string;
  name: string;
  issuer: string | undefined;
  subject: string | undefined;
  audiences: readonly string[];
  /** A flexible federated credential's claimsMatchingExpression. */
  expression: string | undefined;
}

function credentialsOf(resources: readonly RenderedResource[]): Credential[] {
  return resources.flatMap((r) => {
    if (r.type !== 'azure-native:managedidentity:FederatedIdentityCredential') return [];
    const audiences = r.inputs['audiences'];
    const expression = (r.inputs['claimsMatchingExpression'] as { value?: unknown } | undefined)?.value;
    return [
      {
        identity: stringInput(r, 'resourceName') ?? '',
        name: stringInput(r, 'federatedIdentityCredentialResourceName') ?? r.name,
        issuer: stringInput(r, 'issuer'),
        subject: stringInput(r, 'subject'),
        audiences: Array.isArray(audiences)
          ? audiences.filter((a): a is string => typeof a === 'string')
          : [],
        expression: typeof expression === 'string' ? expression : undefined,
      },
    ];
  });
}

/**
 * A flexible credential's expression, for the forms documented: `claims['sub'] matches 'pattern'` (`*` any
 * run) and `claims['sub'] eq 'value'`, joined by `and` / `or`. Anything else: admitted, and said so.
 */
function expressionAdmits(expression: string, sub: string): boolean | undefined {
  const verdicts = expression.split(/\s+or\s+/i).map((alternative) =>
    alternative.split(/\s+and\s+/i).map((term) => {
      const match = /^\(?\s*claims\['sub'\]\s+(matches|eq)\s+'([^']*)'\s*\)?$/i.exec(term.trim());
      if (!match) return undefined;
      return match[1]?.toLowerCase() === 'eq' ? sub === match[2] : globMatches(match[2] ?? '', sub);
    }),
  );
  if (verdicts.some((terms) => terms.every((v) => v === true))) return true;
  if (verdicts.every((terms) => terms.includes(false))) return false;
  return undefined;
}

/** One federated credential as a trust path: issuer, audience and subject (exactly, or the expression) must match. */
function credentialPath(credential: Credential): TrustPath {
  return {
    where: `federated credential ${credential.name} of ${credential.identity}`,
    subjects: [credential.subject ?? credential.expression ?? '(none)'],
    bindsImmutableIds: false,
    admits: (token) => {
      if (credential.issuer !== token.claims.iss) return { admitted: false };
      if (!credential.audiences.includes(token.claims.aud)) return { admitted: false };
      if (credential.subject !== undefined) return { admitted: credential.subject === token.claims.sub };
      if (credential.expression === undefined)
        return { admitted: true, assumed: 'neither a subject nor a claims expression: counted as admitting' };
      const verdict = expressionAdmits(credential.expression, token.claims.sub);
      return verdict === undefined
        ? {
            admitted: true,
            assumed: `claims expression '${credential.expression}' is not evaluated here: counted as admitting`,
          }
        : { admitted: verdict };
    },
  };
}

/** The bootstrap's CI user-assigned identities (`preview`, `deploy-<env>`) and their principal IDs. */
function ciIdentities(
  resources: readonly RenderedResource[],
): { principal: Principal; name: string; id: string }[] {
  const principalIds = new Map<string, string>();
  for (const a of resources) {
    if (a.type !== 'azure-native:authorization:RoleAssignment') continue;
    const purpose = /^CI (\S+) of /.exec(stringInput(a, 'description') ?? '')?.[1];
    const id = stringInput(a, 'principalId');
    if (purpose && id) principalIds.set(purpose, id);
  }
  return resources.flatMap((r) => {
    if (r.type !== 'azure-native:managedidentity:UserAssignedIdentity') return [];
    const principal = ciPrincipal(r, principalIds.get(r.name) ?? r.name);
    const group = stringInput(r, 'resourceGroupName') ?? '';
    const name = stringInput(r, 'resourceName') ?? r.name;
    const subscription =
      /\/subscriptions\/([^/]+)\//.exec(JSON.stringify(resources.map((x) => x.inputs)))?.[1] ?? 'unknown';
    return principal
      ? [
          {
            principal,
            name,
            id: `/subscriptions/${subscription}/resourceGroups/${group}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${name}`,
          },
        ]
      : [];
  });
}

/** Who can become each CI identity of the bootstrap render: its federated credentials. */
export function azureCiTrust(resources: readonly RenderedResource[]): IdentityTrust[] {
  const credentials = credentialsOf(resources);
  return ciIdentities(resources).map(({ principal, name }) => ({
    cloud: 'azure' as const,
    identity: principal,
    audience: TOKEN_EXCHANGE_AUDIENCE,
    paths: credentials.filter((credential) => credential.identity === name).map(credentialPath),
    immutableIdsBindable: false,
    immutableIdsNote: IMMUTABLE_NOTE,
  }));
}

const ROLE_ASSIGNMENT_WRITE = 'Microsoft.Authorization/roleAssignments/write';
const ASSIGNEE = '@request[microsoft.authorization/roleassignments:principalid]';

/**
 * Every change a CI identity can make to a CI identity: assign it a role (roleAssignments/write, its
 * condition evaluated with the CI identity as assignee and any role), rewrite a role definition CI holds
 * (roleDefinitions/write), or add a federated credential to it (federatedIdentityCredentials/write).
 * https://learn.microsoft.com/azure/role-based-access-control/permissions/management-and-governance#microsoftauthorization,
 * https://learn.microsoft.com/azure/role-based-access-control/permissions/identity#microsoftmanagedidentity
 */
export function azureCiChanges(resources: readonly RenderedResource[]): CiChange[] {
  const roles = roleDefinitionsOf(resources);
  const roleAllows = roleAnswers(roles);
  const identities = ciIdentities(resources);
  const assignments = assignmentsOf(resources);
  const holds = (principalId: string, on: string, action: string) =>
    assignments.filter(
      (a) =>
        a.principalId === principalId &&
        under(on, a.scope) &&
        // A role ID the data and the render do not define counts as every action.
        (!roles.has(roleGuid(a.role)) || roleAllows(roleGuid(a.role), action, false)),
    );
  const because = (a: (typeof assignments)[number], action: string) =>
    `${action} from ${roles.get(roleGuid(a.role))?.roleName ?? `role ${roleGuid(a.role)} (not in the published data: every action)`} on ${a.scope} (${a.source})`;
  const ciRoles = resources.filter(
    (r) =>
      r.type === 'azure-native:authorization:RoleDefinition' &&
      assignments.some(
        (a) =>
          identities.some((i) => i.principal.id === a.principalId) &&
          roleGuid(a.role) === (stringInput(r, 'roleDefinitionId') ?? '').toLowerCase(),
      ),
  );
  return identities.flatMap(({ principal }) => [
    ...identities.flatMap((target) => {
      const found: CiChange[] = [];
      const assigner = holds(principal.id, target.id, ROLE_ASSIGNMENT_WRITE).find((a) => {
        if (a.condition === undefined) return true;
        const read = readCondition(a.condition);
        if ('error' in read) return true;
        return (
          evaluateCondition(read.condition, {
            action: ROLE_ASSIGNMENT_WRITE,
            attributes: new Map([[ASSIGNEE, [target.principal.id]]]),
          }) !== false
        );
      });
      if (assigner) {
        const read = assigner.condition === undefined ? undefined : readCondition(assigner.condition);
        found.push({
          identity: principal,
          target: `the roles of ${target.principal.label}`,
          reason: `${because(assigner, ROLE_ASSIGNMENT_WRITE)}, and ${
            read && 'error' in read
              ? `its condition could not be read (${read.error}): counted as holding`
              : `no condition keeps it from naming ${target.principal.label}`
          }`,
        });
      }
      const credential = holds(
        principal.id,
        `${target.id}/federatedIdentityCredentials/any`,
        'Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials/write',
      )[0];
      if (credential)
        found.push({
          identity: principal,
          target: `the federated credentials of ${target.principal.label}`,
          reason: because(
            credential,
            'Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials/write',
          ),
        });
      return found;
    }),
    ...ciRoles.flatMap((role) => {
      const scopes = ((role.inputs['assignableScopes'] as unknown[] | undefined) ?? []).filter(
        (s): s is string => typeof s === 'string',
      );
      const writer = scopes
        .map((scope) => holds(principal.id, scope, 'Microsoft.Authorization/roleDefinitions/write')[0])
        .find(Boolean);
      return writer
        ? [
            {
              identity: principal,
              target: `CI's role definition ${stringInput(role, 'roleName') ?? role.name}`,
              reason: because(writer, 'Microsoft.Authorization/roleDefinitions/write'),
            },
          ]
        : [];
    }),
  ]);
}
