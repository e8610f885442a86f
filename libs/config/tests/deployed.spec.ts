import {
  deployedStoresConfig,
  deployedStoresOf,
  loadStackSpec,
  replacementIssues,
  type CloudRules,
  type ReplacingSetting,
  type StoreSpec,
} from '../src';

const rules: CloudRules = { cloud: 'aws' };

const STACK = {
  'checkpoints:environment': 'dev',
  'checkpoints:owner': 'ml-platform',
  'checkpoints:costCenter': 'cc-1234',
  'checkpoints:stores': JSON.stringify([{ name: 'llm', dataClassification: 'internal' }]),
};

function specOf(...stores: Record<string, unknown>[]): StoreSpec[] {
  const config = {
    ...STACK,
    'checkpoints:stores': JSON.stringify(
      stores.map((store) => ({ dataClassification: 'internal', ...store })),
    ),
  };
  return loadStackSpec(config, rules).stores;
}

/** A stack's whole config as the program reads it (`pulumi.runtime.allConfig()`), with `more`. */
const configOf = (more: Record<string, string>): Record<string, string> => ({ ...STACK, ...more });

const settings: ReplacingSetting[] = [
  { key: 'tier', consequence: 'the bucket would be replaced' },
  {
    key: 'encryption',
    consequence: 'the key would be dropped',
    refuses: (before, after) => before === 'customer-managed' && after !== 'customer-managed',
  },
];
const inputsOf = (store: StoreSpec) => ({ tier: store.tier, encryption: store.encryption });
const deployed = [{ name: 'llm', inputs: { tier: 'standard', encryption: 'customer-managed' } }];

describe('replacementIssues', () => {
  it('refuses a changed setting of a deployed store, with the key path, the value and the migration path', () => {
    const issues = replacementIssues(
      specOf({ name: 'llm', tier: 'high-throughput' }),
      inputsOf,
      settings,
      deployed,
    );
    expect(issues).toEqual([
      {
        path: 'checkpoints:stores[0].tier',
        value: 'high-throughput',
        message: expect.stringMatching(
          /^store llm already exists with tier "standard" \(previous render\): the bucket would be replaced\. Keep tier "standard" and migrate instead: add a new store with tier "high-throughput", copy the checkpoints into it, then retire this one/,
        ),
        refusal: true,
      },
      expect.objectContaining({ path: 'checkpoints:stores[0].encryption', value: 'provider-managed' }),
    ]);
  });

  it('matches a renamed store by its former names', () => {
    const issues = replacementIssues(
      specOf({ name: 'llm-v2', formerNames: ['llm'], encryption: 'provider-managed' }),
      inputsOf,
      settings,
      deployed,
    );
    expect(issues.map((issue) => issue.path)).toEqual(['checkpoints:stores[0].encryption']);
  });

  it('lets through what `refuses` allows, new stores, and settings the previous render does not record', () => {
    const provider = [{ name: 'llm', inputs: { tier: 'standard', encryption: 'provider-managed' } }];
    expect(
      replacementIssues(
        specOf({ name: 'llm', encryption: 'customer-managed' }),
        inputsOf,
        settings,
        provider,
      ),
    ).toEqual([]);
    expect(
      replacementIssues(specOf({ name: 'other', tier: 'high-throughput' }), inputsOf, settings, deployed),
    ).toEqual([]);
    const older = [{ name: 'llm', inputs: { retention: {} } }];
    expect(
      replacementIssues(specOf({ name: 'llm', tier: 'high-throughput' }), inputsOf, settings, older),
    ).toEqual([]);
  });

  it('judges nothing without a previous render (pulumi up)', () => {
    expect(deployedStoresOf(configOf({}))).toBeUndefined();
    expect(
      replacementIssues(
        specOf({ name: 'llm', tier: 'high-throughput' }),
        inputsOf,
        settings,
        deployedStoresOf(configOf({})),
      ),
    ).toEqual([]);
  });

  it("hands the program a previous render's stores through its config", () => {
    const config = configOf(deployedStoresConfig([{ name: 'llm', inputs: { tier: 'standard' } }]));
    expect(deployedStoresOf(config)).toEqual([{ name: 'llm', inputs: { tier: 'standard' } }]);
    expect(
      replacementIssues(
        specOf({ name: 'llm', tier: 'high-throughput' }),
        inputsOf,
        settings,
        deployedStoresOf(config),
      ).length,
    ).toBe(1);
    // The key is outside the stack file's namespace: the spec does not read it as a setting.
    expect(() => loadStackSpec({ ...STACK, ...config }, rules)).not.toThrow();
  });
});
