/**
 * jest's own runtime (jest-runtime), with V8 code caching of the modules it compiles (jest.preset.js
 * `runtime`; jest-runner requires `config.runtime` in place of jest-runtime: build/testWorker.js).
 *
 * Jest gives each test file a module registry of its own, so every file compiles again every module it
 * loads (`@pulumi/pulumi`, zod, the providers, our libs) with `vm.compileFunction`, without a code cache:
 * in a CPU profile of libs/policy's tests that compile was 3.9 s of 17 s, of stacks/aws-s3's 5.4 s of 32 s.
 * This runtime keeps, for the life of the process (a jest worker, or jest itself when it runs in band),
 * the code cache V8 produces the first time a file's code is compiled, and hands it to the next compile of
 * the same code: V8 then deserializes the function instead of parsing the source again. `cachedData` and
 * `produceCachedData` are options of `vm.compileFunction`: https://nodejs.org/docs/latest-v20.x/api/vm.html#vmcompilefunctioncode-params-options
 * V8 rejects a cache made from another source (`cachedDataRejected`), and the cache is only offered for the
 * very source it was made from, so what runs is always the code jest transformed.
 *
 * Everything else is jest's: the compile below is `ModuleExecutor.compile` of jest-runtime 30.5.2
 * (build/index.js) with the two cache options added; when it throws, jest's own compile runs again and
 * reports the error as jest does.
 */
const { setFlagsFromString } = require('node:v8');
const { compileFunction } = require('node:vm');
const JestRuntime = require('jest-runtime').default;

/**
 * V8's interrupt budget, raised in every process that runs tests (jest itself in band, or a worker) as the
 * synth CLI raises it for a render (libs/synth/bin/synth.js says why): a test file runs much code briefly,
 * which at the default budget TurboFan compiles on a background thread and hardly uses, and both cores are
 * busy during `npm test`. stacks/aws-s3's tests, alone: 15.3 and 13.3 s CPU at the default, 10.3 and
 * 11.8 s at this budget (docs/benchmarks.md, stop 24). A budget on node's command line is kept.
 */
if (!process.execArgv.some((arg) => arg.replaceAll('_', '-').startsWith('--interrupt-budget'))) {
  setFlagsFromString('--interrupt-budget=540672');
}

/**
 * filename and module parameters -> { source, data }: the code cache of the last source compiled under
 * that name with those parameters (they differ between jest projects sharing a worker: `injectGlobals`).
 */
const codeCaches = new Map();

class CodeCachingRuntime extends JestRuntime {
  constructor(...args) {
    super(...args);
    const executor = this.executor;
    const jestCompile = executor.compile.bind(executor);
    executor.compile = (scriptSource, filename) => {
      const vmContext = executor.environment.getVmContext();
      if (vmContext == null || executor.resolution.isCoreModule(filename)) {
        return jestCompile(scriptSource, filename);
      }
      const cacheKey = `${filename}\0${executor.injectedModuleParameters.join(',')}`;
      const cached = codeCaches.get(cacheKey);
      const cachedData = cached !== undefined && cached.source === scriptSource ? cached.data : undefined;
      let compiled;
      try {
        compiled = compileFunction(scriptSource, executor.injectedModuleParameters, {
          filename,
          importModuleDynamically: (specifier, _function, importAttributes, phase) =>
            executor.dynamicImport(specifier, filename, vmContext, importAttributes, phase),
          parsingContext: vmContext,
          cachedData,
          produceCachedData: cachedData === undefined,
        });
      } catch {
        return jestCompile(scriptSource, filename);
      }
      if (compiled.cachedDataProduced) {
        codeCaches.set(cacheKey, { source: scriptSource, data: compiled.cachedData });
      }
      return compiled;
    };
  }
}

module.exports = CodeCachingRuntime;
