import type { AccessSpec } from '@checkpoints/config';

/** Azure built-in role definition GUIDs (the same in every tenant and subscription). */
export const AZURE_BUILT_IN_ROLES = {
  'Storage Blob Data Contributor': 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
  'Storage Blob Data Reader': '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
  'Key Vault Crypto Service Encryption User': 'e147488a-f6f5-4113-8e2d-b22465e65bf6',
} as const;

export type AzureBuiltInRole = keyof typeof AZURE_BUILT_IN_ROLES;

/** The full role definition ID a role assignment takes, in the subscription that holds the scope. */
export function azureRoleDefinitionId(subscriptionId: string, role: AzureBuiltInRole): string {
  return `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/roleDefinitions/${AZURE_BUILT_IN_ROLES[role]}`;
}

/** What a store's identity of each purpose may do on the store's filesystem, and nothing more. */
export const ADLS_ROLE_BY_PURPOSE = {
  writer: 'Storage Blob Data Contributor',
  reader: 'Storage Blob Data Reader',
} as const satisfies Record<string, AzureBuiltInRole>;

export type AdlsPurpose = keyof typeof ADLS_ROLE_BY_PURPOSE;

/** Who receives a role: the store's own managed identity, or a principal named in `access`. */
export type AdlsGrantee =
  | { kind: 'store-identity'; purpose: AdlsPurpose }
  | { kind: 'principal'; purpose: AdlsPurpose; objectId: string };

export interface AdlsRoleGrant {
  role: AzureBuiltInRole;
  grantee: AdlsGrantee;
}

/**
 * Every role assignment on a store's filesystem: the store's writer and reader identities first, then
 * `access.writers` and `access.readers`. Object IDs are lowercased, the form Azure returns, so a
 * differently cased ID in config never shows as a change.
 */
export function adlsFilesystemGrants(access: AccessSpec): AdlsRoleGrant[] {
  const principals = (purpose: AdlsPurpose, objectIds: readonly string[]): AdlsRoleGrant[] =>
    objectIds.map((objectId) => ({
      role: ADLS_ROLE_BY_PURPOSE[purpose],
      grantee: { kind: 'principal', purpose, objectId: objectId.toLowerCase() },
    }));
  return [
    { role: ADLS_ROLE_BY_PURPOSE.writer, grantee: { kind: 'store-identity', purpose: 'writer' } },
    { role: ADLS_ROLE_BY_PURPOSE.reader, grantee: { kind: 'store-identity', purpose: 'reader' } },
    ...principals('writer', access.writers),
    ...principals('reader', access.readers),
  ];
}
