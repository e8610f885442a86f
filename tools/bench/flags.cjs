/**
 * The command line of tools/bench.mjs, read before anything runs: a flag the bench cannot use stops it
 * with the flag, the value given and what is allowed, not after a clone and a cold test run.
 */
const { parseArgs } = require('node:util');

const USAGE =
  'usage: node tools/bench.mjs [--write] [--series-only] [--skip-clone] [--clones=N] [--runs=N] ' +
  '[--counts=1,50,200,500] [--stacks=aws-s3,gcp-gcs,azure-adls] [--timeout=SECONDS]';

class BenchUsageError extends Error {}

/**
 * @param {string[]} argv the bench's arguments
 * @param {string[]} allStacks the stacks with a Pulumi.prod.yaml, the default and what --stacks may name
 * @param {NodeJS.ProcessEnv} env BENCH_RUNS is the default of --runs
 */
function benchOptions(argv, allStacks, env = {}) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        write: { type: 'boolean', default: false },
        'series-only': { type: 'boolean', default: false },
        'skip-clone': { type: 'boolean', default: false },
        clones: { type: 'string', default: '3' },
        runs: { type: 'string', default: env.BENCH_RUNS ?? '5' },
        counts: { type: 'string', default: '1,50,200,500' },
        stacks: { type: 'string' },
        timeout: { type: 'string', default: '300' },
      },
    }));
  } catch (error) {
    // parseArgs throws a TypeError naming the flag (its class is of another realm under jest).
    throw new BenchUsageError(`${/** @type {Error} */ (error).message}\n${USAGE}`);
  }
  /** @param {string} flag @param {string} given */
  const whole = (flag, given) => {
    const value = Number(given);
    if (!Number.isInteger(value) || value < 1) {
      throw new BenchUsageError(`${flag}=${given}: takes positive whole numbers`);
    }
    return value;
  };
  const counts = values.counts.split(',').map(Number);
  if (counts.some((count) => !Number.isInteger(count) || count < 1)) {
    throw new BenchUsageError(`--counts=${values.counts}: takes positive whole numbers, comma-separated`);
  }
  const stacks = values.stacks === undefined ? allStacks : values.stacks.split(',');
  const unknown = stacks.filter((name) => !allStacks.includes(name));
  if (unknown.length > 0) {
    throw new BenchUsageError(
      `--stacks=${unknown.join(',')}: no such stack; allowed: ${allStacks.join(', ')}`,
    );
  }
  return {
    write: values.write,
    seriesOnly: values['series-only'],
    skipClone: values['skip-clone'],
    clones: whole('--clones', values.clones),
    runs: whole('--runs', values.runs),
    counts,
    stacks,
    timeoutSeconds: whole('--timeout', values.timeout),
  };
}

module.exports = { benchOptions, BenchUsageError, USAGE };
