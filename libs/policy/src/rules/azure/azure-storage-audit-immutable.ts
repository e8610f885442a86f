import { complianceRule } from '../compliance';

/**
 * The resource logs of every audited prod store also go to a write-once archive: the bootstrap's account with an
 * account-level immutability policy allowing protected appends and a CanNotDelete lock (bootstrap/src/azure/
 * audit-archive.ts), so the record of who read and wrote checkpoints outlives any attempt to purge the workspace.
 */
export const azureStorageAuditImmutable = complianceRule({
  name: 'azure-storage-audit-immutable',
  description:
    "Every audited prod store's blob diagnostic setting also sends to a storage account (the bootstrap's archive) with account-level immutability that allows protected append writes and a CanNotDelete lock; checked with the bootstrap render, like the CI rules",
  source:
    'Microsoft Learn: Diagnostic settings in Azure Monitor (destination limitations: immutable storage with protected append writes); Microsoft Learn: Configure immutability policies for blob versions; CIS Microsoft Azure Foundations Benchmark v3.0.0 5.1 (diagnostic settings)',
});
