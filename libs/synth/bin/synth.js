#!/usr/bin/env node
'use strict';
/**
 * Offline render of a Pulumi stack (DESIGN section 6). TypeScript is loaded as Pulumi's Node.js runner
 * loads it at `pulumi preview` time: ts-node, the project's tsconfig.json (and its "ts-node" section),
 * type-check skipped when the tsconfig sets `noCheck`; the one difference is that swc's output for each
 * file is kept between renders (cached-swc.js).
 */
const { spawn } = require('node:child_process');
const { existsSync } = require('node:fs');
const { join } = require('node:path');

/**
 * V8's heap sizing, set for the render (docs/benchmarks.md, i16). A render constructs every resource
 * before the mock engine answers any, and each keeps hundreds of promises and closures alive until then
 * (a 200-store Azure render about 450 MB live at its peak, 200 MB once registered). Two flags:
 * - 64 MB semi-spaces (V8's default: 16): the short-lived promises of a registration die young instead
 *   of being promoted and collected with the old generation.
 * - the old generation grows to at most twice its live size after a full collection: V8 grows it up to
 *   fourfold while the program allocates fast (kMaxGrowingFactor 4.0, replaced by 1 + heap_growing_percent
 *   / 100 when set: https://github.com/nodejs/node/blob/v20.x/deps/v8/src/heap/heap-controller.h and
 *   heap-controller.cc), which let a 500-store Azure render reach 2 GB RSS for an estimated 1.1 GB live.
 *   Fourfold still takes a 500-store AWS render to 928 MB. 20% (earlier stops' setting) kept it at 816 MB
 *   but collected so often that a 200-store render spent 8-15% more CPU than at 100% (AWS 200 stores
 *   7.5-7.8 s user against 8.0-9.7 s; Azure, GCP alike), for 797 MB at 500 stores (docs/benchmarks.md,
 *   stop 33).
 *   This sets no limit: a render that needs more memory gets it.
 * The semi-space size is read once, when V8 creates the heap (`v8.setFlagsFromString` later has no
 * effect), so the CLI runs itself again in a node with the flags it lacks; a flag already given (node's
 * command line or NODE_OPTIONS) is kept as given.
 */
const HEAP_FLAGS = { '--max-semi-space-size': 64, '--heap-growing-percent': 100 };
// V8 reads `_` and `-` alike in a flag's name.
const givenFlags = [...process.execArgv, ...(process.env.NODE_OPTIONS ?? '').split(/\s+/)].map((arg) =>
  arg.split('=')[0].replaceAll('_', '-'),
);
const missingFlags = Object.entries(HEAP_FLAGS)
  .filter(([flag]) => !givenFlags.includes(flag))
  .map(([flag, value]) => `${flag}=${value}`);
if (missingFlags.length > 0) {
  const render = spawn(process.execPath, [...process.execArgv, ...missingFlags, ...process.argv.slice(1)], {
    stdio: 'inherit',
  });
  const forward = (signal) => render.kill(signal);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.on(signal, forward);
  render.on('error', (error) => {
    console.error(`synth: could not start ${process.execPath} for the render: ${error.message}`);
    process.exitCode = 3;
  });
  render.on('exit', (code, signal) => {
    if (signal) {
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 1;
  });
  return;
}

/**
 * V8's tiering, set for the render (docs/benchmarks.md, i16): a function is handed to the optimizing
 * compiler once it has run through `--interrupt-budget` bytes of bytecode (Node 20's V8: 67584, see
 * `node --v8-options`; https://github.com/nodejs/node/blob/v20.x/deps/v8/src/flags/flag-definitions.h).
 * A 1-store render runs about 400 IAM simulations, the swc transform and the libs' module bodies for a
 * second or two: at the default budget much of that code is compiled by TurboFan on a background thread
 * and hardly used afterwards (with `--no-opt` the 1-store AWS render took a fifth less CPU). A budget 8
 * times larger keeps that saving (1-store AWS CPU 1.42 s, against 1.68 s at the default), and a long render
 * still optimizes its hot loops early enough. 31 times (stop 23's choice) held a 200-store AWS render's IAM
 * simulations in the slower tiers for longer: median wall 22.8 s, against 19.9 s at 8 times (five
 * alternating runs each) and 19.0 s at the default (seven); at one store 1.55 s against 1.46 s (six each;
 * docs/benchmarks.md, stop 24). Set with `v8.setFlagsFromString` before ts-node and the program load
 * (measured to act as the command-line flag does; Node documents the call's effect after start-up as
 * V8's: https://nodejs.org/docs/latest-v20.x/api/v8.html#v8setflagsfromstringflags), since
 * NODE_OPTIONS refuses this flag; a budget given on node's command line is kept.
 */
const TIERING_FLAG = '--interrupt-budget';
if (!givenFlags.includes(TIERING_FLAG)) require('node:v8').setFlagsFromString(`${TIERING_FLAG}=540672`);

require('./deferred-modules.js').deferPulumiClosureModules();
const tsutils = require('@pulumi/pulumi/tsutils');

const tsConfigPath = process.env.PULUMI_NODEJS_TSCONFIG_PATH ?? 'tsconfig.json';
const compilerOptions = tsutils.loadTypeScriptCompilerOptions(tsConfigPath);
const { tsnodeRequire, typescriptRequire } = tsutils.typeScriptRequireStrings();
const transpileOnly = process.env.PULUMI_NODEJS_TRANSPILE_ONLY
  ? process.env.PULUMI_NODEJS_TRANSPILE_ONLY === 'true'
  : compilerOptions.noCheck;
require(tsnodeRequire).register({
  compiler: typescriptRequire,
  transpileOnly,
  // The swc transpiler a tsconfig asks for, with its output kept between renders (cached-swc.js).
  ...(transpileOnly && asksForSwc(tsConfigPath)
    ? { swc: false, transpiler: require.resolve('./cached-swc.js') }
    : {}),
  project: tsConfigPath,
  skipProject: !existsSync(tsConfigPath),
  compilerOptions: {
    target: 'ES2020',
    module: 'nodenext',
    moduleResolution: 'nodenext',
    sourceMap: 'true',
    ...compilerOptions,
  },
});

/** Whether the tsconfig's own `ts-node` section sets `swc: true` (ts-node's swc transpiler). */
function asksForSwc(path) {
  if (!existsSync(path)) return false;
  const ts = require(typescriptRequire);
  return ts.readConfigFile(path, ts.sys.readFile).config?.['ts-node']?.swc === true;
}

require(join(__dirname, '..', 'src', 'cli.ts'))
  .main(process.argv.slice(2))
  .then((code) => {
    process.exitCode = code;
  });
