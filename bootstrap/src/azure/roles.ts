import { stableHash } from '@checkpoints/naming';
import { CHECKPOINT_WRITER_ROLE, checkpointWriterRoleGuid } from '@checkpoints/config';

/** Built-in role definitions by name: the GUIDs are the same in every tenant. */
export const AZURE_ROLES = {
  Reader: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
  'Storage Account Contributor': '17d1049b-9a84-46fb-8f53-869881c3d3ab',
  'Key Vault Contributor': 'f25e0fa2-a7c8-4377-a976-54943a77a395',
  'Managed Identity Contributor': 'e40ec5ca-96e0-45a2-b4ff-59039f2c2b59',
  'Role Based Access Control Administrator': 'f58310d9-a9f6-439a-9e8d-f62e7b41a168',
  'Storage Blob Data Contributor': 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
  'Storage Blob Data Reader': '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
  'Key Vault Crypto Service Encryption User': 'e147488a-f6f5-4113-8e2d-b22465e65bf6',
  // What a Backup vault's identity needs on an account it backs up ("These permissions are bundled into the
  // Storage Account Backup Contributor role",
  // https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-overview#backup-management).
  'Storage Account Backup Contributor': 'e5e2a7ff-d759-4cd2-bb51-3152d37e2eb1',
} as const;

export type AzureRole = keyof typeof AZURE_ROLES;

/** Preview reads the stacks' resource groups: control plane only, Reader holds no data action. */
export const AZURE_PREVIEW_ROLES: readonly AzureRole[] = ['Reader'];

/** Deploy makes the role assignments of the stack (the custom role below holds the rest). */
export const AZURE_DEPLOY_ROLES: readonly AzureRole[] = ['Role Based Access Control Administrator'];

/**
 * The custom role of a deploy identity, in place of Storage Account Contributor, Key Vault Contributor and
 * Managed Identity Contributor: Storage Account Contributor lists account keys (full data access once
 * shared keys are allowed) and deletes accounts, Managed Identity Contributor adds federated credentials
 * to the store identities (acting as them), Key Vault Contributor deletes vaults. The operations are
 * those of the resources the Azure stack declares, from the resource provider operations reference
 * (https://learn.microsoft.com/en-us/azure/role-based-access-control/permissions/storage,
 * .../permissions/security#microsoftkeyvault, .../permissions/identity#microsoftmanagedidentity);
 * in prod nothing that deletes a data holder or a vault (break-glass, by an administrator).
 */
