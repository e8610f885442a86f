import type { ReportViolation, StackValidationArgs } from '@pulumi/policy';
import {
  accessAnalysisOf,
  missingDeployRights,
  storesOf,
  type AccessAnalysis,
  type AccessGrant,
  type AnalysisContext,
  type MissingRight,
  type StoreAccess,
} from '@checkpoints/analysis';
import { stackRule, type RuleSource } from '../define';
import { BOOTSTRAP_RENDER_KEY, type Evaluation } from '../evaluation';

/** Why a rule that reads the bootstrap render could not judge a render (it reports so: it fails closed). */
export const NO_BOOTSTRAP = `no bootstrap render (set the policy config key '${BOOTSTRAP_RENDER_KEY}' to synth's dist/synth/bootstrap/ci.json)`;

/** What a CI rule reports for a render with stores when no bootstrap render is configured. */
export const CI_NOT_JUDGED = `CI identities were not judged: ${NO_BOOTSTRAP}`;

/** The effective access of the render's stores, with CI's identities from the rule's bootstrap render. */
export function accessOf(args: StackValidationArgs, evaluation: Evaluation): Promise<AccessAnalysis> {
  return accessAnalysisOf(evaluation.context(args));
}

const rights = new WeakMap<AnalysisContext, Promise<MissingRight[] | undefined>>();

/**
 * The rights a deploy of the render needs that its environment's deploy identity (or, for reads, the
 * preview identity) lacks; undefined without a bootstrap render or a store to tell cloud and environment.
 */
export function missingRightsOf(
  args: StackValidationArgs,
  evaluation: Evaluation,
): Promise<MissingRight[] | undefined> {
  const context = evaluation.context(args);
  let missing = rights.get(context);
  if (!missing) {
    const { bootstrap } = context;
    const render = { resources: context.resources };
    const [store] = storesOf(render);
    missing =
      bootstrap && store
        ? accessAnalysisOf(context).then((analysis) =>
            missingDeployRights(
              store.cloud,
              render,
              bootstrap,
              analysis.stores[0]?.environment ?? 'unknown',
              context,
            ),
          )
        : Promise.resolve(undefined);
    rights.set(context, missing);
  }
  return missing;
}

/** Whether the CI rules can judge the render: they report CI_NOT_JUDGED when it has stores and no bootstrap. */
export function ciJudged(context: AnalysisContext, report: ReportViolation): boolean {
  if (context.bootstrap) return true;
  if (storesOf(context).length > 0) report(CI_NOT_JUDGED);
  return false;
}

export interface AccessRule extends RuleSource {
  name: string;
  description: string;
  /** Judges CI's identities, so needs the bootstrap render. */
  needsBootstrap: boolean;
  /** Why this grant breaks the rule, or undefined when it does not. */
  judge(grant: AccessGrant, store: StoreAccess): string | undefined;
}

/** A stack rule over the effective access of every store: one violation per offending grant. */
export function accessRule(rule: AccessRule) {
  return stackRule({
    name: rule.name,
    description: rule.description,
    source: rule.source,
    validate: async (args, report, evaluation) => {
      if (rule.needsBootstrap && !ciJudged(evaluation().context(args), report)) return;
      const analysis = await accessOf(args, evaluation());
      for (const store of analysis.stores) {
        for (const grant of store.grants) {
          const why = rule.judge(grant, store);
          if (why)
            report(
              `store ${store.store} (${store.environment}): ${grant.principal.label} ${why}: ${grant.reason}`,
            );
        }
      }
    },
  });
}
