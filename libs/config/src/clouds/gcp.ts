import type { CloudRules } from '../load';

/** gcp limits checked at config time (filled in by the gcp stack). */
export const gcpRules: CloudRules = { cloud: 'gcp' };
