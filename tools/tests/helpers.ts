import { spawnSync, type SpawnSyncReturns } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import type { Io } from '../pulumi/process-io.cjs';

export const WORKSPACE = resolve(__dirname, '..', '..');
export const RUNNER = join(WORKSPACE, 'tools', 'pulumi', 'run.mjs');
export const AFFECTED = join(WORKSPACE, 'tools', 'pulumi', 'affected.mjs');
export const SYNTH_REPORT = join(WORKSPACE, 'tools', 'pulumi', 'synth-report.mjs');
export const POLICY_PACK = join(WORKSPACE, 'libs', 'policy');
export const MINIMUM_VERSION = readFileSync(
  join(WORKSPACE, 'tools', 'pulumi', 'pulumi-version.txt'),
  'utf8',
).trim();
export const STACKS = ['aws-s3', 'gcp-gcs', 'azure-adls'] as const;
export const NODE_DIR = dirname(process.execPath);

const temporary: string[] = [];

/** A fresh temporary folder, removed after the test file that asked for it. */
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  temporary.push(dir);
  return dir;
}

afterAll(() => {
  for (const dir of temporary.splice(0)) rmSync(dir, { recursive: true, force: true });
});

export interface PulumiCall {
  argv: string[];
  cwd: string;
}

/**
 * A recording stand-in for the Pulumi CLI (POSIX sh, so each call costs milliseconds): logs the
 * working folder and argv of every call and answers like the CLI:
 * - `version`: $FAKE_PULUMI_VERSION;
 * - `whoami --json`: {"user":"ci","url":$FAKE_PULUMI_BACKEND}, or exits $FAKE_PULUMI_WHOAMI_EXIT;
 * - `stack ls --json`: the stacks named in $FAKE_PULUMI_STACKS (default dev staging prod ci; "-" for none);
 * - anything else: writes $FAKE_PULUMI_EVENTS to the --event-log file (refused, as by the CLI,
 *   without PULUMI_DEBUG_COMMANDS=true), prints $FAKE_PULUMI_STDOUT and exits $FAKE_PULUMI_EXIT.
 * Fields are split by \x1f, calls by \x1e.
 */
export function standIn(): {
  bin: string;
  log: string;
  calls: () => PulumiCall[];
  commands: () => PulumiCall[];
} {
  const dir = tempDir('fake-pulumi-');
  const bin = join(dir, 'bin');
  mkdirSync(bin);
  const log = join(dir, 'calls.log');
  const script = [
    '#!/bin/sh',
    `{ printf '%s\\037' "$(pwd -P)" "$@"; printf '\\036'; } >> '${log}'`,
    'case "$1 $2" in',
    '  "version "*)',
    `    echo "\${FAKE_PULUMI_VERSION:-v${MINIMUM_VERSION}}"; exit 0 ;;`,
    '  "whoami "*)',
    '    if [ -n "$FAKE_PULUMI_WHOAMI_EXIT" ]; then echo "error: PULUMI_ACCESS_TOKEN must be set for login" >&2; exit "$FAKE_PULUMI_WHOAMI_EXIT"; fi',
    '    printf \'{"user":"ci","url":"%s"}\\n\' "${FAKE_PULUMI_BACKEND:-https://api.pulumi.com}"; exit 0 ;;',
    '  "stack ls")',
    '    sep=""; printf "["',
    '    for name in ${FAKE_PULUMI_STACKS:-dev staging prod ci}; do',
    '      [ "$name" = - ] && continue',
    '      printf \'%s{"name":"%s","current":false}\' "$sep" "$name"; sep=","',
    '    done',
    '    echo "]"; exit 0 ;;',
    'esac',
    // Like the CLI, --event-log exists only with PULUMI_DEBUG_COMMANDS=true.
    'prev=""',
    'for arg in "$@"; do',
    '  if [ "$prev" = --event-log ]; then',
    '    [ "$PULUMI_DEBUG_COMMANDS" = true ] || { echo "error: unknown flag: --event-log" >&2; exit 255; }',
    '    printf "%s\\n" "$FAKE_PULUMI_EVENTS" > "$arg"',
    '  fi',
    '  prev="$arg"',
    'done',
    '[ -n "$FAKE_PULUMI_STDOUT" ] && printf "%s\\n" "$FAKE_PULUMI_STDOUT"',
    'exit "${FAKE_PULUMI_EXIT:-0}"',
    '',
  ].join('\n');
  writeFileSync(join(bin, 'pulumi'), script);
  chmodSync(join(bin, 'pulumi'), 0o755);
  const calls = (): PulumiCall[] =>
    existsSync(log)
      ? readFileSync(log, 'utf8')
          .split('\x1e')
          .filter(Boolean)
          .map((record) => {
            const [cwd = '', ...argv] = record.split('\x1f').slice(0, -1);
            return { argv, cwd };
          })
      : [];
  return { bin, log, calls, commands: () => calls().filter((call) => !isProbe(call.argv)) };
}

