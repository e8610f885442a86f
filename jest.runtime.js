/**
 * jest's own runtime (jest-runtime), with V8 code caching of the modules it compiles (jest.preset.js
 * `runtime`; jest-runner requires `config.runtime` in place of jest-runtime: build/testWorker.js).
 *
 * Jest gives each test file a module registry of its own, so every file compiles again every module it
 * loads (`@pulumi/pulumi`, zod, the providers, our libs), without a code cache: in a CPU profile of
 * libs/policy's tests that compile was 3.9 s of 17 s, of stacks/aws-s3's 5.4 s of 32 s. This runtime keeps,
 * for the life of the process (a jest worker, or jest itself when it runs in band), the code cache of each
 * module it compiled, and hands it to the next compile of the same code.
 *
 * The cache is taken when the test file that first compiled the module ends (`teardown`), from the
 * module's `vm.Script` (`script.createCachedData()`): by then V8 has compiled the functions that file
 * called, which a cache made at compile time lacks (V8 compiles a function lazily, on its first call), so
 * the next file neither parses the module nor compiles those functions again. A module is compiled as
 * jest 29 compiled it: its source in a function of the module parameters, as a `vm.Script` run in the test
 * file's context (jest 30 calls `vm.compileFunction`, which offers a cache only at compile time). The
 * wrapper's first line is taken off the line numbers (`lineOffset: -1`), so stack traces and code frames
 * point where they did (tools/tests/jest-runtime.spec.ts).
 * https://nodejs.org/docs/latest-v20.x/api/vm.html#scriptcreatecacheddata
 * V8 rejects a cache made from another source (`cachedDataRejected`), and the cache is only offered for the
 * very source it was made from, so what runs is always the code jest transformed.
 *
 * Everything else is jest's: core modules, and any module whose compile throws (a syntax error), go
 * through jest's own `ModuleExecutor.compile` (jest-runtime 30.5.2, build/index.js), which reports the
 * error as jest does.
 */
const { setFlagsFromString } = require('node:v8');
const { Script } = require('node:vm');
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

/** The scripts compiled without a usable cache since the current test file began. */
const uncached = [];

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
      const parameters = executor.injectedModuleParameters;
      const cacheKey = `${filename}\0${parameters.join(',')}`;
      const cached = codeCaches.get(cacheKey);
      const cachedData = cached !== undefined && cached.source === scriptSource ? cached.data : undefined;
      let compiled;
      try {
        const script = new Script(`(function (${parameters.join(', ')}) {\n${scriptSource}\n})`, {
          filename,
          lineOffset: -1,
          importModuleDynamically: (specifier, _script, importAttributes, phase) =>
            executor.dynamicImport(specifier, filename, vmContext, importAttributes, phase),
          cachedData,
        });
        compiled = script.runInContext(vmContext);
        if (cachedData === undefined || script.cachedDataRejected) {
          uncached.push({ cacheKey, source: scriptSource, script });
        }
      } catch {
        return jestCompile(scriptSource, filename);
      }
      return compiled;
    };
  }

  teardown() {
    for (const { cacheKey, source, script } of uncached.splice(0)) {
      codeCaches.set(cacheKey, { source, data: script.createCachedData() });
    }
    super.teardown();
  }
}

module.exports = CodeCachingRuntime;
