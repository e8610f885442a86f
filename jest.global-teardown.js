/** Removes the run's TMPDIR (see jest.global-setup.js) and fails the run when a test left anything in it. */
const { readdirSync, rmSync } = require('node:fs');
const { basename } = require('node:path');

const RUN_DIR_PREFIX = 'jest-run-';

async function teardown() {
  const dir = process.env['TMPDIR'];
  // Only the folder the setup made: never empty a TMPDIR that was there before the run.
  if (dir === undefined || !basename(dir).startsWith(RUN_DIR_PREFIX)) return;
  const left = readdirSync(dir);
  rmSync(dir, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(
      `the tests left ${left.length} temporary entries behind (now removed): ${left.join(', ')}`,
    );
  }
}

module.exports = teardown;
module.exports.RUN_DIR_PREFIX = RUN_DIR_PREFIX;
