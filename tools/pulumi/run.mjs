#!/usr/bin/env node
/**
 * The runner behind every stack's preview, up, refresh, destroy and drift targets.
 *
 *   checkpoints-pulumi <target> [--stack=NAME] [--cwd=DIR] [pulumi flags...]
 *
 * Checks that the Pulumi CLI on PATH is at least the version in pulumi-version.txt, then runs
 * it non-interactively in the Pulumi project folder (the current folder, or --cwd) and exits
 * with the CLI's status. Flags it does not know are passed to Pulumi unchanged.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, realpathSync } from 'node:fs';
import { constants } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const workspaceRoot = resolve(here, '..', '..');
export const versionFile = join(here, 'pulumi-version.txt');
export const policyPack = join(workspaceRoot, 'libs', 'policy');

/** Exit statuses of the runner itself (anything else is the CLI's own status). */
export const EXIT = { usage: 2, cliTooOld: 3, cliMissing: 127 };

/**
 * What each target adds after `pulumi <command> --stack <name> --non-interactive`.
 * `destroy` gets no `--yes`: in non-interactive mode Pulumi then refuses to delete anything,
 * so wiping a stack's stores always takes a deliberate `--yes` typed by a person.
 * `refresh` only rewrites the state to match the cloud, never the cloud itself.
 */
export const TARGETS = {
  preview: { command: 'preview', flags: ['--policy-pack', policyPack, '--diff'] },
  up: { command: 'up', flags: ['--policy-pack', policyPack, '--diff', '--yes'] },
  refresh: { command: 'refresh', flags: ['--yes', '--diff'] },
  destroy: { command: 'destroy', flags: [], stackRequired: true },
  drift: { command: 'preview', flags: ['--refresh', '--expect-no-changes', '--diff'] },
};

const USAGE = `usage: checkpoints-pulumi <${Object.keys(TARGETS).join('|')}> [--stack=NAME] [--cwd=DIR] [pulumi flags...]
  --stack  the Pulumi stack (the nx targets default to dev; destroy needs it named)
  --cwd    the Pulumi project folder (default: the current folder)
  Any other flag goes to the Pulumi CLI as it is, e.g. --target=URN or --yes for destroy.`;

export class UsageError extends Error {}

/** @returns {string} the minimum CLI version, e.g. "3.248.0" */
export function minimumVersion() {
  return readFileSync(versionFile, 'utf8').trim();
}

/**
 * @param {string} text e.g. "v3.248.0" or "3.248.0-alpha.1+abc"
 * @returns {[number, number, number] | undefined}
 */
