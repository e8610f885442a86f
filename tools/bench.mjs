#!/usr/bin/env node
/**
 * Benchmark (issues 2 and 16), run as `npm run bench [-- options]`:
 *
 * - from a fresh clone, as CI runs it: `npm ci`, a cold `npm test` (no nx cache, no jest cache: a new
 *   folder shares neither), a cached `npm test`, `npm start`, and the time of every nx task of the cold run;
 *   the cold `npm test` is the median of `--clones` fresh clones (default 3, each cloned and installed anew:
 *   one cold run on a shared 2-core machine varies by a quarter);
 * - per stack, the floor (a Node process loading @pulumi/pulumi and the provider modules the stack imports)
 *   and the synth CLI on a prod config of 1, 50, 200 and 500 stores (one in five high-throughput: copies of
 *   the stack's own Pulumi.prod.yaml stores, see tools/bench/stores-config.mjs), time and peak RSS.
 *
 * Every figure is printed with its ratio to a floor measured in the same run and the target it is held to;
 * `--write` records the table, the machine and the date in docs/development/benchmarks.md. Targets are checked here,
 * never by timed tests.
 *
 *   node tools/bench.mjs [--write] [--series-only] [--skip-clone] [--clones=N] [--runs=N]
 *                        [--counts=1,50,200,500] [--stacks=aws-s3,gcp-gcs,azure-adls] [--timeout=SECONDS]
 *
 * --series-only: the renders only (no clone); --skip-clone: the renders, plus cached `npm test` and
 * `npm start` in this tree; --runs: the floor and the renders of 1 and of 200 stores (what a ratio target
 * judges), in that many rounds of one each (default 5; the other counts render once): the seconds shown are
 * medians, a ratio the median of the rounds' own ratios (bench/ratios.cjs `pairedRatio`);
 * --timeout: the longest one render may take (default 300 s).
 * The clone is of the committed HEAD: uncommitted changes are not in it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, release, tmpdir, totalmem } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { benchOptions, BenchUsageError } from './bench/flags.cjs';
import { median, pairedRatio } from './bench/ratios.cjs';
import { writeStoresConfig } from './bench/stores-config.mjs';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const allStacks = readdirSync(join(root, 'stacks')).filter((name) =>
  existsSync(join(root, 'stacks', name, 'Pulumi.prod.yaml')),
);
let options;
try {
  options = benchOptions(process.argv.slice(2), allStacks, process.env);
} catch (error) {
  if (!(error instanceof BenchUsageError)) throw error;
  console.error(`bench: ${error.message}`);
  process.exit(2);
}
const { clones, runs, counts, stacks, timeoutSeconds } = options;
const timeoutMs = timeoutSeconds * 1000;
const hasGnuTime = existsSync('/usr/bin/time');
const loadAverage = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const loadAtStart = loadAverage();
const MB_BUDGET = 1024;
/** Renders run with this heap limit, so one that would need many GB fails instead of swapping the machine. */
const HEAP_LIMIT_MB = 3072;

