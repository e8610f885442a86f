import type { SourcedPolicy } from '../define';

export const awsPolicies: SourcedPolicy[] = [];
