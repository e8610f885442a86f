import { awsPolicies } from './aws';
import { azurePolicies } from './azure';
import { commonPolicies } from './common';
import type { SourcedPolicy } from './define';
import { gcpPolicies } from './gcp';

/** Every rule of the pack, in the order the docs list them. */
export const baselinePolicies: readonly SourcedPolicy[] = [
  ...commonPolicies,
  ...awsPolicies,
  ...gcpPolicies,
  ...azurePolicies,
];
