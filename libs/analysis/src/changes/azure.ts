import type { CloudChangeRules, RefusedDelete, ReplacingInput } from './rules';

// azure-native replaces a resource when a part of its ARM resource ID changes (the URL path parameters:
// resource group, resource name) or its location: https://www.pulumi.com/registry/packages/azure-native/
// ("Resource names ... changing them replaces the resource"); ARM itself cannot move or rename a resource in
// place (https://learn.microsoft.com/azure/azure-resource-manager/management/move-resource-group-and-subscription).
function resourceId(...pathParameters: readonly string[]): ReplacingInput[] {
  return pathParameters.map((input) => ({
    input,
    source: `azure-native: '${input}' is a path parameter of the ARM resource ID; a new ID is a new resource`,
  }));
}

const LOCATION: ReplacingInput = {
  input: 'location',
  source:
    'https://learn.microsoft.com/azure/azure-resource-manager/management/move-support-resources: a resource cannot change region in place; azure-native replaces on a location change',
};

const STORAGE = 'https://learn.microsoft.com/azure/storage/common';

/** The role a storage account's identity needs to wrap and unwrap its customer-managed key. */
const KEY_VAULT_CRYPTO_SERVICE_ENCRYPTION_USER = 'e147488a-f6f5-4113-8e2d-b22465e65bf6';

/** `Standard` or `Premium`: the part of a storage SKU name an account cannot change. */
function skuPerformance(sku: unknown): string {
  return String(sku ?? '').split('_')[0] ?? '';
}

/**
 * Deleting a private endpoint deletes its connection on the storage account (a privateEndpointConnectionProxies
 * child of the account), which a CanNotDelete or ReadOnly lock on the account refuses with ScopeLocked.
 */
const LOCKED_TARGET: RefusedDelete = {
  source:
    'https://github.com/hashicorp/terraform-provider-azurerm/issues/17478 (deleting a private endpoint: Code="ScopeLocked" "The scope \'.../storageAccounts/<account>/privateEndpointConnectionProxies/...\' cannot perform delete operation because following scope(s) are locked: \'.../storageAccounts/<account>\'"); https://learn.microsoft.com/azure/azure-resource-manager/management/lock-resources',
  refusal(resource, base) {
    const targets = (
      Array.isArray(resource.inputs['privateLinkServiceConnections'])
        ? (resource.inputs['privateLinkServiceConnections'] as Record<string, unknown>[])
        : []
    ).map((connection) => String(connection['privateLinkServiceId'] ?? '').toLowerCase());
    const lock = base.find(
      (other) =>
        other.type === 'azure-native:authorization:ManagementLockByScope' &&
        targets.includes(String(other.inputs['scope'] ?? '').toLowerCase()),
    );
    if (!lock) return undefined;
    return `Azure refuses to delete it (ScopeLocked): the ${String(lock.inputs['level'])} lock '${String(lock.inputs['lockName'])}' on the storage account it connects to covers the endpoint's connection on the account. Keep the endpoint in this deploy; an administrator removes the lock, deletes the endpoint (az network private-endpoint delete), then a deploy puts the lock back (docs/operations.md, "Changes the cloud refuses")`;
  },
};

