#!/usr/bin/env node
/**
 * README's transcripts, made by running the commands they show, so they never go stale.
 *
 *   node tools/docs/readme.mjs           rewrite every transcript block of README.md
 *   node tools/docs/readme.mjs --check   exit 1, naming the stale blocks, when README.md differs
 *
 * A block is the fenced text between `<!-- transcript:NAME -->` and `<!-- /transcript -->`; NAME picks
 * the command from TRANSCRIPTS. Only what a command prints about the product is shown (no nx timings),
 * so the same tree always gives the same text. `npm test` runs the check (the tools project's
 * `check-docs` target).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { replaceBlocks } from './blocks.cjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const synth = join(root, 'libs', 'synth', 'bin', 'synth.js');

/** The offline report of aws-s3's dev stack, as `npm start` prints it after the renders. */
function synthReport(work) {
  const bootstrap = join(work, 'bootstrap', 'ci.json');
  const run = (cwd, args) => execFileSync(process.execPath, [synth, ...args], { cwd, stdio: 'pipe' });
  run(root, ['--stack=ci', `--out=${dirname(bootstrap)}`]);
  run(join(root, 'stacks', 'aws-s3'), [
    '--stack=dev',
    `--bootstrap=${bootstrap}`,
    `--out=${join(work, 'dist', 'synth', 'aws-s3')}`,
  ]);
  // From the folder that holds dist/, so the report names its renders as `npm start` does.
  const report = execFileSync(
    process.execPath,
    [join(root, 'tools', 'pulumi', 'synth-report.mjs'), join('dist', 'synth'), '--format=text'],
    { cwd: work, encoding: 'utf8' },
  );
  return report.replace(/^\n+/, '');
}

/** What a real target says where the Pulumi CLI is not installed. */
function noPulumiCli() {
  const result = spawnSync(
    process.execPath,
    [join(root, 'tools', 'pulumi', 'run.mjs'), 'preview', '--stack=prod'],
    {
      cwd: join(root, 'stacks', 'aws-s3'),
      encoding: 'utf8',
      env: { PATH: dirname(process.execPath), HOME: tmpdir() },
    },
  );
  return `$ npx nx run aws-s3:preview --stack=prod\n${result.stdout}${result.stderr}(exit status ${result.status})\n`;
}

const TRANSCRIPTS = { 'synth-report': synthReport, 'no-pulumi-cli': noPulumiCli };

function main(argv) {
  const check = argv.includes('--check');
  const readmePath = join(root, 'README.md');
  const readme = readFileSync(readmePath, 'utf8');
  const work = mkdtempSync(join(tmpdir(), 'readme-transcripts-'));
  try {
    const { text, stale, unknown } = replaceBlocks(readme, (name) => {
      const make = TRANSCRIPTS[name];
      return make === undefined ? undefined : make(work);
    });
    if (unknown.length > 0) {
      console.error(
        `README.md: no transcript named ${unknown.join(', ')}; known: ${Object.keys(TRANSCRIPTS).join(', ')}`,
      );
      return 2;
    }
    if (!check) {
      writeFileSync(readmePath, text);
      console.log(
        `README.md: ${stale.length} transcript(s) rewritten${stale.length ? `: ${stale.join(', ')}` : ''}`,
      );
      return 0;
    }
    if (stale.length > 0) {
      console.error(
        `README.md: transcript(s) ${stale.join(', ')} no longer match what the commands print; run 'npm run docs:readme' and commit README.md`,
      );
      return 1;
    }
    console.log('README.md: every transcript matches what its command prints');
    return 0;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

process.exitCode = main(process.argv.slice(2));
