import type { SourcedPolicy } from '../define';

export const azurePolicies: SourcedPolicy[] = [];
