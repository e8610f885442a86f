module.exports = { ...require('../../jest.preset.js'), displayName: 'aws-s3' };
