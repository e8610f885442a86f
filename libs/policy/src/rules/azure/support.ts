/**
 * What the Azure rules share: matching azure-native type tokens (the default and the API-version-pinned
 * ones), finding an account's companion resources through `propertyDependencies`, and the built-in role
 * definitions the least-privilege rules name. Inputs are read through `../inputs` (unknown values on a
 * preview and in synth).
 */
import type { PolicyResource, ResourceValidationPolicy } from '@pulumi/policy';
import { resourceRule, type ResourceRule, type RuleSource } from '../define';
import { read, UNKNOWN } from '../inputs';
import { childLinks } from '../links';

/** azure-native type tokens of the resources the Azure rules read. */
export const T = {
  storageAccount: 'azure-native:storage:StorageAccount',
  blobContainer: 'azure-native:storage:BlobContainer',
  blobServiceProperties: 'azure-native:storage:BlobServiceProperties',
  managementPolicy: 'azure-native:storage:ManagementPolicy',
  immutabilityPolicy: 'azure-native:storage:BlobContainerImmutabilityPolicy',
  vault: 'azure-native:keyvault:Vault',
  roleAssignment: 'azure-native:authorization:RoleAssignment',
  key: 'azure-native:keyvault:Key',
  diagnosticSetting: 'azure-native:monitor:DiagnosticSetting',
  lock: 'azure-native:authorization:ManagementLockByScope',
  privateEndpoint: 'azure-native:network:PrivateEndpoint',
  privateDnsZoneGroup: 'azure-native:network:PrivateDnsZoneGroup',
  pimRoleEligibilitySchedule: 'azure-native:authorization:PimRoleEligibilitySchedule',
} as const;

/** Everything that grants an Azure role to a principal on a scope: directly, or as a PIM eligibility. */
export const ROLE_GRANT_TYPES: readonly string[] = [T.roleAssignment, T.pimRoleEligibilitySchedule];

/**
 * Whether `type` is the resource `token` names: the token itself, or the same resource from a package
 * pinned to an API version (`azure-native:storage/v20240101:StorageAccount`), which azure-native v3 lets a
 * program generate; a rule must not be bypassed by choosing one.
 */
export function isAzureType(type: string, token: string): boolean {
  if (type === token) return true;
  const [provider, module, name] = token.split(':');
  const parts = type.split(':');
  if (parts.length !== 3 || parts[0] !== provider || parts[2] !== name) return false;
  const pinned = parts[1] ?? '';
  return (
    pinned.startsWith(`${module}/`) &&
    /^v\d{8}(preview|privatepreview)?$/.test(pinned.slice(`${module}/`.length))
  );
}

export function isAnyAzureType(type: string, tokens: readonly string[]): boolean {
  return tokens.some((token) => isAzureType(type, token));
}

/** The azure-native module of a type token (`storage`, `keyvault`), version pin removed. */
export function azureModuleOf(type: string): string | undefined {
  const [provider, module] = type.split(':');
  if (provider !== 'azure-native' || module === undefined) return undefined;
  return module.split('/')[0];
}

/** `resourceRule`, matching the rule's tokens in their API-version-pinned forms too (see `isAzureType`). */
export function azureResourceRule(rule: ResourceRule): ResourceValidationPolicy & RuleSource {
  return {
    ...resourceRule(rule),
    validateResource: (args, report) => {
      if (!isAnyAzureType(args.type, rule.types)) return;
      return rule.validate(args.props, args, report);
    },
  };
}

/**
 * The bootstrap's write-once archive of the stores' resource logs (bootstrap/src/azure/audit-archive.ts), not a
 * store: a storage account outside every store component with version-level immutability on. That needs blob
 * versioning (https://learn.microsoft.com/azure/storage/blobs/immutable-policy-configure-version-scope), which a
 * hierarchical namespace rules out (https://learn.microsoft.com/azure/storage/blobs/storage-feature-support-in-storage-accounts),
 * so it can never hold an ADLS store: the ADLS store rules (hierarchical namespace, its own resource logs) do not
 * apply, and the compliance view judges it as the stores' log destination (checkpoints audit-immutable).
 */
export function isAuditArchive(resource: {
  urn: string;
  type: string;
  props: Record<string, unknown>;
}): boolean {
  return (
    isAzureType(resource.type, T.storageAccount) &&
    !resource.urn.includes('checkpoints:azure:CheckpointStore$') &&
    read(resource.props, 'immutableStorageWithVersioning', 'enabled') === true
  );
}

/** How a message names a storage account: its account name when known, else its logical name. */
export function accountLabel(account: PolicyResource): string {
  const name = read(account.props, 'accountName');
  return `storage account '${typeof name === 'string' ? name : account.name}'`;
}

/**
 * Whether an extension resource (diagnostic setting, lock) is attached to `target`: its `input` depends on
 * the target (a preview, where the ID is not known yet), or, known, it is the target's ID (`idPattern`
 * matches it, case-insensitively as Azure compares IDs).
 */
export function attachedTo(
  extension: PolicyResource,
  input: string,
  target: PolicyResource,
  idPattern: RegExp,
): boolean {
  if ((extension.propertyDependencies[input] ?? []).some((dependency) => dependency.urn === target.urn)) {
    return true;
  }
  const value = read(extension.props, input);
  return typeof value === 'string' && idPattern.test(value);
}

