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

import type { AccessAnalysis, ChangePlan, StoreRetention } from '@checkpoints/analysis';
import type { PolicyVerdict } from '@checkpoints/policy';

/** What libs/analysis computes over the render; synth writes it to the JSON and prints it. */
export interface SnapshotAnalysis {
  /** Per store: recovery windows, purge bound, copies of an hourly-overwritten object, broken promises. */
  retention: StoreRetention[];
  /** With --base: what a deploy of this render does to the resources of the base render. */
  changes?: ChangePlan;
  /** Who can do what to each store, with the reason; only for a render with stores. */
  access?: AccessAnalysis;
}

export interface Snapshot {
  project: string;
  stack: string;
  resources: RenderedResource[];
  outputs: Record<string, unknown>;
  violations: PolicyVerdict[];
  /** Set by synth after the render; absent on a bare render. */
  analysis?: SnapshotAnalysis;
}

export const SECRET_MARK = '[secret]';
export const UNKNOWN_MARK = '[unknown]';
