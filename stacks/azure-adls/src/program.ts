import * as pulumi from '@pulumi/pulumi';
import { getClientConfigOutput } from '@pulumi/azure-native/authorization/getClientConfig';
import { ResourceGroup } from '@pulumi/azure-native/resources/resourceGroup';
import {
  azureIndependentCopyIssues,
  azureLocationIssues,
  azurePrivateDnsIssues,
  azurePrivateOnlyIssues,
  azureReplicaIssues,
  azureWorkspaceIdIssues,
  azureQuotaWarnings,
  azureRules,
  buildStoresInTurns,
  ConfigError,
  DATA_CLASSIFICATIONS,
  firstName,
  loadStackSpec,
  physicalNameIssues,
  deployedStoresOf,
  replacementIssues,
  storeComponentInputs,
  type ConfigIssue,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { auditArchive, nameRules, names, type NameContext } from '@checkpoints/naming';
import { adlsFilesystemGrants } from '@checkpoints/translate';
import { azureTags, standardTags } from '@checkpoints/tagging';
import { createAuditWorkspace } from './audit';
import { CheckpointStore, STORE_REPLACING_SETTINGS } from './checkpoint-store';
import { encryptionIdentityName, keyNameContext } from './encryption';

interface AzureStackConfig {
  spec: StackSpec;
  location: string;
}

/**
 * Every store of the stack's config, each with its outputs (the same outputs on every cloud). A config problem throws
 * before any resource exists; the stores are then built one per turn (`buildStoresInTurns`).
 */
export function checkpointStack(): Promise<{ stores: Record<string, StoreOutputs<pulumi.Output<string>>> }> {
  const { spec, location } = loadAzureConfig();
  for (const warning of azureQuotaWarnings(spec, roleAssignmentCount(spec))) {
    void pulumi.log.warn(warning);
  }
  const client = getClientConfigOutput();
  const resourceGroupName = spec.resourceGroupName ?? createResourceGroup(spec, location).name;
  const auditWorkspaceId = auditDestination(spec, location, resourceGroupName);
  const audit =
    auditWorkspaceId === undefined
      ? undefined
      : { workspaceId: auditWorkspaceId, ...archiveDestination(spec, client.subscriptionId) };
  return buildStoresInTurns(spec.stores, (store) => {
    const component = new CheckpointStore(store.name, {
      store,
      stack: { environment: spec.environment, owner: spec.owner, costCenter: spec.costCenter },
      location,
      resourceGroupName,
      subscriptionId: client.subscriptionId,
      tenantId: client.tenantId,
      ...(store.audit && audit !== undefined ? { audit } : {}),
    });
    return [store.name, component.outputs] as const;
  }).then((stores) => ({ stores: Object.fromEntries(stores) }));
}

/** The `checkpoints:` spec and `azure-native:location`, every problem of both reported at once. */
function loadAzureConfig(): AzureStackConfig {
  const source = `Pulumi.${pulumi.getStack()}.yaml`;
  const issues: ConfigIssue[] = [];
  let spec: StackSpec | undefined;
  try {
    spec = loadStackSpec(pulumi.runtime.allConfig(), azureRules, source, { isSecret: isConfigSecret });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues.push(...error.issues);
  }
  if (spec) issues.push(...physicalNameIssues(spec.stores, azurePhysicalNames));
  const location = new pulumi.Config('azure-native').get('location');
  issues.push(...azureLocationIssues(location));
  if (spec) issues.push(...azureWorkspaceIdIssues(spec.logAnalyticsWorkspaceId));
  if (spec) issues.push(...azurePrivateDnsIssues(spec.stores, spec.environment));
  if (spec) issues.push(...azurePrivateOnlyIssues(spec.stores, spec.environment));
  if (spec && location && issues.length === 0) issues.push(...azureReplicaIssues(spec.stores, location));
  if (spec && location && issues.length === 0)
    issues.push(...azureIndependentCopyIssues(spec.stores, location));
  if (spec && location && issues.length === 0) {
    issues.push(
      ...replacementIssues(
        spec.stores,
        (store) => storeComponentInputs(store, location),
        STORE_REPLACING_SETTINGS,
        deployedStoresOf(pulumi.runtime.allConfig()),
      ),
    );
  }
  const groupName = spec?.resourceGroupName;
  const groupProblem = groupName === undefined ? undefined : nameRules.resourceGroup(groupName);
  if (groupProblem)
    issues.push({ path: 'checkpoints:resourceGroupName', value: groupName, message: groupProblem });
  if (!spec || !location || issues.length > 0) throw new ConfigError(issues, source);
  return { spec, location };
}

/** The role assignments the stores create: their filesystem grants, and key access where the key is the store's own. */
export function roleAssignmentCount(spec: StackSpec): number {
  return spec.stores.reduce(
    (count, store) =>
      count + adlsFilesystemGrants(store.access).length + (store.encryption === 'customer-managed' ? 1 : 0),
    0,
  );
}

/** Every name the stack derives for a store that must be unique globally or in the resource group. */
export function azurePhysicalNames(store: StoreSpec): Record<string, string | string[]> {
  const ctx: NameContext = {
    project: pulumi.getProject(),
    stack: pulumi.getStack(),
    store: firstName(store),
  };
  return {
    'storage account': names.storageAccount(ctx),
    'managed identity': [
      names.managedIdentity(ctx, 'writer'),
      names.managedIdentity(ctx, 'reader'),
      encryptionIdentityName(ctx),
    ],
    'key vault': names.keyVault(keyNameContext(ctx, store.keyGeneration)),
  };
}

/**
 * Where audited stores send their records: the workspace the config names, else one the stack creates in
 * its resource group; none when no store is audited.
 */
function auditDestination(
  spec: StackSpec,
  location: string,
  resourceGroupName: pulumi.Input<string>,
): pulumi.Input<string> | undefined {
  const audited = spec.stores.filter((store) => store.audit);
  if (audited.length === 0) return undefined;
  if (spec.logAnalyticsWorkspaceId !== undefined) return spec.logAnalyticsWorkspaceId;
  const stack = { project: pulumi.getProject(), stack: pulumi.getStack() };
  const { environment, owner, costCenter } = spec;
  return createAuditWorkspace({
    name: auditWorkspaceName(stack),
    resourceGroupName,
    location,
    tags: azureTags(
      standardTags({ environment, owner, costCenter, ...stack, dataClassification: mostSensitive(spec) }),
    ),
    protect: audited.some((store) => store.protect),
  }).id;
}

/**
 * In prod the stores' resource logs also go to the write-once archive the bootstrap creates for the environment
 * in the subscription (bootstrap/src/azure/audit-archive.ts), named by the ID both derive from subscription and
 * environment: the bootstrap must have been applied, as for CI's own identities.
 */
function archiveDestination(
  spec: StackSpec,
  subscriptionId: pulumi.Output<string>,
): { archiveAccountId?: pulumi.Output<string> } {
  if (spec.environment !== 'prod') return {};
  return {
    archiveAccountId: subscriptionId.apply((subscription) =>
      auditArchive.accountId(subscription, spec.environment),
    ),
  };
}

/** Log Analytics workspace names are 4 to 63 letters, digits and hyphens; the group's name is unique to the stack. */
export function auditWorkspaceName(stack: { project: string; stack: string }): string {
  return `${names.resourceGroup(stack).slice(0, 57)}-audit`;
}

/**
 * One resource group per stack. Deleting a group deletes everything in it, retained accounts included,
 * so no deploy ever deletes it, and it is protected whenever any store is.
 */
function createResourceGroup(spec: StackSpec, location: string): ResourceGroup {
  const stack = { project: pulumi.getProject(), stack: pulumi.getStack() };
  const { environment, owner, costCenter } = spec;
  const protect = spec.stores.some((store) => store.protect);
  return new ResourceGroup(
    'checkpoints',
    {
      resourceGroupName: names.resourceGroup(stack),
      location,
      tags: azureTags(
        standardTags({ environment, owner, costCenter, ...stack, dataClassification: mostSensitive(spec) }),
      ),
    },
    { protect, retainOnDelete: true },
  );
}

/** The group holds every store, so it is labelled with the most sensitive classification among them. */
function mostSensitive(spec: StackSpec): string {
  const rank = Math.max(
    ...spec.stores.map((store) => DATA_CLASSIFICATIONS.indexOf(store.dataClassification)),
  );
  return DATA_CLASSIFICATIONS[rank] ?? 'restricted';
}

/**
 * Whether a config key is a secret: the predicate Pulumi's own Config consults, absent from the SDK's typings.
 * libs/config refuses secrets where they would land in tags, labels or names.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isConfigSecret } = require('@pulumi/pulumi/runtime/config') as {
  isConfigSecret(key: string): boolean;
};
