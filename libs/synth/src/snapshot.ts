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
  /** Provider reference, when one was passed explicitly. */
  provider?: string;
}

import type { AccessAnalysis } from '@checkpoints/analysis';
import type { PolicyVerdict } from '@checkpoints/policy';

export interface Snapshot {
  project: string;
  stack: string;
  resources: RenderedResource[];
  outputs: Record<string, unknown>;
  violations: PolicyVerdict[];
  /** What the rendered resources do (libs/analysis); `access` only for a render with stores. */
  analysis?: { access?: AccessAnalysis };
}

export const SECRET_MARK = '[secret]';
export const UNKNOWN_MARK = '[unknown]';
