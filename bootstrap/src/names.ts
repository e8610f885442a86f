import type { Cloud, Environment } from '@checkpoints/config';
import { nameRules, names, type NameContext } from '@checkpoints/naming';

/** The Pulumi projects of the stacks CI previews and deploys; each environment is a stack of the same name. */
export const STACK_PROJECTS: Record<Cloud, string> = {
  aws: 'checkpoints-aws',
  gcp: 'checkpoints-gcp',
  azure: 'checkpoints-azure',
};

/** The bootstrap stack itself: its project and stack names. */
export interface BootstrapContext {
  project: string;
  stack: string;
}

/** What a CI identity is for: previewing every stack, or deploying the stacks of one environment. */
export type CiPurpose = 'preview' | `deploy-${Environment}`;

export function deployPurpose(environment: Environment): CiPurpose {
  return `deploy-${environment}`;
}

function ciName(ctx: BootstrapContext, purpose: CiPurpose): string {
  const stack = ctx.stack
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return `checkpoints-${stack}-${purpose}`;
}

function checked(kind: keyof typeof nameRules, name: string): string {
  const problem = nameRules[kind](name);
  if (problem !== undefined) throw new Error(`bootstrap stack name gives an invalid name: ${problem}`);
  return name;
}

/** Names of the CI identities, e.g. `checkpoints-ci-deploy-prod`, each checked against its cloud's rules. */
export const ciNames = {
  awsRole: (ctx: BootstrapContext, purpose: CiPurpose) => checked('iamRole', ciName(ctx, purpose)),
  gcpServiceAccountId: (ctx: BootstrapContext, purpose: CiPurpose) =>
    checked('gcpServiceAccountId', ciName(ctx, purpose)),
  azureIdentity: (ctx: BootstrapContext, purpose: CiPurpose) =>
    checked('managedIdentity', ciName(ctx, purpose)),
  /**
   * The CI identities get a resource group of their own: in a stack's group, the deploy identity's
   * Managed Identity Contributor role would let it add federated credentials to itself.
   */
  azureResourceGroup: (ctx: BootstrapContext) => names.resourceGroup(ctx),
  /** Pool IDs: 4-32 lowercase letters, digits and hyphens (and never 'gcp-' first, which `checkpoints-` rules out). */
  gcpWorkloadIdentityPool: (ctx: BootstrapContext) => {
    const id = ciName(ctx, 'preview').replace(/-preview$/, '');
    if (!/^[a-z][a-z0-9-]{2,30}[a-z0-9]$/.test(id)) {
      throw new Error(
        `bootstrap stack name gives an invalid workload identity pool ID '${id}': 4-32 lowercase letters, digits and hyphens`,
      );
    }
    return id;
  },
  gcpWorkloadIdentityProvider: 'github-actions',
  /** A federated credential per trusted subject: `github-pull-request`, `github-environment-<env>`. */
  azureFederatedCredential: (subjectKey: string) => `github-${subjectKey}`,
};

/** Store names at both ends of the allowed lengths, differing in their first letter. */
const PROBE_LENGTHS = Array.from({ length: 30 }, (_, index) => index + 2);

/**
 * The name prefixes one stack gives a kind of resource, learnt from the naming lib itself: the names it
 * generates for two stores that differ in their first letter share everything before the store name.
 * Probing every store length catches the shortened forms of long names (`aws-prod-...` for
 * `checkpoints-aws-prod-...`). A prefix that lost the stack name would cover other stacks: refused.
 */
export function stackNamePrefixes(
  stack: string,
  nameOf: (ctx: NameContext) => string,
  project: string,
): string[] {
  const prefixes = new Set<string>();
  for (const length of PROBE_LENGTHS) {
    const first = nameOf({ project, stack, store: 'a'.repeat(length) });
    const second = nameOf({ project, stack, store: 'b'.repeat(length) });
    const prefix = commonPrefix(first, second);
    if (!`-${prefix}`.endsWith(`-${stack}-`)) {
      throw new Error(
        `cannot scope CI rights to the names of stack ${project}/${stack}: '${first}' does not start with a prefix naming the stack`,
      );
    }
    prefixes.add(prefix);
  }
  return [...prefixes].sort();
}

function commonPrefix(first: string, second: string): string {
  let length = 0;
  while (length < first.length && first[length] === second[length]) length++;
  return first.slice(0, length);
}

/** Computes every CI identity name once, so that a stack name no cloud accepts fails before any resource. */
export function checkCiNames(
  ctx: BootstrapContext,
  clouds: readonly Cloud[],
  environments: readonly Environment[],
): void {
  const purposes: CiPurpose[] = ['preview', ...environments.map(deployPurpose)];
  for (const purpose of purposes) {
    if (clouds.includes('aws')) ciNames.awsRole(ctx, purpose);
    if (clouds.includes('gcp')) ciNames.gcpServiceAccountId(ctx, purpose);
    if (clouds.includes('azure')) ciNames.azureIdentity(ctx, purpose);
  }
  if (clouds.includes('gcp')) ciNames.gcpWorkloadIdentityPool(ctx);
}
