/**
 * `npm run bench` with a flag it cannot use stops at once (exit 2, before any clone or render) and says
 * which flag, the value given and what it takes.
 */
import { join } from 'node:path';
import { run, WORKSPACE } from './helpers';

const BENCH = join(WORKSPACE, 'tools', 'bench.mjs');

it.each([
  ['--bogus', "Unknown option '--bogus'"],
  ['--runs', "Option '--runs <value>' argument missing"],
  ['--clones=0', '--clones=0: takes positive whole numbers'],
  ['--runs=1.5', '--runs=1.5: takes positive whole numbers'],
  ['--counts=1,x,200', '--counts=1,x,200: takes positive whole numbers, comma-separated'],
  ['--timeout=-1', '--timeout=-1: takes positive whole numbers'],
  ['--stacks=aws-s3,nope', '--stacks=nope: no such stack; allowed: aws-s3, azure-adls, gcp-gcs'],
])('%s: exit 2 before anything runs, naming the flag and the value', (flag, message) => {
  const result = run(process.execPath, [BENCH, flag]);
  expect(result.status).toBe(2);
  expect(result.stdout).toBe('');
  expect(result.stderr.split('\n')[0]).toBe(`bench: ${message}`);
  expect(result.stderr).not.toMatch(/^\s+at /m);
});
