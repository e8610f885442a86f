/** One resource as the engine would receive it (DESIGN section 6). */
export interface RenderedResource {
  urn: string;
  type: string;
  name: string;
  custom: boolean;
  parent: string | null;
  protect: boolean;
  retainOnDelete: boolean;
  /** Every resource this one waits for: explicit `dependsOn` and those its inputs come from. */
  dependsOn: string[];
  /** Per input property, the resources its value comes from (what policies see as propertyDependencies). */
  propertyDependencies: Record<string, string[]>;
  /** Inputs as the provider would receive them; secrets as "[secret]", unknowns as "[unknown]". */
  inputs: Record<string, unknown>;
  /**
   * The former URNs this resource answers to under its own type (Pulumi aliases, those inherited from its
   * parent included); absent when none.
   */
  aliases?: string[];
  /** Provider reference, when one was passed explicitly. */
  provider?: string;
}

import type { ChangePlan } from '@checkpoints/analysis';
import type { PolicyVerdict } from '@checkpoints/policy';

export interface Snapshot {
  project: string;
  stack: string;
  resources: RenderedResource[];
  outputs: Record<string, unknown>;
  violations: PolicyVerdict[];
  /** What the render does, per analysis of libs/analysis; `changes` with --base. */
  analysis?: { changes?: ChangePlan };
}

export const SECRET_MARK = '[secret]';
export const UNKNOWN_MARK = '[unknown]';