/** Runs a command once: wall seconds, peak RSS (MB) of its largest process, exit status and output. */
function measure(command, args, cwd, env = {}, timeout = undefined) {
  const started = process.hrtime.bigint();
  let wrapped = hasGnuTime ? ['/usr/bin/time', ['-f', '__RSS__%M', command, ...args]] : [command, args];
  // coreutils timeout kills the whole process group it starts, the measured process included.
  if (timeout !== undefined)
    wrapped = ['timeout', ['-s', 'KILL', `${timeout / 1000}`, wrapped[0], ...wrapped[1]]];
  const result = spawnSync(wrapped[0], wrapped[1], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 256 * 2 ** 20,
    env: { ...process.env, NX_DAEMON: 'false', FORCE_COLOR: '0', ...env },
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const rss = /__RSS__(\d+)/.exec(result.stderr ?? '')?.[1];
  return {
    seconds,
    rssMb: rss ? Number(rss) / 1024 : NaN,
    status: result.status,
    timedOut:
      timeout !== undefined &&
      (result.status === 124 || result.status === 137 || result.signal === 'SIGKILL') &&
      seconds * 1000 >= timeout,
    output: `${result.stdout}\n${result.stderr}`,
  };
}

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

/** One row of the table: a figure, the floor it is compared with, and the targets it is held to. */
const rows = [];
const failures = [];
function record(what, figure, { floor, maxRatio, maxSeconds, maxRssMb, note } = {}) {
  const ratio =
    figure.ratio ?? (floor && figure.seconds !== undefined ? figure.seconds / floor.seconds : undefined);
  const targets = [];
  const checks = [];
  if (maxRatio !== undefined) {
    targets.push(`<= ${maxRatio}x ${floor.name}`);
    checks.push(ratio !== undefined && ratio <= maxRatio);
  }
  if (maxSeconds !== undefined) {
    targets.push(`<= ${maxSeconds} s`);
    checks.push(figure.seconds !== undefined && figure.seconds <= maxSeconds);
  }
  if (maxRssMb !== undefined) {
    targets.push(`<= ${maxRssMb} MB`);
    checks.push(!(figure.rssMb > maxRssMb) && !Number.isNaN(figure.rssMb ?? NaN));
  }
  if (figure.failed) checks.push(false);
  rows.push({
    what,
    seconds: figure.seconds,
    rssMb: figure.rssMb,
    ratio,
    floorName: floor?.name,
    target: targets.join(', '),
    met: checks.length === 0 ? '' : checks.every(Boolean) ? 'yes' : 'NO',
    note: note ?? figure.note ?? '',
  });
}

/** The bootstrap render the stacks' access rules judge CI's identities from, made once for the series. */
function bootstrapRender(workDir) {
  const out = join(workDir, 'bootstrap');
  const run = measure(
    process.execPath,
    [join(root, 'libs/synth/bin/synth.js'), '--stack=ci', `--out=${out}`],
    root,
  );
  if (run.status !== 0) throw new Error(`the bootstrap stack did not render:\n${run.output}`);
  return join(out, 'ci.json');
}

function renderSeries(workDir) {
  const bootstrap = bootstrapRender(workDir);
  for (const name of stacks) {
    const dir = join(root, 'stacks', name);
    const modules = providerModules(dir);
    const floorScript = `require('@pulumi/pulumi');${modules.map((m) => `require('${m}');`).join('')}`;
    const renderOf = (count) => {
      const config = writeStoresConfig(dir, count, join(workDir, `${name}-${count}.yaml`));
      return () =>
        measure(
          process.execPath,
          [
            join(root, 'libs/synth/bin/synth.js'),
            '--stack=prod',
            `--config-file=${config}`,
            `--bootstrap=${bootstrap}`,
            `--out=${join(workDir, `${name}-${count}`)}`,
          ],
          dir,
          { NODE_OPTIONS: `--max-old-space-size=${HEAP_LIMIT_MB}` },
          timeoutMs,
        );
    };
    const renders = new Map(counts.map((count) => [count, renderOf(count)]));
    // What a ratio target judges (the floor, 1 store and 200 stores) is measured in `runs` rounds, each
    // round measuring them one after the other, and each ratio is the median of the rounds' own ratios
    // (pairedRatio): a change in the shared machine's load between rounds then moves both sides of a
    // ratio alike. The seconds shown are medians. The other counts render once.
    const judged = counts.filter((count) => count === 1 || count === 200);
    const floorRuns = [];
    const runsOf = new Map(counts.map((count) => [count, []]));
    for (let round = 0; round < runs; round++) {
      floorRuns.push(measure(process.execPath, ['-e', floorScript], dir));
      for (const count of judged) runsOf.get(count).push(renders.get(count)());
    }
    for (const count of counts) if (!judged.includes(count)) runsOf.get(count).push(renders.get(count)());
    const floor = {
      name: 'floor',
      seconds: median(floorRuns.map((m) => m.seconds)),
      rssMb: Math.max(...floorRuns.map((m) => m.rssMb)),
    };
    record(`${name} floor (node + @pulumi/pulumi + ${modules.length} provider modules)`, floor);
    let oneStore;
    const paired = (count, denominators) => {
      const measured = runsOf.get(count);
      if ([...measured, ...denominators].some((m) => m.status !== 0)) return {};
      const { ratio, ratios } = pairedRatio(
        measured.map((m) => m.seconds),
        denominators.map((m) => m.seconds),
      );
      return {
        ratio,
        note: `median of ${ratios.length} rounds: ${ratios.map((value) => `${value.toFixed(2)}x`).join(', ')}`,
      };
    };
    for (const count of counts) {
      const measured = runsOf.get(count);
      process.stdout.write(
        `  ${name} ${count} store(s): ${measured.map((m) => m.seconds.toFixed(1)).join(' ')} s\n`,
      );
      const bad = measured.find((m) => m.status !== 0);
      const figure = {
        seconds: median(measured.map((m) => m.seconds)),
        rssMb: Math.max(...measured.map((m) => m.rssMb)),
      };
      if (bad) {
        figure.failed = true;
        figure.note = bad.timedOut
          ? `stopped after ${timeoutSeconds} s`
          : /heap out of memory|Allocation failed/.test(bad.output)
            ? `out of memory at a ${HEAP_LIMIT_MB} MB heap`
            : `exit ${bad.status}`;
        if (!bad.timedOut)
          failures.push(`${name} ${count} stores: ${bad.output.trim().split('\n').slice(-3).join(' / ')}`);
      }
      const what = `${name} synth prod, ${count} store${count === 1 ? '' : 's'}`;
      if (count === 1) {
        record(what, { ...figure, ...paired(1, floorRuns) }, { floor, maxRatio: 2, maxRssMb: MB_BUDGET });
        oneStore = { name: '1 store', seconds: figure.seconds };
      } else if (count <= 200) {
        const judgedPair = count === 200 && counts.includes(1) ? paired(200, runsOf.get(1)) : {};
        record(
          what,
          { ...figure, ...judgedPair },
          {
            floor: oneStore,
            ...(count === 200 ? { maxRatio: 6 } : {}),
            maxRssMb: MB_BUDGET,
          },
        );
      } else {
        record(what, figure, { floor: oneStore, maxRssMb: MB_BUDGET });
      }
    }
  }
}

/** Seconds each nx task of the last run took, from nx's task history (read with python3's sqlite3). */
function taskDurations(workspace) {
  const dataDir = join(workspace, '.nx', 'workspace-data');
  const db = existsSync(dataDir) ? readdirSync(dataDir).find((file) => file.endsWith('.db')) : undefined;
  if (!db) return [];
  const query = `import sqlite3,json,sys
c=sqlite3.connect(sys.argv[1])
rows=c.execute("select d.project,d.target,(h.end-h.start)/1000.0 from task_history h join task_details d on d.hash=h.hash order by h.id").fetchall()
print(json.dumps(rows))`;
  const result = spawnSync('python3', ['-c', query, join(dataDir, db)], { encoding: 'utf8' });
  if (result.status !== 0) return [];
  const latest = new Map();
  for (const [project, target, seconds] of JSON.parse(result.stdout))
    latest.set(`${project}:${target}`, seconds);
  return [...latest].sort((a, b) => b[1] - a[1]);
}

function npmFigure(what, run, options) {
  if (run.status !== 0) {
    failures.push(`${what} exited ${run.status}: ${run.output.trim().split('\n').slice(-5).join(' / ')}`);
  }
  record(what, { seconds: run.seconds, rssMb: run.rssMb, failed: run.status !== 0 }, options);
}

const tasks = [];
/** A fresh clone of HEAD in a new temporary folder, `npm ci` run in it; removed by the caller. */
function cloneAndInstall() {
  const clone = mkdtempSync(join(tmpdir(), 'bench-clone-'));
  const cloned = measure('git', ['clone', '--quiet', root, clone], tmpdir());
  if (cloned.status !== 0) {
    rmSync(clone, { recursive: true, force: true });
    throw new Error(`git clone failed:\n${cloned.output}`);
  }
  console.log(
    `fresh clone of ${spawnSync('git', ['-C', clone, 'rev-parse', '--short', 'HEAD'], { encoding: 'utf8' }).stdout.trim()} in ${clone}`,
  );
  return { clone, install: measure('npm', ['ci', '--no-audit', '--no-fund'], clone) };
}

/**
 * The cold `npm test` of `--clones` fresh clones (its median, with every run in the note, and the nx tasks
 * of the median run), then `npm ci`, the cached `npm test` and `npm start` of the last clone.
 */
function freshClones() {
  const colds = [];
  for (let index = 0; index < clones; index++) {
    const { clone, install } = cloneAndInstall();
    try {
      if (install.status !== 0) {
        npmFigure('npm ci (fresh clone)', install);
        return;
      }
      const cold = measure('npm', ['test'], clone);
      process.stdout.write(`  cold npm test: ${cold.seconds.toFixed(1)} s\n`);
      colds.push({ run: cold, tasks: taskDurations(clone) });
      if (index < clones - 1) continue;
      npmFigure('npm ci (fresh clone)', install);
      const middle = [...colds].sort((a, b) => a.run.seconds - b.run.seconds)[Math.floor(colds.length / 2)];
      const failed = colds.find(({ run }) => run.status !== 0);
      npmFigure('npm test, cold (fresh clone: no nx cache, no jest cache)', failed?.run ?? middle.run, {
        maxSeconds: 60,
        ...(colds.length > 1
          ? {
              note: `median of ${colds.length} fresh clones: ${colds.map(({ run }) => run.seconds.toFixed(1)).join(', ')} s`,
            }
          : {}),
      });
      tasks.push(...middle.tasks);
      npmFigure('npm test, cached', measure('npm', ['test'], clone), { maxSeconds: 3 });
      npmFigure('npm start (fresh clone, after the tests)', measure('npm', ['start'], clone), {
        maxSeconds: 8,
      });
    } finally {
      rmSync(clone, { recursive: true, force: true });
    }
  }
}

function inThisTree() {
  npmFigure('npm test, cached (this tree)', measure('npm', ['test'], root), { maxSeconds: 3 });
  npmFigure('npm start (this tree)', measure('npm', ['start'], root), { maxSeconds: 8 });
}

const workDir = mkdtempSync(join(tmpdir(), 'bench-'));
try {
  if (!options.seriesOnly && !options.skipClone) freshClones();
  else if (!options.seriesOnly) inThisTree();
  renderSeries(workDir);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

const cell = (value, digits) => (value === undefined || Number.isNaN(value) ? '' : value.toFixed(digits));
const lines = [
  '| measurement | s | ratio | to | peak RSS MB | target | met | note |',
  '|---|---:|---:|---|---:|---|---|---|',
  ...rows.map(
    (row) =>
      `| ${row.what} | ${cell(row.seconds, 2)} | ${row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}x`} | ${row.floorName ?? ''} | ${cell(row.rssMb, 0)} | ${row.target} | ${row.met} | ${row.note} |`,
  ),
];
if (tasks.length > 0) {
  lines.push('', 'Tasks of the cold `npm test` (nx task history, seconds, 2 in parallel):', '');
  lines.push(
    '| task | s |',
    '|---|---:|',
    ...tasks.map(([task, seconds]) => `| ${task} | ${seconds.toFixed(1)} |`),
  );
}
const machine = `${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}, ${(totalmem() / 2 ** 30).toFixed(0)} GiB, Linux ${release()}, Node ${process.version}`;
const missed = rows.filter((row) => row.met === 'NO').length;
const report = [
  `Machine: ${machine}`,
  `Date: ${new Date().toISOString()}`,
  `Load average at the start: ${loadAtStart}, at the end: ${loadAverage()} (the machine is shared: compare ratios, not seconds, across runs)`,
  `Command: node tools/bench.mjs ${process.argv.slice(2).join(' ')}`.trimEnd(),
  '',
  ...lines,
].join('\n');
console.log(`\n${report}`);
if (failures.length) console.log(`\nfailures:\n  ${failures.join('\n  ')}`);
console.log(`\n${missed === 0 ? 'every target met' : `${missed} figure(s) miss their target`}`);

if (options.write) {
  const docPath = join(root, 'docs', 'development', 'benchmarks.md');
  const marker = '## Latest results';
  const doc = readFileSync(docPath, 'utf8');
  const head = doc.includes(marker) ? doc.slice(0, doc.indexOf(marker)) : `${doc.trimEnd()}\n\n`;
  writeFileSync(docPath, `${head}${marker}\n\n${report}\n`);
  console.log('wrote docs/development/benchmarks.md');
}
process.exitCode = failures.length > 0 ? 1 : 0;
