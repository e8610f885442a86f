import type { ReportViolation, StackValidationArgs } from '@pulumi/policy';
import { unreadGrantAccess, unreadGrantType, type CiChange } from '@checkpoints/analysis';
import type { Cloud } from '@checkpoints/config';
import { storesOf, type RenderedResource } from '@checkpoints/render';
import type { Evaluation } from '../evaluation';
import { ciJudged, rendersCiOf } from './analysis';

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
  const isBootstrap = rendersCiOf(cloud, context.resources);
  const hasStores = storesOf(context).some((store) => store.cloud === cloud);
  if (!isBootstrap && !hasStores) return undefined;
  if (!ciJudged(context, report) || !context.bootstrap) return undefined;
  return [...context.bootstrap.resources, ...(isBootstrap ? [] : context.resources)];
}

export function reportChanges(changes: readonly CiChange[], report: ReportViolation): void {
  for (const change of changes)
    report(`${change.identity.label} can change ${change.target}: ${change.reason}`);
}

/**
 * A grant resource of the cloud that no model reads, among the resources judged: it counts as granting
 * everything to an unknown principal (libs/analysis unread-grants), who may then change any CI identity.
 */
export function reportUnreadGrants(
  cloud: Cloud,
  resources: readonly RenderedResource[],
  report: ReportViolation,
): void {
  for (const resource of resources) {
    if (!unreadGrantType(cloud, resource.type)) continue;
    const [grant] = unreadGrantAccess(resource);
    if (grant) report(`${grant.principal.label} can change the CI identities: ${grant.reason}`);
  }
}
