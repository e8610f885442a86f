import type { PolicyResource } from '@pulumi/policy';
import { AUDITED_CLASSIFICATIONS } from '@checkpoints/config';
import { stackRule } from '../define';
import { read, readList } from '../inputs';
import { attachedTo, environmentTag, idPatternOf, isAuditArchive, isAzureType, T } from './support';

/** What an audited resource's diagnostic setting must send, per its kind. */
const AUDITED = [
  {
    type: T.storageAccount,
    label: 'storage account',
    nameKey: 'accountName',
    suffix: '/blobServices/default',
    categories: ['StorageRead', 'StorageWrite', 'StorageDelete'],
  },
  { type: T.vault, label: 'key vault', nameKey: 'vaultName', suffix: '', categories: ['AuditEvent'] },
] as const;

function audited(resource: PolicyResource): boolean {
  const classification = read(resource.props, 'tags', 'data-classification');
  return (
    environmentTag(resource) === 'prod' ||
    (typeof classification === 'string' &&
      (AUDITED_CLASSIFICATIONS as readonly string[]).includes(classification))
  );
}

function enabledCategories(setting: PolicyResource): string[] {
  const logs = readList(setting.props, 'logs');
  if (!Array.isArray(logs)) return [];
  return logs.flatMap((log) => {
    const category = read(log, 'category');
    return read(log, 'enabled') === true && typeof category === 'string' ? [category] : [];
  });
}

export const azureStorageAudit = stackRule({
  name: 'azure-storage-audit',
  description:
    "Every prod, confidential or restricted store records who reads and writes it: a diagnostic setting on the account's blob service with StorageRead, StorageWrite and StorageDelete, and one on its key vault with AuditEvent, each sent to a Log Analytics workspace",
  source:
    'Checkpoint security baseline (audit of data access); CIS Microsoft Azure Foundations Benchmark v3.0.0 3.14 (Ensure Storage Logging is Enabled for Blob Service for Read, Write, and Delete requests) and 5.1.5 / 8.5 (Key Vault logging); Microsoft Learn: Azure Blob Storage monitoring data reference (resource logs)',
  validate: (args, report) => {
    const settings = args.resources.filter((r) => isAzureType(r.type, T.diagnosticSetting));
    for (const kind of AUDITED) {
      // The archive of the stores' logs is their destination, not a store (isAuditArchive).
      for (const resource of args.resources.filter(
        (r) => isAzureType(r.type, kind.type) && audited(r) && !isAuditArchive(r),
      )) {
        const idPattern = idPatternOf(resource, kind.suffix);
        const attached = settings.filter((setting) =>
          attachedTo(setting, 'resourceUri', resource, idPattern),
        );
        const complete = attached.some(
          (setting) =>
            read(setting.props, 'workspaceId') !== undefined &&
            kind.categories.every((category) => enabledCategories(setting).includes(category)),
        );
        if (!complete) {
          const name = read(resource.props, kind.nameKey);
          report(
            `${kind.label} '${typeof name === 'string' ? name : resource.name}' is not audited: expected a diagnostic setting on it${kind.suffix} sending ${kind.categories.join(', ')} to a Log Analytics workspace (workspaceId)`,
            resource.urn,
          );
        }
      }
    }
  },
});
