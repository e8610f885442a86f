/**
 * Each jest run gets a temporary folder of its own as TMPDIR, for its workers and every process a test
 * starts, so that jest.global-teardown.js can fail a run whose tests leave files behind.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');

module.exports = async function setup() {
  const dir = mkdtempSync(join(tmpdir(), 'jest-run-'));
  process.env['CHECKPOINTS_JEST_TMPDIR'] = dir;
  process.env['TMPDIR'] = dir;
};
