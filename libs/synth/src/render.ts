import { MockMonitor } from '@pulumi/pulumi/runtime/mocks';
import {
  disconnect,
  hasMonitor,
  registerStackTransformation,
  runInPulumiStack,
  setAllConfig,
  setMockOptions,
} from '@pulumi/pulumi/runtime';
import { placementOf } from '@checkpoints/analysis';
import { ConfigError, deployedStoresConfig } from '@checkpoints/config';
import { isStoreComponent, type Render } from '@checkpoints/render';
import { withoutForeignTypeAliases } from './foreign-type-aliases';
import { SynthMocks } from './mocks';
import { SECRET_MARK, type RenderedResource, type Snapshot } from './snapshot';
import { plain } from './values';
import { recordingWarnings } from './warnings';

export interface RenderOptions {
  /** Pulumi project name (`name:` of Pulumi.yaml). */
  project: string;
  /** Stack name, e.g. `dev`. */
  stack: string;
  /** Every config key of the stack, `namespace:key` -> value as Pulumi passes it (objects as JSON text). */
  config?: Record<string, string>;
  /** Config keys whose values are secrets. */
  secretKeys?: string[];
  /**
   * A previous render of the same stack (`synth --base`): its stores are handed to the program in its
   * config (`deployedStoresConfig` of libs/config, its store components only), which refuses changes that would
   * replace their data holders.
   */
  base?: Pick<Render, 'resources'>;
}

/** A program that failed; `resources` are those it registered before failing. */
export class RenderFailure extends Error {
  constructor(
    override readonly cause: unknown,
    readonly resources: RenderedResource[],
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
    this.name = 'RenderFailure';
  }
}

const ROOT_STACK_TYPE = 'pulumi:pulumi:Stack';

/** What the record reads of a registration request (the SDK's RegisterResourceRequest, proto/resource_pb). */
interface RegisterRequest {
  getType(): string;
  getName(): string;
  getParent(): string;
  getCustom(): boolean;
  getProtect(): boolean | undefined;
  getRetainondelete(): boolean | undefined;
  getDependenciesList(): string[];
  getAliasurnsList(): string[];
  getPropertydependenciesMap(): {
    forEach(callback: (entry: { getUrnsList(): string[] }, key: string) => void): void;
  };
  getProvider(): string;
  getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
}

/**
 * The SDK's MockMonitor (what `setMocks` installs; declared in runtime/mocks.d.ts), recording every
 * registration as the engine receives it. The `Mocks` it is built with answer each registration and call; the record needs what `Mocks` is
 * not told (MockResourceArgs: type, name, inputs, provider, custom, id): the parent's URN, `protect` and
 * `retainOnDelete` once the SDK applied the parent's, the dependencies the SDK gathered (the explicit
 * ones, components expanded to their children, and those of every input), each input's own, the aliases
 * collapsed to URNs, and the inputs as serialized, secrets still marked. A resource transformation sees
 * the options before the SDK computes any of these, so only the request carries them.
 */
class RecordingMonitor extends MockMonitor {
  readonly registered: RenderedResource[] = [];

  override registerResource(req: RegisterRequest, callback: (err: unknown, response: unknown) => void) {
    return super.registerResource(req, (error: unknown, response: { getUrn(): string } | undefined) => {
      if (error || !response) return callback(error, response);
      let recorded: RenderedResource;
      try {
        recorded = record(req, response.getUrn());
      } catch (recordError) {
        return callback(recordError, undefined);
      }
      this.registered.push(recorded);
      callback(null, response);
    });
  }

  // Without alias specs the SDK resolves every alias, those a child inherits from its parent's included,
  // to the URNs the engine matches against its state, so the render can record them (see `aliases`).
  override supportsFeature(
    req: { getId(): string },
    callback: (err: unknown, response: { getHassupport(): boolean }) => void,
  ) {
    if (req.getId() === 'aliasSpecs') callback(null, { getHassupport: () => false });
    else super.supportsFeature(req, callback);
  }

  /** The stack's outputs, as the SDK registered them on the root stack (MockMonitor keeps them as its state). */
  stackOutputs(): Record<string, unknown> {
    const stack = this.registered.find((resource) => resource.type === ROOT_STACK_TYPE && !resource.parent);
    const state = (stack && this.resources.get(stack.urn)?.state) as { toJavaScript(): unknown } | undefined;
    return plain(state?.toJavaScript() ?? {}) as Record<string, unknown>;
  }
}

function record(req: RegisterRequest, urn: string): RenderedResource {
  const resource: RenderedResource = {
    urn,
    type: req.getType(),
    name: req.getName(),
    custom: req.getCustom(),
    parent: req.getParent() || null,
    protect: req.getProtect() ?? false,
    retainOnDelete: req.getRetainondelete() ?? false,
    dependsOn: [...new Set(req.getDependenciesList())].sort(),
    propertyDependencies: propertyDependencies(req),
    inputs: plain(req.getObject()?.toJavaScript() ?? {}) as Record<string, unknown>,
  };
  const aliases = [...new Set(req.getAliasurnsList())]
    .filter((alias) => urnType(alias) === req.getType())
    .sort();
  if (aliases.length > 0) resource.aliases = aliases;
  if (req.getProvider()) resource.provider = req.getProvider();
  return resource;
}

/**
 * The type of the resource a URN names: the last segment of its qualified type. Provider SDKs alias
 * every resource to the type tokens of former API versions (azure-native: some 30 per resource); those
 * say nothing about renames and would double a render, so `aliases` keeps the resource's own type only.
 */
