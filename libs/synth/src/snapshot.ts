import type { AccessAnalysis, ChangePlan, ComplianceAnalysis, StoreRetention } from '@checkpoints/analysis';
import type { PolicyVerdict } from '@checkpoints/policy';
import type { RenderedResource as Rendered } from '@checkpoints/render';

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
  resources: RenderedResource[];
  outputs: Record<string, unknown>;
  violations: PolicyVerdict[];
  /** Set by synth after the render; absent on a bare render. */
  analysis?: SnapshotAnalysis;
}