/**
 * The ARM ID pattern of a storage account or vault by its name input (letters, digits and hyphens, nothing
 * to escape), `suffix` a path below it; one that matches nothing while the name is unknown.
 */
export function idPatternOf(resource: PolicyResource, suffix = ''): RegExp {
  const [kind, key] = isAzureType(resource.type, T.vault)
    ? ['Microsoft\\.KeyVault/vaults', 'vaultName']
    : ['Microsoft\\.Storage/storageAccounts', 'accountName'];
  const name = read(resource.props, key);
  if (typeof name !== 'string') return /$^/;
  return new RegExp(`/providers/${kind}/${name}${suffix}$`, 'i');
}

/** The resource's `environment` tag, when known. */
export function environmentTag(resource: PolicyResource): string | undefined {
  const value = read(resource.props, 'tags', 'environment');
  return typeof value === 'string' ? value : undefined;
}

export interface CompanionCheck {
  /** Type token of the companion every storage account needs. */
  companionType: string;
  /** Reported on an account with no such companion. */
  missing(account: string): string;
  /** What is wrong with one companion, if anything; `account` is the account it belongs to, if found. */
  problems(companion: PolicyResource, account: PolicyResource | undefined): string[];
}

/**
 * A stack check of an account setting held by a separate resource: every storage account has a companion
 * linked to it, and every companion of the stack is compliant (reported on it, whichever account it is of).
 */
export function checkAccountCompanion(
  check: CompanionCheck,
  resources: readonly PolicyResource[],
  report: (message: string, urn?: string) => void,
): void {
  const accounts = resources.filter((resource) => isAzureType(resource.type, T.storageAccount));
  const companions = resources.filter((resource) => isAzureType(resource.type, check.companionType));
  const links = childLinks(companions, accounts, 'accountName', (resource) =>
    read(resource.props, 'accountName'),
  );
  for (const account of accounts) {
    if (!links.hasChild(account)) {
      report(check.missing(accountLabel(account)), account.urn);
    }
  }
  for (const companion of companions) {
    const account = links.parentOf(companion);
    for (const problem of check.problems(companion, account)) {
      report(`${companion.type.split(':').pop()} '${companion.name}': ${problem}`, companion.urn);
    }
  }
}

/** Azure built-in role definition GUIDs (the same in every tenant), from Microsoft's built-in roles reference. */
export const ROLES = {
  owner: { name: 'Owner', id: '8e3af657-a8ff-443c-a75c-2fe8c4bcb635' },
  contributor: { name: 'Contributor', id: 'b24988ac-6180-42a0-ab88-20f7382dd24c' },
  userAccessAdministrator: { name: 'User Access Administrator', id: '18d7d88d-d35e-4fb5-a5c3-7773c20a72d9' },
  rbacAdministrator: {
    name: 'Role Based Access Control Administrator',
    id: 'f58310d9-a9f6-439a-9e8d-f62e7b41a168',
  },
  storageAccountKeyOperator: {
    name: 'Storage Account Key Operator Service Role',
    id: '81a9662b-bebf-436f-a333-f67b29880f12',
  },
  storageBlobDataOwner: { name: 'Storage Blob Data Owner', id: 'b7e6dc6d-f1e8-4753-8033-0f276bb0955b' },
  storageBlobDataContributor: {
    name: 'Storage Blob Data Contributor',
    id: 'ba92f5b4-2d11-453d-a403-e96b0029c9fe',
  },
  storageBlobDataReader: { name: 'Storage Blob Data Reader', id: '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1' },
  keyVaultCryptoServiceEncryptionUser: {
    name: 'Key Vault Crypto Service Encryption User',
    id: 'e147488a-f6f5-4113-8e2d-b22465e65bf6',
  },
  storageAccountBackupContributor: {
    name: 'Storage Account Backup Contributor',
    id: 'e5e2a7ff-d759-4cd2-bb51-3152d37e2eb1',
  },
} as const;

export interface Role {
  name: string;
  id: string;
}

const GUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isGuid(value: string): boolean {
  return GUID.test(value);
}

/**
 * The role definition GUID of a `roleDefinitionId` (`/subscriptions/<s>/providers/Microsoft.Authorization/
 * roleDefinitions/<guid>`, or the bare GUID), lowercased; `undefined` when it names none; UNKNOWN passes.
 */
export function roleGuidOf(roleDefinitionId: unknown): string | typeof UNKNOWN | undefined {
  if (roleDefinitionId === UNKNOWN) return UNKNOWN;
  if (typeof roleDefinitionId !== 'string') return undefined;
  const last = roleDefinitionId.split('/').pop() ?? '';
  return isGuid(last) ? last.toLowerCase() : undefined;
}

/** How a message names a role: `Owner (8e3af657-...)`, or the GUID alone for a role not listed here. */
export function roleLabel(guid: string): string {
  const known = Object.values(ROLES).find((role) => role.id === guid);
  return known ? `${known.name} (${guid})` : guid;
}

/** `A`, `A or B`, `A, B or C`. */
export function oneOf(roles: readonly Role[]): string {
  const names = roles.map((role) => role.name);
  return names.length <= 1 ? (names[0] ?? '') : `${names.slice(0, -1).join(', ')} or ${names.at(-1)}`;
}
