#!/usr/bin/env node
/**
 * One closing line for CI, `N passed, N failed`, summed over every project's jest run. Replays the test
 * targets from the nx cache (they have just run), so it costs about a second. The replay goes to a file, not a
 * pipe: on Node 24 nx exits before a pipe has taken all it wrote, and the last projects' counts were lost.
 */
import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';

const dir = mkdtempSync(join(tmpdir(), 'test-summary-'));
const file = join(dir, 'replay.txt');
const fd = openSync(file, 'w');
let result;
let output;
try {
  result = spawnSync('npx', ['nx', 'run-many', '-t', 'test', '--output-style=static'], {
    stdio: ['ignore', fd, fd],
    env: { ...process.env, FORCE_COLOR: '0', NX_TUI: 'false' },
  });
  closeSync(fd);
  // Replayed outputs keep the colours jest printed them with.
  output = stripVTControlCharacters(readFileSync(file, 'utf8'));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
let passed = 0;
let failed = 0;
for (const line of output.split('\n')) {
  if (!/^Tests:/.test(line.trim())) continue;
  passed += Number(/(\d+) passed/.exec(line)?.[1] ?? 0);
  failed += Number(/(\d+) failed/.exec(line)?.[1] ?? 0);
}
console.log(`${passed} passed, ${failed} failed`);
process.exitCode = result.status === 0 && failed === 0 && passed > 0 ? 0 : 1;
