import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main, type StackProgram } from './cli';
import { readProject, readStackConfig, stackConfigFile, workspaceRoot } from './stack-files';

export interface SynthRun {
  status: number;
  stdout: string;
  stderr: string;
  /** The JSON render synth wrote (`<out>/<stack>.json`). */
  renderPath: string;
  /** The bootstrap render the run's access rules judged CI's identities from (its `--bootstrap`). */
  bootstrapPath: string;
}

/*
 * What the runs of this module copy made. A test file keeps the copy it first loaded through
 * `@checkpoints/synth` (which holds on to it across `jest.resetModules()`), so these outlive a reload.
 */
/** Every temporary folder the runs made (their configs and renders). */
const runDirs: string[] = [];
/** The clean base runs of runSynthAgainst, by project folder and config. */
const baseRuns = new Map<string, SynthRun>();
/** The workspace's bootstrap render, made by the first run that needed one. */
let bootstrapRenderPath: string | undefined;

function runDir(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  runDirs.push(dir);
  return dir;
}

/** Removes every folder the runs of this test file wrote, the bootstrap render's included (call in `afterAll`). */
export function removeSynthRuns(): void {
  for (const dir of runDirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  baseRuns.clear();
  bootstrapRenderPath = undefined;
}

/**
 * Runs `checkpoints-synth` in this process on a project folder with the given stack config (`namespace:key`
 * -> value, as in a Pulumi.<stack>.yaml `config:` block), capturing what it prints. `program` is the
 * project's program function (its `main` is `export = program()`), run instead of requiring `main`, so the
 * SDK and provider modules load once per process; without it `main` is required, which runs the program
 * only once per module registry (under jest: after `jest.resetModules()`).
 */
export async function runSynth(
  projectDir: string,
  config: Record<string, unknown>,
  extraArgs: readonly string[] = [],
  program?: StackProgram,
  stack = 'dev',
): Promise<SynthRun> {
  const given = extraArgs.find((arg) => arg.startsWith('--bootstrap='));
  const bootstrapPath = given ? given.slice('--bootstrap='.length) : await bootstrapRender(projectDir);
  const bootstrap = given ? [] : [`--bootstrap=${bootstrapPath}`];
  const dir = runDir('synth-run-');
  const configFile = join(dir, `Pulumi.${stack}.yaml`);
  writeFileSync(configFile, JSON.stringify({ config }));
  const out = join(dir, 'out');
  mkdirSync(out);
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (text: string) => void stdout.push(text);
  console.error = (text: string) => void stderr.push(text);
  try {
    const status = await main(
      [
        `--cwd=${projectDir}`,
        `--stack=${stack}`,
        `--config-file=${configFile}`,
        `--out=${out}`,
        ...bootstrap,
        ...extraArgs,
      ],
      program ? { program } : {},
    );
    return {
      status,
      stdout: stdout.join('\n'),
      stderr: stderr.join('\n'),
      renderPath: join(out, `${stack}.json`),
      bootstrapPath,
    };
  } finally {
    console.log = log;
    console.error = error;
  }
}

/**
 * Renders `before`, then `after` with `--base` against that render, as a pull request does, both with the
 * project's program function (see runSynth), as stack `stack`. A `before` already rendered by this test file
 * is not rendered again: the same config gives the same render. Throws when `before` does not render cleanly.
 */
export async function runSynthAgainst(
  projectDir: string,
  before: Record<string, unknown>,
  after: Record<string, unknown>,
  program: StackProgram,
  stack = 'dev',
): Promise<SynthRun> {
  const base = await cleanBaseRun(projectDir, before, program, stack);
  return runSynth(projectDir, after, [`--base=${base.renderPath}`], program, stack);
}

async function cleanBaseRun(
  projectDir: string,
  config: Record<string, unknown>,
  program: StackProgram,
  stack: string,
): Promise<SynthRun> {
  const key = JSON.stringify([projectDir, stack, config]);
  const cached = baseRuns.get(key);
  if (cached) return cached;
  const base = await runSynth(projectDir, config, [], program, stack);
  if (base.status !== 0)
    throw new Error(`the base config did not render (exit ${base.status}): ${base.stderr}`);
  baseRuns.set(key, base);
  return base;
}

/** A run in this process next to a run that loaded everything afresh, with the JSON each wrote. */
export interface RunPair {
  inProcess: SynthRun & { json: string };
  fresh: SynthRun & { json: string };
}

/**
 * Renders `config` with `program` in this process, after whatever this test file ran before, then again
 * with a fresh module registry (`reload`, under jest `() => jest.resetModules()`) requiring the project's
 * `main`, as a new process would: a test that expects the two to match fails when a run leaves state (a
 * module-level cache, the stores of a `--base`, the runtime's config) that changes the next one.
 */
export async function runInProcessAndFresh(
  projectDir: string,
  config: Record<string, unknown>,
  program: StackProgram,
  reload: () => void,
): Promise<RunPair> {
  const inProcess = await runSynth(projectDir, config, [], program);
  reload();
  const fresh = await runSynth(projectDir, config);
  return {
    inProcess: { ...inProcess, json: readFileSync(inProcess.renderPath, 'utf8') },
    fresh: { ...fresh, json: readFileSync(fresh.renderPath, 'utf8') },
  };
}

/**
 * The workspace's bootstrap stack rendered once per test file, so the access rules judge CI's identities
 * as `synth` does, without a `dist/` left by an earlier nx run.
 */
async function bootstrapRender(projectDir: string): Promise<string> {
  if (bootstrapRenderPath !== undefined) return bootstrapRenderPath;
  const out = runDir('synth-bootstrap-');
  const printed: string[] = [];
  const log = console.log;
  const error = console.error;
  console.log = (text: string) => void printed.push(text);
  console.error = (text: string) => void printed.push(text);
  try {
    const status = await main([`--cwd=${workspaceRoot(projectDir)}`, '--stack=ci', `--out=${out}`]);
    if (status !== 0)
      throw new Error(`the bootstrap stack did not render (exit ${status}): ${printed.join('\n')}`);
  } finally {
    console.log = log;
    console.error = error;
  }
  bootstrapRenderPath = join(out, 'ci.json');
  return bootstrapRenderPath;
}

/** A shipped stack's config (`Pulumi.<stack>.yaml` of the project folder) as runSynth takes it. */
export function shippedStackConfig(projectDir: string, stack: string): Record<string, string> {
  const project = readProject(projectDir);
  return readStackConfig(stackConfigFile(project, stack), project).config;
}

/** A config with store `name` of its `checkpoints:stores` changed by `change`. */
export function withStoreChanged(
  config: Readonly<Record<string, string>>,
  name: string,
  change: (store: Record<string, unknown>) => Record<string, unknown>,
): Record<string, string> {
  const stores = JSON.parse(config['checkpoints:stores'] ?? '[]') as Record<string, unknown>[];
  const changed = stores.map((store) => (store['name'] === name ? change(store) : store));
  return { ...config, 'checkpoints:stores': JSON.stringify(changed) };
}

/**
 * The shipped `stack` of the project rendered, then with store `name` changed by `change` through
 * `synth --base` against that render (runSynthAgainst), as a pull request changing the shipped stack does.
 */
export function runShippedChange(
  projectDir: string,
  program: StackProgram,
  stack: string,
  name: string,
  change: (store: Record<string, unknown>) => Record<string, unknown>,
): Promise<SynthRun> {
  const shipped = shippedStackConfig(projectDir, stack);
  return runSynthAgainst(projectDir, shipped, withStoreChanged(shipped, name, change), program, stack);
}

/** The weakening entries of the plan a run wrote to its JSON render (`analysis.changes.weakening`). */
export function weakeningOfRun(run: SynthRun): Record<string, unknown>[] {
  const render = JSON.parse(readFileSync(run.renderPath, 'utf8')) as {
    analysis?: { changes?: { weakening?: Record<string, unknown>[] } };
  };
  return render.analysis?.changes?.weakening ?? [];
}

/**
 * What a `synth --base` run must show when config validation refuses a change that would replace the deployed
 * data holder of store llm-pretrain at stores[0] (exit 2, the key path, the value given, the reason and the
 * migration path, no plan); returns the parts the run lacks, so a test expects an empty list.
 */
export function missingFromRefusal(run: SynthRun, key: string, value: string, why: string): string[] {
  const expected: [string, boolean][] = [
    ['exit status 2', run.status === 2],
    [
      `the key path and value (${key}: got ${value})`,
      run.stderr.includes(`checkpoints:stores[0].${key}: got ${value}; store llm-pretrain already exists`),
    ],
    [`the reason (${why})`, run.stderr.includes(why)],
    [
      'the migration path',
      run.stderr.includes('add a new store with') &&
        run.stderr.includes('copy the checkpoints into it, then retire this one'),
    ],
    ['no change plan', !run.stdout.includes('Change plan')],
    [
      'the failure record marks it a refusal (so a review shows it refused, not invalid)',
      refusalRecorded(run),
    ],
  ];
  return expected.filter(([, shown]) => !shown).map(([part]) => part);
}

function refusalRecorded(run: SynthRun): boolean {
  const record = JSON.parse(readFileSync(run.renderPath, 'utf8')) as {
    failure?: { issues?: { refusal?: unknown }[] };
  };
  const issues = record.failure?.issues ?? [];
  return issues.length > 0 && issues.every((issue) => issue.refusal === true);
}
