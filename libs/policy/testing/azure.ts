/** Resources for the Azure rules' specs: a compliant ADLS Gen2 store, linked as a real preview links it. */
import type { ResourceUnderTest } from '.';
import { UNKNOWN_STRING, urnOf } from './rules';
import { ROLES, T } from '../src/rules/azure/support';

export const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
export const GROUP = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-checkpoints-prod`;
export const ACCOUNT_NAME = 'prodllmpretrain4ba09a';
export const ACCOUNT_ID = `${GROUP}/providers/Microsoft.Storage/storageAccounts/${ACCOUNT_NAME}`;
export const FILESYSTEM_ID = `${ACCOUNT_ID}/blobServices/default/containers/checkpoints-llm-pretrain`;
export const VAULT_ID = `${GROUP}/providers/Microsoft.KeyVault/vaults/prod-llm-pretrain-4ba09a`;
export const KEY_ID = `${VAULT_ID}/keys/checkpoints-llm-pretrain`;
export const WRITER_PRINCIPAL = '5700b9b5-1f1c-4d6f-a72e-92382e7ff561';

export function roleDefinitionId(roleGuid: string): string {
  return `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${roleGuid}`;
}

/** The inputs the azure-adls stack gives a storage account, with `overrides` merged over them. */
export function accountProps(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    accountName: ACCOUNT_NAME,
    kind: 'StorageV2',
    sku: { name: 'Standard_ZRS' },
    isHnsEnabled: true,
    enableHttpsTrafficOnly: true,
    minimumTlsVersion: 'TLS1_2',
    allowBlobPublicAccess: false,
    allowSharedKeyAccess: false,
    allowCrossTenantReplication: false,
    defaultToOAuthAuthentication: true,
    isSftpEnabled: false,
    isLocalUserEnabled: false,
    encryption: {
      requireInfrastructureEncryption: true,
      keySource: 'Microsoft.Storage',
      services: { blob: { enabled: true, keyType: 'Account' } },
    },
    ...overrides,
  };
}

export function vaultProps(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    vaultName: 'prod-llm-pretrain-4ba09a',
    properties: {
      tenantId: '00000000-0000-4000-a000-000000000002',
      sku: { family: 'A', name: 'standard' },
      enableRbacAuthorization: true,
      enableSoftDelete: true,
      softDeleteRetentionInDays: 90,
      enablePurgeProtection: true,
      ...overrides,
    },
  };
}

export const account: ResourceUnderTest = {
  type: T.storageAccount,
  name: 'llm-pretrain',
  props: accountProps(),
};

/**
 * A companion of `account` (blob service properties, management policy), linked as a first preview links it:
 * through `propertyDependencies` on `accountName`, whose value is not known yet.
 */
export function companion(
  type: string,
  props: Record<string, unknown>,
  of: ResourceUnderTest = account,
  name = `${of.name}-${type.split(':').pop()}`,
): ResourceUnderTest {
  return {
    type,
    name,
    props: { accountName: UNKNOWN_STRING, ...props },
    propertyDependencies: { accountName: [urnOf(of)] },
  };
}

export const softDeleteProps = {
  blobServicesName: 'default',
  deleteRetentionPolicy: { enabled: true, days: 14 },
  containerDeleteRetentionPolicy: { enabled: true, days: 14 },
};

export const lifecycleProps = {
  managementPolicyName: 'default',
  policy: {
    rules: [
      {
        name: 'checkpoint-retention',
        enabled: true,
        type: 'Lifecycle',
        definition: {
          filters: { blobTypes: ['blockBlob'] },
          actions: { baseBlob: { tierToCool: { daysAfterModificationGreaterThan: 30 } } },
        },
      },
    ],
  },
};

/** A role assignment as the stack makes it; `scopeOf` links its scope to a resource, as a preview would. */
export function assignment(
  name: string,
  props: Record<string, unknown>,
  scopeOf?: ResourceUnderTest,
): ResourceUnderTest {
  return {
    type: T.roleAssignment,
    name,
    props: {
      principalId: WRITER_PRINCIPAL,
      principalType: 'ServicePrincipal',
      roleDefinitionId: roleDefinitionId(ROLES.storageBlobDataContributor.id),
      scope: FILESYSTEM_ID,
      ...props,
    },
    ...(scopeOf ? { propertyDependencies: { scope: [urnOf(scopeOf)] } } : {}),
  };
}
