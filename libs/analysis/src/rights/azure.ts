import type { RenderedResource } from '../render';
import { stringInput } from '../access/model';
import { allows, assignmentsOf, roleDefinitionsOf, roleGuid, under } from '../access/azure';
import {
  neededOperations,
  type LinkedRight,
  type MissingRight,
  type ResourceRights,
  type RightsInput,
} from './model';

const OPS = 'https://learn.microsoft.com/en-us/azure/role-based-access-control/permissions';

/**
 * What Azure Resource Manager authorises for each resource type the Azure stack renders: a PUT is
 * `<type>/write`, a GET `<type>/read`, a DELETE `<type>/delete` (https://learn.microsoft.com/en-us/azure/role-based-access-control/resource-provider-operations).
 */
export const AZURE_RIGHTS: Readonly<Record<string, ResourceRights>> = {
  'azure-native:storage:StorageAccount': {
    create: ['Microsoft.Storage/storageAccounts/write'],
    update: ['Microsoft.Storage/storageAccounts/write'],
    delete: ['Microsoft.Storage/storageAccounts/delete'],
    read: ['Microsoft.Storage/storageAccounts/read'],
    source: `${OPS}/storage#microsoftstorage`,
  },
  'azure-native:storage:BlobServiceProperties': {
    create: ['Microsoft.Storage/storageAccounts/blobServices/write'],
    update: ['Microsoft.Storage/storageAccounts/blobServices/write'],
    // Deleting the resource only stops managing the account's blob service settings: no call.
    delete: [],
    read: ['Microsoft.Storage/storageAccounts/blobServices/read'],
    source: `${OPS}/storage#microsoftstorage`,
  },
  'azure-native:storage:ManagementPolicy': {
    create: ['Microsoft.Storage/storageAccounts/managementPolicies/write'],
    update: ['Microsoft.Storage/storageAccounts/managementPolicies/write'],
    delete: ['Microsoft.Storage/storageAccounts/managementPolicies/delete'],
    read: ['Microsoft.Storage/storageAccounts/managementPolicies/read'],
    source: `${OPS}/storage#microsoftstorage`,
  },
  'azure-native:storage:BlobContainer': {
    create: ['Microsoft.Storage/storageAccounts/blobServices/containers/write'],
    update: ['Microsoft.Storage/storageAccounts/blobServices/containers/write'],
    delete: ['Microsoft.Storage/storageAccounts/blobServices/containers/delete'],
    read: ['Microsoft.Storage/storageAccounts/blobServices/containers/read'],
    source: `${OPS}/storage#microsoftstorage`,
  },
  'azure-native:keyvault:Vault': {
    create: ['Microsoft.KeyVault/vaults/write'],
    update: ['Microsoft.KeyVault/vaults/write'],
    delete: ['Microsoft.KeyVault/vaults/delete'],
    read: ['Microsoft.KeyVault/vaults/read'],
    source: `${OPS}/security#microsoftkeyvault`,
  },
  'azure-native:keyvault:Key': {
    create: ['Microsoft.KeyVault/vaults/keys/write'],
    update: ['Microsoft.KeyVault/vaults/keys/write'],
    // ARM has no key deletion: the provider drops the key from the state and leaves it in the vault.
    delete: [],
    read: ['Microsoft.KeyVault/vaults/keys/read'],
    source: `${OPS}/security#microsoftkeyvault`,
  },
  'azure-native:managedidentity:UserAssignedIdentity': {
    create: ['Microsoft.ManagedIdentity/userAssignedIdentities/write'],
    update: ['Microsoft.ManagedIdentity/userAssignedIdentities/write'],
    delete: ['Microsoft.ManagedIdentity/userAssignedIdentities/delete'],
    read: ['Microsoft.ManagedIdentity/userAssignedIdentities/read'],
    source: `${OPS}/identity#microsoftmanagedidentity`,
  },
  'azure-native:authorization:RoleAssignment': {
    create: ['Microsoft.Authorization/roleAssignments/write'],
    update: ['Microsoft.Authorization/roleAssignments/write'],
    delete: ['Microsoft.Authorization/roleAssignments/delete'],
    read: ['Microsoft.Authorization/roleAssignments/read'],
    source: `${OPS}/management-and-governance#microsoftauthorization`,
  },
};

/**
 * Attaching a user-assigned identity to a resource needs `assign/action` on the identity, besides the
 * write of the resource. https://learn.microsoft.com/en-us/entra/identity/managed-identities-azure-resources/how-manage-user-assigned-managed-identities#manage-access-to-user-assigned-managed-identities
 */
function linkedRights(resource: RenderedResource): LinkedRight[] {
  if (resource.type !== 'azure-native:storage:StorageAccount') return [];
  const encryption = (
    resource.inputs['encryption'] as
      { encryptionIdentity?: { encryptionUserAssignedIdentity?: unknown } } | undefined
  )?.encryptionIdentity?.encryptionUserAssignedIdentity;
  const declared = (resource.inputs['identity'] as { userAssignedIdentities?: unknown } | undefined)
    ?.userAssignedIdentities;
  // A list of IDs, or (older API versions) a map keyed by them.
  const attached = Array.isArray(declared)
    ? declared.filter((id): id is string => typeof id === 'string')
    : Object.keys((declared as object | undefined) ?? {});
  const identities = [...new Set([...(typeof encryption === 'string' ? [encryption] : []), ...attached])];
  return identities.flatMap((on) =>
    (['create', 'update'] as const).map((operation) => ({
      operation,
      permission: 'Microsoft.ManagedIdentity/userAssignedIdentities/assign/action',
      on,
      why: 'attaching the identity to the account',
    })),
  );
}

