import type * as pulumi from '@pulumi/pulumi';
import { PolicyAssignment } from '@pulumi/azure-native/authorization/policyAssignment';
import { PolicyDefinition } from '@pulumi/azure-native/authorization/policyDefinition';
import type { Environment } from '@checkpoints/config';
import { auditArchive } from '@checkpoints/naming';
import { AUDIT_ARCHIVE_ENVIRONMENTS } from './audit-archive';

/**
 * The fewest days blob soft delete keeps a deleted file in the stack resource group of an environment (none:
 * no floor): what lifecycle or a job deletes stays restorable that long (https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-policy-delete).
 * 14 in prod: the longest recovery window of the shipped prod stores, so none of them can be cut shorter.
 */
export const AZURE_SOFT_DELETE_FLOOR_DAYS: Partial<Record<Environment, number>> = { prod: 14 };

/** The aliases the definitions read (https://learn.microsoft.com/azure/governance/policy/concepts/definition-structure-alias). */
const SOFT_DELETE_ENABLED =
  'Microsoft.Storage/storageAccounts/blobServices/default.deleteRetentionPolicy.enabled';
const SOFT_DELETE_DAYS = 'Microsoft.Storage/storageAccounts/blobServices/default.deleteRetentionPolicy.days';
const DIAGNOSTIC_LOGS = 'Microsoft.Insights/diagnosticSettings/logs[*]';
// The destination storage account's alias, as Microsoft's diagnostic-settings policy examples read it
// (https://learn.microsoft.com/azure/logic-apps/healthy-unhealthy-resource#fix-diagnostic-logging-for-logic-apps).
const DIAGNOSTIC_ARCHIVE = 'Microsoft.Insights/diagnosticSettings/storageAccountId';

/** The blob service's read, write and delete logs (stacks/azure-adls/src/audit.ts BLOB_AUDIT_CATEGORIES). */
const BLOB_AUDIT_CATEGORIES = ['StorageRead', 'StorageWrite', 'StorageDelete'];

/**
 * Deny a blob service whose soft delete is off or shorter than `minimumDays`: the shape of the Azure Landing
 * Zones' Deny-Storage-ContainerDeleteRetentionPolicy definition
 * (https://github.com/Azure/Enterprise-Scale/blob/main/src/resources/Microsoft.Authorization/policyDefinitions/Deny-Storage-ContainerDeleteRetentionPolicy.json),
 * on blob soft delete. Mode All: blobServices is a child resource, which Indexed mode does not evaluate
 * (https://learn.microsoft.com/azure/governance/policy/concepts/definition-structure-basics#mode).
 */
export function softDeletePolicyRule() {
  return {
    if: {
      allOf: [
        { field: 'type', equals: 'Microsoft.Storage/storageAccounts/blobServices' },
        {
          anyOf: [
            { field: SOFT_DELETE_ENABLED, notEquals: true },
            { field: SOFT_DELETE_DAYS, less: "[parameters('minimumDays')]" },
          ],
        },
      ],
    },
    then: { effect: 'deny' },
  };
}

/**
 * Deny a diagnostic setting of a blob service that does not send all three blob log categories to a Log
 * Analytics workspace of the resource group it is assigned at (`contains` compares case-insensitively:
 * https://learn.microsoft.com/azure/governance/policy/concepts/definition-structure-policy-rule#conditions), or,
 * given the environment's write-once archive, that does not also send them there.
 * Deleting a setting is not a write a deny sees: no CI identity holds `diagnosticSettings/delete` in prod
 * (./roles).
 */
