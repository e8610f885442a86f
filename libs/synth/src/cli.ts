import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import {
  formatPlan,
  planChanges,
  planVerdict,
  retentionOf,
  type PlannedRender,
  type PlanVerdict,
} from '@checkpoints/analysis';
import { storesOf, type Render } from '@checkpoints/render';
import { ConfigError, formatIssues, type ConfigIssue } from '@checkpoints/config';
import {
  baselinePolicies,
  evaluateStack,
  loadPolicyConfig,
  PolicyConfigError,
  policyStackOf,
} from '@checkpoints/policy';
import { render, RenderFailure } from './render';
import type { Snapshot, SnapshotAnalysis } from './snapshot';
import { readProject, readStackConfig, stackConfigFile, StackFileError, workspaceRoot } from './stack-files';
import { EXIT } from './exit-status';
import { formatTable } from './table';

export { EXIT };

const USAGE = `usage: synth [--stack=NAME] [--config-file=PATH] [--base=PATH] [--bootstrap=PATH] [--out=DIR] [--cwd=DIR]
  --stack        stack to render (default: dev); config from Pulumi.<stack>.yaml
  --config-file  any Pulumi stack config file, instead of Pulumi.<stack>.yaml
  --base         a previous render (<stack>.json) of the same stack: prints the change plan against it
  --bootstrap    the bootstrap render whose CI identities the access rules judge
                 (default: <repo>/dist/synth/bootstrap/ci.json, from 'npx nx run bootstrap:synth')
  --out          folder for <stack>.json (default: <repo>/dist/synth/<project folder>)
  --cwd          the Pulumi project folder (default: the current folder)
exit status: 0 clean, 1 a mandatory policy violated, 2 invalid config or arguments, 3 the program failed,
  with --base (the first that applies, in this order):
  4 a change would delete or replace a resource holding checkpoints or their keys (a move of the stack's
    region, account, project or subscription included)
  6 the cloud would refuse a change half-way (an update it would report done without making it is
    shown as ignored and fails nothing)
  5 a change weakens a store (shorter recovery window, purge bound or lock, earlier expiry, audit or
    perimeter removed) and the store's acknowledge.weakening does not state why in this change;
    the same in every environment`;

interface Options {
  stack: string;
  configFile?: string;
  base?: string;
  bootstrap?: string;
  out?: string;
  cwd: string;
}

