/**
 * The runner behind every stack's preview, up, refresh, destroy and drift targets.
 *
 *   checkpoints-pulumi <target> [--stack=NAME] [--cwd=DIR] [pulumi flags...]
 *
 * Checks that the Pulumi CLI on PATH is at least the version in pulumi-version.txt, that it is
 * logged in to a state backend and that the stack exists there (each with the fix when not), then
 * runs it in the Pulumi project folder (the current folder, or --cwd) and exits with the CLI's
 * status. Flags it does not know are passed to Pulumi unchanged.
 *
 * Every target runs `--non-interactive`, except a local `up` in a terminal: that one runs Pulumi
 * interactively, so Pulumi shows the preview and asks before it changes anything. `up` gets
 * `--yes` only in CI (CI=true) or when the user passes it. The command line is run.mjs.
 */
const { spawn, spawnSync } = require('node:child_process');
const {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} = require('node:fs');
const { constants, tmpdir } = require('node:os');
const { dirname, join, resolve } = require('node:path');
const { println, processIo } = require('./process-io.cjs');

const workspaceRoot = resolve(__dirname, '..', '..');
const versionFile = join(__dirname, 'pulumi-version.txt');
const policyPack = join(workspaceRoot, 'libs', 'policy');

/**
 * Exit statuses of the runner itself (anything else is the CLI's own status). notReady: no
 * state backend the CLI can open, or no such stack in it.
 */
const EXIT = { usage: 2, cliTooOld: 3, notReady: 4, cliMissing: 127 };

/** Exit statuses of the drift target: anything but clean or drifted means the check did not happen. */
const DRIFT = { clean: 0, drifted: 1, couldNotCheck: 5 };

/** Flags by which a user confirms an `up` or `destroy` up front. */
const YES = /^(--yes|-y)(=true)?$/;

/**
 * What each target adds after `pulumi <command> --stack <name> --non-interactive`.
 * `up` adds `--yes` only when confirmed up front (see upMode). `destroy` gets no `--yes`: in
 * non-interactive mode Pulumi then refuses to delete anything, so wiping a stack's stores always
 * takes a deliberate `--yes` typed by a person. `refresh` only rewrites the state to match the
 * cloud, never the cloud itself. `drift` is the preview of a refresh, read as JSON (see driftVerdict):
 * it compares the state with the cloud, so it sees every change made outside Pulumi, also to
 * properties the program does not set (https://www.pulumi.com/docs/deployments/concepts/drift/:
 * "Pulumi Cloud detects drift by running a preview-only refresh against your stack").
 */
/**
 * What a refresh leaves out by default, `refresh` and `drift` alike, as `pulumi refresh --exclude` globs (`*` is
 * any text without `:`, `**` any text: UrnTargets in pulumi/pulumi pkg/resource/deploy;
 * https://www.pulumi.com/docs/iac/cli/commands/pulumi_refresh/). An S3 Express directory bucket: the provider
 * reads it with HeadBucket, which S3 authorises only through a data session
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html), and neither CI identity may open one
 * (the preview role the drift check runs as, nor the deploy role). Its encryption, policy and lifecycle
 * resources are still refreshed, through the Regional endpoint: a bucket deleted outside Pulumi shows as their
 * deletion (docs/aws.md, Drift). The same types are CI_UNREFRESHED_TYPES of the rights model (libs/analysis),
 * which a bootstrap test holds equal. `--include-directory-buckets` refreshes them too, for credentials that may
 * open a session (an administrator's).
 */
const DIRECTORY_BUCKET_EXCLUDES = ['**aws:s3/directoryBucket:DirectoryBucket::*'];

/** The runner's flag that refreshes the directory buckets too (refresh and drift). */
const INCLUDE_DIRECTORY_BUCKETS = '--include-directory-buckets';

