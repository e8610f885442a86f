import { guid, str, type CloudMocks } from './common';

export const AZURE_SUBSCRIPTION_ID = '00000000-0000-4000-a000-000000000001';
export const AZURE_TENANT_ID = '00000000-0000-4000-a000-000000000002';

export function azureMocks(config: Record<string, string>): CloudMocks {
  const location = config['azure-native:location'] ?? 'eastus';
  const subscription = str(config['azure-native:subscriptionId'], AZURE_SUBSCRIPTION_ID);
  const groupId = (group: string) => `/subscriptions/${subscription}/resourceGroups/${group}`;
  const accountId = (inputs: Record<string, unknown>, account: string) =>
    `${groupId(str(inputs['resourceGroupName'], 'rg'))}/providers/Microsoft.Storage/storageAccounts/${account}`;
  const backupVaultId = (inputs: Record<string, unknown>, vault: string) =>
    `${groupId(str(inputs['resourceGroupName'], 'rg'))}/providers/Microsoft.DataProtection/backupVaults/${vault}`;

  return {
    resources: {
      'azure-native:resources:ResourceGroup': ({ name, inputs }) => {
        const group = str(inputs['resourceGroupName'], name);
        return {
          id: groupId(group),
          state: { ...inputs, name: group, location: str(inputs['location'], location) },
        };
      },
      'azure-native:storage:StorageAccount': ({ name, inputs }) => {
        const account = str(inputs['accountName'], name);
        const id = `${groupId(str(inputs['resourceGroupName'], 'rg'))}/providers/Microsoft.Storage/storageAccounts/${account}`;
        return {
          id,
          state: {
            ...inputs,
            name: account,
            primaryEndpoints: {
              blob: `https://${account}.blob.core.windows.net/`,
              dfs: `https://${account}.dfs.core.windows.net/`,
            },
          },
        };
      },
      'azure-native:storage:BlobContainer': ({ name, inputs }) => {
        const account = str(inputs['accountName'], 'account');
        const container = str(inputs['containerName'], name);
        const id = `${groupId(str(inputs['resourceGroupName'], 'rg'))}/providers/Microsoft.Storage/storageAccounts/${account}/blobServices/default/containers/${container}`;
        return { id, state: { ...inputs, name: container } };
      },
      'azure-native:storage:BlobServiceProperties': ({ inputs }) => {
        const account = str(inputs['accountName'], 'account');
        const id = `${accountId(inputs, account)}/blobServices/default`;
        return { id, state: { ...inputs, name: 'default' } };
      },
      'azure-native:storage:ManagementPolicy': ({ inputs }) => {
        const account = str(inputs['accountName'], 'account');
        const id = `${accountId(inputs, account)}/managementPolicies/default`;
        return { id, state: { ...inputs, name: 'DefaultManagementPolicy' } };
      },
      'azure-native:managedidentity:UserAssignedIdentity': ({ name, inputs }) => {
        const identity = str(inputs['resourceName'], name);
        const id = `${groupId(str(inputs['resourceGroupName'], 'rg'))}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${identity}`;
        return {
          id,
          state: {
            ...inputs,
            name: identity,
            principalId: guid('azure-principal', id),
            clientId: guid('azure-client', id),
            tenantId: AZURE_TENANT_ID,
          },
        };
      },
      'azure-native:keyvault:Vault': ({ name, inputs }) => {
        const vault = str(inputs['vaultName'], name);
        const id = `${groupId(str(inputs['resourceGroupName'], 'rg'))}/providers/Microsoft.KeyVault/vaults/${vault}`;
        const properties = (inputs['properties'] ?? {}) as Record<string, unknown>;
        return {
          id,
          state: {
            ...inputs,
            name: vault,
            properties: { ...properties, vaultUri: `https://${vault}.vault.azure.net/` },
          },
        };
      },
      'azure-native:keyvault:Key': ({ name, inputs }) => {
        const vault = str(inputs['vaultName'], 'vault');
        const key = str(inputs['keyName'], name);
        const id = `${groupId(str(inputs['resourceGroupName'], 'rg'))}/providers/Microsoft.KeyVault/vaults/${vault}/keys/${key}`;
        const keyUri = `https://${vault}.vault.azure.net/keys/${key}`;
        return {
          id,
          state: {
            ...inputs,
            name: key,
            keyUri,
            keyUriWithVersion: `${keyUri}/${guid('azure-key-version', id).replace(/-/g, '')}`,
          },
        };
      },
      // A Backup vault's system-assigned identity, which its role assignments name, as Azure returns it.
      'azure-native:dataprotection:BackupVault': ({ name, inputs }) => {
        const id = backupVaultId(inputs, str(inputs['vaultName'], name));
        const identity = (inputs['identity'] ?? {}) as Record<string, unknown>;
        return {
          id,
          state: {
            ...inputs,
            name: str(inputs['vaultName'], name),
            identity: { ...identity, principalId: guid('azure-principal', id), tenantId: AZURE_TENANT_ID },
          },
        };
      },
      'azure-native:dataprotection:BackupPolicy': ({ name, inputs }) => {
        const policy = str(inputs['backupPolicyName'], name);
        const id = `${backupVaultId(inputs, str(inputs['vaultName'], 'vault'))}/backupPolicies/${policy}`;
        return { id, state: { ...inputs, name: policy } };
      },
      'azure-native:dataprotection:BackupInstance': ({ name, inputs }) => {
        const instance = str(inputs['backupInstanceName'], name);
        const id = `${backupVaultId(inputs, str(inputs['vaultName'], 'vault'))}/backupInstances/${instance}`;
        return { id, state: { ...inputs, name: instance } };
      },
      'azure-native:authorization:RoleAssignment': ({ name, inputs }) => {
        const assignment = str(inputs['roleAssignmentName'], guid('azure-role-assignment', name));
        const id = `${str(inputs['scope'], groupId('rg'))}/providers/Microsoft.Authorization/roleAssignments/${assignment}`;
        return { id, state: { ...inputs, name: assignment } };
      },
    },
    calls: {
      'azure-native:authorization:getClientConfig': () => ({
        clientId: guid('azure-client-config', 'client'),
        objectId: guid('azure-client-config', 'object'),
        subscriptionId: subscription,
        tenantId: AZURE_TENANT_ID,
      }),
    },
  };
}

/** Fallback ID for ARM resources without a dedicated mock, in the real `/subscriptions/...` shape. */
export function armId(
  type: string,
  name: string,
  inputs: Record<string, unknown>,
  config: Record<string, string>,
): string {
  const subscription = str(config['azure-native:subscriptionId'], AZURE_SUBSCRIPTION_ID);
  const [, module = 'resources', kind = 'resource'] = type.split(':');
  const namespace = `Microsoft.${module.charAt(0).toUpperCase()}${module.slice(1)}`;
  return `/subscriptions/${subscription}/resourceGroups/${str(inputs['resourceGroupName'], 'rg')}/providers/${namespace}/${kind}/${name}`;
}