export function parseVersion(text) {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/**
 * @param {[number, number, number]} version
 * @param {[number, number, number]} minimum
 */
export function isAtLeast(version, minimum) {
  for (let i = 0; i < 3; i += 1) {
    const a = version[i] ?? 0;
    const b = minimum[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** @param {string} minimum */
export function installHelp(minimum) {
  return [
    `Install Pulumi CLI ${minimum} or newer (the minimum is declared in tools/pulumi/pulumi-version.txt):`,
    `  curl -fsSL https://get.pulumi.com | sh -s -- --version ${minimum}   # Linux, macOS, WSL`,
    '  brew install pulumi/tap/pulumi                                   # Homebrew, latest release',
    '  winget install pulumi                                            # Windows',
    "then open a new shell (the installer adds ~/.pulumi/bin to PATH) and check with 'pulumi version'.",
  ].join('\n');
}

/**
 * Splits the runner's own options from the flags meant for Pulumi. Later occurrences win, so a
 * `--stack` typed by the user overrides the `--stack=dev` default nx puts first.
 * @param {string[]} argv
 */
export function parseArgs(argv) {
  const [target, ...rest] = argv;
  if (target === undefined || target === '--help' || target === '-h') throw new UsageError(USAGE);
  if (!Object.hasOwn(TARGETS, target)) {
    throw new UsageError(`unknown target '${target}'\n${USAGE}`);
  }
  /** @type {string | undefined} */
  let stack;
  /** @type {string | undefined} */
  let cwd;
  /** @type {string[]} */
  const passThrough = [];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = /** @type {string} */ (rest[i]);
    const option = /^(--stack|-s|--cwd)(?:=(.*))?$/s.exec(arg);
    if (!option) {
      passThrough.push(arg);
      continue;
    }
    let value = option[2];
    if (value === undefined) {
      value = rest[i + 1];
      i += 1;
    }
    if (value === undefined || value === '') throw new UsageError(`${option[1]} needs a value\n${USAGE}`);
    if (option[1] === '--cwd') cwd = value;
    else stack = value;
  }
  return { target: /** @type {keyof typeof TARGETS} */ (target), stack, cwd, passThrough };
}

/**
 * The exact `pulumi` argv for a target.
 * @param {keyof typeof TARGETS} target
 * @param {string} stack
 * @param {string[]} passThrough
 */
export function pulumiArgs(target, stack, passThrough) {
  const { command, flags } = TARGETS[target];
  return [command, '--stack', stack, '--non-interactive', ...flags, ...passThrough];
}

/**
 * Finds the CLI on PATH and checks its version.
 * @returns {{ ok: true, version: string } | { ok: false, status: number, message: string }}
 */
export function checkCli(env = process.env) {
  const minimum = minimumVersion();
  const probe = spawnSync('pulumi', ['version'], {
    encoding: 'utf8',
    env: { ...env, PULUMI_SKIP_UPDATE_CHECK: 'true' },
  });
  const missing = /** @type {NodeJS.ErrnoException | undefined} */ (probe.error)?.code === 'ENOENT';
  if (missing) {
    return {
      ok: false,
      status: EXIT.cliMissing,
      message: `The Pulumi CLI ('pulumi') is not on PATH.\n${installHelp(minimum)}`,
    };
  }
  const reported = `${probe.stdout ?? ''}`.trim();
  const version = parseVersion(reported);
  const minimumParts = parseVersion(minimum);
  if (!minimumParts) throw new Error(`${versionFile}: '${minimum}' is not a version like 3.248.0`);
  if (probe.status !== 0 || !version) {
    const said = reported || `${probe.stderr ?? ''}`.trim() || `exit status ${probe.status}`;
    return {
      ok: false,
      status: EXIT.cliTooOld,
      message: `'pulumi version' did not report a version (${said}).\n${installHelp(minimum)}`,
    };
  }
  if (!isAtLeast(version, minimumParts)) {
    return {
      ok: false,
      status: EXIT.cliTooOld,
      message: `Pulumi CLI ${reported} is older than the minimum ${minimum} this repository needs.\n${installHelp(minimum)}`,
    };
  }
  return { ok: true, version: reported };
}

/**
 * Runs the CLI with the terminal attached and resolves to its exit status. Ctrl-C reaches
 * Pulumi directly (same process group) and Pulumi cancels the update cleanly, so the runner
 * ignores it and waits; a SIGTERM sent to the runner alone is passed on.
 * @param {string[]} args
 * @param {string} cwd
 * @returns {Promise<number>}
 */
function runPulumi(args, cwd) {
  return new Promise((resolvePromise) => {
    const child = spawn('pulumi', args, { cwd, stdio: 'inherit' });
    const ignore = () => {};
    const forward = () => child.kill('SIGTERM');
    process.on('SIGINT', ignore);
    process.on('SIGTERM', forward);
    const done = (/** @type {number} */ status) => {
      process.off('SIGINT', ignore);
      process.off('SIGTERM', forward);
      resolvePromise(status);
    };
    child.on('error', (error) => {
      console.error(`checkpoints-pulumi: could not start pulumi: ${error.message}`);
      done(1);
    });
    child.on('exit', (code, signal) => done(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
}

/**
 * @param {string[]} argv
 * @returns {Promise<number>} the exit status
 */
export async function main(argv) {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const help = argv[0] === '--help' || argv[0] === '-h';
    (help ? console.log : console.error)(error.message);
    return help ? 0 : EXIT.usage;
  }
  const { target, cwd, passThrough } = parsed;
  const spec = TARGETS[target];
  if (parsed.stack === undefined && 'stackRequired' in spec) {
    console.error(
      `checkpoints-pulumi: ${target} needs the stack named explicitly, e.g. ` +
        `'nx run <project>:${target} --stack=dev --yes' (put every flag before '--' or after it, not on both sides: ` +
        `nx drops the flags before '--' when both are used).`,
    );
    return EXIT.usage;
  }
  const stack = parsed.stack ?? 'dev';
  const cli = checkCli();
  if (!cli.ok) {
    console.error(`checkpoints-pulumi: ${cli.message}`);
    return cli.status;
  }
  const folder = resolve(cwd ?? process.cwd());
  const args = pulumiArgs(target, stack, passThrough);
  console.error(`checkpoints-pulumi: pulumi ${args.join(' ')}  (in ${folder}, CLI ${cli.version})`);
  if (
    target === 'destroy' &&
    !passThrough.some((arg) => /^(--yes|-y|--skip-preview|--preview-only)(=true)?$/.test(arg))
  ) {
    console.error(
      'checkpoints-pulumi: no --yes given, so Pulumi will refuse to destroy anything; ' +
        'add --preview-only to see what would go, or --yes to destroy.',
    );
  }
  return runPulumi(args, folder);
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
