import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ConfigError, formatIssues, type ConfigIssue } from '@checkpoints/config';
import { storesOf, type Render } from '@checkpoints/analysis';
import {
  accessOfRender,
  baselinePolicies,
  BOOTSTRAP_RENDER_ENV,
  evaluatePolicies,
  PolicyConfigError,
} from '@checkpoints/policy';
import { render, RenderFailure } from './render';
import type { Snapshot } from './snapshot';
import { readProject, readStackConfig, stackConfigFile, StackFileError, workspaceRoot } from './stack-files';
import { formatTable } from './table';

export const EXIT = { clean: 0, violation: 1, invalid: 2, programFailed: 3 } as const;

const USAGE = `usage: synth [--stack=NAME] [--config-file=PATH] [--bootstrap=PATH] [--out=DIR] [--cwd=DIR]
  --stack        stack to render (default: dev); config from Pulumi.<stack>.yaml
  --config-file  any Pulumi stack config file, instead of Pulumi.<stack>.yaml
  --bootstrap    the bootstrap render whose CI identities the access rules judge
                 (default: <repo>/dist/synth/bootstrap/ci.json, from 'npx nx run bootstrap:synth')
  --out          folder for <stack>.json (default: <repo>/dist/synth/<project folder>)
  --cwd          the Pulumi project folder (default: the current folder)
exit status: 0 clean, 1 a mandatory policy violated, 2 invalid config or arguments, 3 the program failed`;

interface Options {
  stack: string;
  configFile?: string;
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
  const options: Options = { stack, cwd: resolve(values.cwd ?? process.cwd()) };
  if (values['config-file'] !== undefined) options.configFile = resolve(values['config-file']);
  if (values.bootstrap !== undefined) options.bootstrap = resolve(values.bootstrap);
  if (values.out !== undefined) options.out = resolve(values.out);
  return options;
}

/** Renders one stack offline; returns the exit status. */
export async function main(argv: string[]): Promise<number> {
  let options: Options | 'help';
  try {
    options = parseOptions(argv);
  } catch (error) {
    const unknownFlag = /Unknown option '([^']+)'/.exec((error as Error).message)?.[1];
    const message = unknownFlag
      ? `unknown flag '${unknownFlag}'; allowed: --stack, --config-file, --bootstrap, --out, --cwd, --help`
      : (error as Error).message;
    console.error(`synth: ${message}\n${USAGE}`);
    return EXIT.invalid;
  }
  if (options === 'help') {
    console.log(USAGE);
    return EXIT.clean;
  }
  try {
    const snapshot = await synthesize(options);
    const outDir =
      options.out ??
      join(
        workspaceRoot(options.cwd),
        'dist',
        'synth',
        relative(workspaceRoot(options.cwd), options.cwd).split(/[\\/]/).pop() || 'root',
      );
    mkdirSync(outDir, { recursive: true });
    const jsonPath = join(outDir, `${options.stack}.json`);
    writeFileSync(jsonPath, JSON.stringify(snapshot, null, 2) + '\n');
    console.log(formatTable(snapshot, shownPath(jsonPath)));
    return snapshot.violations.some((violation) => violation.level === 'mandatory')
      ? EXIT.violation
      : EXIT.clean;
  } catch (error) {
    const cause: unknown = error instanceof RenderFailure ? error.cause : error;
    if (isUserError(cause)) {
      // A program names its config Pulumi.<stack>.yaml, as Pulumi loads it; with --config-file, name that file.
      const issues = configIssuesOf(cause);
      const message =
        issues && options.configFile ? formatIssues(issues, shownPath(options.configFile)) : cause.message;
      console.error(`synth: ${message}`);
      return EXIT.invalid;
    }
    console.error(
      `synth: the program failed: ${cause instanceof Error ? (cause.stack ?? cause.message) : String(cause)}`,
    );
    return EXIT.programFailed;
  }
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

export async function synthesize(options: Options): Promise<Snapshot> {
  const project = readProject(options.cwd);
  const file = options.configFile ?? stackConfigFile(project, options.stack);
  const stackConfig = readStackConfig(file, project);
  // Loaded as Pulumi's runner loads it: a CommonJS require of `main`, TypeScript through ts-node.
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const snapshot = await render(() => require(project.main), {
    project: project.name,
    stack: options.stack,
    config: stackConfig.config,
    secretKeys: stackConfig.secretKeys,
  });
  const bootstrap = storesOf(snapshot).length > 0 ? readBootstrap(options) : undefined;
  const previous = process.env[BOOTSTRAP_RENDER_ENV];
  if (bootstrap) process.env[BOOTSTRAP_RENDER_ENV] = bootstrap.path;
  try {
    snapshot.violations = await evaluatePolicies(
      {
        project: snapshot.project,
        stack: snapshot.stack,
        outputs: snapshot.outputs,
        resources: snapshot.resources.map((resource) => ({
          urn: resource.urn,
          type: resource.type,
          name: resource.name,
          props: resource.inputs,
          opts: {
            protect: resource.protect,
            retainOnDelete: resource.retainOnDelete,
            parent: resource.parent,
            dependsOn: resource.dependsOn,
            propertyDependencies: resource.propertyDependencies,
            ...(resource.provider ? { provider: resource.provider } : {}),
          },
        })),
      },
      baselinePolicies,
    );
    // The analysis the access rules judged, for the table and the JSON.
    if (bootstrap) snapshot.analysis = { access: await accessOfRender(snapshot.resources) };
  } finally {
    if (previous === undefined) delete process.env[BOOTSTRAP_RENDER_ENV];
    else process.env[BOOTSTRAP_RENDER_ENV] = previous;
  }
  return snapshot;
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
