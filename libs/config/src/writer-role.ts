import { createHash } from 'node:crypto';

/** One permission block of an Azure role definition (https://learn.microsoft.com/azure/role-based-access-control/role-definitions). */
export interface AzureRolePermission {
  actions: readonly string[];
  notActions: readonly string[];
  dataActions: readonly string[];
  notDataActions: readonly string[];
}

export interface AzureRoleDefinition {
  roleName: string;
  permissions: readonly AzureRolePermission[];
}

const BLOBS = 'Microsoft.Storage/storageAccounts/blobServices/containers/blobs';

/**
 * The store writer's role, in place of Storage Blob Data Contributor: its data actions (read, write, delete,
 * move and add blobs) and, of its actions, only `containers/read`. The built-in's other actions are
 * `containers/delete` (delete the whole filesystem: every checkpoint at once), `containers/write` (the
 * container's properties and metadata) and `generateUserDelegationKey/action` (SAS tokens), none of which a
 * training job needs (Storage Blob Data Contributor as published:
 * https://learn.microsoft.com/azure/role-based-access-control/built-in-roles/storage#storage-blob-data-contributor;
 * libs/analysis checks this role against the vendored definition). It is stated here, with the other
 * platform facts the stacks, the bootstrap and the analyses share. A custom role is a subscription's own
 * definition; the admin-run bootstrap creates it (CI cannot write role definitions), and the stack assigns
 * it by its GUID, derived from the subscription.
 */
export const CHECKPOINT_WRITER_ROLE: AzureRoleDefinition = {
  roleName: 'Checkpoint Store Writer',
  permissions: [
    {
      actions: ['Microsoft.Storage/storageAccounts/blobServices/containers/read'],
      notActions: [],
      dataActions: [
        `${BLOBS}/delete`,
        `${BLOBS}/read`,
        `${BLOBS}/write`,
        `${BLOBS}/move/action`,
        `${BLOBS}/add/action`,
      ],
      notDataActions: [],
    },
  ],
};

/** The writer role's definition GUID in a subscription: a role definition's name is unique in the tenant. */
export function checkpointWriterRoleGuid(subscriptionId: string): string {
  const hex = createHash('sha256')
    .update(`checkpoints-store-writer-role\0${subscriptionId.toLowerCase()}`)
    .digest('hex');
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20, 32)].join(
    '-',
  );
}
