import { checkpointWriterRoleGuid, type AccessSpec } from '@checkpoints/config';

/** Azure built-in role definition GUIDs (the same in every tenant and subscription). */
export const AZURE_BUILT_IN_ROLES = {
  'Storage Blob Data Contributor': 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
  'Storage Blob Data Reader': '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
  'Key Vault Crypto Service Encryption User': 'e147488a-f6f5-4113-8e2d-b22465e65bf6',
} as const;

export type AzureBuiltInRole = keyof typeof AZURE_BUILT_IN_ROLES;

/** The custom role the bootstrap defines for store writers (blob data, no container deletion). */
export const CHECKPOINT_WRITER_ROLE_NAME = 'Checkpoint Store Writer';
export type AzureStoreRole = AzureBuiltInRole | typeof CHECKPOINT_WRITER_ROLE_NAME;

/** A role's definition GUID in a subscription: built-ins are the same everywhere, the writer role is the subscription's. */
export function azureRoleGuid(subscriptionId: string, role: AzureStoreRole): string {
  return role === CHECKPOINT_WRITER_ROLE_NAME
    ? checkpointWriterRoleGuid(subscriptionId)
    : AZURE_BUILT_IN_ROLES[role];
}

/** The full role definition ID a role assignment takes, in the subscription that holds the scope. */
export function azureRoleDefinitionId(subscriptionId: string, role: AzureStoreRole): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${azureRoleGuid(subscriptionId, role)}`;
}

/**
 * What a store's identity of each purpose may do on the store's filesystem, and nothing more. Writers get
 * the bootstrap's Checkpoint Store Writer role, not Storage Blob Data Contributor, whose
 * `containers/delete` would let a training job delete the whole filesystem.
 */
export const ADLS_ROLE_BY_PURPOSE = {
  writer: CHECKPOINT_WRITER_ROLE_NAME,
  reader: 'Storage Blob Data Reader',
} as const satisfies Record<string, AzureStoreRole>;

export type AdlsPurpose = keyof typeof ADLS_ROLE_BY_PURPOSE;

/** The `principalType` of a role assignment, by the prefix an `access` entry carries. */
export const AZURE_PRINCIPAL_TYPES = {
  user: 'User',
  group: 'Group',
  servicePrincipal: 'ServicePrincipal',
} as const;

export type AzurePrincipalType = (typeof AZURE_PRINCIPAL_TYPES)[keyof typeof AZURE_PRINCIPAL_TYPES];

/** Who receives a role: the store's own managed identity, or a principal named in `access`. */
export type AdlsGrantee =
  | { kind: 'store-identity'; purpose: AdlsPurpose }
  | { kind: 'principal'; purpose: AdlsPurpose; principalType: AzurePrincipalType; objectId: string };

export interface AdlsRoleGrant {
  role: AzureStoreRole;
  grantee: AdlsGrantee;
}

/**
 * Reads an `access` entry, `user:`, `group:` or `servicePrincipal:` and an object ID (as `azureRules`
 * validates it). The object ID is lowercased, the form Azure returns, so a differently cased ID in config
 * never shows as a change.
 * @throws Error for an entry without one of those prefixes.
 */
export function azurePrincipal(entry: string): { principalType: AzurePrincipalType; objectId: string } {
  const separator = entry.indexOf(':');
  const prefix = entry.slice(0, separator);
  if (separator < 0 || !Object.hasOwn(AZURE_PRINCIPAL_TYPES, prefix)) {
    throw new Error(`'${entry}' is not 'user:', 'group:' or 'servicePrincipal:' followed by an object ID`);
  }
  return {
    principalType: AZURE_PRINCIPAL_TYPES[prefix as keyof typeof AZURE_PRINCIPAL_TYPES],
    objectId: entry.slice(separator + 1).toLowerCase(),
  };
}

/**
 * Every role assignment on a store's filesystem: the store's writer and reader identities first, then
 * `access.writers` and `access.readers`.
 */
export function adlsFilesystemGrants(access: AccessSpec): AdlsRoleGrant[] {
  const principals = (purpose: AdlsPurpose, entries: readonly string[]): AdlsRoleGrant[] =>
    entries.map((entry) => ({
      role: ADLS_ROLE_BY_PURPOSE[purpose],
      grantee: { kind: 'principal', purpose, ...azurePrincipal(entry) },
    }));
  return [
    { role: ADLS_ROLE_BY_PURPOSE.writer, grantee: { kind: 'store-identity', purpose: 'writer' } },
    { role: ADLS_ROLE_BY_PURPOSE.reader, grantee: { kind: 'store-identity', purpose: 'reader' } },
    ...principals('writer', access.writers),
    ...principals('reader', access.readers),
  ];
}
