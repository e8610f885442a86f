import type { ReportViolation, StackValidationArgs } from '@pulumi/policy';
import type { CiChange } from '@checkpoints/analysis';
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
