import { azureResourceProvider, type RenderedResource } from '@checkpoints/render';
import { stringInput } from '../access/model';
import { assignmentsOf, roleAnswers, roleDefinitionsOf, roleGuid, under } from '../access/azure';
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
  // The retention lock (a container's time-based immutability policy): a PUT creates it or changes its days
  // while unlocked, a DELETE lifts an unlocked one; locking (POST .../lock) and extending a locked one are
  // their own actions, immutabilityPolicies/lock/action and /extend/action, which no deploy calls
  // (https://learn.microsoft.com/azure/role-based-access-control/permissions/storage#microsoftstorage:
  // "Put blob container immutability policy", "Delete blob container immutability policy", "Lock blob
  // container immutability policy"). The resource is retained, so no deploy needs the delete.
  'azure-native:storage:BlobContainerImmutabilityPolicy': {
    create: ['Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/write'],
    update: ['Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/write'],
    delete: ['Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/delete'],
    read: ['Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/read'],
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
  'azure-native:operationalinsights:Workspace': {
    create: ['Microsoft.OperationalInsights/workspaces/write'],
    update: ['Microsoft.OperationalInsights/workspaces/write'],
    delete: ['Microsoft.OperationalInsights/workspaces/delete'],
    read: ['Microsoft.OperationalInsights/workspaces/read'],
    source: `${OPS}/monitor#microsoftoperationalinsights`,
  },
  // An extension resource of the resource it watches: authorised on that resource's scope.
  // Defender for Storage on an account (https://learn.microsoft.com/azure/role-based-access-control/permissions/security#microsoftsecurity).
  'azure-native:security:DefenderForStorage': {
    create: ['Microsoft.Security/defenderForStorageSettings/write'],
    update: ['Microsoft.Security/defenderForStorageSettings/write'],
    delete: ['Microsoft.Security/defenderForStorageSettings/delete'],
    read: ['Microsoft.Security/defenderForStorageSettings/read'],
    source: `${OPS}/security#microsoftsecurity`,
  },
  'azure-native:monitor:DiagnosticSetting': {
    create: ['Microsoft.Insights/diagnosticSettings/write'],
    update: ['Microsoft.Insights/diagnosticSettings/write'],
    delete: ['Microsoft.Insights/diagnosticSettings/delete'],
    read: ['Microsoft.Insights/diagnosticSettings/read'],
    source: `${OPS}/monitor#microsoftinsights`,
  },
  // "To create or delete management locks, you must have access to Microsoft.Authorization/* or
  // Microsoft.Authorization/locks/* actions" (https://learn.microsoft.com/rest/api/resources/management-locks):
  // write creates and updates, delete removes; the deploy identity holds only the first.
  'azure-native:authorization:ManagementLockByScope': {
    create: ['Microsoft.Authorization/locks/write'],
    update: ['Microsoft.Authorization/locks/write'],
    delete: ['Microsoft.Authorization/locks/delete'],
    read: ['Microsoft.Authorization/locks/read'],
    source: `${OPS}/management-and-governance#microsoftauthorization`,
  },
  'azure-native:network:PrivateEndpoint': {
    create: ['Microsoft.Network/privateEndpoints/write'],
    update: ['Microsoft.Network/privateEndpoints/write'],
    delete: ['Microsoft.Network/privateEndpoints/delete'],
    read: ['Microsoft.Network/privateEndpoints/read'],
    source: 'https://learn.microsoft.com/azure/private-link/rbac-permissions#private-endpoint',
  },
  // A child of its private endpoint (https://learn.microsoft.com/rest/api/virtualnetwork/private-dns-zone-groups/create-or-update);
  // its operations are Microsoft.Network/privateEndpoints/privateDnsZoneGroups/{read,write,delete}
  // (https://learn.microsoft.com/azure/role-based-access-control/permissions/networking#microsoftnetwork).
  'azure-native:network:PrivateDnsZoneGroup': {
    create: ['Microsoft.Network/privateEndpoints/privateDnsZoneGroups/write'],
    update: ['Microsoft.Network/privateEndpoints/privateDnsZoneGroups/write'],
    delete: ['Microsoft.Network/privateEndpoints/privateDnsZoneGroups/delete'],
    read: ['Microsoft.Network/privateEndpoints/privateDnsZoneGroups/read'],
    source: `${OPS}/networking#microsoftnetwork`,
  },
  // A wait in the Pulumi engine (the time provider sleeps locally): no call to Azure, no right.
  'time:index/sleep:Sleep': {
    create: [],
    update: [],
    delete: [],
    read: [],
    source: 'https://www.pulumi.com/registry/packages/time/api-docs/sleep/',
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
  if (resource.type === 'azure-native:monitor:DiagnosticSetting')
    return diagnosticDestinationRights(resource);
  if (resource.type === 'azure-native:network:PrivateEndpoint') return privateEndpointRights(resource);
  if (resource.type === 'azure-native:network:PrivateDnsZoneGroup') return zoneGroupRights(resource);
  if (resource.type !== 'azure-native:storage:StorageAccount') return [];
  return [...identityRights(resource), ...serviceEndpointRights(resource)];
}

const WRITES = ['create', 'update'] as const;

/** The resource IDs a list input names under `key` (e.g. each network rule's subnet). */
function idsIn(list: unknown, key: string): string[] {
  return (Array.isArray(list) ? (list as unknown[]) : [])
    .map((item) => (item as Record<string, unknown> | undefined)?.[key])
    .filter((id): id is string => typeof id === 'string');
}

function linked(on: readonly string[], permission: string, why: string): LinkedRight[] {
  return on.flatMap((target) => WRITES.map((operation) => ({ operation, permission, on: target, why })));
}

/**
 * A workspace as a diagnostic setting's destination: "Microsoft.OperationalInsights/workspaces/read and
 * Microsoft.OperationalInsights/workspaces/sharedKeys/action ... use it as a destination for diagnostic
 * settings" (https://learn.microsoft.com/azure/azure-monitor/logs/manage-access, custom roles, example 2).
 */
function diagnosticDestinationRights(resource: RenderedResource): LinkedRight[] {
  const workspace = stringInput(resource, 'workspaceId');
  const archive = stringInput(resource, 'storageAccountId');
  // "Creating a diagnostic setting that sends data to a storage account or streams to event hubs requires the
  // user to also have ListKeys permission on the target resource" (https://learn.microsoft.com/azure/azure-monitor/roles-permissions-security).
  const toArchive =
    archive === undefined
      ? []
      : linked(
          [archive],
          'Microsoft.Storage/storageAccounts/listkeys/action',
          'sending resource logs to the storage account',
        );
  if (workspace === undefined) return toArchive;
  return [
    ...toArchive,
    ...linked(
      [workspace],
      'Microsoft.OperationalInsights/workspaces/read',
      'sending resource logs to the workspace',
    ),
    ...linked(
      [workspace],
      'Microsoft.OperationalInsights/workspaces/sharedKeys/action',
      'sending resource logs to the workspace',
    ),
  ];
}

/**
 * A private endpoint joins its subnet and, to be approved on creation, needs the approval right on the
 * account it connects to (https://learn.microsoft.com/azure/private-link/rbac-permissions#private-endpoint:
 * Microsoft.Network/virtualNetworks/subnets/join/action; "Microsoft.Storage/storageAccounts/privateEndpointConnectionsApproval/action"
 * for automatic approval, https://learn.microsoft.com/azure/private-link/rbac-permissions#approval-rbac-for-private-endpoint).
 */
function privateEndpointRights(resource: RenderedResource): LinkedRight[] {
  const subnet = (resource.inputs['subnet'] as { id?: unknown } | undefined)?.id;
  const targets = idsIn(resource.inputs['privateLinkServiceConnections'], 'privateLinkServiceId');
  return [
    ...linked(
      typeof subnet === 'string' ? [subnet] : [],
      'Microsoft.Network/virtualNetworks/subnets/join/action',
      'placing the private endpoint in the subnet',
    ),
    ...linked(
      targets,
      'Microsoft.Storage/storageAccounts/privateEndpointConnectionsApproval/action',
      'approving the private endpoint connection to the account',
    ),
  ];
}

/**
 * A zone group writes its endpoint's records into each zone it names: a linked authorization on the zone,
 * `Microsoft.Network/privateDnsZones/join/action` ("Joins a Private DNS Zone",
 * https://learn.microsoft.com/azure/role-based-access-control/permissions/networking#microsoftnetwork;
 * without it ARM answers LinkedAuthorizationFailed for that action on the zone).
 */
function zoneGroupRights(resource: RenderedResource): LinkedRight[] {
  return linked(
    idsIn(resource.inputs['privateDnsZoneConfigs'], 'privateDnsZoneId'),
    'Microsoft.Network/privateDnsZones/join/action',
    "writing the private endpoint's records into the zone",
  );
}

/**
 * A virtual network rule on an account: "the user must have the appropriate permissions for the subnets
 * being added ... Microsoft.Network/virtualNetworks/subnets/joinViaServiceEndpoint/action"
 * (https://learn.microsoft.com/azure/storage/common/storage-network-security-virtual-networks#required-permissions).
 */
function serviceEndpointRights(resource: RenderedResource): LinkedRight[] {
  const rules = (resource.inputs['networkRuleSet'] as { virtualNetworkRules?: unknown[] } | undefined)
    ?.virtualNetworkRules;
  return linked(
    idsIn(rules, 'virtualNetworkResourceId'),
    'Microsoft.Network/virtualNetworks/subnets/joinViaServiceEndpoint/action',
    'allowing the subnet in the account network rules',
  );
}

function identityRights(resource: RenderedResource): LinkedRight[] {
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

/**
 * The resource provider namespace of a rendered azure-native type: its module's (libs/render, which the
 * bootstrap registers), confirmed by the type's own operations in the rights table (`Microsoft.Storage/...`
 * for a storage type). Undefined when the module is unknown or the two disagree: such a type counts as
 * unregistered.
 */
export function azureResourceProviderOf(type: string): string | undefined {
  const namespace = azureResourceProvider(type);
  const operations = AZURE_RIGHTS[type]?.create ?? [];
  return namespace !== undefined &&
    operations.every((operation) => operation.split('/')[0]?.toLowerCase() === namespace.toLowerCase())
    ? namespace
    : undefined;
}

/** The namespaces a bootstrap render registers (bootstrap/src/azure/resource-providers.ts), lowercased. */
export function azureRegisteredProviders(bootstrap: readonly RenderedResource[]): Set<string> {
  return new Set(
    bootstrap
      .filter((r) => r.type === 'pulumi-nodejs:dynamic:Resource' && /^provider-/.test(r.name))
      .map((r) => stringInput(r, 'namespace'))
      .filter((namespace): namespace is string => namespace !== undefined)
      .map((namespace) => namespace.toLowerCase()),
  );
}

/**
 * A PUT of a type whose provider the subscription is not registered for fails with
 * MissingSubscriptionRegistration (https://learn.microsoft.com/azure/azure-resource-manager/troubleshooting/error-register-resource-provider),
 * and registering is `Microsoft.<namespace>/register/action` at the subscription, which no deploy identity
 * scoped to its resource group holds: the bootstrap registers every provider the stack renders. A type whose
 * provider cannot be told counts as unregistered.
 */
function providerDemands(
  render: readonly RenderedResource[],
  bootstrap: readonly RenderedResource[],
  environment: string,
): MissingRight[] {
  const registered = azureRegisteredProviders(bootstrap);
  return render
    .filter((r) => r.type.startsWith('azure-native:'))
    .flatMap((resource): MissingRight[] => {
      const namespace = azureResourceProviderOf(resource.type);
      if (namespace !== undefined && registered.has(namespace.toLowerCase())) return [];
      return [
        {
          resource: `${resource.type} ${resource.name}`,
          operation: 'create',
          permission: `${namespace ?? '<unknown provider>'}/register/action`,
          on: 'the subscription',
          identity: `ci deploy-${environment}`,
          unmet:
            namespace === undefined
              ? `the resource provider of ${resource.type} is unknown to the rights tables, so nothing shows the subscription is registered for it (MissingSubscriptionRegistration on a fresh subscription)`
              : `the bootstrap render does not register ${namespace}: a fresh subscription answers MissingSubscriptionRegistration, and the deploy identity, scoped to its resource group, cannot register it (${namespace}/register/action is a subscription-scope action)`,
        },
      ];
    });
}

/**
 * The key operations a storage account makes through its encryption identity: it wraps and unwraps its
 * account encryption key with the Key Vault key ("the managed identity ... must have permissions to access
 * the key ... Key Vault Crypto Service Encryption User", https://learn.microsoft.com/azure/storage/common/customer-managed-keys-configure-existing-account#choose-a-managed-identity-to-authorize-access-to-the-key-vault;
 * data actions `keys/wrap/action` and `keys/unwrap/action`, https://learn.microsoft.com/azure/role-based-access-control/permissions/security#microsoftkeyvault).
 */
const KEY_DATA_ACTIONS = [
  'Microsoft.KeyVault/vaults/keys/wrap/action',
  'Microsoft.KeyVault/vaults/keys/unwrap/action',
];

/**
 * How long a role assignment may take to be in effect: "When you assign roles or remove role assignments, it
 * can take up to 10 minutes for changes to take effect" (https://learn.microsoft.com/azure/role-based-access-control/troubleshooting#symptom---role-assignment-changes-are-not-being-detected).
 */
export const AZURE_ROLE_PROPAGATION_SECONDS = 600;

/** The wait resource of the Pulumi time provider (https://www.pulumi.com/registry/packages/time/api-docs/sleep/). */
const SLEEP = 'time:index/sleep:Sleep';

/** Seconds of a Go duration (`10m`, `90s`, `1h30m`), as the time provider parses `createDuration`; undefined if unreadable. */
export function goDurationSeconds(text: unknown): number | undefined {
  if (typeof text !== 'string' || !/^(\d+(\.\d+)?(h|m|s|ms|us|µs|ns))+$/.test(text)) return undefined;
  const unit: Record<string, number> = { h: 3600, m: 60, s: 1, ms: 1e-3, us: 1e-6, µs: 1e-6, ns: 1e-9 };
  return [...text.matchAll(/(\d+(?:\.\d+)?)(h|ms|m|s|us|µs|ns)/g)].reduce(
    (sum, [, n, u]) => sum + Number(n) * (unit[u ?? 's'] ?? 0),
    0,
  );
}

/** Every resource `urn` waits for, directly or through others. */
function waitsFor(byUrn: ReadonlyMap<string, RenderedResource>, urn: string): Set<string> {
  const seen = new Set<string>();
  const stack = [...(byUrn.get(urn)?.dependsOn ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (seen.has(next)) continue;
    seen.add(next);
    stack.push(...(byUrn.get(next)?.dependsOn ?? []));
  }
  return seen;
}

/**
 * What creating (or re-keying) an account encrypted with a Key Vault key demands besides the caller's rights:
 * its encryption identity holds wrap and unwrap on the key, and that role is in effect when the account's PUT
 * is made. ARM checks the key with the identity at once and refuses the PUT (KeyVaultAuthenticationFailure)
 * while the role has not propagated, so an assignment made in the same deploy must be followed by a wait of
 * the propagation time before the account: a `Sleep` the account waits for, which waits for the assignment.
 * A system-assigned identity only exists with the account, so its role can never be in effect on creation
 * (https://learn.microsoft.com/azure/storage/common/customer-managed-keys-configure-new-account: a new account
 * is configured with a user-assigned identity). What cannot be read counts as unmet.
 */
function keyRoleDemands(
  render: readonly RenderedResource[],
  everything: readonly RenderedResource[],
  subscription: string,
  roleAllows: (guid: string, action: string, data: boolean) => boolean,
): MissingRight[] {
  const byUrn = new Map(render.map((resource) => [resource.urn, resource]));
  const rg = (r: RenderedResource) =>
    `/subscriptions/${subscription}/resourceGroups/${stringInput(r, 'resourceGroupName') ?? ''}`;
  const demands: MissingRight[] = [];
  for (const account of render) {
    if (account.type !== 'azure-native:storage:StorageAccount') continue;
    const encryption = (account.inputs['encryption'] ?? {}) as {
      keySource?: unknown;
      keyVaultProperties?: { keyName?: unknown; keyVaultUri?: unknown };
      encryptionIdentity?: { encryptionUserAssignedIdentity?: unknown };
    };
    if (
      typeof encryption.keySource !== 'string' ||
      encryption.keySource.toLowerCase() !== 'microsoft.keyvault'
    )
      continue;
    const vaultName = /^https:\/\/([^.]+)\./.exec(
      String(encryption.keyVaultProperties?.keyVaultUri ?? ''),
    )?.[1];
    const keyName = encryption.keyVaultProperties?.keyName;
    const identityId = encryption.encryptionIdentity?.encryptionUserAssignedIdentity;
    const key =
      vaultName && typeof keyName === 'string'
        ? `${rg(account)}/providers/Microsoft.KeyVault/vaults/${vaultName}/keys/${keyName}`
        : 'the key (its vault URI or name cannot be read)';
    const unmet = (identity: string, why: string) =>
      demands.push({
        resource: `${account.type} ${account.name}`,
        operation: 'create',
        permission: KEY_DATA_ACTIONS.join(', '),
        on: key,
        identity,
        unmet: why,
      });
    if (typeof identityId !== 'string') {
      unmet(
        'the account identity',
        `the account encrypts with ${key} through its system-assigned identity (no encryptionUserAssignedIdentity), which exists only once the account does: its key role cannot be in effect when the account is created`,
      );
      continue;
    }
    const identity = render.find(
      (r) =>
        r.type === 'azure-native:managedidentity:UserAssignedIdentity' &&
        `${rg(r)}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${stringInput(r, 'resourceName') ?? ''}`.toLowerCase() ===
          identityId.toLowerCase(),
    );
    const grants = everything.filter(
      (r) =>
        r.type === 'azure-native:authorization:RoleAssignment' &&
        typeof stringInput(r, 'scope') === 'string' &&
        under(key, stringInput(r, 'scope')!) &&
        KEY_DATA_ACTIONS.every((action) =>
          roleAllows(roleGuid(stringInput(r, 'roleDefinitionId') ?? ''), action, true),
        ) &&
        identity !== undefined &&
        (r.propertyDependencies?.['principalId'] ?? []).includes(identity.urn),
    );
    if (grants.length === 0) {
      unmet(
        identityId,
        `no role assignment of the render gives the encryption identity ${identityId} ${KEY_DATA_ACTIONS.join(' and ')} on ${key}, so the account cannot read its key`,
      );
      continue;
    }
    const waited = waitsFor(byUrn, account.urn);
    const inEffect = grants.some((grant) =>
      [...waited].some((urn) => {
        const sleep = byUrn.get(urn);
        return (
          sleep?.type === SLEEP &&
          (goDurationSeconds(sleep.inputs['createDuration']) ?? 0) >= AZURE_ROLE_PROPAGATION_SECONDS &&
          waitsFor(byUrn, urn).has(grant.urn)
        );
      }),
    );
    if (!inEffect) {
      unmet(
        identityId,
        `${grants.map((grant) => `RoleAssignment ${grant.name}`).join(', ')} gives the encryption identity its key role in the same deploy, and nothing makes the account wait ${AZURE_ROLE_PROPAGATION_SECONDS / 60} minutes after it (a ${SLEEP} the account depends on, depending on the assignment): a role assignment takes up to 10 minutes to be in effect, so the first deploy fails with KeyVaultAuthenticationFailure`,
      );
    }
  }
  return demands;
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
    case 'azure-native:storage:BlobContainerImmutabilityPolicy':
      return `${account}/blobServices/default/containers/${stringInput(resource, 'containerName') ?? ''}/immutabilityPolicies/${stringInput(resource, 'immutabilityPolicyName') ?? 'default'}`;
    case 'azure-native:keyvault:Vault':
      return `${rg}/providers/Microsoft.KeyVault/vaults/${stringInput(resource, 'vaultName') ?? resource.name}`;
    case 'azure-native:keyvault:Key':
      return `${rg}/providers/Microsoft.KeyVault/vaults/${stringInput(resource, 'vaultName') ?? ''}/keys/${stringInput(resource, 'keyName') ?? ''}`;
    case 'azure-native:managedidentity:UserAssignedIdentity':
      return `${rg}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${stringInput(resource, 'resourceName') ?? ''}`;
    case 'azure-native:authorization:RoleAssignment':
      return `${stringInput(resource, 'scope') ?? ''}/providers/Microsoft.Authorization/roleAssignments/${stringInput(resource, 'roleAssignmentName') ?? ''}`;
    case 'azure-native:operationalinsights:Workspace':
      return `${rg}/providers/Microsoft.OperationalInsights/workspaces/${stringInput(resource, 'workspaceName') ?? ''}`;
    case 'azure-native:security:DefenderForStorage':
      return `${stringInput(resource, 'resourceId') ?? ''}/providers/Microsoft.Security/defenderForStorageSettings/${stringInput(resource, 'settingName') ?? 'current'}`;
    case 'azure-native:monitor:DiagnosticSetting':
      return `${stringInput(resource, 'resourceUri') ?? ''}/providers/Microsoft.Insights/diagnosticSettings/${stringInput(resource, 'name') ?? ''}`;
    case 'azure-native:authorization:ManagementLockByScope':
      return `${stringInput(resource, 'scope') ?? ''}/providers/Microsoft.Authorization/locks/${stringInput(resource, 'lockName') ?? ''}`;
    case 'azure-native:network:PrivateEndpoint':
      return `${rg}/providers/Microsoft.Network/privateEndpoints/${stringInput(resource, 'privateEndpointName') ?? ''}`;
    case 'azure-native:network:PrivateDnsZoneGroup':
      return `${rg}/providers/Microsoft.Network/privateEndpoints/${stringInput(resource, 'privateEndpointName') ?? ''}/privateDnsZoneGroups/${stringInput(resource, 'privateDnsZoneGroupName') ?? ''}`;
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
  // The bootstrap's subscription first: a render may name resources of other subscriptions (subnets).
  const subscription =
    /\/subscriptions\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\//i.exec(
      JSON.stringify([...bootstrap.resources, ...render.resources].map((r) => r.inputs)),
    )?.[1] ?? '';
  const roles = roleDefinitionsOf(everything);
  const assignments = assignmentsOf(bootstrap.resources).map((a) => ({ ...a, guid: roleGuid(a.role) }));
  const identities = new Map<string, string>();
  for (const a of bootstrap.resources) {
    const purpose = /^CI (\S+) of /.exec(stringInput(a, 'description') ?? '')?.[1];
    const id = stringInput(a, 'principalId');
    if (a.type === 'azure-native:authorization:RoleAssignment' && purpose && id) identities.set(purpose, id);
  }
  const roleAllows = roleAnswers(roles);
  const holds = (principalId: string | undefined, on: string, permission: string, assigned?: string) =>
    principalId !== undefined &&
    assignments.some(
      (a) =>
        a.principalId === principalId &&
        under(on, a.scope) &&
        roleAllows(a.guid, permission, false) &&
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
  missing.push(...keyRoleDemands(render.resources, everything, subscription, roleAllows));
  missing.push(...providerDemands(render.resources, bootstrap.resources, environment));
  return missing;
}
