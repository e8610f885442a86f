import { existsSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import type { StackValidationArgs } from '@pulumi/policy';
import { createAnalysisContext, type AnalysisContext } from '@checkpoints/analysis';
import { UNKNOWN_MARK, type Render, type RenderedResource } from '@checkpoints/render';
import { isUnknownValueError } from './inputs';

/**
 * The policy config key of every stack rule naming the bootstrap render (synth's
 * `dist/synth/bootstrap/ci.json`) whose CI identities the rules judge: synth sets it from `--bootstrap`; on a
 * real preview, a `--policy-pack-config` file sets it per rule. Unset, the CI rules report that CI's
 * identities were not judged.
 */
export const BOOTSTRAP_RENDER_KEY = 'bootstrapRender';

/**
 * One evaluation of the pack over a stack: its resources as a render records them, and the analysis context
 * of each bootstrap render its rules name, each made once for all of its stack rules.
 */
export class Evaluation {
  private readonly contexts = new Map<string, AnalysisContext>();
  /** What a rule works out once per evaluation (e.g. the AWS stores), by what it is. */
  readonly memo = new Map<string, unknown>();
  constructor(readonly resources: RenderedResource[]) {}

  /** The analysis context of the rule's bootstrap render (its policy config), the bootstrap read once. */
  context(args: StackValidationArgs): AnalysisContext {
    const path = bootstrapRenderOf(args);
    let context = this.contexts.get(path ?? '');
    if (context === undefined) {
      context = createAnalysisContext({ resources: this.resources }, path ? readBootstrap(path) : undefined);
      this.contexts.set(path ?? '', context);
    }
    return context;
  }
}

function bootstrapRenderOf(args: StackValidationArgs): string | undefined {
  const path = args.getConfig<Record<string, unknown>>()[BOOTSTRAP_RENDER_KEY];
  return typeof path === 'string' && path !== '' ? path : undefined;
}

function readBootstrap(path: string): Pick<Render, 'resources'> {
  if (!existsSync(path)) {
    throw new Error(
      `policy config ${BOOTSTRAP_RENDER_KEY}=${path}: no such file; render it with 'npx nx run bootstrap:synth'`,
    );
  }
  return JSON.parse(readFileSync(path, 'utf8')) as Render;
}

/** The evaluation each resource list handed to a stack rule belongs to. */
const byList = new WeakMap<readonly unknown[], Evaluation>();
/** The last evaluation begun from a new list, and the rules that have read it. */
let latest: { evaluation: Evaluation; rules: Set<string> } | undefined;

/**
 * Begins an evaluation whose stack rules are all handed `list` (synth's engine.ts): every rule's call with
 * it belongs to this evaluation, and to no other.
 */
export function beginEvaluation(list: readonly SdkResource[]): Evaluation {
  const evaluation = new Evaluation(list.map(rendered));
  byList.set(list, evaluation);
  return evaluation;
}

/**
 * The evaluation a stack rule's call belongs to: its list's, when the engine began one with it
 * (beginEvaluation). The Pulumi analyzer instead builds a new list for each policy of one `analyzeStack`
 * call, calling them one after the other (@pulumi/policy 1.21 server.js, makeAnalyzeStackRpcFun): a new
 * list joins the latest evaluation when this rule has not read it yet and its resources are the same;
 * otherwise it begins a new one. So no two calls of one rule, and no two different renders, ever share
 * an evaluation.
 */
export function evaluationOf(args: StackValidationArgs, rule: string): Evaluation {
  const known = byList.get(args.resources);
  if (known) return known;
  const resources = args.resources.map(rendered);
  let evaluation: Evaluation;
  if (latest && !latest.rules.has(rule) && isDeepStrictEqual(latest.evaluation.resources, resources)) {
    latest.rules.add(rule);
    evaluation = latest.evaluation;
  } else {
    evaluation = new Evaluation(resources);
    latest = { evaluation, rules: new Set([rule]) };
  }
  byList.set(args.resources, evaluation);
  return evaluation;
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
    // Which input comes from which resource: how the analyses tie an assignment to the identity it grants.
    propertyDependencies: Object.fromEntries(
      Object.entries(resource.propertyDependencies).map(([key, dependencies]) => [
        key,
        dependencies.map((dependency) => dependency.urn),
      ]),
    ),
    inputs: markedInputs(resource.props),
  };
}

/**
 * The inputs as plain data, each value the engine does not know yet (its proxy throws when it is read) as
 * synth's mark: the analyses then judge a preview's render as they judge synth's, never skipping a value.
 */
function markedInputs(props: Record<string, unknown>): Record<string, unknown> {
  const copy = marked(props);
  return copy !== null && typeof copy === 'object' ? (copy as Record<string, unknown>) : {};
}

function marked(value: unknown): unknown {
  if (value === null || typeof value !== 'object') return value;
  const read = (key: string | number) => {
    try {
      return marked((value as Record<string | number, unknown>)[key]);
    } catch (error) {
      if (isUnknownValueError(error)) return UNKNOWN_MARK;
      throw error;
    }
  };
  if (Array.isArray(value)) return Array.from({ length: value.length }, (_, index) => read(index));
  return Object.fromEntries(Object.keys(value).map((key) => [key, read(key)]));
}
