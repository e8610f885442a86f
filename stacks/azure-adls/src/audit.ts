import type * as pulumi from '@pulumi/pulumi';
import { DiagnosticSetting } from '@pulumi/azure-native/monitor/diagnosticSetting';
import { Workspace } from '@pulumi/azure-native/operationalinsights/workspace';
import type { StorageAccount } from '@pulumi/azure-native/storage/storageAccount';
import type { Vault } from '@pulumi/azure-native/keyvault/vault';
import { keyLogicalName } from './encryption';
import type { StoreScope } from './scope';

/**
 * Resource log categories of a storage account's blob service: every read, write and delete request,
 * with the caller's identity (https://learn.microsoft.com/azure/storage/blobs/monitor-blob-storage-reference#resource-logs,
 * "StorageRead, StorageWrite, StorageDelete"). ADLS Gen2 (dfs) requests are logged under the blob service.
 */
export const BLOB_AUDIT_CATEGORIES = ['StorageRead', 'StorageWrite', 'StorageDelete'] as const;

/** Key Vault's one audit category: every authenticated REST call, key operations included (https://learn.microsoft.com/azure/key-vault/general/logging). */
export const VAULT_AUDIT_CATEGORIES = ['AuditEvent'] as const;

/** Days the stack's workspace keeps audit records: a year, the CIS Azure benchmark's retention for audit logs. */
export const AUDIT_RETENTION_DAYS = 365;

/** The name every diagnostic setting of the stack takes on its resource. */
export const AUDIT_SETTING_NAME = 'checkpoints-audit';

export interface AuditWorkspaceArgs {
  name: string;
  resourceGroupName: pulumi.Input<string>;
  location: string;
  tags: Record<string, string>;
  protect: boolean;
}

/**
 * The stack's Log Analytics workspace for the stores' audit records. It holds the record of who read and
 * wrote checkpoints, so a deploy never deletes it (released when no store is audited any more).
 */
export function createAuditWorkspace(args: AuditWorkspaceArgs): Workspace {
  return new Workspace(
    'checkpoints-audit',
    {
      resourceGroupName: args.resourceGroupName,
      workspaceName: args.name,
      location: args.location,
      sku: { name: 'PerGB2018' },
      retentionInDays: AUDIT_RETENTION_DAYS,
      tags: args.tags,
    },
    { protect: args.protect, retainOnDelete: true },
  );
}

/** Where a store's audit records go: the workspace, and in prod the bootstrap's write-once archive too. */
export interface AuditDestinations {
  workspaceId: pulumi.Input<string>;
  /** The environment's audit archive (bootstrap/src/azure/audit-archive.ts), named by its derived ID. */
  archiveAccountId?: pulumi.Input<string>;
}

/**
 * Diagnostic settings that send the store's blob requests and, with its own key, its vault's audit events to
 * the workspace, and to the archive where there is one: a workspace's records can be purged by whoever holds
 * its purge right, the archive's blobs by nobody until their immutability period ends.
 */
export function auditStore(
  scope: StoreScope,
  account: StorageAccount,
  vault: Vault | undefined,
  { workspaceId, archiveAccountId }: AuditDestinations,
): DiagnosticSetting[] {
  const setting = (name: string, resourceUri: pulumi.Input<string>, categories: readonly string[]) =>
    new DiagnosticSetting(
      name,
      {
        name: AUDIT_SETTING_NAME,
        resourceUri,
        workspaceId,
        ...(archiveAccountId === undefined ? {} : { storageAccountId: archiveAccountId }),
        logs: categories.map((category) => ({ category, enabled: true })),
      },
      // A protected store's audit is as hard to switch off as its data is to delete.
      { parent: scope.parent, protect: scope.store.protect, retainOnDelete: true },
    );
  const settings = [
    setting(
      `${scope.store.name}-audit-blob`,
      account.id.apply((id) => `${id}/blobServices/default`),
      BLOB_AUDIT_CATEGORIES,
    ),
  ];
  if (vault) {
    const name = keyLogicalName(scope, `${scope.store.name}-audit-vault`);
    settings.push(setting(name, vault.id, VAULT_AUDIT_CATEGORIES));
  }
  return settings;
}
