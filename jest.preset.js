/**
 * Shared jest settings: tests run on SWC (no type-check; `typecheck` does that once). With one worker (the
 * default on 2 cores) jest runs a project's files in its own process; the projects whose files render
 * whole stacks (stacks/*, bootstrap) and tools set `workerIdleMemoryLimit`, which makes jest run them in a
 * worker it restarts once it holds more than the limit (every file loads the SDK and providers afresh).
 * In-process is about 0.2 to 1 s faster per project (no worker start, no result passing): libs/policy
 * 11.2 -> 10.2 s, libs/synth 8.0 -> 7.7 s, libs/config 2.5 -> 2.2 s.
 *
 * SWC compiles each import of a package (`zod`, `@pulumi/aws`, `@checkpoints/config`) to a require made on
 * the binding's first use (`module.lazy`; relative imports, `export * from` and side-effect imports stay
 * eager, as @swc/core 1.16 compiles them; https://swc.rs/docs/configuration/modules). Jest gives every
 * test file a registry of its own, so every file evaluated every package its modules import, used or not:
 * libs/policy's 86 rule specs each built the config schemas (zod, 30 ms a file) that none of them parses
 * with. libs/policy, in band: 9.9-11.4 -> 6.8-7.1 s user. The code under test is the same; only when a
 * package's module body runs moves.
 */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      {
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs', lazy: true },
      },
    ],
  },
  testMatch: ['<rootDir>/**/*.spec.ts', '<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transformIgnorePatterns: ['/node_modules/'],
  setupFiles: [require.resolve('./jest.global-lazy-modules.js')],
  // jest-runtime with V8 code caching of the modules each test file compiles again (jest.runtime.js).
  runtime: require.resolve('./jest.runtime.js'),
  globalSetup: require.resolve('./jest.global-setup.js'),
  globalTeardown: require.resolve('./jest.global-teardown.js'),
};
