import { DATA_OPERATIONS, isCi } from '@checkpoints/analysis';
import { accessRule } from './analysis';

export const ciNoDataAccess = accessRule({
  name: 'ci-no-data-access',
  description:
    'No CI identity (preview or deploy) can read, write or delete checkpoint data, or use a store key',
  source: 'Checkpoint CI rights (CI never reads data); CIS Controls v8 3.3 (data access control lists)',
  needsBootstrap: true,
  // Using a store key directly is decrypting the data keys its checkpoints are encrypted under.
  judge: (grant) =>
    isCi(grant.principal) && [...DATA_OPERATIONS, 'use-key'].includes(grant.operation)
      ? grant.operation === 'use-key'
        ? 'can use a store key'
        : `can ${grant.operation} checkpoint data`
      : undefined,
});