export function diagnosticSettingsPolicyRule(archiveId?: string) {
  return {
    if: {
      allOf: [
        { field: 'type', equals: 'Microsoft.Insights/diagnosticSettings' },
        { value: "[field('id')]", contains: '/blobServices/' },
        {
          anyOf: [
            {
              count: {
                field: DIAGNOSTIC_LOGS,
                where: {
                  allOf: [
                    { field: `${DIAGNOSTIC_LOGS}.category`, in: BLOB_AUDIT_CATEGORIES },
                    { field: `${DIAGNOSTIC_LOGS}.enabled`, equals: true },
                  ],
                },
              },
              less: BLOB_AUDIT_CATEGORIES.length,
            },
            {
              field: 'Microsoft.Insights/diagnosticSettings/workspaceId',
              notContains: "[concat(resourceGroup().id, '/')]",
            },
            // In an environment with a write-once archive, a setting that stops sending to it.
            ...(archiveId === undefined ? [] : [{ field: DIAGNOSTIC_ARCHIVE, notEquals: archiveId }]),
          ],
        },
      ],
    },
    then: { effect: 'deny' },
  };
}

/**
 * Azure Policy definitions with deny effect, assigned at the environment's stack resource group: "deny is used
 * to prevent a resource request that doesn't match defined standards ... before being sent to the Resource
 * Provider", whoever makes the request (https://learn.microsoft.com/azure/governance/policy/concepts/effect-deny).
 * Lifting one takes writing or deleting the assignment or definition, or an exemption
 * (Microsoft.Authorization/policyAssignments, policyDefinitions, policyExemptions), which no CI identity holds:
 * the deploy role reads Microsoft.Authorization only, and Role Based Access Control Administrator holds role
 * assignments alone (./roles). The admin who runs the bootstrap assigns them.
 */
export function azureGuardrails(
  subscriptionId: string,
  resourceGroupId: string,
  environment: Environment,
  parent: pulumi.Resource,
): void {
  const floor = AZURE_SOFT_DELETE_FLOOR_DAYS[environment];
  if (floor === undefined) return;
  // A definition's ID is its name under the subscription's provider path; derived from the definition's own
  // output so that the assignment waits for it.
  const definitionId = (definition: PolicyDefinition, name: string) =>
    definition.id.apply(
      () => `/subscriptions/${subscriptionId}/providers/Microsoft.Authorization/policyDefinitions/${name}`,
    );
  const softDeleteName = `checkpoints-soft-delete-floor-${environment}`;
  const diagnosticsName = `checkpoints-blob-audit-kept-${environment}`;
  const softDelete = new PolicyDefinition(
    `soft-delete-floor-${environment}`,
    {
      policyDefinitionName: softDeleteName,
      displayName: `Checkpoint stores (${environment}): blob soft delete on, at least minimumDays`,
      policyType: 'Custom',
      mode: 'All',
      parameters: { minimumDays: { type: 'Integer', metadata: { displayName: 'Fewest soft-delete days' } } },
      policyRule: softDeletePolicyRule(),
    },
    { parent, protect: true },
  );
  const diagnostics = new PolicyDefinition(
    `diagnostic-settings-kept-${environment}`,
    {
      policyDefinitionName: diagnosticsName,
      displayName: `Checkpoint stores (${environment}): blob read, write and delete logs kept in the group's workspace`,
      policyType: 'Custom',
      mode: 'All',
      policyRule: diagnosticSettingsPolicyRule(
        AUDIT_ARCHIVE_ENVIRONMENTS.includes(environment)
          ? auditArchive.accountId(subscriptionId, environment)
          : undefined,
      ),
    },
    { parent, protect: true },
  );
  new PolicyAssignment(
    `soft-delete-floor-${environment}`,
    {
      policyAssignmentName: `checkpoints-soft-delete-${environment}`,
      scope: resourceGroupId,
      policyDefinitionId: definitionId(softDelete, softDeleteName),
      parameters: { minimumDays: { value: floor } },
      enforcementMode: 'Default',
    },
    { parent, protect: true },
  );
  new PolicyAssignment(
    `diagnostic-settings-kept-${environment}`,
    {
      policyAssignmentName: `checkpoints-blob-audit-${environment}`,
      scope: resourceGroupId,
      policyDefinitionId: definitionId(diagnostics, diagnosticsName),
      enforcementMode: 'Default',
    },
    { parent, protect: true },
  );
}
