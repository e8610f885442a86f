module.exports = { ...require('../../jest.preset.js'), displayName: 'gcp-gcs' };
