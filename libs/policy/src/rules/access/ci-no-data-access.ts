import { DATA_OPERATIONS, isCi } from '@checkpoints/analysis';
import { accessRule } from './analysis';

export const ciNoDataAccess = accessRule({
  name: 'ci-no-data-access',
  description: 'No CI identity (preview or deploy) can read, write or delete checkpoint data',
  source: 'Checkpoint CI rights (CI never reads data); CIS Controls v8 3.3 (data access control lists)',
  needsBootstrap: true,
  judge: (grant) =>
    isCi(grant.principal) && DATA_OPERATIONS.includes(grant.operation)
      ? `can ${grant.operation} checkpoint data`
      : undefined,
});
