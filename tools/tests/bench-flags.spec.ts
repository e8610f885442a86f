/**
 * `npm run bench` reads its command line before anything runs: a flag it cannot use stops it (exit 2,
 * before any clone or render) with the flag, the value given and what is allowed.
 */
import { join } from 'node:path';
import { benchOptions, BenchUsageError } from '../bench/flags.cjs';
import { run, WORKSPACE } from './helpers';

const STACKS = ['aws-s3', 'azure-adls', 'gcp-gcs'];

it('defaults: three clones, five runs, the four store counts, every stack, 300 s', () => {
  expect(benchOptions([], STACKS)).toEqual({
    write: false,
    seriesOnly: false,
    skipClone: false,
    clones: 3,
    runs: 5,
    counts: [1, 50, 200, 500],
    stacks: STACKS,
    timeoutSeconds: 300,
  });
  expect(
    benchOptions(['--clones=3', '--counts=1,200', '--stacks=gcp-gcs', '--write'], STACKS, {
      BENCH_RUNS: '7',
    }),
  ).toMatchObject({ clones: 3, runs: 7, counts: [1, 200], stacks: ['gcp-gcs'], write: true });
});

it.each([
  ['--bogus', "Unknown option '--bogus'"],
  ['--runs', "Option '--runs <value>' argument missing"],
  ['--clones=0', '--clones=0: takes positive whole numbers'],
  ['--runs=1.5', '--runs=1.5: takes positive whole numbers'],
  ['--counts=1,x,200', '--counts=1,x,200: takes positive whole numbers, comma-separated'],
  ['--timeout=-1', '--timeout=-1: takes positive whole numbers'],
  ['--stacks=aws-s3,nope', '--stacks=nope: no such stack; allowed: aws-s3, azure-adls, gcp-gcs'],
])('%s: refused, naming the flag and the value', (flag, message) => {
  let refused: unknown;
  try {
    benchOptions([flag], STACKS);
  } catch (error) {
    refused = error;
  }
  expect(refused).toBeInstanceOf(BenchUsageError);
  expect((refused as Error).message.split('\n')[0]).toBe(message);
});

it('the bench itself exits 2 at once on a bad flag, the message first and no stack trace', () => {
  const result = run(process.execPath, [join(WORKSPACE, 'tools', 'bench.mjs'), '--stacks=nope']);
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr).toBe('bench: --stacks=nope: no such stack; allowed: aws-s3, azure-adls, gcp-gcs\n');
});
