import type { SourcedPolicy } from '../define';
import { azureDeletionLock } from './azure-deletion-lock';
import { azureKeyvaultKeyRotation } from './azure-keyvault-key-rotation';
import { azureStorageAudit } from './azure-storage-audit';
import { azureStorageNetworkPerimeter } from './azure-storage-network-perimeter';
import { azureStoragePrivateEndpointDns } from './azure-storage-private-endpoint-dns';
import { azureStoragePrivateOnly } from './azure-storage-private-only';
import { azureStorageDefender } from './azure-storage-defender';
import { azureStorageAuditImmutable } from './azure-storage-audit-immutable';
import { azureKeyvaultRbacAuthorization } from './azure-keyvault-rbac-authorization';
import { azureKeyvaultRecoverable } from './azure-keyvault-recoverable';
import { azureRbacLeastPrivilege } from './azure-rbac-least-privilege';
import { azureRbacStoreDataPlaneRoles } from './azure-rbac-store-data-plane-roles';
import { azureStorageHierarchicalNamespace } from './azure-storage-hierarchical-namespace';
import { azureStorageImmutabilityUnlocked } from './azure-storage-immutability-unlocked';
import { azureStorageInfrastructureEncryption } from './azure-storage-infrastructure-encryption';
import { azureStorageLifecyclePolicy } from './azure-storage-lifecycle-policy';
import { azureStorageNoCrossTenantReplication } from './azure-storage-no-cross-tenant-replication';
import { azureStorageNoPublicAccess } from './azure-storage-no-public-access';
import { azureStorageNoSharedKey } from './azure-storage-no-shared-key';
import { azureStorageSecureTransport } from './azure-storage-secure-transport';
import { azureStorageSoftDelete } from './azure-storage-soft-delete';
import { azureCiNoCiChanges } from './azure-ci-no-ci-changes';

/** The Azure rules, in the order docs/policies-azure.md lists them (the security baseline's rows, then least privilege). */
export const azurePolicies: SourcedPolicy[] = [
  azureStorageNoPublicAccess,
  azureStorageNoCrossTenantReplication,
  azureStorageSecureTransport,
  azureStorageInfrastructureEncryption,
  azureKeyvaultRecoverable,
  azureKeyvaultRbacAuthorization,
  azureStorageNoSharedKey,
  azureStorageSoftDelete,
  azureStorageHierarchicalNamespace,
  azureStorageLifecyclePolicy,
  azureStorageAudit,
  azureStorageNetworkPerimeter,
  azureStoragePrivateEndpointDns,
  azureStoragePrivateOnly,
  azureStorageDefender,
  azureStorageAuditImmutable,
  azureDeletionLock,
  azureStorageImmutabilityUnlocked,
  azureKeyvaultKeyRotation,
  azureRbacLeastPrivilege,
  azureRbacStoreDataPlaneRoles,
  azureCiNoCiChanges,
];
