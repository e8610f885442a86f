// Its files render whole stacks: a worker jest restarts above the limit (jest.preset.js).
module.exports = {
  ...require('../jest.preset.js'),
  displayName: 'bootstrap',
  workerIdleMemoryLimit: '700MB',
};
