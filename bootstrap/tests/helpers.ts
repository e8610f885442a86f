import {
  byName,
  ofType,
  render,
  RenderFailure,
  type RenderedResource,
  type Snapshot,
  sharedPerKey,
} from '@checkpoints/synth';
import { bootstrapStack } from '../src/program';

export const PROJECT = 'checkpoints-bootstrap';
export const STACK = 'ci';
export const REPOSITORY = 'acme/checkpoint-storage';
export const SUBSCRIPTION = '11111111-2222-4333-8444-555555555555';

/** A complete, valid config of every cloud, as the stack file would hold it (before Pulumi's JSON encoding). */
export const VALID: Record<string, unknown> = {
  'bootstrap:repository': REPOSITORY,
  'bootstrap:environments': ['dev', 'prod'],
  'bootstrap:clouds': ['aws', 'gcp', 'azure'],
  'bootstrap:owner': 'ml-platform',
  'bootstrap:costCenter': 'cc-1234',
  'bootstrap:gcp': { stackProjects: { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' } },
  'bootstrap:azure': { stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' } },
  'aws:region': 'us-east-1',
  'gcp:project': 'acme-checkpoints-ci',
  'azure-native:subscriptionId': SUBSCRIPTION,
  'azure-native:location': 'eastus2',
};

/** VALID with keys replaced (`undefined` removes a key), encoded as Pulumi hands config to a program. */
export function configWith(overrides: Record<string, unknown> = {}): Record<string, string> {
  const merged: Record<string, unknown> = { ...VALID, ...overrides };
  return Object.fromEntries(
    Object.entries(merged)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value)]),
  );
}

export function renderBootstrap(overrides: Record<string, unknown> = {}): Promise<Snapshot> {
  return render(() => bootstrapStack(), { project: PROJECT, stack: STACK, config: configWith(overrides) });
}

/** `renderBootstrap` made once per config in a test file, frozen (`sharedPerKey`). */
export const sharedRenderBootstrap = sharedPerKey<[overrides?: Record<string, unknown>], Snapshot>(
  (overrides: Record<string, unknown> = {}) => renderBootstrap(overrides),
  (overrides: Record<string, unknown> = {}) => JSON.stringify(configWith(overrides)),
);

/** The failure of a render that must fail; throws when it succeeds. */
export async function renderFailure(overrides: Record<string, unknown>): Promise<RenderFailure> {
  try {
    await renderBootstrap(overrides);
  } catch (error) {
    if (error instanceof RenderFailure) return error;
    throw error;
  }
  throw new Error('the render succeeded');
}

/** A JSON-encoded input (policy documents), parsed. */
export function jsonInput(resource: RenderedResource, key: string): unknown {
  const value = resource.inputs[key];
  if (typeof value !== 'string')
    throw new Error(`${resource.name}.${key} is not JSON text: ${String(value)}`);
  return JSON.parse(value) as unknown;
}

export function resource(snapshot: Snapshot, type: string, name: string): RenderedResource {
  return byName(snapshot, type, name);
}

/** The standard tag set of a CI resource, for the environment it is tagged with. */
export function standardTagsFor(environment: string): Record<string, string> {
  return {
    owner: 'ml-platform',
    'cost-center': 'cc-1234',
    environment,
    'data-classification': 'internal',
    'managed-by': 'pulumi',
    'pulumi-project': PROJECT,
    'pulumi-stack': STACK,
  };
}

/** Resources of a type by logical name: registration order follows the order inputs resolve in, not code order. */
export function ofTypeByName(snapshot: Snapshot, type: string): RenderedResource[] {
  return ofType(snapshot, type).sort((a, b) => a.name.localeCompare(b.name));
}

/** Rows in a stable order, to compare sets of rows. */
export function sortedRows<T>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
}
