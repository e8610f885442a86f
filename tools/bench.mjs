#!/usr/bin/env node
/**
 * Benchmark (issue 2): synth of each stack against its floor (a Node process loading @pulumi/pulumi and
 * the provider modules the stack imports), cold and cached `npm test`, typecheck and jest per project,
 * and peak RSS of each. Prints medians and ratios measured in this run; `--write` records them in
 * docs/benchmarks.md. Budgets: synth <= 2x floor, cached npm test < 3 s, cold npm test < 60 s,
 * no test or synth process above 1 GB RSS.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, tmpdir, release } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const runs = Number(process.env.BENCH_RUNS ?? 5);
const write = process.argv.includes('--write');
const hasGnuTime = existsSync('/usr/bin/time');

/** Runs a command once; wall seconds and peak RSS (MB) of the process tree's largest process. */
function measure(command, args, cwd) {
  const started = process.hrtime.bigint();
  const wrapped = hasGnuTime ? ['/usr/bin/time', ['-f', '__RSS__%M', command, ...args]] : [command, args];
  const result = spawnSync(wrapped[0], wrapped[1], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NX_DAEMON: 'false', FORCE_COLOR: '0' },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rss = /__RSS__(\d+)/.exec(result.stderr ?? '')?.[1];
  return {
    seconds,
    rssMb: rss ? Number(rss) / 1024 : NaN,
    status: result.status,
    output: `${result.stdout}\n${result.stderr}`,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
};

function providerModules(stackDir) {
  const modules = new Set();
  const walk = (dir) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, entry.name);
      if (entry.isDirectory() && entry.name !== 'tests' && entry.name !== 'node_modules') walk(path);
      else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts')) {
        for (const match of readFileSync(path, 'utf8').matchAll(
          /from '(@pulumi\/(?:aws|gcp|azure-native)\/[^']+)'/g,
        )) {
          modules.add(match[1]);
        }
      }
    }
  };
  walk(stackDir);
  return [...modules].sort();
}

function stackDirs() {
  const dirs = readdirSync(join(root, 'stacks')).map((name) => join(root, 'stacks', name));
  return dirs.filter((dir) => existsSync(join(dir, 'Pulumi.yaml')));
}

function projects() {
  const found = [];
  for (const base of ['libs', 'stacks']) {
    for (const name of readdirSync(join(root, base))) {
      if (existsSync(join(root, base, name, 'project.json')))
        found.push({ name, dir: join(root, base, name) });
    }
  }
  for (const extra of ['bootstrap', 'tools']) {
    if (existsSync(join(root, extra, 'project.json'))) found.push({ name: extra, dir: join(root, extra) });
  }
  return found;
}

const rows = [];
const failures = [];
const record = (what, seconds, rssMb, floor, budget) => rows.push({ what, seconds, rssMb, floor, budget });

console.log(`benchmark: ${runs} runs per synth/floor pair, medians`);
for (const dir of stackDirs()) {
  const name = dir.split('/').pop();
  const modules = providerModules(dir);
  const floorScript = `require('@pulumi/pulumi');${modules.map((m) => `require('${m}');`).join('')}`;
  const out = mkdtempSync(join(tmpdir(), 'bench-synth-'));
  const floor = [];
  const synth = [];
  for (let i = 0; i < runs; i++) {
    floor.push(measure(process.execPath, ['-e', floorScript], dir));
    const rendered = measure(process.execPath, [join(root, 'libs/synth/bin/synth.js'), `--out=${out}`], dir);
    if (rendered.status !== 0) failures.push(`${name}:synth exited ${rendered.status}`);
    synth.push(rendered);
  }
  const floorSeconds = median(floor.map((m) => m.seconds));
  record(
    `${name} floor (pulumi + ${modules.length} provider modules)`,
    floorSeconds,
    Math.max(...floor.map((m) => m.rssMb)),
  );
  record(
    `${name} synth dev`,
    median(synth.map((m) => m.seconds)),
    Math.max(...synth.map((m) => m.rssMb)),
    floorSeconds,
    2,
  );
}

