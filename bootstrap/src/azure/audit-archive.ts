import type * as pulumi from '@pulumi/pulumi';
import { ManagementLockByScope } from '@pulumi/azure-native/authorization/managementLockByScope';
import { ResourceGroup } from '@pulumi/azure-native/resources/resourceGroup';
import { BlobServiceProperties } from '@pulumi/azure-native/storage/blobServiceProperties';
import { ManagementPolicy } from '@pulumi/azure-native/storage/managementPolicy';
import { StorageAccount } from '@pulumi/azure-native/storage/storageAccount';
import { auditArchive } from '@checkpoints/naming';
import type { Environment } from '@checkpoints/config';

/**
 * Days the archive keeps every log blob write-once: a year, the CIS Azure benchmark's retention for audit logs
 * (the stacks' workspace keeps them as long).
 */
export const AUDIT_ARCHIVE_DAYS = 365;

/** The environments whose stores' resource logs also go to a write-once archive: prod, like the guardrails. */
export const AUDIT_ARCHIVE_ENVIRONMENTS: readonly Environment[] = ['prod'];

/**
 * The storage account an environment's stores also send their blob resource logs to, write-once. Azure Monitor
 * writes them as append blobs into `insights-logs-<category>` containers it creates itself, so the policy is the
 * account's default (version-level immutability), which every container it creates inherits; Azure Monitor asks
 * for protected append writes ("To send the data to immutable storage, set the immutable policy for the storage
 * account as described in Set and manage immutability policies for Azure Blob Storage. You must follow all steps
 * in this linked article including enabling protected append blobs writes",
 * https://learn.microsoft.com/azure/azure-monitor/essentials/diagnostic-settings#destination-limitations;
 * https://learn.microsoft.com/azure/storage/blobs/immutable-policy-configure-version-scope). Version-level
 * immutability needs blob versioning (same page).
 *
 * - In the bootstrap's own resource group: CI's deploy identities hold roles on their stacks' groups, and on the
 *   archive only ListKeys and read (./roles), so no CI identity can shorten or lift the policy (an account PUT),
 *   delete the account or lift its lock.
 * - Created Unlocked: "A policy can only be created in a Disabled or Unlocked state" (@pulumi/azure-native
 *   AccountImmutabilityPolicyProperties.state). Locking it ("Locked state only allows the increase of the
 *   immutability retention time", same) is irreversible and left to the administrator (docs/azure.md).
 * - No shared key: Azure Monitor writes as a trusted Microsoft service ("Allow trusted Microsoft services",
 *   https://learn.microsoft.com/azure/azure-monitor/roles-permissions-security#monitoring-within-a-secured-virtual-network),
 *   so the account denies every network but those services, and the keys CI may list open nothing.
 * - In the bootstrap's location, which must be the stacks' ("The storage account needs to be in the same region
 *   as the resource being monitored", first page).
 */
export function createAuditArchive(
  subscriptionId: string,
  environment: Environment,
  location: string,
  tags: Record<string, string>,
  parent: pulumi.Resource,
): StorageAccount {
  const group = new ResourceGroup(
    `audit-archive-${environment}`,
    { resourceGroupName: auditArchive.resourceGroup(environment), location, tags },
    { parent, protect: true, retainOnDelete: true },
  );
  const account = new StorageAccount(
    `audit-archive-${environment}`,
    {
      resourceGroupName: group.name,
      accountName: auditArchive.account(subscriptionId, environment),
      location,
      kind: 'StorageV2',
      sku: { name: 'Standard_ZRS' },
      accessTier: 'Hot',
      // No hierarchical namespace: version-level immutability needs blob versioning, which it rules out.
      isHnsEnabled: false,
      encryption: {
        requireInfrastructureEncryption: true,
        keySource: 'Microsoft.Storage',
        services: { blob: { enabled: true, keyType: 'Account' } },
      },
      enableHttpsTrafficOnly: true,
      minimumTlsVersion: 'TLS1_2',
      allowBlobPublicAccess: false,
      allowSharedKeyAccess: false,
      allowCrossTenantReplication: false,
      defaultToOAuthAuthentication: true,
      publicNetworkAccess: 'Enabled',
      networkRuleSet: { defaultAction: 'Deny', bypass: 'AzureServices' },
      immutableStorageWithVersioning: {
        enabled: true,
        immutabilityPolicy: {
          immutabilityPeriodSinceCreationInDays: AUDIT_ARCHIVE_DAYS,
          allowProtectedAppendWrites: true,
          state: 'Unlocked',
        },
      },
      tags,
    },
    { parent, protect: true, retainOnDelete: true },
  );
  new BlobServiceProperties(
    `audit-archive-${environment}`,
    {
      resourceGroupName: group.name,
      accountName: account.name,
      blobServicesName: 'default',
      isVersioningEnabled: true,
      // What expires after its immutability period stays restorable for two weeks more.
      deleteRetentionPolicy: { enabled: true, days: 14 },
      containerDeleteRetentionPolicy: { enabled: true, days: 14 },
    },
    { parent, protect: true, retainOnDelete: true },
  );
  // Logs and their versions expire a month after their immutability period (lifecycle cannot delete an
  // immutable version before, https://learn.microsoft.com/azure/storage/blobs/immutable-storage-overview).
  new ManagementPolicy(
    `audit-archive-${environment}`,
    {
      resourceGroupName: group.name,
      accountName: account.name,
      managementPolicyName: 'default',
      policy: {
        rules: [
          {
            name: 'expire-after-retention',
            enabled: true,
            type: 'Lifecycle',
            definition: {
              filters: { blobTypes: ['appendBlob', 'blockBlob'], prefixMatch: ['insights-logs-'] },
              actions: {
                baseBlob: { delete: { daysAfterCreationGreaterThan: AUDIT_ARCHIVE_DAYS + 30 } },
                version: { delete: { daysAfterCreationGreaterThan: AUDIT_ARCHIVE_DAYS + 30 } },
              },
            },
          },
        ],
      },
    },
    { parent, protect: true, retainOnDelete: true },
  );
  // CanNotDelete: nobody deletes the archive until an administrator lifts the lock (break-glass,
  // https://learn.microsoft.com/azure/azure-resource-manager/management/lock-resources).
  new ManagementLockByScope(
    `audit-archive-${environment}-lock`,
    {
      scope: account.id,
      lockName: 'checkpoints-do-not-delete',
      level: 'CanNotDelete',
      notes: `checkpoint stores (${environment}): write-once archive of the resource logs; deletion is break-glass, see docs/azure.md`,
    },
    { parent, protect: true, retainOnDelete: true },
  );
  return account;
}
