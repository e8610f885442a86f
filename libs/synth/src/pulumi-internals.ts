/**
 * Pulumi SDK functions the real runner uses but marks @internal (absent from the .d.ts files).
 * Typed here once, against @pulumi/pulumi 3.248; the render tests fail loudly if they move.
 */
interface RuntimeStore {
  supportsSecrets: boolean;
  supportsResourceReferences: boolean;
  supportsDeletedWith: boolean;
  supportsAliasSpecs: boolean;
  /** Registered once, when provider modules load: they live in the process's global store. */
  resourcePackages: unknown;
  resourceModules: unknown;
}

import { Output, type Input } from '@pulumi/pulumi/output';
import {
  createUrn,
  type Alias,
  type Resource,
  type ResourceTransformation,
  type ResourceTransformationArgs,
  type ResourceTransformationResult,
  type URN,
} from '@pulumi/pulumi/resource';

/* eslint-disable @typescript-eslint/no-require-imports */
const state = require('@pulumi/pulumi/runtime/state') as {
  getStore(): RuntimeStore;
  withLocalStorage<T>(callback: () => T): T;
  LocalStore: new () => RuntimeStore;
};
const settings = require('@pulumi/pulumi/runtime/settings') as {
  waitForRPCs(): Promise<void>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

interface Debuggable {
  debugPromiseLeaks: boolean;
  debuggablePromise<T>(promise: Promise<T>, context: unknown): Promise<T>;
}
interface ResourceModule {
  Resource: { callsites(): unknown[] };
}

export const { getStore } = state;
export const { waitForRPCs } = settings;

const GLOBAL_STORE_IN_USE = Symbol.for('checkpoints.synth.global-store-in-use');
/**
 * Where every copy of the SDK's runtime/state keeps the store used outside AsyncLocalStorage, and whether
 * a render holds it (on globalThis too: a test's fresh module registry loads another copy of this file).
 */
const runtimeGlobals = globalThis as { globalStore?: RuntimeStore; [GLOBAL_STORE_IN_USE]?: boolean };

/**
 * Runs `callback` with a runtime store of its own, as `withLocalStorage` does, without AsyncLocalStorage
 * when no other render holds the process's global store: the store is swapped in for the render and the
 * previous one put back. On Node 20 the first `AsyncLocalStorage.run` turns on async_hooks' promise hooks
 * for the whole process, which give every promise an async id and its trigger's (two heap numbers and a
 * property array) and run three hooks per promise: about a sixth of a render's heap and 1 s of a 20-store
 * Azure render, for a context no offline render needs. A render that starts while another holds the
 * global store (renders run concurrently) gets an AsyncLocalStorage store, as before. The resource
 * modules and packages the provider modules registered when they loaded stay shared, as
 * `getGlobalStore` shares them under AsyncLocalStorage.
 */
export async function withRenderStore<T>(callback: () => Promise<T>): Promise<T> {
  if (runtimeGlobals[GLOBAL_STORE_IN_USE]) return state.withLocalStorage(callback);
  // Created as getGlobalStore would: what provider modules loaded during the render register outlives it.
  const previous = (runtimeGlobals.globalStore ??= new state.LocalStore());
  const store = new state.LocalStore();
  store.resourcePackages = previous.resourcePackages;
  store.resourceModules = previous.resourceModules;
  runtimeGlobals.globalStore = store;
  runtimeGlobals[GLOBAL_STORE_IN_USE] = true;
  try {
    return await callback();
  } finally {
    runtimeGlobals.globalStore = previous;
    runtimeGlobals[GLOBAL_STORE_IN_USE] = false;
  }
}

let offlineDepth = 0;
let restoreRuntime: (() => void) | undefined;

/**
 * Runs `callback` with two captures of the SDK switched off that only a real engine reads, and that cost
 * most of a mock render (ts-node's source-map-support formats every captured stack, and each string is
 * kept): the source position and stack trace of every registration (`Resource.callsites`, a full stack at
 * `Error.stackTraceLimit = Infinity`; the mock monitor records neither), and what `debuggablePromise`
 * attaches to every tracked promise for PULUMI_DEBUG_PROMISE_LEAKS's report (an id, the context text and
 * an Error's stack, as three properties: read by nothing else, and kept as long as the promise), with the
 * leak bookkeeping only that report reads (see `settledAsTracked`); PULUMI_DEBUG_PROMISE_LEAKS keeps the
 * SDK's own.
 */
export async function withOfflineRuntime<T>(callback: () => Promise<T>): Promise<T> {
  if (offlineDepth++ === 0) {
    // Required when the render starts: the program's copy of the SDK, also after jest.resetModules().
    /* eslint-disable @typescript-eslint/no-require-imports */
    const debuggable = require('@pulumi/pulumi/runtime/debuggable') as Debuggable;
    const { Resource } = require('@pulumi/pulumi/resource') as ResourceModule;
    /* eslint-enable @typescript-eslint/no-require-imports */
    const callsites = Resource.callsites;
    const debuggablePromise = debuggable.debuggablePromise;
    Resource.callsites = () => [];
    if (!debuggable.debugPromiseLeaks) debuggable.debuggablePromise = settledAsTracked;
    restoreRuntime = () => {
      Resource.callsites = callsites;
      debuggable.debuggablePromise = debuggablePromise;
    };
  }
  try {
    return await callback();
  } finally {
    if (--offlineDepth === 0) restoreRuntime?.();
  }
}

/**
 * `debuggablePromise` of @pulumi/pulumi 3.248 (runtime/debuggable.js) for the offline render: a promise
 * that settles as the SDK's does, two microtask turns after `promise` (the order in which the resources
 * register, and so the render, follows these turns; tested against the SDK's), without the SDK's leak
 * bookkeeping: an entry in the store's leak candidates and two closures over `promise` to remove it when
 * it settles, and `promise` set on a rejection's error. Only the leak report reads them, which the SDK
 * prints at the exit of a real program, never for a render's own store (and `err.promise` nothing at
 * all). The SDK tracks the promise of every output property of every resource (some 60 per azure-native
 * resource), all pending while the program registers its resources: a tenth of a large render's heap.
 */
function settledAsTracked<T>(promise: Promise<T>): Promise<T> {
  return promise.then(passOn).then(passOn);
}

function passOn<T>(value: T): T {
  return value;
}

/** What `foreignTypeAliases` left out of a resource's options, to collapse if the resource gets a child. */
interface DroppedTypeAliases {
  name: string;
  parent: Resource | undefined;
  types: string[];
}
const droppedTypeAliases = new WeakMap<Resource, DroppedTypeAliases>();

/**
 * A stack transformation for the offline render: leaves out of a resource's `aliases` each alias that only
 * names another type (`{ type: T }`, T not the resource's own type), the 20 to 30 former API versions
 * azure-native declares on every resource. The SDK collapses each alias to a URN twice (in the resource's
 * constructor, and again in `allAliases` when it registers), each through some ten `Output`s of about 25
 * promises: most of an Azure render's heap, for URNs of type T that the render drops (it keeps aliases of
 * the resource's own type only, see `urnType` in render.ts). They matter only to the resource's children,
 * whose inherited aliases carry the parent's aliases as their type prefix: when a child of such a resource
 * is constructed, before it registers, the left-out aliases are collapsed onto the parent's `__aliases`
 * as the SDK's `collapseAliasToUrn` collapses a `{ type }` alias (`createUrn(name, type, parent)`), so
 * the child's aliases are those the SDK computes without this transformation (tested).
 */
export function withoutForeignTypeAliases(project: string, stack: string): ResourceTransformation {
  return (args) => {
    if (args.opts.parent) collapseDroppedAliases(args.opts.parent, project, stack);
    return dropForeignTypeAliases(args);
  };
}

function dropForeignTypeAliases(args: ResourceTransformationArgs): ResourceTransformationResult | undefined {
  const aliases = args.opts.aliases;
  if (!aliases?.length) return undefined;
  const kept = aliases.filter((alias) => !isForeignTypeAlias(alias, args.type));
  if (kept.length === aliases.length) return undefined;
  const types = aliases.filter((alias) => isForeignTypeAlias(alias, args.type)).map((alias) => alias.type);
  droppedTypeAliases.set(args.resource, { name: args.name, parent: args.opts.parent, types });
  return { props: args.props, opts: { ...args.opts, aliases: kept } };
}

function collapseDroppedAliases(resource: Resource, project: string, stack: string): void {
  const dropped = droppedTypeAliases.get(resource);
  if (!dropped) return;
  droppedTypeAliases.delete(resource);
  const collapsed = (resource as unknown as { __aliases: Input<string>[] }).__aliases;
  for (const type of dropped.types)
    collapsed.push(createUrn(dropped.name, type, dropped.parent, project, stack));
}

/** `{ type: T }` and nothing else, T a plain type token other than `type` (a URN of type T, see `urnType`). */
function isForeignTypeAlias(alias: Input<URN | Alias>, type: string): alias is { type: string } {
  if (typeof alias !== 'object' || alias === null || Output.isInstance(alias)) return false;
  const keys = Object.keys(alias);
  const aliasType = (alias as Alias).type;
  return (
    keys.length === 1 &&
    keys[0] === 'type' &&
    typeof aliasType === 'string' &&
    aliasType !== type &&
    !aliasType.includes('$') &&
    !aliasType.includes('::')
  );
}