function urnType(urn: string): string {
  const qualifiedType = urn.split('::')[2] ?? '';
  return qualifiedType.slice(qualifiedType.lastIndexOf('$') + 1);
}

function propertyDependencies(req: RegisterRequest): Record<string, string[]> {
  const byProperty: Record<string, string[]> = {};
  req.getPropertydependenciesMap().forEach((entry, key) => {
    const urns = [...new Set(entry.getUrnsList())].sort();
    if (urns.length > 0) byProperty[key] = urns;
  });
  return byProperty;
}

/**
 * Runs a Pulumi program against the mock engine, the way `pulumi preview` would run it inside its
 * root stack, and returns every registered resource and the stack outputs, fully awaited.
 * The program's return value (or a module's exports) become the stack outputs.
 * Renders run one at a time: the SDK keeps its settings, config and root stack per process.
 */
export function render(program: () => unknown, options: RenderOptions): Promise<Snapshot> {
  const rendered = renders.then(() => renderReportingFullStacks(program, options));
  renders = rendered.catch(() => undefined);
  return rendered;
}

let renders: Promise<unknown> = Promise.resolve();

/**
 * Frames an Error records during a render: the one it was thrown at. The SDK records a stack trace on
 * every promise it tracks (runtime/debuggable.js `debuggablePromise`: `new Error().stack`, read at once,
 * for the leak report of PULUMI_DEBUG_PROMISE_LEAKS), some 44 per registered resource, and the process's
 * stack-trace hook (ts-node's and jest's source-map-support) maps every frame of each to its source:
 * with the default 10 frames, most of a render's time (AWS, 50 stores: 16.0 s CPU, 8.5 s at 3 frames).
 * `Error.stackTraceLimit` is Node's documented setting of how many frames a stack trace collects
 * (https://nodejs.org/api/errors.html#errorstacktracelimit); the render's own stack traces it sets
 * itself (`Resource.callsites`). Put back when the render ends, for whatever the process does next.
 */
const RENDER_STACK_FRAMES = 1;

/**
 * A render with short stack traces; one whose program failed (anything but a config error, which names
 * the key and needs no trace) is run again with the process's own limit, so the failure it reports carries
 * every frame the program's error would show on `pulumi preview`. A program is a function of its config, so
 * the second run fails the same way; should it not, the first failure stands.
 */
async function renderReportingFullStacks(program: () => unknown, options: RenderOptions): Promise<Snapshot> {
  try {
    return await withShortStackTraces(() => renderAlone(program, options));
  } catch (failure) {
    if (!(failure instanceof RenderFailure) || failure.cause instanceof ConfigError) throw failure;
    await renderAlone(program, options);
    throw failure;
  }
}

async function withShortStackTraces<T>(callback: () => Promise<T>): Promise<T> {
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = RENDER_STACK_FRAMES;
  try {
    return await callback();
  } finally {
    Error.stackTraceLimit = limit;
  }
}

/** The store components of a previous render, each by its name and the inputs it recorded. */
export function storeComponentsOf(
  base: Pick<Render, 'resources'>,
): { name: string; inputs: Record<string, unknown> }[] {
  return base.resources
    .filter((resource) => isStoreComponent(resource.type))
    .map((resource) => ({ name: resource.name, inputs: resource.inputs }));
}

async function renderAlone(program: () => unknown, options: RenderOptions): Promise<Snapshot> {
  // Another copy of this module (a test's fresh module registry) shares the SDK's process-wide store.
  if (hasMonitor()) {
    throw new Error(
      'another render (or a test that called pulumi.runtime.setMocks) holds the Pulumi runtime of this process; renders run one at a time',
    );
  }
  const config = options.config ?? {};
  const monitor = new RecordingMonitor(new SynthMocks(config));
  setMockOptions(monitor, options.project, options.stack, false);
  setAllConfig(
    { ...config, ...(options.base ? deployedStoresConfig(storeComponentsOf(options.base)) : {}) },
    options.secretKeys ?? [],
  );

  const failures: unknown[] = [];
  const onUnhandled = (reason: unknown) => failures.push(reason);
  process.on('unhandledRejection', onUnhandled);
  const { warnings } = await recordingWarnings(async () => {
    try {
      // The program's own error is caught inside the stack so it surfaces once, as the render's failure,
      // not as the unhandled rejections an aborted root stack would leave behind.
      await runInPulumiStack(async () => {
        registerStackTransformation(withoutForeignTypeAliases());
        try {
          return (await program()) as Record<string, unknown>;
        } catch (error) {
          failures.push(error);
          return {};
        }
      });
      // Waits for every registration (and log) the program started (the stack's outputs last) to be answered.
      await disconnect();
    } catch (error) {
      failures.push(error);
    } finally {
      process.off('unhandledRejection', onUnhandled);
      // Gives the runtime back: the next render (or a copy of this module) finds no monitor.
      setMockOptions(undefined, options.project, options.stack, false);
    }
  });
  if (failures.length > 0) throw new RenderFailure(failures[0], monitor.registered);
  const secret = new Set(options.secretKeys ?? []);
  return {
    project: options.project,
    stack: options.stack,
    placement: Object.fromEntries(
      Object.entries(placementOf(config)).map(([key, value]) => [key, secret.has(key) ? SECRET_MARK : value]),
    ),
    resources: monitor.registered,
    outputs: monitor.stackOutputs(),
    violations: [],
    ...(warnings.length > 0 ? { warnings } : {}),
  };
}
