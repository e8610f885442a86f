/**
 * Each jest run gets a temporary folder of its own as TMPDIR, which its workers and every process a test
 * starts inherit (os.tmpdir() reads it: https://nodejs.org/api/os.html#ostmpdir), so that
 * jest.global-teardown.js can fail a run whose tests leave files behind.
 */
const { mkdtempSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { RUN_DIR_PREFIX } = require('./jest.global-teardown.js');

module.exports = async function setup() {
  process.env['TMPDIR'] = mkdtempSync(join(tmpdir(), RUN_DIR_PREFIX));
};
