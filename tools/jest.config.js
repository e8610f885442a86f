module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'tools',
  // Some tests spawn real processes (nx, git, the bins under node): give them room on 2 cores.
  testTimeout: 60_000,
};
