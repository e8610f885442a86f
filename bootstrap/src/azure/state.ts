import type { AzureStateContainer } from '../config';
import { statePrefixes } from '../state-layout';
import type { AzureRole } from './roles';

const BLOBS = 'Microsoft.Storage/storageAccounts/blobServices/containers/blobs';
const BLOB_PATH = `@Resource[${BLOBS}:path]`;

/**
 * A role assignment of a CI identity on the Azure stacks' state container, narrowed by an ABAC condition.
 * `store-writer` is the subscription's Checkpoint Store Writer role (the bootstrap defines it): Storage Blob
 * Data Contributor's blob data actions without `containers/delete`, which no ABAC condition can narrow (a
 * condition applies to data actions only: https://learn.microsoft.com/en-us/azure/role-based-access-control/conditions-overview#what-are-role-assignment-conditions),
 * so that no CI identity can delete the container and every stack's state with it.
 */
export interface AzureStateGrant {
  role: AzureRole | 'store-writer';
  condition: string;
}

/** The container's ARM ID: the scope of the state grants, so that no other container of the account is reached. */
export function stateContainerScope({ storageAccountId, container }: AzureStateContainer): string {
  return `${storageAccountId}/blobServices/default/containers/${container}`;
}

/**
 * Data actions of a role, each admitted only on blobs whose path (the blob name within the container)
 * starts with one of `prefixes`. The blob path attribute is not available to List Blobs, which is the
 * Blob.List suboperation of blobs/read: the read clause leaves it out, as Microsoft's "read or list blobs
 * with a path" example does, so listing stays granted; it shows blob names only
 * (https://learn.microsoft.com/en-us/azure/storage/blobs/storage-auth-abac-attributes#blob-path,
 * https://learn.microsoft.com/en-us/azure/storage/blobs/storage-auth-abac-examples#blob-paths,
 * https://learn.microsoft.com/en-us/azure/role-based-access-control/conditions-format).
 */
function pathCondition(actions: readonly string[], prefixes: readonly string[]): string {
  const gated = actions
    .map((action) =>
      action === 'read'
        ? `!(ActionMatches{'${BLOBS}/read'} AND NOT SubOperationMatches{'Blob.List'})`
        : `!(ActionMatches{'${BLOBS}/${action}'})`,
    )
    .join(' AND ');
  const paths = prefixes.map((prefix) => `${BLOB_PATH} StringStartsWith '${prefix}'`).join(' OR ');
  return `((${gated}) OR (${paths}))`;
}

/**
 * The preview (`environment` undefined) reads the Azure stacks' state and history and writes their locks;
 * a deploy identity reads the backend's meta.yaml and reads, writes and deletes its own environment's
 * state, history, backups and lock. The writer role's data actions are Storage Blob Data Contributor's:
 * blobs read, write, delete, add/action and move/action (https://learn.microsoft.com/en-us/azure/role-based-access-control/built-in-roles/storage#storage-blob-data-contributor);
 * every one is gated.
 */
export function azureStateGrants(environment?: string): AzureStateGrant[] {
  const { read, write } = statePrefixes('azure', environment);
  return [
    { role: 'Storage Blob Data Reader', condition: pathCondition(['read'], read) },
    {
      role: 'store-writer',
      condition: pathCondition(['read', 'write', 'delete', 'add/action', 'move/action'], write),
    },
  ];
}
