/** A resource as policies see it: its inputs and the options the engine received. */
export interface PolicyResource {
  urn: string;
  type: string;
  name: string;
  props: Record<string, unknown>;
  opts: {
    protect: boolean;
    retainOnDelete: boolean;
    parent: string | null;
    dependsOn: string[];
    provider?: string;
  };
}

export interface PolicyStack {
  project: string;
  stack: string;
  resources: PolicyResource[];
  outputs: Record<string, unknown>;
}

export type EnforcementLevel = 'mandatory' | 'advisory';

export interface PolicyVerdict {
  policy: string;
  level: EnforcementLevel;
  urn: string | null;
  message: string;
}

/** Runs every rule of the pack against a rendered stack. */
export function evaluatePolicies(_stack: PolicyStack): PolicyVerdict[] {
  return [];
}
