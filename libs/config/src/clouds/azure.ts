import type { CloudRules } from '../load';

/** azure limits checked at config time (filled in by the azure stack). */
export const azureRules: CloudRules = { cloud: 'azure' };
