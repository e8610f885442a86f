/** Spec helpers: run one rule against hand-written resources, the way synth and the engine run it. */
import { ROOT_STACK_TYPE } from '@checkpoints/render';
import { evaluatePolicies, type PolicyResource } from '../src/engine';
import type { SourcedPolicy } from '../src/rules/define';

export interface ResourceUnderTest {
  type: string;
  props: Record<string, unknown>;
  name?: string;
  protect?: boolean;
  parent?: string;
  dependsOn?: string[];
  propertyDependencies?: Record<string, string[]>;
}

export function policyResource(resource: ResourceUnderTest, index = 0): PolicyResource {
  const name = resource.name ?? `resource-${index}`;
  return {
    urn: `urn:pulumi:test::spec::${resource.type}::${name}`,
    type: resource.type,
    name,
    props: resource.props,
    opts: {
      protect: resource.protect ?? false,
      retainOnDelete: false,
      parent: resource.parent ?? null,
      dependsOn: resource.dependsOn ?? [],
      propertyDependencies: resource.propertyDependencies ?? {},
    },
  };
}

/**
 * Messages the rule reports for these resources (and stack outputs), with no policy config overrides and the
 * bootstrap render at `bootstrapRender`, if any.
 */
export async function violationsOf(
  policy: SourcedPolicy,
  resources: ResourceUnderTest[],
  outputs: Record<string, unknown> = {},
  bootstrapRender?: string,
): Promise<string[]> {
  const rendered = resources.map(policyResource);
  rendered.push(policyResource({ type: ROOT_STACK_TYPE, props: {}, name: 'spec-test' }, rendered.length));
  const verdicts = await evaluatePolicies(
    { project: 'spec', stack: 'test', resources: rendered, outputs },
    [policy],
    { file: 'none', entries: {}, ...(bootstrapRender ? { bootstrapRender } : {}) },
  );
  return verdicts.map((verdict) => verdict.message);
}

/** The standard tag set, for compliant fixtures. */
export function standardTagSet(environment = 'prod'): Record<string, string> {
  return {
    owner: 'ml-platform',
    'cost-center': 'cc-1234',
    environment,
    'data-classification': 'confidential',
    'managed-by': 'pulumi',
    'pulumi-project': 'checkpoints-aws',
    'pulumi-stack': environment,
    'checkpoint-store': 'llm-pretrain',
  };
}