function parseOptions(argv: string[]): Options | 'help' {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: {
      stack: { type: 'string' },
      'config-file': { type: 'string' },
      base: { type: 'string' },
      bootstrap: { type: 'string' },
      out: { type: 'string' },
      cwd: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return 'help';
  if (positionals.length > 0) throw new StackFileError(`unexpected argument '${positionals[0]}'`);
  const stack = values.stack ?? 'dev';
  if (!/^[A-Za-z0-9_.-]+$/.test(stack)) {
    throw new StackFileError(`--stack=${stack}: a stack name has letters, digits, '-', '_' and '.' only`);
  }
  const options: Options = { stack, cwd: values.cwd === undefined ? process.cwd() : fromUser(values.cwd) };
  if (values['config-file'] !== undefined) options.configFile = fromUser(values['config-file']);
  if (values.base !== undefined) options.base = fromUser(values.base);
  if (values.out !== undefined) options.out = fromUser(values.out);
  if (values.bootstrap !== undefined) options.bootstrap = fromUser(values.bootstrap);
  return options;
}

/**
 * A path the user typed, from the folder they typed it in: `nx run` starts synth in the project folder,
 * and npm (npx, npm run) keeps the folder it was started from in INIT_CWD.
 */
function fromUser(path: string): string {
  return resolve(process.env['INIT_CWD'] ?? process.cwd(), path);
}

/** A stack's program as a function: what requiring its `main` runs; returns the stack outputs. */
export type StackProgram = () => unknown;

/**
 * What a caller inside a process that already loaded the program's modules (a test) gives instead of the
 * project's `main`: a second `require` of a loaded module would not run the program again.
 */
export interface InProcessRun {
  /** Run instead of requiring `main`; the project's `main` must be `export = program()`. */
  program?: StackProgram;
}

/** Renders one stack offline; returns the exit status. */
export async function main(argv: string[], inProcess: InProcessRun = {}): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    const unknownFlag = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    const message = unknownFlag
      ? `unknown flag '${unknownFlag}'; allowed: --stack, --config-file, --base, --bootstrap, --out, --cwd, --help`
      : (error as Error).message;
    console.error(`synth: ${message}\n${USAGE}`);
    return EXIT.invalid;
  }
  if (options === 'help') {
    console.log(USAGE);
    return EXIT.clean;
  }
  let base: (Render & PlannedRender) | undefined;
  try {
    base = options.base === undefined ? undefined : readBaseRender(options.base);
  } catch (error) {
    console.error(`synth: ${(error as Error).message}`);
    return EXIT.invalid;
  }
  const outDir =
    options.out ??
    join(
      workspaceRoot(options.cwd),
      'dist',
      'synth',
      relative(workspaceRoot(options.cwd), options.cwd).split(/[\\/]/).pop() || 'root',
    );
  const jsonPath = join(outDir, `${options.stack}.json`);
  try {
    const snapshot = await synthesize(options, base, inProcess.program);
    if (base && base.project !== snapshot.project) {
      throw new StackFileError(
        `--base=${shownPath(options.base ?? '')}: a render of project ${base.project}, not ${snapshot.project}`,
      );
    }
    const plan = base ? planChanges(base, snapshot) : undefined;
    if (plan) snapshot.analysis.changes = plan;
    mkdirSync(outDir, { recursive: true });
    writeFileSync(jsonPath, JSON.stringify(snapshot, null, 2) + '\n');
    console.log(formatTable(snapshot, shownPath(jsonPath)));
    if (plan && options.base) console.log('\n' + formatPlan(plan, shownPath(options.base)));
    if (snapshot.violations.some((violation) => violation.level === 'mandatory')) return EXIT.violation;
    return plan ? PLAN_EXIT[planVerdict(plan)] : EXIT.clean;
  } catch (error) {
    const cause: unknown = error instanceof RenderFailure ? error.cause : error;
    if (isUserError(cause)) {
      // A program names its config Pulumi.<stack>.yaml, as Pulumi loads it; with --config-file, name that file.
      const issues = configIssuesOf(cause);
      const message =
        issues && options.configFile ? formatIssues(issues, shownPath(options.configFile)) : cause.message;
      console.error(`synth: ${message}`);
      writeFailure(jsonPath, options, EXIT.invalid, message, issues);
      return EXIT.invalid;
    }
    console.error(
      `synth: the program failed: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`,
    );
    writeFailure(
      jsonPath,
      options,
      EXIT.programFailed,
      cause instanceof Error ? cause.message : String(cause),
    );
    return EXIT.programFailed;
  }
}

/**
 * In place of the render, what stopped it: a render left from an earlier run would otherwise be read (by the
 * report, by a `--base`) as this commit's. A failure record has no `resources`, so nothing plans against it.
 */
function writeFailure(
  jsonPath: string,
  options: Options,
  exitStatus: number,
  message: string,
  issues?: readonly ConfigIssue[],
): void {
  let project: string | undefined;
  try {
    project = readProject(options.cwd).name;
  } catch {
    project = undefined;
  }
  const failure = { exitStatus, message, ...(issues ? { issues } : {}) };
  mkdirSync(dirname(jsonPath), { recursive: true });
  writeFileSync(
    jsonPath,
    JSON.stringify({ ...(project ? { project } : {}), stack: options.stack, failure }, null, 2) + '\n',
  );
}

const PLAN_EXIT: Record<PlanVerdict, number> = {
  'data-loss': EXIT.dataLoss,
  refused: EXIT.refused,
  weakening: EXIT.weakening,
  clean: EXIT.clean,
};

/** A previous render to plan against: synth's own JSON, with its resources and placement. */
function readBaseRender(path: string): Render & PlannedRender {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StackFileError(
      `--base=${shownPath(path)}: cannot read a render from it (${(error as Error).message})`,
    );
  }
  const render = parsed as Partial<Render> | null;
  if (!render || typeof render !== 'object' || !Array.isArray(render.resources)) {
    throw new StackFileError(
      `--base=${shownPath(path)}: not a render; expected the JSON synth writes (dist/synth/<project>/<stack>.json)`,
    );
  }
  const { placement } = parsed as { placement?: unknown };
  return {
    project: String(render.project),
    stack: String(render.stack),
    resources: render.resources,
    outputs: {},
    ...(placement !== null && typeof placement === 'object' && !Array.isArray(placement)
      ? { placement: placement as Record<string, string> }
      : {}),
  };
}

