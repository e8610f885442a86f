import type { ReportViolation, StackValidationArgs } from '@pulumi/policy';
import {
  accessAnalysisOf,
  ciRepositoryOf,
  ciTrustOf,
  groupedBy,
  judgeTrust,
  missingDeployRights,
  tokenLabel,
  type TrustFindingKind,
  type AccessAnalysis,
  type AccessGrant,
  type AnalysisContext,
  type MissingRight,
  type StoreAccess,
} from '@checkpoints/analysis';
import type { Cloud } from '@checkpoints/config';
import { storesOf, type RenderedResource } from '@checkpoints/render';
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

/** The component each cloud's CI identities hang from in the bootstrap render. */
const CI_COMPONENT: Record<Cloud, string> = {
  aws: 'checkpoints:bootstrap:AwsCiIdentities',
  gcp: 'checkpoints:bootstrap:GcpCiIdentities',
  azure: 'checkpoints:bootstrap:AzureCiIdentities',
};

/** Whether the render is the bootstrap rendering this cloud's CI identities (it is judged itself). */
export function rendersCiOf(cloud: Cloud, resources: readonly RenderedResource[]): boolean {
  return resources.some((resource) => resource.type === CI_COMPONENT[cloud]);
}

/** Whether the CI rules can judge the render: they report CI_NOT_JUDGED when it has stores and no bootstrap. */
export function ciJudged(context: AnalysisContext, report: ReportViolation): boolean {
  if (context.bootstrap) return true;
  if (storesOf(context).length > 0) report(CI_NOT_JUDGED);
  return false;
}

/** How the analyses receive a value not known at preview time (evaluation.ts, and synth's render). */
const UNKNOWN_TEXT = JSON.stringify('[unknown]');
const unjudged = new WeakMap<AnalysisContext, ReadonlyMap<string, string>>();

/**
 * The stores whose access cannot be judged, each with why: an input of theirs (or any of the bootstrap
 * render's) is unknown on this preview. An unknown policy grants nothing in the analysis, so a rule judging
 * such a store would pass what it cannot see: the access rules report it instead (they fail closed).
 */
export function unjudgedStores(context: AnalysisContext): ReadonlyMap<string, string> {
  let found = unjudged.get(context);
  if (found === undefined) {
    const unknownIn = (resources: readonly RenderedResource[]) =>
      resources
        .filter((resource) => JSON.stringify(resource.inputs).includes(UNKNOWN_TEXT))
        .map((resource) => `${resource.type} ${resource.name}`);
    const bootstrap = unknownIn(context.bootstrap?.resources ?? []).map((where) => `bootstrap ${where}`);
    found = new Map(
      storesOf(context).flatMap((store) => {
        const where = [...unknownIn(store.resources), ...bootstrap];
        return where.length > 0
          ? [[store.name, `access not judged: inputs unknown during preview in ${where.join(', ')}`]]
          : [];
      }),
    );
    unjudged.set(context, found);
  }
  return found;
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
      const context = evaluation().context(args);
      const notJudged = unjudgedStores(context);
      for (const [store, why] of notJudged) report(`store ${store}: ${why}`);
      const analysis = await accessAnalysisOf(context);
      for (const store of analysis.stores) {
        if (notJudged.has(store.store)) continue;
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

export interface TrustRule extends RuleSource {
  name: string;
  description: string;
  /** The findings (libs/analysis trust) this rule refuses. */
  kind: TrustFindingKind;
}

/**
 * A stack rule over who can become each CI identity of the clouds the render's stores live on, or (the
 * bootstrap render synthesized alone) of the clouds it renders CI identities for (libs/analysis trust): one
 * violation per identity, trust path and finding, naming the tokens it admits. A stack render's resources
 * are judged with the bootstrap's, since a grant of the stack may let a token in too. When the identities do
 * not agree on one repository, nothing says which is CI's own: the rule reports that.
 */
export function trustRule(rule: TrustRule) {
  return stackRule({
    name: rule.name,
    description: rule.description,
    source: rule.source,
    validate: (args, report, evaluation) => {
      const context = evaluation().context(args);
      const rendered = (Object.keys(CI_COMPONENT) as Cloud[]).filter((cloud) =>
        rendersCiOf(cloud, context.resources),
      );
      const clouds = new Set([...rendered, ...storesOf(context).map((store) => store.cloud)]);
      if (clouds.size === 0) return;
      const bootstrap =
        rendered.length > 0
          ? { resources: context.resources }
          : ciJudged(context, report) && context.bootstrap
            ? { resources: [...context.bootstrap.resources, ...context.resources] }
            : undefined;
      if (!bootstrap) return;
      const trusts = ciTrustOf(bootstrap).filter((trust) => clouds.has(trust.cloud));
      if (trusts.length === 0) return;
      const repository = ciRepositoryOf(bootstrap, trusts);
      if ('why' in repository) {
        report(`CI trust not judged: ${repository.why}`);
        return;
      }
      const findings = judgeTrust(trusts, repository).filter((finding) => finding.kind === rule.kind);
      for (const group of groupedBy(
        findings,
        (f) => `${f.identity.id}\n${f.path.where}\n${f.why}`,
      ).values()) {
        const [first] = group;
        if (!first) continue;
        const shown = group
          .slice(0, 3)
          .map((finding) => `${tokenLabel(finding.token)} (sub ${finding.token.claims.sub})`);
        const more = group.length > shown.length ? `, and ${group.length - shown.length} more` : '';
        const assumed = [...new Set(group.flatMap((finding) => finding.assumed ?? []))];
        report(
          `${first.identity.label} (${first.identity.id}): its ${first.path.where} ${first.why}: admits ${shown.join('; ')}${more}${
            assumed.length > 0 ? ` (assumed: ${assumed.join('; ')})` : ''
          }`,
        );
      }
    },
  });
}
