module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'tools',
  workerIdleMemoryLimit: '700MB',
  // Some tests spawn real processes (nx, git, the bins under node): give them room on 2 cores.
  testTimeout: 60_000,
  // Two files at a time: the nx runs of nx-targets.spec.ts (the longest file) beside the others. On 2
  // cores the default is one worker, which leaves a core idle when tools:test is the last task of
  // `npm test` (measured at a load of 9: 25.7 against 33.1 s wall, 0.3 s more CPU).
  maxWorkers: 2,
};
