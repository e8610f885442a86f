/** Shared jest settings: tests run on SWC (no type-check; `typecheck` does that once). */
module.exports = {
  testEnvironment: 'node',
  transform: {
    '^.+\\.ts$': [
      '@swc/jest',
      { jsc: { parser: { syntax: 'typescript' }, target: 'es2022' }, module: { type: 'commonjs' } },
    ],
  },
  testMatch: ['<rootDir>/**/*.spec.ts', '<rootDir>/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/dist/'],
  moduleFileExtensions: ['ts', 'js', 'json'],
  transformIgnorePatterns: ['/node_modules/'],
  workerIdleMemoryLimit: '700MB',
  setupFiles: [require.resolve('./jest.global-lazy-modules.js')],
  globalSetup: require.resolve('./jest.global-setup.js'),
  globalTeardown: require.resolve('./jest.global-teardown.js'),
};
