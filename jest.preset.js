/**
 * Shared jest settings: tests run on SWC (no type-check; `typecheck` does that once). With one worker (the
 * default on 2 cores) jest runs a project's files in its own process; the projects whose files render
 * whole stacks (stacks/*, bootstrap) and tools set `workerIdleMemoryLimit`, which makes jest run them in a
 * worker it restarts once it holds more than the limit (every file loads the SDK and providers afresh).
 *
 * SWC compiles each import of a package (`zod`, `@pulumi/aws`, `@checkpoints/config`) to a require made on
 * the binding's first use (`module.lazy`; relative imports, `export * from` and side-effect imports stay
 * eager, as @swc/core 1.16 compiles them; https://swc.rs/docs/configuration/modules). Jest gives every
 * test file a registry of its own, so without it every file would evaluate every package its modules
 * import, used or not. The code under test is the same; only when a package's module body runs moves.
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
  globalSetup: require.resolve('./jest.global-setup.js'),
  globalTeardown: require.resolve('./jest.global-teardown.js'),
};
