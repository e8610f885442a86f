import { read, state } from '../inputs';
import { azureResourceRule, T } from './support';

export const azureStorageNoCrossTenantReplication = azureResourceRule({
  name: 'azure-storage-no-cross-tenant-replication',
  description:
    'Storage accounts set allowCrossTenantReplication to false, so object replication cannot copy checkpoints to an account in another Microsoft Entra tenant',
  source:
    'CIS Microsoft Azure Foundations Benchmark v3.0.0 4.16 (Cross Tenant Replication not enabled); Microsoft Learn: Prevent object replication across Microsoft Entra tenants',
  types: [T.storageAccount],
  validate: (props, _args, report) => {
    const allow = read(props, 'allowCrossTenantReplication');
    if (allow !== false) {
      report(`allowCrossTenantReplication ${state(allow)}; expected false`);
    }
  },
});
