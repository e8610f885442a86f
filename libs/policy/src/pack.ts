/**
 * The CrossGuard pack program (`main` of PulumiPolicy.yaml): what `pulumi preview --policy-pack libs/policy`
 * runs. Kept apart from the rules so tests and synth import them without starting a policy server.
 */
import { PolicyPack } from '@pulumi/policy';
import { loadPolicyConfig } from './policy-config';
import { baselinePolicies } from './rules';

const overrides = loadPolicyConfig(baselinePolicies.map((policy) => policy.name)).entries;

new PolicyPack(
  'checkpoints-baseline',
  {
    policies: [...baselinePolicies],
    enforcementLevel: 'mandatory',
    description: 'Security baseline of checkpoint stores (docs/policies.md)',
  },
  Object.fromEntries(
    Object.entries(overrides).map(([name, { enforcementLevel, reason }]) => [
      name,
      { enforcementLevel, reason },
    ]),
  ),
);