export function azureDeployActions(environment: string): string[] {
  // In prod the audit trail is no more deletable by CI than the data it records.
  const deletions =
    environment === 'prod'
      ? []
      : [
          'Microsoft.Insights/diagnosticSettings/delete',
          'Microsoft.Security/defenderForStorageSettings/delete',
          'Microsoft.KeyVault/vaults/delete',
          'Microsoft.OperationalInsights/workspaces/delete',
          'Microsoft.Storage/storageAccounts/blobServices/containers/delete',
          'Microsoft.Storage/storageAccounts/delete',
        ];
  return [
    'Microsoft.Authorization/*/read',
    // CanNotDelete locks on protected accounts and vaults: created by CI, never removed by it (no
    // locks/delete in any environment; removing a lock is the break-glass step of docs/azure.md). write also
    // updates a lock, but no update lifts it: the levels are CanNotDelete and ReadOnly, both forbid deletion.
    // https://learn.microsoft.com/rest/api/resources/management-locks/create-or-update-by-scope
    'Microsoft.Authorization/locks/write',
    // Audit: the stack's workspace and the diagnostic settings that feed it
    // (https://learn.microsoft.com/en-us/azure/role-based-access-control/permissions/monitor). sharedKeys is what
    // makes a workspace a diagnostic settings destination (https://learn.microsoft.com/azure/azure-monitor/logs/manage-access);
    // it can ingest into the workspace, and read nothing from it or from the stores.
    'Microsoft.Insights/diagnosticSettings/read',
    'Microsoft.Insights/diagnosticSettings/write',
    // Defender for Storage with malware scanning on each prod account
    // (https://learn.microsoft.com/azure/role-based-access-control/permissions/security#microsoftsecurity); no
    // delete in prod, as for the diagnostic settings: switching threat detection off is break-glass.
    'Microsoft.Security/defenderForStorageSettings/read',
    'Microsoft.Security/defenderForStorageSettings/write',
    'Microsoft.OperationalInsights/workspaces/read',
    'Microsoft.OperationalInsights/workspaces/sharedKeys/action',
    'Microsoft.OperationalInsights/workspaces/write',
    // Private endpoints of the stores (https://learn.microsoft.com/azure/private-link/rbac-permissions); joining
    // the subnet is granted on the listed subnets alone (azureNetworkActions).
    'Microsoft.Network/privateEndpoints/delete',
    // Their DNS zone groups (https://learn.microsoft.com/azure/role-based-access-control/permissions/networking#microsoftnetwork):
    // writing records into a zone is granted on the listed zones alone (AZURE_DNS_ZONE_ACTIONS).
    'Microsoft.Network/privateEndpoints/privateDnsZoneGroups/delete',
    'Microsoft.Network/privateEndpoints/privateDnsZoneGroups/read',
    'Microsoft.Network/privateEndpoints/privateDnsZoneGroups/write',
    'Microsoft.Network/privateEndpoints/read',
    'Microsoft.Network/privateEndpoints/write',
    'Microsoft.Storage/storageAccounts/privateEndpointConnectionsApproval/action',
    'Microsoft.KeyVault/locations/deletedVaults/read',
    'Microsoft.KeyVault/locations/operationResults/read',
    'Microsoft.KeyVault/vaults/keys/read',
    'Microsoft.KeyVault/vaults/keys/versions/read',
    'Microsoft.KeyVault/vaults/keys/write',
    'Microsoft.KeyVault/vaults/read',
    'Microsoft.KeyVault/vaults/write',
    // Attaching the encryption identity to a storage account (a linked authorization); no compute right
    // goes with it, so no code ever runs as an identity it attaches.
    'Microsoft.ManagedIdentity/userAssignedIdentities/assign/action',
    'Microsoft.ManagedIdentity/userAssignedIdentities/delete',
    'Microsoft.ManagedIdentity/userAssignedIdentities/read',
    'Microsoft.ManagedIdentity/userAssignedIdentities/write',
    'Microsoft.Resources/subscriptions/resourceGroups/read',
    'Microsoft.Storage/storageAccounts/blobServices/containers/read',
    'Microsoft.Storage/storageAccounts/blobServices/containers/write',
    // The retention lock of a store: CI creates the unlocked time-based policy and changes its days; it never
    // lifts it (immutabilityPolicies/delete) nor makes it irreversible (immutabilityPolicies/lock/action), in
    // any environment: the policy is retained, so no deploy deletes it, and lifting or locking is an
    // administrator's decision (docs/azure.md, "Retention lock";
    // https://learn.microsoft.com/azure/role-based-access-control/permissions/storage#microsoftstorage).
    'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/read',
    'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/write',
    'Microsoft.Storage/storageAccounts/blobServices/read',
    'Microsoft.Storage/storageAccounts/blobServices/write',
    'Microsoft.Storage/storageAccounts/managementPolicies/delete',
    'Microsoft.Storage/storageAccounts/managementPolicies/read',
    'Microsoft.Storage/storageAccounts/managementPolicies/write',
    'Microsoft.Storage/storageAccounts/read',
    'Microsoft.Storage/storageAccounts/write',
    ...deletions,
  ].sort();
}

/**
 * The custom role a deploy identity holds on each subnet its stack's stores name (bootstrap config
 * `azure.subnets`): a private endpoint joins its subnet, a virtual network rule joins it through the
 * service endpoint (https://learn.microsoft.com/azure/private-link/rbac-permissions,
 * https://learn.microsoft.com/azure/storage/common/storage-network-security-virtual-networks#required-permissions).
 * Nothing else on the network: no subnet or virtual network write.
 */
export const AZURE_NETWORK_ACTIONS: readonly string[] = [
  'Microsoft.Network/virtualNetworks/subnets/join/action',
  'Microsoft.Network/virtualNetworks/subnets/joinViaServiceEndpoint/action',
  'Microsoft.Network/virtualNetworks/subnets/read',
];

/**
 * The custom role a deploy identity holds on each private DNS zone its stack's stores name (bootstrap config
 * `azure.privateDnsZones`): a private endpoint's DNS zone group writes the endpoint's records into the zone
 * through `join/action` (https://learn.microsoft.com/azure/role-based-access-control/permissions/networking#microsoftnetwork,
 * "Joins a Private DNS Zone"). No record, zone or virtual network link write: the zones stay the platform's.
 */
export const AZURE_DNS_ZONE_ACTIONS: readonly string[] = [
  'Microsoft.Network/privateDnsZones/join/action',
  'Microsoft.Network/privateDnsZones/read',
];

/** The network role's definition GUID, one per environment like the deploy role. */
export function networkRoleDefinitionGuid(subscriptionId: string, environment: string): string {
  return definitionGuid('checkpoints-network-role', subscriptionId, environment);
}

/** The audit archive link role's definition GUID, one per environment like the network role. */
export function auditArchiveRoleDefinitionGuid(subscriptionId: string, environment: string): string {
  return definitionGuid('checkpoints-audit-archive-role', subscriptionId, environment);
}

/**
 * What a deploy identity holds on its environment's audit archive: creating or editing a diagnostic setting that
 * sends to a storage account needs ListKeys on it ("Creating a diagnostic setting that sends data to a storage
 * account or streams to event hubs requires the user to also have ListKeys permission on the target resource",
 * https://learn.microsoft.com/azure/azure-monitor/roles-permissions-security), and reading it. The archive
 * refuses shared key authorization, so its keys open nothing; no write, delete or lock right: the identity
 * can neither shorten the archive's immutability policy nor delete it.
 */
