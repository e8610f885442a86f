import type { PolicyResource as SdkPolicyResource, StackValidationArgs } from '@pulumi/policy';
import { policyResource } from '../../../testing';
import { beginEvaluation, evaluationOf } from '../evaluation';
import { accessOf } from './analysis';
import { azureStore } from '../../../testing/access';

/** The resources of azureStore(environment) as the Pulumi analyzer hands a stack rule: a new, unfrozen list. */
function args(environment: string, config: Record<string, unknown> = {}): StackValidationArgs {
  const rendered = azureStore(environment).map(policyResource);
  const resources = rendered.map(({ urn, type, name, props }) => {
    return {
      urn,
      type,
      name,
      props,
      opts: {
        protect: false,
        ignoreChanges: [],
        aliases: [],
        customTimeouts: {},
        additionalSecretOutputs: [],
      },
      dependencies: [],
      propertyDependencies: {},
      isType: () => false,
      asType: () => undefined,
    } as unknown as SdkPolicyResource;
  });
  rendered.forEach(({ opts }, index) => {
    const parent = resources.find((resource) => resource.urn === opts.parent);
    if (parent) resources[index]!.parent = parent;
  });
  return {
    resources,
    stackTags: new Map(),
    getConfig: <T extends object>() => config as T,
    notApplicable: () => {
      throw new Error('not applicable');
    },
  } as StackValidationArgs;
}

const environments = async (call: StackValidationArgs, rule: string) =>
  (await accessOf(call, evaluationOf(call, rule))).stores.map((store) => store.environment);

describe('evaluationOf: one analysis context per evaluation, never another evaluation', () => {
  it("shares one context between a pass's rules, each handed its own unfrozen list", async () => {
    const first = args('prod');
    const second = args('prod');
    expect(Object.isFrozen(first.resources)).toBe(false);
    expect(await environments(first, 'rule-a')).toEqual(['prod']);
    expect(evaluationOf(second, 'rule-b').context(second)).toBe(evaluationOf(first, 'rule-a').context(first));
    expect(accessOf(second, evaluationOf(second, 'rule-b'))).toBe(
      accessOf(first, evaluationOf(first, 'rule-a')),
    );
  });

  it('begins a new evaluation when a rule is called again: two evaluations never share answers', () => {
    const one = args('prod');
    const two = args('prod');
    const evaluation = evaluationOf(one, 'rule-c');
    expect(evaluationOf(two, 'rule-c')).not.toBe(evaluation);
    expect(evaluationOf(two, 'rule-c').context(two)).not.toBe(evaluation.context(one));
  });

  it('begins a new evaluation for a render with the same URNs and another input', async () => {
    const dev = args('dev');
    const prod = args('prod');
    expect(await environments(dev, 'rule-d')).toEqual(['dev']);
    expect(await environments(prod, 'rule-e')).toEqual(['prod']);
    expect(evaluationOf(prod, 'rule-e')).not.toBe(evaluationOf(dev, 'rule-d'));
  });

  it("keeps an evaluation the engine began with its list to that list's calls", () => {
    const engines = args('prod');
    const evaluation = beginEvaluation(engines.resources);
    expect(evaluationOf(engines, 'rule-h')).toBe(evaluation);
    expect(evaluationOf(engines, 'rule-i')).toBe(evaluation);
    expect(evaluationOf(args('prod'), 'rule-j')).not.toBe(evaluation);
  });

  it('keeps one context per bootstrap render the rules name', () => {
    const none = args('prod');
    const named = args('prod', { bootstrapRender: '/nonexistent/ci.json' });
    const evaluation = evaluationOf(none, 'rule-f');
    expect(evaluation.context(none).bootstrap).toBeUndefined();
    expect(() => evaluationOf(named, 'rule-g').context(named)).toThrow(
      'policy config bootstrapRender=/nonexistent/ci.json: no such file',
    );
  });
});
