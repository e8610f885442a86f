module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'tools',
  // Every test spawns real processes (node, git, nx): give them room on 2 cores.
  testTimeout: 60_000,
};