export const azureChangeRules: CloudChangeRules = {
  cloud: 'azure',
  // The default provider's settings (https://www.pulumi.com/registry/packages/azure-native/installation-configuration/):
  // no resource moves between subscriptions with a deploy (move-resource-group-and-subscription, above).
  // azure-native:location is no placement key here: every regional resource states its location (LOCATION).
  placement: [
    {
      key: 'azure-native:subscriptionId',
      scope: 'account',
      source: 'azure-native:subscriptionId decides the subscription every resource is created in',
    },
  ],
  types: {
    'azure-native:storage:StorageAccount': {
      holds: 'data',
      replacedBy: [
        ...resourceId('resourceGroupName', 'accountName'),
        LOCATION,
        {
          input: 'kind',
          source: `${STORAGE}/storage-account-upgrade: only general-purpose v1 and Blob storage accounts upgrade to StorageV2; a StorageV2 account cannot become BlockBlobStorage (premium) in place`,
        },
        {
          input: 'sku.name',
          source: `${STORAGE}/redundancy-migration: a standard account cannot be converted to premium or back; the data must be copied to a new account`,
          // Within one performance tier the redundancy is converted in place: adding or removing the geo
          // copy (ZRS <-> GZRS, GZRS <-> RA-GZRS) is a change of the SKU that Azure applies to the live
          // account ("change the replication setting", same page); only a performance change replaces it.
          replaces: (before, after) => skuPerformance(before) !== skuPerformance(after),
        },
        {
          input: 'isHnsEnabled',
          source:
            'https://github.com/Azure/azure-rest-api-specs/issues/18441: isHnsEnabled can only be set when the account is created (enabling it later needs the separate hnsonmigration operation; disabling is impossible)',
        },
        {
          input: 'encryption.requireInfrastructureEncryption',
          source: `${STORAGE}/infrastructure-encryption-enable: infrastructure encryption must be enabled when the account is created and cannot be changed afterwards`,
        },
      ],
    },
    'azure-native:storage:BlobContainer': {
      holds: 'data',
      replacedBy: resourceId('resourceGroupName', 'accountName', 'containerName'),
    },
    // The retention lock of a filesystem: kept like the settings that keep the data safe (a released lock is
    // still on the filesystem; a deleted one would leave the checkpoints deletable).
    'azure-native:storage:BlobContainerImmutabilityPolicy': {
      holds: 'safety',
      holdsSource:
        'https://learn.microsoft.com/azure/storage/blobs/immutable-time-based-retention-policy-overview: while the policy is in effect, blobs can be created and read, but not modified or deleted',
      replacedBy: resourceId('resourceGroupName', 'accountName', 'containerName', 'immutabilityPolicyName'),
      refusedUpdates: [
        {
          inputs: [
            'immutabilityPeriodSinceCreationInDays',
            'allowProtectedAppendWrites',
            'allowProtectedAppendWritesAll',
          ],
          outcome: 'refused',
          message:
            'Azure updates an immutability policy only with its current ETag (If-Match), which the azure-native resource does not send: the update fails with "Operation not allowed on immutability policy with incorrect etag". Keep recovery.retentionLock.days as deployed in this change; an administrator changes the unlocked policy with its ETag (az storage container immutability-policy create --if-match <etag> --period <days>), then `pulumi refresh` and this change of the days deploy as a no-op (docs/azure.md, "Retention lock")',
          source:
            'https://github.com/Azure/azure-rest-api-specs/pull/29632 (blob.json If-Match: "The entity state (ETag) version of the immutability policy to update must be returned to the server for all update operations"); https://github.com/pulumi/pulumi-azure-native/issues/2156 (the provider supplies no etag: 412 ContainerImmutabilityPolicyFailure "incorrect etag")',
        },
      ],
    },
    'azure-native:storage:BlobServiceProperties': {
      holds: 'safety',
      replacedBy: resourceId('resourceGroupName', 'accountName', 'blobServicesName'),
    },
    'azure-native:storage:ManagementPolicy': {
      holds: 'safety',
      replacedBy: resourceId('resourceGroupName', 'accountName', 'managementPolicyName'),
    },
    'azure-native:keyvault:Vault': {
      holds: 'key',
      holdsSource:
        'https://learn.microsoft.com/azure/key-vault/general/soft-delete-overview: a deleted vault and its keys are recoverable only within the soft-delete retention period',
      replacedBy: [...resourceId('resourceGroupName', 'vaultName'), LOCATION],
    },
    'azure-native:keyvault:Key': {
      holds: 'key',
      holdsSource: `${STORAGE}/customer-managed-keys-overview: if the key is deleted or access to it is revoked, the account's data cannot be read`,
      replacedBy: resourceId('resourceGroupName', 'vaultName', 'keyName'),
      refusedUpdates: [
        {
          outcome: 'ignored',
          message:
            'azure-native writes a key with Keys - Create If Not Exist, which returns an existing key unchanged: the deploy reports the update and the key (its rotation policy, attributes and tags) stays as it was. Change an existing key in Key Vault itself (az keyvault key rotation-policy update, az keyvault key set-attributes), then `pulumi refresh`; or raise keyGeneration for a new key under new names (docs/operations.md, "Rotate a key")',
          source:
            'https://learn.microsoft.com/rest/api/keyvault/keyvault/keys/create-if-not-exist: "If it already exists, then the existing key is returned without any write operations being performed. This API does not create subsequent versions, and does not update existing keys."',
        },
      ],
    },
    'azure-native:authorization:RoleAssignment': {
      // The encryption identity's grant on the key is as much the key as the key: without it, the account
      // cannot unwrap its data encryption key.
      holds: (inputs) =>
        String(inputs['roleDefinitionId'] ?? '').endsWith(KEY_VAULT_CRYPTO_SERVICE_ENCRYPTION_USER)
          ? 'key'
          : undefined,
      holdsSource: `${STORAGE}/customer-managed-keys-overview: the account reads its key through a managed identity holding Key Vault Crypto Service Encryption User (${KEY_VAULT_CRYPTO_SERVICE_ENCRYPTION_USER}); revoking it makes the data inaccessible`,
      replacedBy: [
        ...resourceId('scope', 'roleAssignmentName'),
        {
          input: 'roleDefinitionId',
          source:
            'https://learn.microsoft.com/rest/api/authorization/role-assignments/create: a role assignment cannot be updated to another role or principal; azure-native replaces it',
        },
        {
          input: 'principalId',
          source:
            'https://learn.microsoft.com/rest/api/authorization/role-assignments/create: a role assignment cannot be updated to another role or principal; azure-native replaces it',
        },
      ],
    },
    'azure-native:managedidentity:UserAssignedIdentity': {
      replacedBy: [...resourceId('resourceGroupName', 'resourceName'), LOCATION],
    },
    'azure-native:operationalinsights:Workspace': {
      // The record of who read and wrote checkpoints: kept like the settings that keep the data safe.
      holds: 'safety',
      replacedBy: [...resourceId('resourceGroupName', 'workspaceName'), LOCATION],
    },
    'azure-native:monitor:DiagnosticSetting': {
      holds: 'safety',
      replacedBy: resourceId('resourceUri', 'name'),
    },
    'azure-native:authorization:ManagementLockByScope': {
      holds: 'safety',
      holdsSource:
        'https://learn.microsoft.com/azure/azure-resource-manager/management/lock-resources: a CanNotDelete lock stops everyone, Owner included, from deleting the resource until the lock is removed',
      replacedBy: resourceId('scope', 'lockName'),
    },
    'azure-native:network:PrivateEndpoint': {
      replacedBy: [...resourceId('resourceGroupName', 'privateEndpointName'), LOCATION],
      refusedDelete: LOCKED_TARGET,
    },
    'azure-native:resources:ResourceGroup': {
      // Deleting a resource group deletes every resource in it, retained storage accounts included.
      holds: 'data',
      holdsSource:
        'https://learn.microsoft.com/azure/azure-resource-manager/management/delete-resource-group: deleting a resource group deletes all of its resources',
      replacedBy: [...resourceId('resourceGroupName'), LOCATION],
    },
  },
};
