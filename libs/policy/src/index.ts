export * from './engine';
export {
  loadPolicyConfig,
  parsePolicyConfig,
  PolicyConfigError,
  POLICY_CONFIG_FILE,
  type PolicyConfig,
} from './policy-config';
export { baselinePolicies } from './rules';
export { CI_NOT_JUDGED } from './rules/access';
export { BOOTSTRAP_RENDER_KEY } from './rules/evaluation';
export type { SourcedPolicy } from './rules/define';
