import * as pulumi from '@pulumi/pulumi';
import { RoleAssignment } from '@pulumi/azure-native/authorization/roleAssignment';
import { azureRoleDefinitionId, type AzurePrincipalType, type AzureStoreRole } from '@checkpoints/translate';
import { stableHash } from '@checkpoints/naming';
import type { StoreScope } from './scope';

export interface RoleGrant {
  /** Resource ID the role applies to. */
  scope: pulumi.Input<string>;
  role: AzureStoreRole;
  /** Object ID of the principal. */
  principalId: pulumi.Input<string>;
  /**
   * Always set: ARM refuses a type that does not match the directory, and the provider would send 'User'.
   * For a new managed identity it also spares ARM waiting for directory replication to find it.
   */
  principalType: AzurePrincipalType;
  description: string;
}

/**
 * A role assignment name is a GUID of our choosing; deriving it from scope, role and principal makes
 * re-runs and imports find the same assignment instead of asking for a duplicate. Resource IDs and
 * object IDs are case-insensitive in Azure, so they are hashed lowercased.
 */
export function roleAssignmentName(scope: string, roleDefinitionId: string, principalId: string): string {
  const hex = stableHash(
    [scope, roleDefinitionId, principalId].map((part) => part.toLowerCase()),
    32,
  );
  return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join('-');
}

/** One role assignment, a child of the store. */
export function assignRole(
  name: string,
  grant: RoleGrant,
  storeScope: StoreScope,
  opts: pulumi.CustomResourceOptions = { parent: storeScope.parent },
): RoleAssignment {
  const roleDefinitionId = storeScope.subscriptionId.apply((subscription) =>
    azureRoleDefinitionId(subscription, grant.role),
  );
  return new RoleAssignment(
    name,
    {
      scope: grant.scope,
      roleDefinitionId,
      principalId: grant.principalId,
      principalType: grant.principalType,
      roleAssignmentName: pulumi
        .all([grant.scope, roleDefinitionId, grant.principalId])
        .apply(([scope, role, principal]) => roleAssignmentName(scope, role, principal)),
      description: grant.description,
    },
    opts,
  );
}
