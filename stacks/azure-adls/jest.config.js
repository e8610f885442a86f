module.exports = { ...require('../../jest.preset.js'), displayName: 'azure-adls' };
