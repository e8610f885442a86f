import { MockMonitor } from '@pulumi/pulumi/runtime/mocks';
import { deserializeProperties, serializeProperties } from '@pulumi/pulumi/runtime/rpc';
import { getProject, getStack, setMockOptions } from '@pulumi/pulumi/runtime/settings';
import { setAllConfig } from '@pulumi/pulumi/runtime/config';
import { registerStackTransformation, runInPulumiStack } from '@pulumi/pulumi/runtime/stack';
import { deployedStoresConfig, type PreviousRender } from '@checkpoints/config';
import { SynthMocks } from './mocks';
import {
  getStore,
  waitForRPCs,
  withOfflineRuntime,
  withoutForeignTypeAliases,
  withRenderStore,
} from './pulumi-internals';
import type { RenderedResource, Snapshot } from './snapshot';
import { plain } from './values';

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
   * config (`deployedStoresConfig` of libs/config), which refuses changes that would replace their data holders.
   */
  base?: PreviousRender;
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
  getImportid(): string;
  getObject(): { toJavaScript(): Record<string, unknown> } | undefined;
}

/** What the SDK reads of the engine's answer to a registration (runtime/resource.js registerResource). */
interface RegisterResponse {
  getUrn(): string;
  getId(): string;
  getObject(): Struct;
  getPropertydependenciesMap(): undefined;
  getResult(): number;
}

/** The protobuf Struct type the SDK deserializes outputs from. */
type Struct = Parameters<typeof deserializeProperties>[0];

/** resproto.Result.SUCCESS: the SDK keeps no unknowns in a successful registration's outputs. */
const RESULT_SUCCESS = 0;

/**
 * A JavaScript value where the SDK reads a protobuf Struct: it only ever calls `toJavaScript()` on one
 * (runtime/rpc.js deserializeProperties), which for a Struct built from that value gives a copy of it.
 * The value itself is handed over: deserializeProperties builds new objects and changes none it reads.
 */
function asStruct(value: Record<string, unknown>): Struct {
  return { toJavaScript: () => value } as unknown as Struct;
}

/** The mock engine, recording every registration exactly as the engine would receive it. */
class RecordingMonitor extends MockMonitor {
  readonly registered: RenderedResource[] = [];
  stackOutputs: Record<string, unknown> = {};

  /**
   * MockMonitor's registration (@pulumi/pulumi 3.248 runtime/mocks.js), the same calls in the same order,
   * with the answer handed over as the values themselves: MockMonitor builds a protobuf response, its
   * state a Struct made from the serialized outputs that the SDK turns straight back into those values,
   * and the SDK's debug line (`resp: ${innerResponse}`, built whether or not debug logging is on) prints
   * the whole message. Together with reading the request's inputs once (for the mocks and the record),
   * that was about 190 ms of the 2.4 s the 200-store AWS render spends registering (docs/benchmarks.md,
   * stop 34). The SDK's own answer in test mode is such an object (runtime/resource.js registerResource).
   */
  override async registerResource(req: RegisterRequest, callback: (err: unknown, response: unknown) => void) {
    let response: RegisterResponse;
    try {
      const inputs = req.getObject()?.toJavaScript() ?? {};
      const result = await this.mocks.newResource({
        type: req.getType(),
        name: req.getName(),
        inputs: deserializeProperties(asStruct(inputs)),
        provider: req.getProvider(),
        custom: req.getCustom(),
        id: req.getImportid(),
      });
      const urn = newUrn(req.getParent(), req.getType(), req.getName());
      const state = await serializeProperties('', result.state);
      this.resources.set(urn, { urn, id: result.id ?? null, state });
      const id = result.id || '';
      response = {
        getUrn: () => urn,
        getId: () => id,
        getObject: () => asStruct(state),
        getPropertydependenciesMap: () => undefined,
        getResult: () => RESULT_SUCCESS,
      };
      this.record(req, urn, inputs);
    } catch (error) {
      callback(error, undefined);
      return;
    }
    callback(null, response);
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

  override registerResourceOutputs(
    req: { getUrn(): string; getOutputs(): { toJavaScript(): Record<string, unknown> } | undefined },
    callback: (err: unknown, response: unknown) => void,
  ) {
    if (req.getUrn().includes('::pulumi:pulumi:Stack::')) {
      this.stackOutputs = plain(req.getOutputs()?.toJavaScript() ?? {}) as Record<string, unknown>;
    }
    super.registerResourceOutputs(req, callback);
  }

  private record(req: RegisterRequest, urn: string, inputs: Record<string, unknown>) {
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
      inputs: plain(inputs) as Record<string, unknown>,
    };
    const aliases = [...new Set(req.getAliasurnsList())]
      .filter((urn) => urnType(urn) === req.getType())
      .sort();
    if (aliases.length > 0) resource.aliases = aliases;
    if (req.getProvider()) resource.provider = req.getProvider();
    this.registered.push(resource);
  }
}

/** The URN MockMonitor gives a resource (its private `newUrn`): a child's type is qualified by its parent's. */
function newUrn(parent: string, type: string, name: string): string {
  const qualifiedType = parent ? `${(parent.split('::')[2] ?? '').split('$').pop()}$${type}` : type;
  return `urn:pulumi:${[getStack(), getProject(), qualifiedType, name].join('::')}`;
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
 */
export async function render(program: () => unknown, options: RenderOptions): Promise<Snapshot> {
  return withRenderStore(() => withOfflineRuntime(() => renderInStack(program, options)));
}

async function renderInStack(program: () => unknown, options: RenderOptions): Promise<Snapshot> {
  const config = options.config ?? {};
  const monitor = new RecordingMonitor(new SynthMocks(config));
  setMockOptions(monitor, options.project, options.stack, false);
  const store = getStore();
  store.supportsSecrets = true;
  store.supportsResourceReferences = true;
  store.supportsDeletedWith = true;
  store.supportsAliasSpecs = false;
  setAllConfig(
    { ...config, ...(options.base ? deployedStoresConfig(options.base) : {}) },
    options.secretKeys ?? [],
  );

  const failures: unknown[] = [];
  const onUnhandled = (reason: unknown) => failures.push(reason);
  process.on('unhandledRejection', onUnhandled);
  try {
    // The program's own error is caught inside the stack so it surfaces once, as the render's failure,
    // not as the unhandled rejections an aborted root stack would leave behind.
    await runInPulumiStack(async () => {
      registerStackTransformation(withoutForeignTypeAliases(options.project, options.stack));
      try {
        return (await program()) as Record<string, unknown>;
      } catch (error) {
        failures.push(error);
        return {};
      }
    });
    await waitForRPCs();
  } catch (error) {
    failures.push(error);
  } finally {
    process.off('unhandledRejection', onUnhandled);
  }
  if (failures.length > 0) throw new RenderFailure(failures[0], monitor.registered);
  return {
    project: options.project,
    stack: options.stack,
    resources: monitor.registered,
    outputs: monitor.stackOutputs,
    violations: [],
  };
}
