import { existsSync, readFileSync } from 'node:fs';
import type { StackValidationArgs } from '@pulumi/policy';
import {
  analyzeAccess,
  memoIfFrozen,
  missingDeployRights,
  ROOT_STACK_TYPE,
  storesOf,
  type MissingRight,
  type AccessAnalysis,
  type AccessGrant,
  type Render,
  type RenderedResource,
  type StoreAccess,
} from '@checkpoints/analysis';
import { stackRule, type RuleSource } from '../define';

/**
 * The bootstrap render (synth's `dist/synth/bootstrap/ci.json`) the CI rules judge CI's identities from.
 * synth sets it from `--bootstrap`; on a real preview, set it to check the CI rules there too. Unset, the
 * CI rules are not checked (a preview sees only its own stack) and synth's table says so.
 */
export const BOOTSTRAP_RENDER_ENV = 'CHECKPOINTS_BOOTSTRAP_RENDER';

export function bootstrapRender(): Render | undefined {
  const path = process.env[BOOTSTRAP_RENDER_ENV];
  if (!path) return undefined;
  if (!existsSync(path)) {
    throw new Error(
      `${BOOTSTRAP_RENDER_ENV}=${path}: no such file; render it with 'npx nx run bootstrap:synth'`,
    );
  }
  return JSON.parse(readFileSync(path, 'utf8')) as Render;
}

type SdkResource = StackValidationArgs['resources'][number];

function rendered(resource: SdkResource): RenderedResource {
  return {
    urn: resource.urn,
    type: resource.type,
    name: resource.name,
    parent: resource.parent?.urn ?? null,
    protect: resource.opts.protect ?? false,
    retainOnDelete: false,
    dependsOn: resource.dependencies.map((dependency) => dependency.urn),
    inputs: resource.props,
  };
}

/**
 * What the analyses of a render are a function of: every rendered resource whole and the bootstrap render's
 * file and content. Renders in one process (synth runs in tests) may share every URN and differ in an input,
 * and a bootstrap file may be rewritten in place, so neither names nor the path alone identify one. The text
 * itself is the key (a map compares it whole): a digest of it cost half again the writing, on every rule's call.
 */
function renderKey(resources: readonly unknown[]): string {
  return keyOf(resources, renderTexts, () => JSON.stringify(resources));
}

/**
 * The part of a render the access analysis reads (libs/analysis access: resources by parent, type and name,
 * and their inputs; not the root stack's, which a policy pack is handed as the stack's outputs and synth's
 * render records empty). Keyed on it, the render synth records and the same render as the access rules see
 * it are one analysis, not two. The rights read protect and retainOnDelete too (a policy pack is not told
 * retainOnDelete), so they keep the whole render as their key.
 */
function accessKey(resources: readonly RenderedResource[]): string {
  return keyOf(resources, accessTexts, () =>
    JSON.stringify(
      resources.map(({ urn, type, name, parent, inputs }) =>
        type === ROOT_STACK_TYPE ? { urn, type, name, parent } : { urn, type, name, parent, inputs },
      ),
    ),
  );
}

/**
 * The texts of frozen resource lists: the one list every stack rule of an evaluation is handed (engine.ts,
 * stackResources) is written once, not once per rule (a 200-store AWS render: 4,800 resources, 9.5 MB of
 * text, about 18 ms a rule). A list that is not frozen may change between calls and is written every time.
 */
const renderTexts = new WeakMap<readonly unknown[], string>();
const accessTexts = new WeakMap<readonly unknown[], string>();

function keyOf(resources: readonly unknown[], texts: typeof renderTexts, write: () => string): string {
  const bootstrap = process.env[BOOTSTRAP_RENDER_ENV] ?? '';
  const content = bootstrap && existsSync(bootstrap) ? readFileSync(bootstrap, 'utf8') : '';
  const text = memoIfFrozen(texts, resources, write);
  // JSON holds no raw line break: the first line is the bootstrap's, the rest the resources'.
  return `${JSON.stringify([bootstrap, content])}\n${text}`;
}

/** Every access rule judges the same analysis, and so does synth's table: computed once per render and bootstrap render. */
const analyses = new Map<string, Promise<AccessAnalysis>>();

/** The effective access of a render's stores, with CI's identities from the bootstrap render `BOOTSTRAP_RENDER_ENV` names. */
export function accessOfRender(resources: readonly RenderedResource[]): Promise<AccessAnalysis> {
  const key = accessKey(resources);
  let analysis = analyses.get(key);
  if (!analysis) {
    analysis = analyzeAccess({ resources: [...resources] }, bootstrapRender());
    analyses.clear();
    analyses.set(key, analysis);
  }
  return analysis;
}

const rights = new Map<string, Promise<MissingRight[] | undefined>>();

/**
 * The rights a deploy of the render needs that its environment's deploy identity (or, for reads, the
 * preview identity) lacks; undefined without a bootstrap render or a store to tell cloud and environment.
 */
export function missingRightsOfRender(
  resources: readonly RenderedResource[],
): Promise<MissingRight[] | undefined> {
  const key = renderKey(resources);
  let missing = rights.get(key);
  if (!missing) {
    const bootstrap = bootstrapRender();
    const render = { resources: [...resources] };
    const [store] = storesOf(render);
    missing =
      bootstrap && store
        ? accessOfRender(resources).then((analysis) =>
            missingDeployRights(store.cloud, render, bootstrap, analysis.stores[0]?.environment ?? 'unknown'),
          )
        : Promise.resolve(undefined);
    rights.clear();
    rights.set(key, missing);
  }
  return missing;
}

/**
 * The resources a stack rule is handed, as a render records them, in a frozen list (a rule changes nothing
 * it is given); for the engine's frozen list, one list per evaluation, so its key is written once (keyOf).
 */
export function renderedOf(args: StackValidationArgs): RenderedResource[] {
  return memoIfFrozen(
    renderedLists,
    args.resources,
    () => Object.freeze(args.resources.map(rendered)) as RenderedResource[],
  );
}

const renderedLists = new WeakMap<readonly unknown[], RenderedResource[]>();

function accessOf(args: StackValidationArgs): Promise<AccessAnalysis> {
  return accessOfRender(renderedOf(args));
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
    validate: async (args, report) => {
      const analysis = await accessOf(args);
      if (rule.needsBootstrap && !analysis.ciChecked) return;
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
