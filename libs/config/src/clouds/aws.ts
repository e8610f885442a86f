import type { CloudRules } from '../load';

/** aws limits checked at config time (filled in by the aws stack). */
export const awsRules: CloudRules = { cloud: 'aws' };
