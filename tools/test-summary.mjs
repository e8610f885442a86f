#!/usr/bin/env node
/**
 * One closing line for CI, `N passed, N failed`, summed over every project's jest run. Replays the test
 * targets from the nx cache (they have just run), so it costs about a second.
 */
import { spawnSync } from 'node:child_process';
import { stripVTControlCharacters } from 'node:util';

const result = spawnSync('npx', ['nx', 'run-many', '-t', 'test', '--output-style=static'], {
  encoding: 'utf8',
  env: { ...process.env, FORCE_COLOR: '0', NX_TUI: 'false' },
  maxBuffer: 64 * 1024 * 1024,
});
let passed = 0;
let failed = 0;
// Replayed outputs keep the colours jest printed them with.
const output = stripVTControlCharacters(`${result.stdout}\n${result.stderr}`);
for (const line of output.split('\n')) {
  if (!/^Tests:/.test(line.trim())) continue;
  passed += Number(/(\d+) passed/.exec(line)?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(line)?.[1] ?? 0);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = result.status === 0 && failed === 0 && passed > 0 ? 0 : 1;