/** The calls the runner makes to check the CLI, the backend and the stack before the real one. */
export function isProbe(argv: string[]): boolean {
  const [first, second] = argv;
  return first === 'version' || first === 'whoami' || (first === 'stack' && second === 'ls');
}

/** PATH with the stand-in first, then node, and nothing else that could hold a real `pulumi`. */
export function pathWith(...dirs: string[]): string {
  return [...dirs, NODE_DIR, '/usr/bin', '/bin'].join(delimiter);
}

/** This process's environment without what an outer `nx run` set for its own task. */
function outsideNx(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('NX_')));
}

interface RunOptions {
  cwd?: string;
  env?: Record<string, string | undefined>;
}

/** The environment `run` and `inProcess` give a command: this one's, as outside nx, with `env` on top. */
function commandEnv(env: RunOptions['env']): NodeJS.ProcessEnv {
  return {
    ...outsideNx(),
    // The workspace has only nx's built-in plugins: loading them in process saves ~0.4 s per nx run.
    NX_DAEMON: 'false',
    NX_NO_CLOUD: 'true',
    NX_TUI: 'false',
    NX_ISOLATE_PLUGINS: 'false',
    ...env,
  };
}

export function run(command: string, args: string[], options: RunOptions = {}): SpawnSyncReturns<string> {
  return spawnSync(command, args, {
    cwd: options.cwd ?? WORKSPACE,
    encoding: 'utf8',
    env: commandEnv(options.env),
    maxBuffer: 64 * 1024 * 1024,
  });
}

/** What a command did: its exit status and what it wrote, as `run` reports a process's. */
export interface Outcome<Status = number> {
  status: Status;
  stdout: string;
  stderr: string;
}

/**
 * Runs a command's `main` (tools/pulumi/*.cjs) in this process, with the working folder and
 * environment `run` would give its process (relative paths start there; stdin is no terminal),
 * and what it writes captured. Each bin keeps a test or two through `run`, for the wiring.
 */
export function inProcess<Status>(
  main: (argv: string[], io: Io) => Status,
  argv: string[],
  options: RunOptions = {},
): Outcome<Status> {
  const written = { stdout: '', stderr: '' };
  const status = main(argv, {
    cwd: options.cwd ?? WORKSPACE,
    env: commandEnv(options.env),
    stdout: { write: (text: string) => (written.stdout += text) },
    stderr: { write: (text: string) => (written.stderr += text) },
    stdinIsTTY: false,
  });
  return {
    status,
    get stdout() {
      return written.stdout;
    },
    get stderr() {
      return written.stderr;
    },
  };
}

/** What refresh and drift leave out unless asked to include the directory buckets (a data session reads one). */
export const DIRECTORY_BUCKET_EXCLUDES = ['--exclude', '**aws:s3/directoryBucket:DirectoryBucket::*'];

/** The exact argv each target must hand the CLI, after `pulumi` (`up` as confirmed in CI or with --yes). */
export function expectedArgv(target: string, stack: string, extra: string[] = []): string[] {
  const head = (command: string) => [command, '--stack', stack, '--non-interactive'];
  switch (target) {
    case 'preview':
      return [...head('preview'), '--policy-pack', POLICY_PACK, '--diff', ...extra];
    case 'up':
      return [
        ...head('up'),
        '--policy-pack',
        POLICY_PACK,
        '--diff',
        ...(extra.includes('--yes') ? [] : ['--yes']),
        ...extra,
      ];
    case 'refresh':
      return [...head('refresh'), '--yes', '--diff', ...DIRECTORY_BUCKET_EXCLUDES, ...extra];
    case 'destroy':
      return [...head('destroy'), ...extra];
    case 'drift':
      return [...head('refresh'), '--preview-only', '--json', ...DIRECTORY_BUCKET_EXCLUDES, ...extra];
    default:
      throw new Error(`no such target ${target}`);
  }
}
