import {
  byName,
  ofType,
  render,
  RenderFailure,
  type RenderedResource,
  type Snapshot,
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

const sharedRenders = new Map<string, Promise<Snapshot>>();

/**
 * `renderBootstrap` made once per config in a test file (jest gives each file its own module registry, so
 * its own map), for tests that only read the render: a render is a function of its config alone. The
 * render is frozen, so a test that changes it fails instead of changing what the next test reads.
 */
export function sharedRenderBootstrap(overrides: Record<string, unknown> = {}): Promise<Snapshot> {
  const key = JSON.stringify(configWith(overrides));
  let snapshot = sharedRenders.get(key);
  if (snapshot === undefined) {
    snapshot = renderBootstrap(overrides).then(deepFreeze);
    sharedRenders.set(key, snapshot);
  }
  return snapshot;
}

/** Freezes `value` and everything it holds. */
export function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const member of Object.values(value)) deepFreeze(member);
  }
  return value;
}

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
