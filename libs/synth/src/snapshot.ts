import type { AccessAnalysis, ChangePlan, ComplianceAnalysis, StoreRetention } from '@checkpoints/analysis';
import type { PolicyVerdict } from '@checkpoints/policy';
import type { RenderedResource as Rendered } from '@checkpoints/render';
import type { RenderWarning } from './warnings';

export { SECRET_MARK, UNKNOWN_MARK } from '@checkpoints/render';

/** One resource as synth records it: the render record, with what the mock engine always knows filled in. */
export type RenderedResource = Rendered & Required<Pick<Rendered, 'custom' | 'propertyDependencies'>>;

/** What libs/analysis computes over the render; synth writes it to the JSON and prints it. */
export interface SnapshotAnalysis {
  /** Per store: recovery windows, purge bound, copies of an hourly-overwritten object, broken promises. */
  retention: StoreRetention[];
  /** With --base: what a deploy of this render does to the resources of the base render. */
  changes?: ChangePlan;
  /** Who can do what to each store, with the reason; only for a render with stores. */
  access?: AccessAnalysis;
  /** Per store, the verdict on each benchmark control (libs/analysis compliance); only for a render with stores. */
  compliance?: ComplianceAnalysis;
}

export interface Snapshot {
  project: string;
  stack: string;
  /**
   * The stack config's provider settings that say where the default providers put the resources
   * (`aws:region`, `gcp:project`, `azure-native:subscriptionId`, ...): a change of one moves the stack.
   */
  placement: Record<string, string>;
  resources: RenderedResource[];
  outputs: Record<string, unknown>;
  violations: PolicyVerdict[];
  /** What the program logged with `pulumi.log.warn`, each with its code and docs section; absent when none. */
  warnings?: RenderWarning[];
  /** Set by synth after the render; absent on a bare render. */
  analysis?: SnapshotAnalysis;
}
