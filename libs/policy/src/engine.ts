import type {
  EnforcementLevel,
  PolicyResource as SdkPolicyResource,
  PolicyResourceOptions,
  ResourceValidationArgs,
  ResourceValidationPolicy,
  StackValidationArgs,
  StackValidationPolicy,
} from '@pulumi/policy';
import {
  accessAnalysisOf,
  complianceOf,
  type AccessAnalysis,
  type ComplianceAnalysis,
} from '@checkpoints/analysis';
import { ROOT_STACK_TYPE, type RenderedResource } from '@checkpoints/render';
import { loadPolicyConfig, type PolicyConfig } from './policy-config';
import { beginEvaluation, BOOTSTRAP_RENDER_KEY } from './rules/evaluation';

/** A resource as synth rendered it: its inputs and the options the engine received. */
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
    propertyDependencies: Record<string, string[]>;
    provider?: string;
  };
}

export interface PolicyStack {
  project: string;
  stack: string;
  resources: PolicyResource[];
  outputs: Record<string, unknown>;
}

/** A resource of a synth render (libs/synth Snapshot), as far as policies read it. */
export type RenderedForPolicies = RenderedResource & {
  propertyDependencies: Record<string, string[]>;
  provider?: string;
};

/** A synth render as the engine hands it to the pack: inputs as props, options as the engine received them. */
export function policyStackOf(render: {
  project: string;
  stack: string;
  outputs: Record<string, unknown>;
  resources: readonly RenderedForPolicies[];
}): PolicyStack {
  return {
    project: render.project,
    stack: render.stack,
    outputs: render.outputs,
    resources: render.resources.map((resource) => ({
      urn: resource.urn,
      type: resource.type,
      name: resource.name,
      props: resource.inputs,
      opts: {
        protect: resource.protect,
        retainOnDelete: resource.retainOnDelete,
        parent: resource.parent,
        dependsOn: resource.dependsOn,
        propertyDependencies: resource.propertyDependencies,
        ...(resource.provider ? { provider: resource.provider } : {}),
      },
    })),
  };
}

export interface PolicyVerdict {
  policy: string;
  level: 'mandatory' | 'advisory';
  urn: string | null;
  message: string;
}

export type BaselinePolicy = ResourceValidationPolicy | StackValidationPolicy;

class NotApplicable extends Error {}

/** The SDK's own type test: a resource class carries its type token, or answers `isInstance`. */
function isTypeOf(type: string, resourceClass: unknown): boolean {
  const token = (resourceClass as { __pulumiType?: unknown } | undefined)?.__pulumiType;
  if (typeof token === 'string') return token === type;
  const isInstance = (resourceClass as { isInstance?: unknown } | undefined)?.isInstance;
  return typeof isInstance === 'function' && isInstance({ __pulumiType: type }) === true;
}

function sdkOptions(resource: PolicyResource): PolicyResourceOptions {
  const options: PolicyResourceOptions = {
    protect: resource.opts.protect,
    ignoreChanges: [],
    aliases: [],
    customTimeouts: { createSeconds: 0, updateSeconds: 0, deleteSeconds: 0 },
    additionalSecretOutputs: [],
  };
  if (resource.opts.parent) options.parent = resource.opts.parent;
  return options;
}

function typeChecks(type: string, props: Record<string, unknown>) {
  return {
    isType: (resourceClass: unknown) => isTypeOf(type, resourceClass),
    asType: (resourceClass: unknown) => (isTypeOf(type, resourceClass) ? props : undefined),
  };
}

function notApplicable(reason?: string): never {
  throw new NotApplicable(reason);
}

function resourceArgs(resource: PolicyResource, config: object): ResourceValidationArgs {
  return {
    type: resource.type,
    props: resource.props,
    urn: resource.urn,
    name: resource.name,
    opts: sdkOptions(resource),
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    notApplicable,
    ...typeChecks(resource.type, resource.props),
  } as ResourceValidationArgs;
}

/**
 * How a stack's resources link to each other: one resource per URN (the last of that URN, at the place of
 * the first, as a map by URN keeps them), and each one's dependencies, property dependencies and parent as
 * indices into that list.
 */
interface StackLinks {
  resources: PolicyResource[];
  links: { dependencies: number[]; propertyDependencies: [string, number[]][]; parent?: number }[];
}

function stackLinks(stack: PolicyStack): StackLinks {
  const slots = new Map<string, number>();
  const resources: PolicyResource[] = [];
  for (const resource of stack.resources) {
    const slot = slots.get(resource.urn);
    if (slot === undefined) {
      slots.set(resource.urn, resources.length);
      resources.push(resource);
    } else resources[slot] = resource;
  }
  const links: StackLinks['links'] = resources.map(() => ({ dependencies: [], propertyDependencies: [] }));
  const resolve = (urns: string[]) => urns.flatMap((urn) => slots.get(urn) ?? []);
  for (const resource of stack.resources) {
    const slot = slots.get(resource.urn);
    const link = slot === undefined ? undefined : links[slot];
    if (!link) continue;
    link.dependencies = resolve(resource.opts.dependsOn);
    link.propertyDependencies = Object.entries(resource.opts.propertyDependencies).map(([key, urns]) => [
      key,
      resolve(urns),
    ]);
    const parent = resource.opts.parent ? slots.get(resource.opts.parent) : undefined;
    if (parent !== undefined) link.parent = parent;
  }
  return { resources, links };
}

