import { ConfigError, type ConfigIssue } from '@checkpoints/config';
import {
  byName,
  render,
  RenderFailure,
  type RenderedResource,
  type Snapshot,
  withProdNetwork,
  sharedPerKey,
} from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

export const PROJECT = 'checkpoints-azure';
export const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
export const TENANT = '00000000-0000-4000-a000-000000000002';

export const T = {
  group: 'azure-native:resources:ResourceGroup',
  store: 'checkpoints:azure:CheckpointStore',
  account: 'azure-native:storage:StorageAccount',
  blobService: 'azure-native:storage:BlobServiceProperties',
  filesystem: 'azure-native:storage:BlobContainer',
  lifecycle: 'azure-native:storage:ManagementPolicy',
  identity: 'azure-native:managedidentity:UserAssignedIdentity',
  vault: 'azure-native:keyvault:Vault',
  key: 'azure-native:keyvault:Key',
  roleAssignment: 'azure-native:authorization:RoleAssignment',
  workspace: 'azure-native:operationalinsights:Workspace',
  diagnostics: 'azure-native:monitor:DiagnosticSetting',
  lock: 'azure-native:authorization:ManagementLockByScope',
  privateEndpoint: 'azure-native:network:PrivateEndpoint',
  privateDnsZoneGroup: 'azure-native:network:PrivateDnsZoneGroup',
  sleep: 'time:index/sleep:Sleep',
} as const;

export interface StackValues {
  environment?: string;
  resourceGroupName?: string;
  /** `azure-native:location`: eastus2 when the key is absent, left out of the config when undefined. */
  location?: string | undefined;
  stores: unknown;
}

/** Stack config as Pulumi hands it to the program: objects as JSON text. */
export function stackConfig(values: StackValues): Record<string, string> {
  const { environment = 'dev', stores, resourceGroupName } = values;
  const location = 'location' in values ? values.location : 'eastus2';
  return {
    ...(location === undefined ? {} : { 'azure-native:location': location }),
    'checkpoints:environment': environment,
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    'checkpoints:stores':
      typeof stores === 'string'
        ? stores
        : JSON.stringify(withProdNetwork(stores, environment, PROD_NETWORK)),
    ...(resourceGroupName === undefined ? {} : { 'checkpoints:resourceGroupName': resourceGroupName }),
  };
}

/** The perimeter `withProdNetwork` gives a prod store that states none. */
export const PROD_NETWORK = {
  privateEndpointSubnet:
    '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/private-endpoints',
  privateDnsZones: 'managed-by-policy',
};

export function renderStack(values: StackValues, stack = 'dev'): Promise<Snapshot> {
  return render(checkpointStack, { project: PROJECT, stack, config: stackConfig(values) });
}

/** `renderStack` made once per stack and values in a test file, frozen (`sharedPerKey`). */
export const sharedRenderStack = sharedPerKey<[values: StackValues, stack?: string], Snapshot>(
  (values: StackValues, stack = 'dev') => renderStack(values, stack),
  (values: StackValues, stack = 'dev') => JSON.stringify([stack, stackConfig(values)]),
);

/** Renders a config that must be refused: the issues, and what was registered before the refusal. */
export async function refusal(
  config: Record<string, string>,
): Promise<{ issues: ConfigIssue[]; message: string; registered: RenderedResource[] }> {
  try {
    await render(checkpointStack, { project: PROJECT, stack: 'dev', config });
  } catch (error) {
    if (error instanceof RenderFailure && error.cause instanceof ConfigError) {
      return { issues: [...error.cause.issues], message: error.cause.message, registered: error.resources };
    }
    throw error;
  }
  throw new Error('expected the config to be refused');
}

/** The one resource of a type and name; its inputs, for short assertions. */
export function inputsOf(snapshot: Snapshot, type: string, name: string): Record<string, unknown> {
  return byName(snapshot, type, name).inputs;
}

export function storeOutputs(snapshot: Snapshot): Record<string, Record<string, unknown>> {
  return snapshot.outputs['stores'] as Record<string, Record<string, unknown>>;
}