/** A path as the user reads it: relative to where they are, unless it lies outside. */
function shownPath(path: string): string {
  const fromHere = relative(process.cwd(), path);
  return fromHere && !fromHere.startsWith('..') ? fromHere : path;
}

/** The issues of a ConfigError, also when the program loaded its own copy of @checkpoints/config. */
function configIssuesOf(error: Error): readonly ConfigIssue[] | undefined {
  if (error instanceof ConfigError) return error.issues;
  const issues = (error as { issues?: unknown }).issues;
  return error.name === 'ConfigError' && Array.isArray(issues) ? (issues as ConfigIssue[]) : undefined;
}

/**
 * Problems the user fixes in their files: our config, stack-file and policy-config errors, and Pulumi's own
 * RunErrors (e.g. a missing required key), which carry the marker Pulumi's runner uses to hide the stack trace.
 */
function isUserError(error: unknown): error is Error {
  if (error instanceof ConfigError || error instanceof StackFileError || error instanceof PolicyConfigError)
    return true;
  return error instanceof Error && (error as { __pulumiRunError?: unknown }).__pulumiRunError === true;
}

export async function synthesize(
  options: Options,
  base?: Render,
  program?: StackProgram,
): Promise<Snapshot & { analysis: SnapshotAnalysis }> {
  const project = readProject(options.cwd);
  const file = options.configFile ?? stackConfigFile(project, options.stack);
  const stackConfig = readStackConfig(file, project);
  const snapshot = await render(program ?? requireMain(project.main), {
    project: project.name,
    stack: options.stack,
    config: stackConfig.config,
    secretKeys: stackConfig.secretKeys,
    ...(base ? { base } : {}),
  });
  const bootstrap = storesOf(snapshot).length > 0 ? readBootstrap(options) : undefined;
  const policyConfig = loadPolicyConfig(baselinePolicies.map((policy) => policy.name));
  const evaluation = await evaluateStack(
    policyStackOf(snapshot),
    baselinePolicies,
    bootstrap ? { ...policyConfig, bootstrapRender: bootstrap.path } : policyConfig,
  );
  snapshot.violations = evaluation.verdicts;
  // The analysis the access rules judged, for the table and the JSON.
  const access = bootstrap ? await evaluation.access() : undefined;
  const compliance = bootstrap ? await evaluation.compliance() : undefined;
  return {
    ...snapshot,
    analysis: {
      retention: retentionOf(snapshot),
      ...(access ? { access } : {}),
      ...(compliance ? { compliance } : {}),
    },
  };
}

/**
 * The program loaded as Pulumi's runner loads it: a CommonJS require of `main`, TypeScript through ts-node.
 * A `main` this process already loaded would not run again (its cached exports, no resource registered).
 */
function requireMain(main: string): StackProgram {
  const path = require.resolve(main);
  if (path in require.cache) {
    throw new Error(
      `${path} already ran in this process, and a second require would not run it again: pass its program function (main(argv, { program }))`,
    );
  }
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return () => require(path) as unknown;
}

/** The bootstrap render whose CI identities the access rules judge: `--bootstrap`, or the workspace's. */
function readBootstrap(options: Options): { path: string } {
  const path = options.bootstrap ?? join(workspaceRoot(options.cwd), 'dist', 'synth', 'bootstrap', 'ci.json');
  const flag = options.bootstrap
    ? `--bootstrap=${shownPath(path)}`
    : `the bootstrap render ${shownPath(path)}`;
  if (!existsSync(path)) {
    throw new StackFileError(
      `${flag}: no such file; render it with 'npx nx run bootstrap:synth' (the access rules judge CI's identities from it), or pass --bootstrap=PATH`,
    );
  }
  let render: unknown;
  try {
    render = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new StackFileError(`${flag}: not a JSON render (${(error as Error).message})`);
  }
  if (!Array.isArray((render as Partial<Render> | null)?.resources)) {
    throw new StackFileError(
      `${flag}: not a synth render (no 'resources' list); pass the JSON 'synth' writes`,
    );
  }
  return { path };
}
