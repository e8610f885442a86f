export * from './engine';
export {
  loadPolicyConfig,
  parsePolicyConfig,
  PolicyConfigError,
  POLICY_CONFIG_FILE,
  type PolicyConfig,
} from './policy-config';
export { baselinePolicies } from './rules';
export { accessOfRender, BOOTSTRAP_RENDER_ENV } from './rules/access';
export type { SourcedPolicy } from './rules/define';
