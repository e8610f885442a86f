import type { PolicyResource } from '@pulumi/policy';
import { stackRule } from '../define';
import { read, state } from '../inputs';
import { checkAccountCompanion, T } from './support';

/** The shortest soft-delete retention the baseline accepts, in days. */
export const MIN_SOFT_DELETE_DAYS = 7;

function retentionProblems(props: Record<string, unknown>, policy: string): string[] {
  const enabled = read(props, policy, 'enabled');
  if (enabled !== true) return [`${policy}.enabled ${state(enabled)}; expected true`];
  const days = read(props, policy, 'days');
  if (typeof days !== 'number' || days < MIN_SOFT_DELETE_DAYS) {
    return [`${policy}.days ${state(days)}; expected at least ${MIN_SOFT_DELETE_DAYS}`];
  }
  return [];
}

/** Whether the account has (or may have) a hierarchical namespace: only an explicit false rules it out. */
function mayHaveHierarchicalNamespace(account: PolicyResource | undefined): boolean {
  return account !== undefined && read(account.props, 'isHnsEnabled') !== false;
}

export const azureStorageSoftDelete = stackRule({
  name: 'azure-storage-soft-delete',
  description: `Every storage account has BlobServiceProperties (linked through accountName) with blob and container soft delete enabled for at least ${MIN_SOFT_DELETE_DAYS} days and no permanent delete of soft-deleted data; blob versioning stays off on a hierarchical-namespace account, where the service rejects it`,
  source:
    'CIS Microsoft Azure Foundations Benchmark v3.0.0 4.10 (Soft Delete enabled for Azure Containers and Blob Storage); Microsoft Learn: Soft delete for blobs, Soft delete for containers, Blob Storage feature support in accounts with a hierarchical namespace',
  validate: (args, report) =>
    checkAccountCompanion(
      {
        companionType: T.blobServiceProperties,
        missing: (account) =>
          `${account} has no BlobServiceProperties; expected deleteRetentionPolicy and containerDeleteRetentionPolicy enabled for at least ${MIN_SOFT_DELETE_DAYS} days`,
        problems: (properties, account) => {
          const props = properties.props;
          const problems = [
            ...retentionProblems(props, 'deleteRetentionPolicy'),
            ...retentionProblems(props, 'containerDeleteRetentionPolicy'),
          ];
          const permanentDelete = read(props, 'deleteRetentionPolicy', 'allowPermanentDelete');
          if (permanentDelete === true) {
            problems.push('deleteRetentionPolicy.allowPermanentDelete is true; expected false or not set');
          }
          const versioning = read(props, 'isVersioningEnabled');
          if (versioning === true && mayHaveHierarchicalNamespace(account)) {
            problems.push(
              'isVersioningEnabled is true on a hierarchical-namespace account; expected false or not set (the service rejects blob versioning there: soft delete is the way back)',
            );
          }
          return problems;
        },
      },
      args.resources,
      report,
    ),
});
