import type { ValidatedPolicy } from '@cloud-copilot/iam-policy';
import type { AwsPrincipal, Grant, PolicyDocument } from './access/aws';
import { newRenamingState, type RenamingState } from './access/aws-renaming';
import type { AccessAnalysis } from './access/model';
import type { Render, RenderedResource } from './render';

/**
 * What the analyses of one render share: the render, the bootstrap render its CI identities come from, the
 * role data read from them, and the answers worked out so far. Made once per render (a policy evaluation,
 * a synth run) and handed to every analysis of it; nothing an analysis keeps outlives its context, so two
 * renders never see each other's answers.
 */
export interface AnalysisContext {
  /** The render's resources (no analysis changes them). */
  readonly resources: RenderedResource[];
  /** The bootstrap render; undefined when none was given (CI's identities are then not judged). */
  readonly bootstrap: Pick<Render, 'resources'> | undefined;
  /** The IAM roles and policies of the renders, read once per account. */
  readonly roles: AwsRoleData;
  /** IAM's answers, shared between the render's stores (see ./access/aws-renaming). */
  readonly aws: AwsAnswers;
  /** The access analysis of the render, once asked for. */
  access?: Promise<AccessAnalysis>;
}

export function createAnalysisContext(
  render: Pick<Render, 'resources'>,
  bootstrap?: Pick<Render, 'resources'>,
): AnalysisContext {
  return {
    resources: render.resources,
    bootstrap,
    roles: { managedPolicies: new WeakMap(), ciPrincipals: new WeakMap() },
    aws: newAwsAnswers(),
  };
}

/** What one analysis context keeps of IAM's answers, and what keys them. */
export interface AwsAnswers {
  /** Answers by principal (principalKey), then by request. */
  simulations: Map<string, Map<string, Promise<string | undefined>>>;
  /** namesAction by policy document, then by action. */
  actionsNamed: WeakMap<PolicyDocument, Map<string, boolean>>;
  /** How many answers `simulations` holds. */
  answers: number;
  /** Answers by canonical question (see ./aws-renaming), policy names and Sids in canonical form. */
  shared: Map<string, Promise<Grant[] | undefined>>;
  /** The canonical forms the keys of `shared` are made of. */
  renaming: RenamingState;
  documents: Map<string, PolicyDocument | null>;
  numbersByText: Map<string, number>;
  numbersByPolicy: WeakMap<PolicyDocument, number>;
  validatedPolicies: Map<string, ValidatedPolicy>;
  principalKeys: WeakMap<AwsPrincipal, string>;
}

export function newAwsAnswers(generation = 0): AwsAnswers {
  return {
    simulations: new Map(),
    actionsNamed: new WeakMap(),
    answers: 0,
    shared: new Map(),
    renaming: newRenamingState(generation),
    documents: new Map(),
    numbersByText: new Map(),
    numbersByPolicy: new WeakMap(),
    validatedPolicies: new Map(),
    principalKeys: new WeakMap(),
  };
}

/**
 * The IAM data of a render's (or bootstrap render's) resource list, read once per account: every store's
 * targets look their roles' boundaries up in it, and every store asks about the same CI identities.
 */
export interface AwsRoleData {
  managedPolicies: WeakMap<readonly RenderedResource[], Map<string, ReadonlyMap<string, PolicyDocument>>>;
  ciPrincipals: WeakMap<readonly RenderedResource[], Map<string, AwsPrincipal[]>>;
}
