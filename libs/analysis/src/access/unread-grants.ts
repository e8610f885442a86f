import type { Cloud } from '@checkpoints/config';
import type { Render, RenderedResource } from '@checkpoints/render';
import { GCP_READ_TYPES } from './gcp';
import { OPERATIONS, type AccessGrant, type Principal } from './model';

/**
 * Grant resources the access analysis does not read. A type it does not model would otherwise grant
 * nothing in the analysis, whatever it grants in the cloud: each one found counts as granting every
 * operation on every store of its cloud to an unknown principal (who may be a CI identity), and the reason
 * names the type and the resource.
 *
 * What counts as grant-like, by its type token (`<package>:<module>/<name>:<Class>`):
 * - a class name with a word of access control in it: IAM, Policy/Policies, Binding, Member,
 *   AccessControl, Acl/ACL, Assignment (role and policy assignments), Grant, Permission, AccessPoint (an S3
 *   access point carries its own resource policy), LocalUser (an Azure storage account's SFTP/NFS users),
 *   Sas (shared access signatures);
 * - any type of a module that exists to hand out access: `azure-native:authorization` (role assignments,
 *   eligibility and assignment schedules of Privileged Identity Management), `aws:lakeformation` (data lake
 *   permissions);
 * minus the types the models read (READ) and those that match but grant no principal anything (NOT_GRANTS).
 */
const GRANT_WORDS =
  /IAM|Iam|Polic(y|ies)|Binding|Member|AccessControl|Acl|ACL|Assignment|Grant|Permission|AccessPoint|LocalUser|Sas/;
const GRANT_MODULES = ['azure-native:authorization:', 'aws:lakeformation/'];

/**
 * The grant types each cloud's model reads. AWS: every `aws:iam/` type, which aws-grants.ts reads or counts
 * as granting everything to every role it may name (a type it does not model included); the bucket policy
 * and the KMS key (its policy) and grants (aws.ts). GCP: the allow, deny and custom-role resources of gcp.ts.
 * Azure: role assignments and definitions, and Key Vault access policies (the vault's own input), azure.ts.
 */
const READ: Readonly<Record<Cloud, (type: string) => boolean>> = {
  aws: (type) =>
    type.startsWith('aws:iam/') ||
    ['aws:s3/bucketPolicy:BucketPolicy', 'aws:kms/key:Key', 'aws:kms/grant:Grant'].includes(type),
  gcp: (type) => GCP_READ_TYPES.has(type),
  azure: (type) =>
    [
      'azure-native:authorization:RoleAssignment',
      'azure-native:authorization:RoleDefinition',
      'azure-native:keyvault:Vault',
    ].includes(type),
};

/** Types whose name matches but which grant no principal any access, each with why. */
const NOT_GRANTS: ReadonlyMap<string, string> = new Map([
  // https://cloud.google.com/logging/docs/audit/configure-data-access: which calls the audit logs record.
  ['gcp:projects/iAMAuditConfig:IAMAuditConfig', 'configures audit logging'],
  ['gcp:folder/iAMAuditConfig:IAMAuditConfig', 'configures audit logging'],
  ['gcp:organizations/iAMAuditConfig:IAMAuditConfig', 'configures audit logging'],
  // https://cloud.google.com/resource-manager/docs/organization-policy/overview: constraints on how resources
  // may be configured ("IAM focuses on who ... the Organization Policy Service focuses on what").
  ['gcp:orgpolicy/policy:Policy', 'constrains resource configuration'],
  // https://learn.microsoft.com/en-us/azure/governance/policy/overview#azure-policy-and-azure-rbac: Azure
  // Policy evaluates resource properties; it does not grant principals actions (RBAC does).
  ['azure-native:authorization:PolicyAssignment', 'evaluates resource properties'],
  ['azure-native:authorization:PolicyDefinition', 'evaluates resource properties'],
  // https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/lock-resources: a lock only
  // refuses deletes or writes.
  ['azure-native:authorization:ManagementLockByScope', 'refuses deletes'],
  ['azure-native:authorization:ManagementLockAtResourceLevel', 'refuses deletes'],
  ['azure-native:authorization:ManagementLockAtResourceGroupLevel', 'refuses deletes'],
  ['azure-native:authorization:ManagementLockAtSubscriptionLevel', 'refuses deletes'],
  // Retention and lifecycle rules (libs/analysis retention reads them): they keep or delete data, for no one.
  ['azure-native:storage:BlobContainerImmutabilityPolicy', 'holds blobs immutable'],
  ['azure-native:storage:ManagementPolicy', 'is a lifecycle policy'],
  // https://learn.microsoft.com/azure/backup/azure-data-lake-storage-configure-backup: a backup policy "defines
  // the schedule and frequency for backing up"; the vault reaches the account through its role assignment
  // (read above), and ../retention/azure-copy reads the policy's retention.
  ['azure-native:dataprotection:BackupPolicy', 'schedules and keeps backups'],
]);

/** The cloud a type token belongs to, or undefined (a component, the stack). */
function cloudOf(type: string): Cloud | undefined {
  if (type.startsWith('aws:')) return 'aws';
  if (type.startsWith('gcp:')) return 'gcp';
  if (type.startsWith('azure-native:') || type.startsWith('azure:')) return 'azure';
  return undefined;
}

/** Whether a type token is grant-like (the rule above) and of a type `cloud`'s model does not read. */
export function unreadGrantType(cloud: Cloud, type: string): boolean {
  if (cloudOf(type) !== cloud || READ[cloud](type) || NOT_GRANTS.has(type)) return false;
  const className = type.split(':').pop() ?? '';
  return GRANT_WORDS.test(className) || GRANT_MODULES.some((module) => type.startsWith(module));
}

/** The unread grant resources of `cloud` in the renders (the bootstrap's included: it grants CI). */
export function unreadGrantsOf(
  cloud: Cloud,
  render: Pick<Render, 'resources'>,
  bootstrap: Pick<Render, 'resources'> | undefined,
): RenderedResource[] {
  return [...render.resources, ...(bootstrap?.resources ?? [])].filter((resource) =>
    unreadGrantType(cloud, resource.type),
  );
}

/** What the analysis assumes of one unread grant resource: every operation, for an unknown principal. */
export function unreadGrantAccess(resource: RenderedResource): AccessGrant[] {
  const principal: Principal = {
    id: `unknown principal of ${resource.urn}`,
    label: `an unknown principal (of ${resource.type} ${resource.name})`,
    kind: 'unknown',
  };
  const reason = `${resource.type} ${resource.name} is a grant type the access analysis does not read: counted as granting every operation to an unknown principal, who may be a CI identity`;
  return OPERATIONS.map((operation) => ({ principal, operation, reason }));
}
