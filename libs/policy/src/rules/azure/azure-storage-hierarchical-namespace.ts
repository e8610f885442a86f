import { read, state } from '../inputs';
import { azureResourceRule, isAuditArchive, T } from './support';

export const azureStorageHierarchicalNamespace = azureResourceRule({
  name: 'azure-storage-hierarchical-namespace',
  description:
    "Storage accounts have a hierarchical namespace (isHnsEnabled true): that is what makes them ADLS Gen2, with atomic directory renames and POSIX ACLs, and it can only be chosen when the account is created (not the bootstrap's write-once archive of the resource logs, whose version-level immutability rules it out)",
  source:
    'Checkpoint security baseline (hierarchical namespace: always on ADLS Gen2); Microsoft Learn: Azure Data Lake Storage hierarchical namespace',
  types: [T.storageAccount],
  validate: (props, args, report) => {
    if (isAuditArchive(args)) return;
    const hns = read(props, 'isHnsEnabled');
    if (hns !== true) {
      report(`isHnsEnabled ${state(hns)}; expected true (an ADLS Gen2 account)`);
    }
  },
});
