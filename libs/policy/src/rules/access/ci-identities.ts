import type { ReportViolation, StackValidationArgs } from '@pulumi/policy';
import {
  judgeTrust,
  repositoryOf,
  tokenLabel,
  type CiChange,
  type IdentityTrust,
  type RepositoryRef,
} from '@checkpoints/analysis';
import type { Cloud } from '@checkpoints/config';
import { storesOf, type RenderedResource } from '@checkpoints/render';
import type { Evaluation } from '../evaluation';
import { ciJudged } from './analysis';

/** The component each cloud's CI identities hang from in the bootstrap render. */
const CI_COMPONENT: Record<Cloud, string> = {
  aws: 'checkpoints:bootstrap:AwsCiIdentities',
  gcp: 'checkpoints:bootstrap:GcpCiIdentities',
  azure: 'checkpoints:bootstrap:AzureCiIdentities',
};

/**
 * The resources a rule about one cloud's CI identities judges: the bootstrap render's (with the stack
 * render's, whose grants may reach CI too), when the render has stores of that cloud or is the bootstrap
 * itself; none otherwise. Without a bootstrap render a render with stores is reported as not judged.
 */
export function ciResourcesOf(
  cloud: Cloud,
  args: StackValidationArgs,
  report: ReportViolation,
  evaluation: Evaluation,
): RenderedResource[] | undefined {
  const context = evaluation.context(args);
  const isBootstrap = context.resources.some((resource) => resource.type === CI_COMPONENT[cloud]);
  const hasStores = storesOf(context).some((store) => store.cloud === cloud);
  if (!isBootstrap && !hasStores) return undefined;
  if (!ciJudged(context, report) || !context.bootstrap) return undefined;
  return [...context.bootstrap.resources, ...(isBootstrap ? [] : context.resources)];
}

/**
 * One violation per identity, trust path and reason: a deploy identity reachable from anything but its
 * GitHub environment of this repository, a pull request reaching anything but the preview identity, a
 * token of another repository or owner, or (where the cloud can bind them) of another repository ID.
 */
export function reportTrust(
  trusts: readonly IdentityTrust[],
  repository: (fullName: string) => RepositoryRef,
  report: ReportViolation,
): void {
  const named = repositoryOf(trusts);
  if ('why' in named) {
    report(`CI trust not judged: ${named.why}`);
    return;
  }
  const seen = new Set<string>();
  for (const finding of judgeTrust(trusts, repository(named.repository))) {
    const key = `${finding.identity.id}|${finding.path.where}|${finding.why}`;
    if (seen.has(key)) continue;
    seen.add(key);
    report(
      `${finding.identity.label} ${finding.why}: ${tokenLabel(finding.token)} (sub ${finding.token.claims.sub}) gets in through ${finding.path.where}${finding.assumed ? `; ${finding.assumed}` : ''}`,
    );
  }
}

export function reportChanges(changes: readonly CiChange[], report: ReportViolation): void {
  for (const change of changes)
    report(`${change.identity.label} can change ${change.target}: ${change.reason}`);
}
