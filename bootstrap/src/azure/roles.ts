import { stableHash } from '@checkpoints/naming';

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
} as const;

export type AzureRole = keyof typeof AZURE_ROLES;

/** Preview reads the stacks' resource groups: control plane only, Reader holds no data action. */
export const AZURE_PREVIEW_ROLES: readonly AzureRole[] = ['Reader'];

/** Deploy manages what the Azure stack creates in its resource group, and the role assignments it makes. */
export const AZURE_DEPLOY_ROLES: readonly AzureRole[] = [
  'Storage Account Contributor',
  'Key Vault Contributor',
  'Managed Identity Contributor',
  'Role Based Access Control Administrator',
];

/** The only roles the Azure stack assigns: to its writer, reader and encryption identities. */
export const ASSIGNABLE_BY_DEPLOY: readonly AzureRole[] = [
  'Storage Blob Data Contributor',
  'Storage Blob Data Reader',
  'Key Vault Crypto Service Encryption User',
];

export function roleDefinitionId(subscriptionId: string, role: AzureRole): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${AZURE_ROLES[role]}`;
}

export function resourceGroupId(subscriptionId: string, resourceGroup: string): string {
  return `/subscriptions/${subscriptionId}/resourceGroups/${resourceGroup}`;
}

/**
 * ABAC condition of the deploy identity's Role Based Access Control Administrator assignment: it may
 * create and delete assignments of the roles the stack hands out, and of no other role (Owner, User
 * Access Administrator and itself included), so it cannot escalate.
 */
export function assignableRolesCondition(roles: readonly AzureRole[] = ASSIGNABLE_BY_DEPLOY): string {
  const guids = roles.map((role) => AZURE_ROLES[role]).join(', ');
  return [
    "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'}))",
    ` OR (@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${guids}}))`,
    " AND ((!(ActionMatches{'Microsoft.Authorization/roleAssignments/delete'}))",
    ` OR (@Resource[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${guids}}))`,
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
