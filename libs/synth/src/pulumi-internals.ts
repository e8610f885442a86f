/**
 * Pulumi SDK functions the real runner uses but marks @internal (absent from the .d.ts files).
 * Typed here once, against @pulumi/pulumi 3.248; the render tests fail loudly if they move.
 */
interface RuntimeStore {
  supportsSecrets: boolean;
  supportsResourceReferences: boolean;
  supportsDeletedWith: boolean;
  supportsAliasSpecs: boolean;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const state = require('@pulumi/pulumi/runtime/state') as {
  getStore(): RuntimeStore;
  withLocalStorage<T>(callback: () => T): T;
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

export const { getStore, withLocalStorage } = state;
export const { waitForRPCs } = settings;

let offlineDepth = 0;
let restoreRuntime: (() => void) | undefined;

/**
 * Runs `callback` with two captures of the SDK switched off that only a real engine reads, and that cost
 * most of a mock render (ts-node's source-map-support formats every captured stack, and each string is
 * kept): the source position and stack trace of every registration (`Resource.callsites`, a full stack at
 * `Error.stackTraceLimit = Infinity`; the mock monitor records neither), and the stack trace of every
 * tracked promise (`debuggablePromise`, printed only with PULUMI_DEBUG_PROMISE_LEAKS, which keeps it).
 * The promises are still tracked: a leak still fails the render.
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
    if (!debuggable.debugPromiseLeaks) {
      debuggable.debuggablePromise = (promise, context) => {
        const limit = Error.stackTraceLimit;
        Error.stackTraceLimit = 0;
        try {
          return debuggablePromise(promise, context);
        } finally {
          Error.stackTraceLimit = limit;
        }
      };
    }
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