const TARGETS = {
  preview: { command: 'preview', flags: ['--policy-pack', policyPack, '--diff'] },
  up: { command: 'up', flags: ['--policy-pack', policyPack, '--diff'] },
  refresh: { command: 'refresh', flags: ['--yes', '--diff'], excludes: DIRECTORY_BUCKET_EXCLUDES },
  destroy: { command: 'destroy', flags: [], stackRequired: true },
  drift: {
    command: 'refresh',
    flags: ['--preview-only', '--json'],
    excludes: DIRECTORY_BUCKET_EXCLUDES,
  },
};

const USAGE = `usage: checkpoints-pulumi <${Object.keys(TARGETS).join('|')}> [--stack=NAME] [--cwd=DIR] [pulumi flags...]
  --stack  the Pulumi stack (the nx targets default to dev; destroy needs it named)
  --cwd    the Pulumi project folder (default: the current folder)
  --summary=FILE  preview and up: also write what changed and every policy violation to FILE (JSON)
  --include-directory-buckets  refresh and drift: refresh the S3 Express directory buckets too, which they
           leave out by default (reading one opens a data session: s3express:CreateSession)
  Any other flag goes to the Pulumi CLI as it is, e.g. --target=URN or --yes for destroy.`;

class UsageError extends Error {}

/** @returns {string} the minimum CLI version, e.g. "3.248.0" */
function minimumVersion() {
  return readFileSync(versionFile, 'utf8').trim();
}

/**
 * @param {string} text e.g. "v3.248.0" or "3.248.0-alpha.1+abc"
 * @returns {[number, number, number] | undefined}
 */
function parseVersion(text) {
  const match = /(\d+)\.(\d+)\.(\d+)/.exec(text);
  return match ? [Number(match[1]), Number(match[2]), Number(match[3])] : undefined;
}

/**
 * @param {[number, number, number]} version
 * @param {[number, number, number]} minimum
 */
function isAtLeast(version, minimum) {
  for (let i = 0; i < 3; i += 1) {
    const a = version[i] ?? 0;
    const b = minimum[i] ?? 0;
    if (a !== b) return a > b;
  }
  return true;
}

