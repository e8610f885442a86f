import type { Render, RenderedResource } from '@checkpoints/render';

/**
 * What the analyses of one render share: the render, the bootstrap render its CI identities come from, and
 * what each analysis has worked out so far, under a key of its own (contextMemo). Made once per render (a
 * policy evaluation, a synth run) and handed to every analysis of it; nothing an analysis keeps outlives its
 * context, so two renders never see each other's answers.
 */
export interface AnalysisContext {
  /** The render's resources (no analysis changes them). */
  readonly resources: RenderedResource[];
  /** The bootstrap render; undefined when none was given (CI's identities are then not judged). */
  readonly bootstrap: Pick<Render, 'resources'> | undefined;
  /** Each analysis' memo, by the key contextMemo made for it. */
  readonly memos: Map<object, unknown>;
}

export function createAnalysisContext(
  render: Pick<Render, 'resources'>,
  bootstrap?: Pick<Render, 'resources'>,
): AnalysisContext {
  return { resources: render.resources, bootstrap, memos: new Map() };
}

/**
 * An analysis' memo in a context: made by `create` the first time the analysis asks for it in that context,
 * the same value every time after. The analysis that declares it owns its type, so the context knows no
 * analysis.
 */
export function contextMemo<T>(create: (context: AnalysisContext) => T): (context: AnalysisContext) => T {
  const key = {};
  return (context) => {
    if (!context.memos.has(key)) context.memos.set(key, create(context));
    return context.memos.get(key) as T;
  };
}
