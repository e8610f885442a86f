/** Removes the run's TMPDIR (see jest.global-setup.js) and fails the run when a test left anything in it. */
const { readdirSync, rmSync } = require('node:fs');

module.exports = async function teardown() {
  const dir = process.env['CHECKPOINTS_JEST_TMPDIR'];
  if (dir === undefined) return;
  const left = readdirSync(dir);
  rmSync(dir, { recursive: true, force: true });
  if (left.length > 0) {
    throw new Error(
      `the tests left ${left.length} temporary entries behind (now removed): ${left.join(', ')}`,
    );
  }
};
