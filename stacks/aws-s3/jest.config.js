// Its files render whole stacks: a worker jest restarts above the limit (jest.preset.js).
module.exports = {
  ...require('../../jest.preset.js'),
  displayName: 'aws-s3',
  workerIdleMemoryLimit: '700MB',
};
