import { ConfigError } from '@checkpoints/config';
import {
  render,
  RenderFailure,
  type RenderedResource,
  type Snapshot,
  withProdNetwork,
  sharedPerKey,
} from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

export const PROJECT = 'checkpoints-gcp';
export const GCP_PROJECT = 'ml-platform-test-1234';

/** Stack config as Pulumi hands it to the program: every key namespaced, objects as JSON text. */
export function stackConfig(
  stores: Record<string, unknown>[],
  overrides: Record<string, string | undefined> = {},
): Record<string, string> {
  const config: Record<string, string | undefined> = {
    'gcp:project': GCP_PROJECT,
    'gcp:region': 'us-central1',
    'checkpoints:environment': 'dev',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    ...overrides,
  };
  if (!('checkpoints:stores' in overrides)) {
    config['checkpoints:stores'] = JSON.stringify(
      withProdNetwork(stores, config['checkpoints:environment'], PROD_NETWORK),
    );
  }
  return Object.fromEntries(
    Object.entries(config).filter((entry): entry is [string, string] => entry[1] !== undefined),
  );
}

/** The perimeter `withProdNetwork` gives a prod store that states none. */
export const PROD_NETWORK = { networks: [`projects/${GCP_PROJECT}/global/networks/training`] };

export function store(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'llm-pretrain', dataClassification: 'internal', ...extra };
}

export function renderStack(config: Record<string, string>, stack = 'dev'): Promise<Snapshot> {
  return render(checkpointStack, { project: PROJECT, stack, config });
}

/** `renderStack` made once per stack and config in a test file, frozen (`sharedPerKey`). */
export const sharedRenderStack = sharedPerKey<[config: Record<string, string>, stack?: string], Snapshot>(
  (config: Record<string, string>, stack = 'dev') => renderStack(config, stack),
  (config: Record<string, string>, stack = 'dev') => JSON.stringify([stack, config]),
);

/** Renders a config that must be refused; returns the ConfigError and what was registered before it. */
export async function refusal(
  config: Record<string, string>,
): Promise<{ error: ConfigError; resources: RenderedResource[] }> {
  const failure = await renderStack(config).then(
    () => {
      throw new Error('expected the config to be refused');
    },
    (caught: unknown) => caught,
  );
  if (!(failure instanceof RenderFailure) || !(failure.cause instanceof ConfigError)) throw failure;
  return { error: failure.cause, resources: failure.resources };
}

/** The one resource of a type in a store, by the store's name. */
export function single(snapshot: Snapshot, type: string, storeName = 'llm-pretrain'): RenderedResource {
  const parent = componentOf(snapshot, storeName).urn;
  const found = snapshot.resources.filter((resource) => resource.type === type && resource.parent === parent);
  if (found.length !== 1)
    throw new Error(`expected one ${type} in store ${storeName}; found ${found.length}`);
  return found[0] as RenderedResource;
}

export function componentOf(snapshot: Snapshot, storeName: string): RenderedResource {
  const component = snapshot.resources.find(
    (resource) => resource.type === 'checkpoints:gcp:CheckpointStore' && resource.name === storeName,
  );
  if (!component) throw new Error(`no CheckpointStore ${storeName}`);
  return component;
}
