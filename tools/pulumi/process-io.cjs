/**
 * What a command reads from and writes to its process, passed to each command's `main` so that the
 * tests can run a command inside their own process (starting node for each case costs more than the
 * case itself); the bins pass `processIo()`.
 * @typedef {{ write(text: string): unknown }} Output
 * @typedef {{ cwd: string, env: NodeJS.ProcessEnv, stdout: Output, stderr: Output, stdinIsTTY: boolean }} Io
 */

/** @returns {Io} this process's own */
function processIo() {
  return {
    cwd: process.cwd(),
    env: process.env,
    stdout: process.stdout,
    stderr: process.stderr,
    // Read when asked: only the runner needs it, and reading it opens the process's stdin.
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
  };
}

/**
 * Writes one line, as console.log does for a string.
 * @param {Output} output
 * @param {string} text
 */
function println(output, text) {
  output.write(`${text}\n`);
}

module.exports = { processIo, println };