function resourceId(resource: RenderedResource, subscription: string): string | undefined {
  const rg = `/subscriptions/${subscription}/resourceGroups/${stringInput(resource, 'resourceGroupName') ?? ''}`;
  const account = `${rg}/providers/Microsoft.Storage/storageAccounts/${stringInput(resource, 'accountName') ?? ''}`;
  switch (resource.type) {
    case 'azure-native:storage:StorageAccount':
      return account;
    case 'azure-native:storage:BlobServiceProperties':
      return `${account}/blobServices/default`;
    case 'azure-native:storage:ManagementPolicy':
      return `${account}/managementPolicies/default`;
    case 'azure-native:storage:BlobContainer':
      return `${account}/blobServices/default/containers/${stringInput(resource, 'containerName') ?? ''}`;
    case 'azure-native:keyvault:Vault':
      return `${rg}/providers/Microsoft.KeyVault/vaults/${stringInput(resource, 'vaultName') ?? resource.name}`;
    case 'azure-native:keyvault:Key':
      return `${rg}/providers/Microsoft.KeyVault/vaults/${stringInput(resource, 'vaultName') ?? ''}/keys/${stringInput(resource, 'keyName') ?? ''}`;
    case 'azure-native:managedidentity:UserAssignedIdentity':
      return `${rg}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${stringInput(resource, 'resourceName') ?? ''}`;
    case 'azure-native:authorization:RoleAssignment':
      return `${stringInput(resource, 'scope') ?? ''}/providers/Microsoft.Authorization/roleAssignments/${stringInput(resource, 'roleAssignmentName') ?? ''}`;
    default:
      return undefined;
  }
}

const GUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/** An assignment condition of the bootstrap's form names the roles it may assign; none means any. */
function conditionAllowsRole(condition: string | undefined, role: string): boolean {
  const allowed =
    /@Request\[Microsoft\.Authorization\/roleAssignments:RoleDefinitionId\] ForAnyOfAnyValues:GuidEquals \{([^}]*)\}/i.exec(
      condition ?? '',
    );
  if (!allowed?.[1]) return true;
  return [...allowed[1].matchAll(GUID)].some(([guid]) => guid.toLowerCase() === role.toLowerCase());
}

export async function azureMissingRights({
  render,
  bootstrap,
  environment,
}: RightsInput): Promise<MissingRight[]> {
  const everything = [...render.resources, ...bootstrap.resources];
  const subscription =
    /\/subscriptions\/([^/]+)\//.exec(JSON.stringify(everything.map((r) => r.inputs)))?.[1] ?? '';
  const roles = roleDefinitionsOf(everything);
  const assignments = assignmentsOf(bootstrap.resources);
  const identities = new Map<string, string>();
  for (const a of bootstrap.resources) {
    const purpose = /^CI (\S+) of /.exec(stringInput(a, 'description') ?? '')?.[1];
    const id = stringInput(a, 'principalId');
    if (a.type === 'azure-native:authorization:RoleAssignment' && purpose && id) identities.set(purpose, id);
  }
  const holds = (principalId: string | undefined, on: string, permission: string, assigned?: string) =>
    principalId !== undefined &&
    assignments.some(
      (a) =>
        a.principalId === principalId &&
        under(on, a.scope) &&
        allows(roles.get(roleGuid(a.role)), permission, false) &&
        (assigned === undefined ||
          !permission.startsWith('Microsoft.Authorization/roleAssignments/') ||
          conditionAllowsRole(a.condition, assigned)),
    );
  const missing: MissingRight[] = [];
  for (const resource of render.resources) {
    const rights = AZURE_RIGHTS[resource.type];
    const id = resourceId(resource, subscription);
    if (!rights || !id) continue;
    const assigned =
      resource.type === 'azure-native:authorization:RoleAssignment'
        ? roleGuid(stringInput(resource, 'roleDefinitionId') ?? '')
        : undefined;
    const check = (
      identity: string,
      operation: MissingRight['operation'],
      permission: string,
      on: string,
    ) => {
      if (!holds(identities.get(identity), on, permission, assigned)) {
        missing.push({
          resource: `${resource.type} ${resource.name}`,
          operation,
          permission,
          on,
          identity: `ci ${identity}`,
        });
      }
    };
    for (const operation of neededOperations(resource)) {
      for (const permission of rights[operation]) check(`deploy-${environment}`, operation, permission, id);
    }
    for (const link of linkedRights(resource))
      check(`deploy-${environment}`, link.operation, link.permission, link.on);
    for (const permission of rights.read) check('preview', 'read', permission, id);
  }
  return missing;
}