for (const project of projects()) {
  const typecheck = measure(
    'npx',
    ['tsc', '-p', 'tsconfig.json', '--noEmit', '--noCheck', 'false'],
    project.dir,
  );
  if (typecheck.status !== 0) failures.push(`${project.name}:typecheck exited ${typecheck.status}`);
  record(`${project.name} typecheck`, typecheck.seconds, typecheck.rssMb);
  const jest = measure('npx', ['jest', '--ci', '--silent'], project.dir);
  if (jest.status !== 0) failures.push(`${project.name}:test exited ${jest.status}`);
  record(`${project.name} jest`, jest.seconds, jest.rssMb);
}

// Cold means no nx cache and no jest transform cache, as on a fresh CI machine.
measure('npx', ['jest', '--clearCache'], root);
const cold = measure(
  'npx',
  ['nx', 'run-many', '-t', 'lint', 'typecheck', 'test', '--parallel=2', '--skip-nx-cache'],
  root,
);
if (cold.status !== 0) failures.push(`cold npm test exited ${cold.status}`);
record('npm test, cold (no nx or jest cache)', cold.seconds, cold.rssMb);
measure('npx', ['nx', 'run-many', '-t', 'lint', 'typecheck', 'test', '--parallel=2'], root);
const cached = measure('npx', ['nx', 'run-many', '-t', 'lint', 'typecheck', 'test', '--parallel=2'], root);
record('npm test, cached', cached.seconds, cached.rssMb);

const budgets = {
  'npm test, cold (no nx or jest cache)': 60,
  'npm test, cached': 3,
};
const lines = [
  '| measurement | median s | ratio to floor | peak RSS MB | budget | within |',
  '|---|---:|---:|---:|---|---|',
];
let overBudget = 0;
for (const row of rows) {
  const ratio = row.floor ? row.seconds / row.floor : undefined;
  const secondsBudget = budgets[row.what];
  const checks = [];
  if (ratio !== undefined) checks.push(ratio <= row.budget);
  if (secondsBudget !== undefined) checks.push(row.seconds < secondsBudget);
  if (!row.what.startsWith('npm test')) checks.push(!(row.rssMb > 1024));
  const budget = [
    ratio !== undefined ? `<= ${row.budget}x floor` : '',
    secondsBudget ? `< ${secondsBudget} s` : '',
    row.what.startsWith('npm test') ? '' : '<= 1024 MB',
  ]
    .filter(Boolean)
    .join(', ');
  const ok = checks.every(Boolean);
  if (!ok) overBudget++;
  lines.push(
    `| ${row.what} | ${row.seconds.toFixed(2)} | ${ratio !== undefined ? `${ratio.toFixed(2)}x` : ''} | ${Number.isNaN(row.rssMb) ? 'n/a' : row.rssMb.toFixed(0)} | ${budget} | ${ok ? 'yes' : 'NO'} |`,
  );
}
const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}`;
const report = [`Machine: ${machine}`, `Date: ${new Date().toISOString()}`, '', ...lines].join('\n');
console.log(report);
if (failures.length) console.log(`\nfailures:\n  ${failures.join('\n  ')}`);
console.log(`\n${overBudget === 0 ? 'all within budget' : `${overBudget} measurement(s) over budget`}`);

if (write) {
  const doc = [
    '# Benchmarks',
    '',
    'Measured by `npm run bench -- --write` (tools/bench.mjs). Ratios are against a floor measured in the',
    'same run on the same machine: a Node process that loads `@pulumi/pulumi` and the provider modules the',
    'stack imports. Budgets: synth at most 2x its floor; cached `npm test` under 3 s; cold `npm test` under',
    '60 s on 2 cores; no test or synth process above 1 GB RSS. Budgets are checked here, never by timed tests.',
    '',
    '## Latest results',
    '',
    report,
    '',
  ].join('\n');
  writeFileSync(join(root, 'docs', 'benchmarks.md'), doc);
  console.log('wrote docs/benchmarks.md');
}
process.exitCode = failures.length > 0 ? 1 : 0;
