import type { SourcedPolicy } from '../define';

export const gcpPolicies: SourcedPolicy[] = [];