/** @param {string} minimum */
function installHelp(minimum) {
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
function parseArgs(argv) {
  const [target, ...rest] = argv;
  if (target === undefined || target === '--help' || target === '-h') throw new UsageError(USAGE);
  if (!Object.hasOwn(TARGETS, target)) {
    throw new UsageError(`unknown target '${target}'\n${USAGE}`);
  }
  /** @type {string | undefined} */
  let stack;
  /** @type {string | undefined} */
  let cwd;
  /** @type {string | undefined} */
  let summary;
  let includeDirectoryBuckets = false;
  /** @type {string[]} */
  const passThrough = [];
  for (let i = 0; i < rest.length; i += 1) {
    const arg = /** @type {string} */ (rest[i]);
    // nx forwards a bare boolean flag as `--flag=true`.
    const include = /^--include-directory-buckets(?:=(true|false))?$/.exec(arg);
    if (include) {
      if (!('excludes' in TARGETS[/** @type {keyof typeof TARGETS} */ (target)])) {
        throw new UsageError(
          `${INCLUDE_DIRECTORY_BUCKETS} is for refresh and drift only, not ${target}\n${USAGE}`,
        );
      }
      includeDirectoryBuckets = include[1] !== 'false';
      continue;
    }
    const option = /^(--stack|-s|--cwd|--summary)(?:=(.*))?$/s.exec(arg);
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
    else if (option[1] === '--summary') summary = value;
    else stack = value;
  }
  if (summary !== undefined && target !== 'preview' && target !== 'up') {
    throw new UsageError(`--summary is for preview and up only, not ${target}\n${USAGE}`);
  }
  return {
    target: /** @type {keyof typeof TARGETS} */ (target),
    stack,
    cwd,
    summary,
    includeDirectoryBuckets,
    passThrough,
  };
}

/**
 * How an `up` is confirmed: `yes` when CI=true or the user passed --yes (Pulumi applies at once),
 * `ask` in a terminal (Pulumi runs interactively, shows the preview and asks), `refuse` otherwise.
 * @param {string[]} passThrough
 * @param {{ ci: boolean, terminal: boolean }} context
 * @returns {'yes' | 'ask' | 'refuse'}
 */
function upMode(passThrough, context) {
  if (context.ci || passThrough.some((arg) => YES.test(arg))) return 'yes';
  return context.terminal ? 'ask' : 'refuse';
}

/**
 * The exact `pulumi` argv for a target.
 * @param {keyof typeof TARGETS} target
 * @param {string} stack
 * @param {string[]} passThrough
 * @param {'yes' | 'ask' | 'refuse'} [confirm] how an `up` is confirmed
 * @param {{ includeDirectoryBuckets?: boolean }} [options] refresh the directory buckets too
 */
function pulumiArgs(target, stack, passThrough, confirm = 'refuse', options = {}) {
  const spec = TARGETS[target];
  const { command, flags } = spec;
  if (target === 'up' && confirm === 'ask') return [command, '--stack', stack, ...flags, ...passThrough];
  const yes =
    target === 'up' && confirm === 'yes' && !passThrough.some((arg) => YES.test(arg)) ? ['--yes'] : [];
  const excludes =
    'excludes' in spec && !options.includeDirectoryBuckets
      ? spec.excludes.flatMap((glob) => ['--exclude', glob])
      : [];
  return [command, '--stack', stack, '--non-interactive', ...flags, ...excludes, ...yes, ...passThrough];
}

/**
 * Finds the CLI on PATH and checks its version.
 * @returns {{ ok: true, version: string } | { ok: false, status: number, message: string }}
 */
function checkCli(env = process.env) {
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

/** @param {import('node:child_process').SpawnSyncReturns<string>} result */
function said(result) {
  return `${result.stderr ?? ''}${result.stdout ?? ''}`.trim() || `exit status ${result.status}`;
}

/** @param {string} text output that ends with a JSON document */
function jsonIn(text) {
  const start = text.search(/^[[{]/m);
  if (start < 0) return undefined;
  try {
    return JSON.parse(text.slice(start));
  } catch {
    return undefined;
  }
}

/**
 * How a child process's output reaches the runner's: this process's own stream is handed on, so a
 * terminal stays one for Pulumi; any other is piped to it (see `copyOutput`).
 * @param {import('./process-io.cjs').Output} output
 * @param {NodeJS.WriteStream} own
 * @returns {'inherit' | 'pipe'}
 */
function childOutput(output, own) {
  return output === own ? 'inherit' : 'pipe';
}

/**
 * Copies a piped child output (see `childOutput`) to where the runner writes.
 * @param {import('node:stream').Readable | null} piped
 * @param {import('./process-io.cjs').Output} output
 */
function copyOutput(piped, output) {
  piped?.setEncoding('utf8').on('data', (chunk) => output.write(chunk));
}

/**
 * Whether the CLI reaches a state backend and the stack exists in it, with the fix when not.
 * In CI, `up` creates a missing stack on a Pulumi Cloud backend (its secrets provider keeps the
 * keys in the service, so nothing needs writing back to the stack file); on a self-managed
 * backend the passphrase provider writes a salt into Pulumi.<stack>.yaml, which a CI checkout would
 * lose, so there the stack is created once by a person. For the same reason a CI preview of a stack
 * that does not exist yet on Pulumi Cloud is no error (`firstDeploy`): its first deploy creates it.
 * @param {{ target: string, stack: string, folder: string, ci: boolean }} context
 * @param {import('./process-io.cjs').Io} [io]
 * @returns {{ ok: true, firstDeploy?: string } | { ok: false, message: string }}
 */
function checkBackend({ target, stack, folder, ci }, io = processIo()) {
  const pulumi = (/** @type {string[]} */ args) =>
    spawnSync('pulumi', [...args, '--non-interactive'], { cwd: folder, encoding: 'utf8', env: io.env });
  const configured = io.env['PULUMI_BACKEND_URL'];
  const whoami = pulumi(['whoami', '--json']);
  if (whoami.status !== 0) {
    const fix = configured
      ? `PULUMI_BACKEND_URL is ${configured}: check that the bucket or container exists and that this shell's ` +
        'cloud credentials can read and write it (docs/deploy.md, "State backends").'
      : "log in once with 'pulumi login' (Pulumi Cloud; or set PULUMI_ACCESS_TOKEN) or " +
        "'pulumi login s3://<bucket>' (gs://, azblob://), or set PULUMI_BACKEND_URL (docs/deploy.md).";
    return {
      ok: false,
      message: `the Pulumi CLI is not logged in to a state backend it can open (${said(whoami)}).\nFix: ${fix}`,
    };
  }
  const url = String(jsonIn(whoami.stdout)?.url ?? configured ?? 'the current backend');
  const listed = pulumi(['stack', 'ls', '--json']);
  const stacks = jsonIn(listed.stdout);
  if (listed.status !== 0 || !Array.isArray(stacks)) {
    return { ok: false, message: `could not list the stacks in ${url} from ${folder} (${said(listed)}).` };
  }
  const names = stacks.map((entry) => String(entry?.name ?? ''));
  if (names.some((name) => name === stack || name.endsWith(`/${stack}`) || stack.endsWith(`/${name}`))) {
    return { ok: true };
  }
  const createdByDeploy = ci && /^https:\/\//.test(url);
  if (target === 'preview' && createdByDeploy) {
    return {
      ok: true,
      firstDeploy: `stack '${stack}' does not exist in ${url} yet: its first deploy creates it`,
    };
  }
  if (target === 'up' && createdByDeploy) {
    println(
      io.stderr,
      `checkpoints-pulumi: stack '${stack}' is new in ${url}: creating it (pulumi stack init).`,
    );
    const created = spawnSync('pulumi', ['stack', 'init', stack, '--non-interactive'], {
      cwd: folder,
      env: io.env,
      encoding: 'utf8',
      stdio: ['inherit', childOutput(io.stdout, process.stdout), childOutput(io.stderr, process.stderr)],
    });
    if (created.stdout) io.stdout.write(created.stdout);
    if (created.stderr) io.stderr.write(created.stderr);
    if (created.status === 0) return { ok: true };
    return { ok: false, message: `'pulumi stack init ${stack}' failed (exit status ${created.status}).` };
  }
  return {
    ok: false,
    message:
      `stack '${stack}' does not exist in ${url} (stacks there for this project: ${names.join(', ') || 'none'}).\n` +
      `Fix: create it once, from ${folder}: 'pulumi stack init ${stack}' ` +
      '(add --secrets-provider=awskms://..., gcpkms://... or azurekeyvault://... to keep its secrets in a cloud key; ' +
      'docs/deploy.md, "First deploy").',
  };
}

/**
 * What a preview of a refresh found: the resources whose cloud state differs from the recorded one.
 * The verdict is the change summary (a refresh step counts as the update or delete it would make);
 * the list names each step that reports a difference.
 * @param {unknown} digest the `--json` output of `pulumi refresh --preview-only`
 * @returns {{ ok: true, changes: Record<string, number>, resources: string[] } | { ok: false }}
 */
function driftVerdict(digest) {
  const summary = /** @type {{ changeSummary?: Record<string, unknown> } | undefined} */ (digest)
    ?.changeSummary;
  if (!summary || typeof summary !== 'object') return { ok: false };
  /** @type {Record<string, number>} */
  const changes = {};
  for (const [op, n] of Object.entries(summary)) {
    if (op !== 'same' && typeof n === 'number' && n > 0) changes[op] = n;
  }
  const steps = /** @type {{ steps?: Array<Record<string, unknown>> }} */ (digest).steps ?? [];
  const resources = steps
    .filter((step) => {
      const diff = /** @type {unknown[] | undefined} */ (step['diffReasons']) ?? [];
      const detailed = /** @type {Record<string, unknown> | undefined} */ (step['detailedDiff']) ?? {};
      if (step['op'] === 'same') return false;
      return step['op'] !== 'refresh' || diff.length > 0 || Object.keys(detailed).length > 0;
    })
    .map((step) => `${step['op']} ${step['urn']}`);
  return { ok: true, changes, resources };
}

/**
 * Runs the CLI with the terminal attached (when the runner writes to its own process's streams, see
 * `childOutput`) and resolves to its exit status and, when asked, what it printed on stdout. Ctrl-C reaches Pulumi directly (same process group) and Pulumi
 * cancels the update cleanly, so the runner ignores it and waits; a SIGTERM sent to the runner
 * alone is passed on.
 * @param {string[]} args
 * @param {string} cwd
 * @param {import('./process-io.cjs').Io} io
 * @param {{ captureStdout?: boolean, env?: NodeJS.ProcessEnv }} [options]
 * @returns {Promise<{ status: number, stdout: string }>}
 */
function runPulumi(args, cwd, io, options = {}) {
  return new Promise((resolvePromise) => {
    const child = spawn('pulumi', args, {
      cwd,
      env: options.env ?? io.env,
      stdio: [
        'inherit',
        options.captureStdout ? 'pipe' : childOutput(io.stdout, process.stdout),
        childOutput(io.stderr, process.stderr),
      ],
    });
    let stdout = '';
    if (options.captureStdout) {
      child.stdout?.setEncoding('utf8').on('data', (chunk) => {
        stdout += chunk;
      });
    } else {
      copyOutput(child.stdout, io.stdout);
    }
    copyOutput(child.stderr, io.stderr);
    const ignore = () => {};
    const forward = () => child.kill('SIGTERM');
    process.on('SIGINT', ignore);
    process.on('SIGTERM', forward);
    const done = (/** @type {number} */ status) => {
      process.off('SIGINT', ignore);
      process.off('SIGTERM', forward);
      resolvePromise({ status, stdout });
    };
    child.on('error', (error) => {
      println(io.stderr, `checkpoints-pulumi: could not start pulumi: ${error.message}`);
      done(1);
    });
    child.on('close', (code, signal) => done(code ?? 128 + (signal ? constants.signals[signal] : 0)));
  });
}

/**
 * Reports the drift check's outcome and returns its exit status (DRIFT).
 * @param {{ status: number, stdout: string }} result
 * @param {string} stack
 * @param {import('./process-io.cjs').Io} io
 */
function reportDrift(result, stack, io) {
  const status = driftStatus(result, stack, io);
  // In GitHub Actions the verdict is also the step's `drift` output, so the workflow tells drift
  // from a check that did not run without reading exit statuses.
  const output = io.env['GITHUB_OUTPUT'];
  if (output) {
    const verdict = status === DRIFT.clean ? 'clean' : status === DRIFT.drifted ? 'drifted' : 'unchecked';
    appendFileSync(output, `drift=${verdict}\n`);
  }
  return status;
}

/**
 * @param {{ status: number, stdout: string }} result
 * @param {string} stack
 * @param {import('./process-io.cjs').Io} io
 */
function driftStatus(result, stack, io) {
  const verdict = driftVerdict(jsonIn(result.stdout));
  if (result.status !== 0 || !verdict.ok) {
    println(
      io.stderr,
      `checkpoints-pulumi: drift of '${stack}' could not be checked: pulumi exited ${result.status}` +
        (verdict.ok ? '' : ' without a change summary') +
        '. This is not drift: fix the error above and run the check again.',
    );
    return DRIFT.couldNotCheck;
  }
  const ops = Object.entries(verdict.changes);
  if (ops.length === 0) {
    println(
      io.stdout,
      `checkpoints-pulumi: no drift: every resource of '${stack}' matches its recorded state.`,
    );
    return DRIFT.clean;
  }
  println(
    io.stdout,
    `checkpoints-pulumi: DRIFT in '${stack}': ${ops.map(([op, n]) => `${n} to ${op}`).join(', ')} ` +
      'if the state were refreshed from the cloud:',
  );
  for (const resource of verdict.resources) println(io.stdout, `  ${resource}`);
  println(
    io.stdout,
    `See the differences with 'pulumi refresh --preview-only --diff --stack ${stack}'; undo them with ` +
      "'nx run <project>:up', or accept them with 'nx run <project>:refresh' and change the program to match.",
  );
  return DRIFT.drifted;
}

/**
 * What a preview or update did, from Pulumi's engine event log (one JSON event per line; the
 * event types are apitype.EngineEvent in pulumi/pulumi sdk/go/common/apitype/events.go): the
 * summary event's `resourceChanges` (count per operation: create, update, replace, delete, same,
 * ...) and every policy event (`policyName`, `enforcementLevel` mandatory | warning | remediate,
 * `resourceUrn`, `message`).
 * @param {string} log the event log's text
 * @returns {{ changes: Record<string, number> | null, violations: Array<{ policy: string, level: string, urn: string, message: string }> }}
 */
function summarizeEvents(log) {
  /** @type {Record<string, number> | null} */
  let changes = null;
  /** @type {Array<{ policy: string, level: string, urn: string, message: string }>} */
  const violations = [];
  for (const line of log.split('\n')) {
    if (line.trim() === '') continue;
    let event;
    try {
      event = JSON.parse(line);
    } catch {
      continue;
    }
    if (event?.summaryEvent?.resourceChanges) changes = { ...event.summaryEvent.resourceChanges };
    const policy = event?.policyEvent;
    if (policy) {
      violations.push({
        policy: String(policy.policyName ?? ''),
        level: String(policy.enforcementLevel ?? ''),
        urn: String(policy.resourceUrn ?? ''),
        message: String(policy.message ?? '').trim(),
      });
    }
  }
  return { changes, violations };
}

/**
 * Runs a preview or up with an engine event log and writes its summary to `file`. The event log
 * flag is one of Pulumi's debug commands, so PULUMI_DEBUG_COMMANDS turns it on for this run.
 * @param {string[]} args
 * @param {string} folder
 * @param {{ file: string, stack: string, command: string }} summary
 * @param {import('./process-io.cjs').Io} io
 */
async function runWithSummary(args, folder, summary, io) {
  const log = join(mkdtempSync(join(tmpdir(), 'checkpoints-events-')), 'events.jsonl');
  const result = await runPulumi([...args, '--event-log', log], folder, io, {
    env: { ...io.env, PULUMI_DEBUG_COMMANDS: 'true' },
  });
  const events = summarizeEvents(existsSync(log) ? readFileSync(log, 'utf8') : '');
  rmSync(dirname(log), { recursive: true, force: true });
  writeSummary(resolve(io.cwd, summary.file), {
    stack: summary.stack,
    command: summary.command,
    folder,
    status: result.status === 0 ? 'succeeded' : 'failed',
    exitStatus: result.status,
    ...events,
  });
  return result.status;
}

/**
 * The summary file `--summary` asks for: status `succeeded`, `failed` (with Pulumi's exit status) or
 * `new-stack` (nothing deployed yet, nothing previewed), and what changed.
 * @param {string} file an absolute path
 * @param {Record<string, unknown>} summary
 */
function writeSummary(file, summary) {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify({ changes: null, violations: [], ...summary }, null, 2)}\n`);
}

/** @param {NodeJS.ProcessEnv} env */
function inCi(env = process.env) {
  const value = env['CI'];
  return value !== undefined && value !== '' && value !== 'false' && value !== '0';
}

/**
 * @param {string[]} argv
 * @param {import('./process-io.cjs').Io} [io] the environment, folder, terminal and output the runner uses
 * @returns {Promise<number>} the exit status
 */
async function main(argv, io = processIo()) {
  let parsed;
  try {
    parsed = parseArgs(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    const help = argv[0] === '--help' || argv[0] === '-h';
    println(help ? io.stdout : io.stderr, error.message);
    return help ? 0 : EXIT.usage;
  }
  const { target, cwd, includeDirectoryBuckets, passThrough } = parsed;
  const spec = TARGETS[target];
  if (parsed.stack === undefined && 'stackRequired' in spec) {
    println(
      io.stderr,
      `checkpoints-pulumi: ${target} needs the stack named explicitly, e.g. ` +
        `'nx run <project>:${target} --stack=dev --yes' (put every flag before '--' or after it, not on both sides: ` +
        `nx drops the flags before '--' when both are used).`,
    );
    return EXIT.usage;
  }
  const stack = parsed.stack ?? 'dev';
  const ci = inCi(io.env);
  const confirm = target === 'up' ? upMode(passThrough, { ci, terminal: io.stdinIsTTY }) : 'refuse';
  if (target === 'up' && confirm === 'refuse') {
    println(
      io.stderr,
      `checkpoints-pulumi: up changes the cloud, so it asks first, and there is no terminal to ask in. ` +
        `Run it in a terminal, or confirm up front with --yes ('nx run <project>:up --stack=${stack} --yes').`,
    );
    return EXIT.usage;
  }
  const cli = checkCli(io.env);
  if (!cli.ok) {
    println(io.stderr, `checkpoints-pulumi: ${cli.message}`);
    return cli.status;
  }
  const folder = resolve(io.cwd, cwd ?? '.');
  const backend = checkBackend({ target, stack, folder, ci }, io);
  if (!backend.ok) {
    println(io.stderr, `checkpoints-pulumi: ${backend.message}`);
    return EXIT.notReady;
  }
  if (backend.firstDeploy) {
    println(
      io.stderr,
      `checkpoints-pulumi: ${backend.firstDeploy}; nothing to preview against, so its offline render is its preview.`,
    );
    if (parsed.summary !== undefined) {
      writeSummary(resolve(io.cwd, parsed.summary), {
        stack,
        command: spec.command,
        folder,
        status: 'new-stack',
      });
    }
    return 0;
  }
  const args = pulumiArgs(target, stack, passThrough, confirm, { includeDirectoryBuckets });
  println(io.stderr, `checkpoints-pulumi: pulumi ${args.join(' ')}  (in ${folder}, CLI ${cli.version})`);
  if (target === 'refresh' && !includeDirectoryBuckets) {
    println(
      io.stderr,
      'checkpoints-pulumi: any S3 Express directory bucket of the stack is left out of this refresh (its ' +
        'encryption, policy and lifecycle are not): reading one opens a data session (s3express:CreateSession), ' +
        `which CI roles may not. Add ${INCLUDE_DIRECTORY_BUCKETS} with credentials that may open one.`,
    );
  }
  if (
    target === 'destroy' &&
    !passThrough.some((arg) => /^(--yes|-y|--skip-preview|--preview-only)(=true)?$/.test(arg))
  ) {
    println(
      io.stderr,
      'checkpoints-pulumi: no --yes given, so Pulumi will refuse to destroy anything; ' +
        'add --preview-only to see what would go, or --yes to destroy.',
    );
  }
  if (target === 'drift') {
    return reportDrift(await runPulumi(args, folder, io, { captureStdout: true }), stack, io);
  }
  if (parsed.summary !== undefined) {
    return runWithSummary(args, folder, { file: parsed.summary, stack, command: spec.command }, io);
  }
  const { status } = await runPulumi(args, folder, io);
  if (target === 'refresh' && includeDirectoryBuckets && status !== 0) {
    println(
      io.stderr,
      `checkpoints-pulumi: the refresh failed with ${INCLUDE_DIRECTORY_BUCKETS}: if the error above is ` +
        'AccessDenied on CreateSession (or HeadBucket) of a *--x-s3 bucket, these credentials may not open an ' +
        `S3 Express data session; run the refresh without ${INCLUDE_DIRECTORY_BUCKETS}, or as an administrator.`,
    );
  }
  return status;
}

module.exports = {
  versionFile,
  policyPack,
  EXIT,
  DRIFT,
  DIRECTORY_BUCKET_EXCLUDES,
  INCLUDE_DIRECTORY_BUCKETS,
  TARGETS,
  UsageError,
  minimumVersion,
  parseVersion,
  isAtLeast,
  installHelp,
  parseArgs,
  upMode,
  pulumiArgs,
  checkCli,
  checkBackend,
  driftVerdict,
  summarizeEvents,
  inCi,
  main,
};
