// Its files render whole stacks: a worker jest restarts above the limit (jest.preset.js).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'azure-adls',
  workerIdleMemoryLimit: '700MB',
};