export const AZURE_AUDIT_ARCHIVE_ACTIONS: readonly string[] = [
  'Microsoft.Storage/storageAccounts/listkeys/action',
  'Microsoft.Storage/storageAccounts/read',
];

/** The DNS zone role's definition GUID, one per environment like the network role. */
export function dnsZoneRoleDefinitionGuid(subscriptionId: string, environment: string): string {
  return definitionGuid('checkpoints-dns-zone-role', subscriptionId, environment);
}

function definitionGuid(purpose: string, subscriptionId: string, environment: string): string {
  const hex = stableHash([purpose, subscriptionId.toLowerCase(), environment], 32);
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

/** The resource group of a resource ID: where a custom role must be assignable to be assigned on it. */
export function resourceGroupOf(resourceId: string): string {
  return /^\/subscriptions\/[^/]+\/resourceGroups\/[^/]+/i.exec(resourceId)?.[0] ?? resourceId;
}

/** The custom role's definition GUID: derived, so that a re-run finds the same definition. */
export function deployRoleDefinitionGuid(subscriptionId: string, environment: string): string {
  return definitionGuid('checkpoints-deploy-role', subscriptionId, environment);
}

/**
 * The only roles the Azure stack assigns: to its writer (the subscription's Checkpoint Store Writer role,
 * which the bootstrap defines), reader and encryption identities.
 */
export function assignableByDeploy(subscriptionId: string): string[] {
  return [
    checkpointWriterRoleGuid(subscriptionId),
    AZURE_ROLES['Storage Blob Data Reader'],
    AZURE_ROLES['Key Vault Crypto Service Encryption User'],
  ];
}

/**
 * What the deploy identity may also remove: Storage Blob Data Contributor, which store writers held before
 * the writer role, so a deploy can move them off it (it can no longer assign it).
 */
export function removableByDeploy(subscriptionId: string): string[] {
  return [...assignableByDeploy(subscriptionId), AZURE_ROLES['Storage Blob Data Contributor']];
}

/**
 * The store writer's custom role (libs/analysis CHECKPOINT_WRITER_ROLE): created here, by an administrator,
 * because a deploy identity that could write role definitions could widen any role it assigns.
 */
export function writerRolePermissions() {
  return CHECKPOINT_WRITER_ROLE.permissions.map((p) => ({
    actions: [...p.actions],
    notActions: [...p.notActions],
    dataActions: [...p.dataActions],
    notDataActions: [...p.notDataActions],
  }));
}

export function roleDefinitionId(subscriptionId: string, role: AzureRole): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${AZURE_ROLES[role]}`;
}

export function customRoleDefinitionId(subscriptionId: string, guid: string): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
}

export function resourceGroupId(subscriptionId: string, resourceGroup: string): string {
  return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}`;
}

/**
 * ABAC condition of the deploy identity's Role Based Access Control Administrator assignment: it may
 * create and delete assignments of the roles the stack hands out, and of no other role (Owner, User
 * Access Administrator and itself included), to anyone but CI's own identities, so it cannot escalate.
 */
export function assignableRolesCondition(
  excludedPrincipals: readonly string[],
  assignable: readonly string[],
  removable: readonly string[] = assignable,
): string {
  const guids = assignable.join(', ');
  return [
    // Never to a CI identity: else a deploy identity could hand itself the data roles it may assign.
    "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'}))",
    ` OR (@Request[Microsoft.Authorization/roleAssignments:PrincipalId] ForAnyOfAllValues:GuidNotEquals {${excludedPrincipals.join(', ')}}))`,
    ' AND ',
    "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'}))",
    ` OR (@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${guids}}))`,
    " AND ((!(ActionMatches{'Microsoft.Authorization/roleAssignments/delete'}))",
    ` OR (@Resource[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${removable.join(', ')}}))`,
  ].join('');
}

/**
 * A role assignment's name is a GUID of our choosing; deriving it from scope, role and principal lets a
 * re-run find the same assignment instead of asking for a duplicate. IDs are case-insensitive in Azure.
 */
export function roleAssignmentName(scope: string, roleDefinition: string, principalId: string): string {
  const hex = stableHash(
    [scope, roleDefinition, principalId].map((part) => part.toLowerCase()),
    32,
  );
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

/**
 * A custom role's name, unique in the tenant as Azure requires of every custom role's name, whichever
 * subscription defines it ("Custom role properties", roleName:
 * https://learn.microsoft.com/azure/role-based-access-control/custom-roles#custom-role-properties): two
 * subscriptions of one tenant bootstrapped alike would otherwise collide. The subscription's first eight
 * hex digits tell them apart.
 */
export function tenantUniqueRoleName(base: string, subscriptionId: string): string {
  return `${base}-${subscriptionId.slice(0, 8)}`;
}