/**
 * What stack policies see: every resource, dependencies resolved to resources; the root stack's props are its
 * outputs. Made once per evaluation, for every stack policy (the Pulumi engine builds them anew for each
 * policy, and 60 policies over a 200-store stack's 4,400 resources made 260,000 of them); the one list is
 * also what tells the rules they are of one evaluation (rules/evaluation.ts). Frozen: a rule never changes
 * what it is given; one that tried would throw here, which a preview would let pass.
 */
function stackResources(stack: PolicyStack, { resources, links }: StackLinks): readonly SdkPolicyResource[] {
  const sdkResources = resources.map((resource) => {
    const props = resource.type === ROOT_STACK_TYPE ? stack.outputs : resource.props;
    return {
      type: resource.type,
      props,
      urn: resource.urn,
      name: resource.name,
      opts: sdkOptions(resource),
      dependencies: [],
      propertyDependencies: {},
      ...typeChecks(resource.type, props),
    } as SdkPolicyResource;
  });
  const resolve = (slots: number[]) => slots.flatMap((slot) => sdkResources[slot] ?? []);
  links.forEach((link, slot) => {
    const sdkResource = sdkResources[slot];
    if (!sdkResource) return;
    sdkResource.dependencies = resolve(link.dependencies);
    sdkResource.propertyDependencies = Object.fromEntries(
      link.propertyDependencies.map(([key, slots]) => [key, resolve(slots)]),
    );
    const parent = link.parent === undefined ? undefined : sdkResources[link.parent];
    if (parent) sdkResource.parent = parent;
  });
  for (const sdkResource of sdkResources) {
    Object.freeze(sdkResource.dependencies);
    Object.freeze(sdkResource.propertyDependencies);
    Object.freeze(sdkResource.opts);
    Object.freeze(sdkResource);
  }
  return Object.freeze(sdkResources);
}

function stackArgs(resources: readonly SdkPolicyResource[], config: object): StackValidationArgs {
  return {
    resources: resources as SdkPolicyResource[],
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    notApplicable,
  };
}

function levelOf(policy: BaselinePolicy, config: PolicyConfig): EnforcementLevel {
  return config.entries[policy.name]?.enforcementLevel ?? policy.enforcementLevel ?? 'mandatory';
}

function verdictLevel(level: EnforcementLevel): PolicyVerdict['level'] {
  return level === 'advisory' ? 'advisory' : 'mandatory';
}

async function runValidations(
  validations: unknown,
  invoke: (validation: (...args: never[]) => unknown) => unknown,
) {
  const list = Array.isArray(validations) ? validations : [validations];
  for (const validation of list) {
    try {
      await invoke(validation as (...args: never[]) => unknown);
    } catch (error) {
      if (!(error instanceof NotApplicable)) throw error;
    }
  }
}

/**
 * Runs the pack's rules against a rendered stack the way the Pulumi engine runs them on a preview:
 * resource rules once per resource, stack rules once, enforcement levels from the policy config file, and
 * every stack rule's `bootstrapRender` from `config.bootstrapRender`.
 */
export async function evaluatePolicies(
  stack: PolicyStack,
  policies: readonly BaselinePolicy[],
  config: PolicyConfig = loadPolicyConfig(policies.map((policy) => policy.name)),
): Promise<PolicyVerdict[]> {
  return (await evaluateStack(stack, policies, config)).verdicts;
}

/** evaluatePolicies, with the access analysis the stack rules judged (the one synth's table shows). */
export async function evaluateStack(
  stack: PolicyStack,
  policies: readonly BaselinePolicy[],
  config: PolicyConfig = loadPolicyConfig(policies.map((policy) => policy.name)),
): Promise<{
  verdicts: PolicyVerdict[];
  access: () => Promise<AccessAnalysis>;
  compliance: () => Promise<ComplianceAnalysis>;
}> {
  const verdicts: PolicyVerdict[] = [];
  const resources = stackResources(stack, stackLinks(stack));
  const evaluation = beginEvaluation(resources);
  const bootstrap = config.bootstrapRender ? { [BOOTSTRAP_RENDER_KEY]: config.bootstrapRender } : {};
  for (const policy of policies) {
    const level = levelOf(policy, config);
    if (level === 'disabled') continue;
    const policyConfig = config.entries[policy.name] ?? {};
    const report = (urn: string | null) => (message: string, reportedUrn?: string) =>
      verdicts.push({ policy: policy.name, level: verdictLevel(level), urn: reportedUrn ?? urn, message });
    if ('validateResource' in policy && policy.validateResource) {
      for (const resource of stack.resources) {
        if (resource.type === ROOT_STACK_TYPE) continue;
        const args = resourceArgs(resource, policyConfig);
        await runValidations(policy.validateResource, (validate) =>
          (validate as (a: ResourceValidationArgs, r: (m: string) => void) => unknown)(
            args,
            report(resource.urn),
          ),
        );
      }
    }
    if ('validateStack' in policy && policy.validateStack) {
      const args = stackArgs(resources, { ...policyConfig, ...bootstrap });
      await runValidations(policy.validateStack, (validate) =>
        (validate as (a: StackValidationArgs, r: (m: string, urn?: string) => void) => unknown)(
          args,
          report(null),
        ),
      );
    }
  }
  const args = stackArgs(resources, bootstrap);
  return {
    verdicts,
    access: () => accessAnalysisOf(evaluation.context(args)),
    compliance: () => complianceOf(evaluation.context(args)),
  };
}
