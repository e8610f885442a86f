'use strict';
/**
 * `@pulumi/pulumi/runtime` requires npm's Arborist (some 800 modules: semver, sigstore, cacache...) as
 * soon as it loads, from `runtime/closure/codePaths.js`, for `computeCodePaths` only: closure
 * serialization, which an offline render never reaches. The render gets a stand-in that requires the
 * real package the first time any of its properties is read, so code that does use it gets the real
 * package. jest.global-lazy-modules.js does the same for test files, through jest's module registry.
 */
const Module = require('node:module');

/** A stand-in for the module `load()` returns, loading it on first use. */
function deferredModule(load) {
  let actual;
  const real = () => (actual ??= load());
  return new Proxy(
    {},
    {
      // codePaths.js imports Arborist through TypeScript's `__importStar`, which copies every key of a
      // module not marked `__esModule` (and so would load it): marked, the stand-in is used as it is.
      get: (_, key) => (key === '__esModule' && actual === undefined ? true : real()[key]),
      has: (_, key) => key in real(),
      ownKeys: () => Reflect.ownKeys(real()),
      getOwnPropertyDescriptor: (_, key) => {
        const descriptor = Reflect.getOwnPropertyDescriptor(real(), key);
        // A proxy may only report a key its (empty) target lacks as configurable.
        return descriptor === undefined ? undefined : { ...descriptor, configurable: true };
      },
    },
  );
}

const DEFERRED = { '@npmcli/arborist': /[\\/]@pulumi[\\/]pulumi[\\/]runtime[\\/]closure[\\/]codePaths\.js$/ };

/** Makes `require` hand the Pulumi SDK a stand-in for each deferred module; returns the stand-ins. */
function deferPulumiClosureModules() {
  const standIns = new Map();
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    const requiredBy = DEFERRED[request];
    if (requiredBy === undefined || !requiredBy.test(parent?.filename ?? '')) {
      return load.apply(this, arguments);
    }
    if (!standIns.has(request)) {
      standIns.set(
        request,
        deferredModule(() => load.call(Module, request, parent, isMain)),
      );
    }
    return standIns.get(request);
  };
  return standIns;
}

module.exports = { deferPulumiClosureModules };
