import type * as pulumi from '@pulumi/pulumi';
import { UserAssignedIdentity } from '@pulumi/azure-native/managedidentity/userAssignedIdentity';
import type { BlobContainer } from '@pulumi/azure-native/storage/blobContainer';
import { names } from '@checkpoints/naming';
import {
  adlsFilesystemGrants,
  type AdlsGrantee,
  type AdlsPurpose,
  type AdlsRoleGrant,
  type AzurePrincipalType,
} from '@checkpoints/translate';
import { assignRole } from './role-assignment';
import type { StoreScope } from './scope';

export type StoreIdentities = Record<AdlsPurpose, UserAssignedIdentity>;

/** The store's own writer and reader: managed identities that jobs federate into (workload identity). */
export function createStoreIdentities(scope: StoreScope): StoreIdentities {
  const identity = (purpose: AdlsPurpose) =>
    new UserAssignedIdentity(
      `${scope.store.name}-${purpose}`,
      {
        resourceGroupName: scope.resourceGroupName,
        resourceName: names.managedIdentity(scope.names, purpose),
        location: scope.location,
        tags: scope.tags,
      },
      { parent: scope.parent },
    );
  return { writer: identity('writer'), reader: identity('reader') };
}

/** Data-plane roles on the store's filesystem alone: the translation in libs/translate says who gets which. */
export function grantFilesystemAccess(
  scope: StoreScope,
  filesystem: BlobContainer,
  identities: StoreIdentities,
) {
  return adlsFilesystemGrants(scope.store.access).map((grant) =>
    assignRole(
      grantName(scope, grant),
      {
        scope: filesystem.id,
        role: grant.role,
        ...principalOf(grant.grantee, identities),
        description: `checkpoint store ${scope.names.store}: ${grant.grantee.purpose} (${grant.role})`,
      },
      scope,
    ),
  );
}

function principalOf(
  grantee: AdlsGrantee,
  identities: StoreIdentities,
): { principalId: pulumi.Input<string>; principalType: AzurePrincipalType } {
  return grantee.kind === 'store-identity'
    ? { principalId: identities[grantee.purpose].principalId, principalType: 'ServicePrincipal' }
    : { principalId: grantee.objectId, principalType: grantee.principalType };
}

// Named after the principal, not its position in the list, so reordering access lists changes nothing.
function grantName(scope: StoreScope, grant: AdlsRoleGrant): string {
  const { grantee } = grant;
  const who = grantee.kind === 'store-identity' ? 'identity' : grantee.objectId;
  return `${scope.store.name}-${grantee.purpose}-${who}`;
}
