/**
 * The nx wiring, through real `nx run` invocations (about 2 s each, so a few that prove what the
 * runner tests cannot: the targets exist on every stack, reach the runner from the stack's own
 * folder with the right stack, and carry the CLI's failure back out).
 */
import { join } from 'node:path';
import {
  DIRECTORY_BUCKET_EXCLUDES,
  expectedArgv,
  pathWith,
  run,
  STACKS,
  standIn,
  WORKSPACE,
} from './helpers';

const TARGETS = ['preview', 'up', 'refresh', 'destroy', 'drift'];

/** nx as CI runs it (CI=true: `up` is confirmed), against a clean refresh preview for drift. */
function nx(args: string[], env: Record<string, string | undefined> = {}) {
  return run(process.execPath, [join(WORKSPACE, 'node_modules', 'nx', 'dist', 'bin', 'nx.js'), ...args], {
    env: {
      NX_SKIP_NX_CACHE: 'true',
      FORCE_COLOR: '0',
      CI: 'true',
      PULUMI_BACKEND_URL: undefined,
      FAKE_PULUMI_STDOUT: JSON.stringify({ steps: [], changeSummary: { same: 1 } }),
      ...env,
    },
  });
}

interface Target {
  executor?: string;
  cache?: boolean;
  dependsOn?: unknown[];
  options?: Record<string, unknown>;
  configurations?: Record<string, Record<string, unknown>>;
}

type Projects = Record<string, { data: { root: string; targets?: Record<string, Target> } }>;

/** What nx would do for a command, planned without running it (`--graph=stdout`). */
interface Plan {
  /** The project graph, as `nx graph` prints it: each project's targets as nx resolved them. */
  projects: Projects;
  /** The tasks nx would run, sorted. */
  tasks: string[];
}

const plans = new Map<string, Plan>();

/** The plan of an nx command, made by nx once per file. */
function plan(args: string[]): Plan {
  const key = JSON.stringify(args);
  const known = plans.get(key);
  if (known) return known;
  const result = nx([...args, '--graph=stdout']);
  expect(result.status).toBe(0);
  const printed = JSON.parse(result.stdout.slice(result.stdout.indexOf('{'))) as {
    graph: { nodes: Projects };
    tasks: { tasks: object };
  };
  const made = { projects: printed.graph.nodes, tasks: Object.keys(printed.tasks.tasks).sort() };
  plans.set(key, made);
  return made;
}

/** The tasks an nx command would run, planned without running them. */
function plannedTasks(args: string[]): string[] {
  return plan(args).tasks;
}

describe('the five targets on every stack project', () => {
  let projects: Projects;

  // The project graph comes with the plan of `nx run-many -t up`, which a test below asks for too.
  beforeAll(() => {
    projects = plan(['run-many', '-t', 'up']).projects;
  });

  it.each(STACKS.flatMap((stack) => TARGETS.map((target) => [stack, target] as const)))(
    '%s:%s runs checkpoints-pulumi in the stack folder, never cached',
    (project, name) => {
      const target = projects[project]?.data.targets?.[name];
      expect(target).toMatchObject({
        executor: 'nx:run-commands',
        cache: false,
        options: { command: `checkpoints-pulumi ${name}`, cwd: `stacks/${project}` },
        configurations: { dev: { stack: 'dev' }, prod: { stack: 'prod' } },
      });
      expect(target?.options?.['stack']).toBe(name === 'destroy' ? undefined : 'dev');
    },
  );

  it.each(STACKS)(
    '%s:synth is never served from the cache: --config-file and --base name files nx cannot hash',
    (project) => {
      expect(projects[project]?.data.targets?.['synth']).toMatchObject({
        cache: false,
        options: { command: 'checkpoints-synth', cwd: `stacks/${project}` },
      });
    },
  );

  it.each(STACKS)("%s:up runs only after that project's test and typecheck", (project) => {
    expect(projects[project]?.data.targets?.['up']?.dependsOn).toEqual(['test', 'typecheck']);
    for (const name of TARGETS.filter((target) => target !== 'up')) {
      expect(projects[project]?.data.targets?.[name]?.dependsOn).toBeUndefined();
    }
  });
});

describe('the preflight on every stack project and the bootstrap', () => {
  let projects: Projects;

  beforeAll(() => {
    projects = plan(['run-many', '-t', 'up']).projects;
  });

  it.each(STACKS)('%s:preflight runs checkpoints-preflight in the stack folder, never cached', (project) => {
    expect(projects[project]?.data.targets?.['preflight']).toMatchObject({
      executor: 'nx:run-commands',
      cache: false,
      options: { command: 'node ../../tools/preflight/run.mjs', cwd: `stacks/${project}`, stack: 'dev' },
      configurations: { dev: { stack: 'dev' }, prod: { stack: 'prod' } },
    });
  });

  it('bootstrap:preflight runs it in the root folder, on the ci stack, after the render it compares with', () => {
    expect(projects['bootstrap']?.data.targets?.['preflight']).toMatchObject({
      executor: 'nx:run-commands',
      cache: false,
      dependsOn: ['synth'],
      // nx resolves {workspaceRoot} to the empty path: the root itself.
      options: { command: 'node tools/preflight/run.mjs', cwd: '', stack: 'ci' },
      configurations: { prod: { stack: 'ci' } },
    });
  });

  it.each([
    ['gcp-gcs', join(WORKSPACE, 'stacks', 'gcp-gcs')],
    ['bootstrap', WORKSPACE],
  ])(
    'nx run %s:preflight reaches it in its folder with the stack given, and carries its exit 2 back',
    (project, folder) => {
      const result = nx(['run', `${project}:preflight`, '--stack=nosuch']);
      expect(result.status).not.toBe(0);
      expect(`${result.stdout}${result.stderr}`).toContain(
        `cannot read Pulumi.yaml and Pulumi.nosuch.yaml in ${folder}:`,
      );
    },
  );
});

describe("the bootstrap never runs with the stacks' up", () => {
  it.each([[[]], [['-c', 'prod']]])('nx run-many -t up %j plans the stacks only', (args) => {
    const suffix = args.length > 0 ? ':prod' : '';
    expect(plannedTasks(['run-many', '-t', 'up', ...args]).filter((task) => task.includes(':up'))).toEqual(
      [...STACKS].sort().map((stack) => `${stack}:up${suffix}`),
    );
  });

  it('has its own target, admin-up: tests and typecheck (after the libs it uses) first, in the root folder, on its ci stack', () => {
    const fake = standIn();
    const result = nx(['run', 'bootstrap:admin-up', '--exclude-task-dependencies'], {
      PATH: pathWith(fake.bin),
    });
    expect(result.status).toBe(0);
    expect(fake.commands()).toEqual([{ argv: expectedArgv('up', 'ci'), cwd: WORKSPACE }]);
    expect(plannedTasks(['run', 'bootstrap:admin-up'])).toEqual([
      'analysis:typecheck',
      'bootstrap:admin-up',
      'bootstrap:test',
      'bootstrap:typecheck',
      'config:typecheck',
      'naming:typecheck',
      'policy:typecheck',
      'render:typecheck',
      'synth:typecheck',
      'tagging:typecheck',
      'translate:typecheck',
    ]);
  });
});

describe('nx run reaches the CLI with the exact argv and folder', () => {
  const cases: Array<[string, string[], string[], string[]]> = [
    ['aws-s3:preview', [], ['preview', 'dev'], []],
    ['gcp-gcs:up', ['-c', 'prod', '--exclude-task-dependencies'], ['up', 'prod'], []],
    [
      'azure-adls:preview',
      ['--', '--target=urn:pulumi:dev::checkpoints-azure::x::y'],
      ['preview', 'dev'],
      ['--target=urn:pulumi:dev::checkpoints-azure::x::y'],
    ],
  ];

  it.each(cases)('nx run %s %j', (task, args, [target = '', stack = ''], extra) => {
    const fake = standIn();
    const result = nx(['run', task, ...args], { PATH: pathWith(fake.bin) });
    expect(result.status).toBe(0);
    const project = task.split(':')[0] ?? '';
    expect(fake.commands()).toEqual([
      { argv: expectedArgv(target, stack, extra), cwd: join(WORKSPACE, 'stacks', project) },
    ]);
  });

  it('nx run aws-s3:refresh --include-directory-buckets reaches the runner, which drops its excludes', () => {
    const fake = standIn();
    const result = nx(['run', 'aws-s3:refresh', '--stack=prod', '--include-directory-buckets'], {
      PATH: pathWith(fake.bin),
    });
    expect(result.status).toBe(0);
    expect(fake.commands()).toEqual([
      {
        argv: expectedArgv('refresh', 'prod').filter((arg) => !DIRECTORY_BUCKET_EXCLUDES.includes(arg)),
        cwd: join(WORKSPACE, 'stacks', 'aws-s3'),
      },
    ]);
  });

  it('a local nx run of up in a terminal reaches Pulumi interactively, so Pulumi asks first', () => {
    const fake = standIn();
    const nxBin = join(WORKSPACE, 'node_modules', 'nx', 'dist', 'bin', 'nx.js');
    // `script` gives nx a pseudo-terminal, as a shell does; nx hands it on to the task.
    const result = run(
      'script',
      [
        '-qec',
        `'${process.execPath}' '${nxBin}' run aws-s3:up --stack=prod --exclude-task-dependencies`,
        '/dev/null',
      ],
      { env: { PATH: pathWith(fake.bin), CI: undefined, NX_SKIP_NX_CACHE: 'true' } },
    );
    expect(result.status).toBe(0);
    expect(fake.commands()).toEqual([
      {
        argv: ['up', '--stack', 'prod', '--policy-pack', join(WORKSPACE, 'libs', 'policy'), '--diff'],
        cwd: join(WORKSPACE, 'stacks', 'aws-s3'),
      },
    ]);
  });

  it('a local nx run of up without a terminal applies only with --yes, passed through once', () => {
    const local = { CI: undefined };
    const refused = standIn();
    const withoutYes = nx(['run', 'aws-s3:up', '--exclude-task-dependencies'], {
      PATH: pathWith(refused.bin),
      ...local,
    });
    expect(withoutYes.status).not.toBe(0);
    expect(`${withoutYes.stdout}${withoutYes.stderr}`).toContain('there is no terminal to ask in');
    expect(refused.calls()).toEqual([]);
    const fake = standIn();
    const result = nx(['run', 'aws-s3:up', '--stack=prod', '--yes', '--exclude-task-dependencies'], {
      PATH: pathWith(fake.bin),
      ...local,
    });
    expect(result.status).toBe(0);
    expect(fake.commands().map((call) => call.argv)).toEqual([expectedArgv('up', 'prod', ['--yes'])]);
  });

  it('fails the target when the CLI fails', () => {
    const fake = standIn();
    const result = nx(['run', 'aws-s3:preview', '--stack=prod'], {
      PATH: pathWith(fake.bin),
      FAKE_PULUMI_EXIT: '1',
    });
    expect(fake.commands()).toHaveLength(1);
    expect(result.status).toBe(1);
  });

  it('says how to install the CLI when it is missing', () => {
    const fake = standIn();
    const result = nx(['run', 'gcp-gcs:drift'], { PATH: pathWith() });
    expect(fake.calls()).toEqual([]);
    expect(result.status).not.toBe(0);
    expect(`${result.stdout}${result.stderr}`).toContain("The Pulumi CLI ('pulumi') is not on PATH.");
    expect(`${result.stdout}${result.stderr}`).toContain('curl -fsSL https://get.pulumi.com');
  });
});

describe("tools:lint-all, npm test's one ESLint run over the workspace", () => {
  it('is cached on every file it lints: each tracked .ts, .js, .mjs and .cjs file is one of its inputs', () => {
    const shown = nx(['show', 'target', 'inputs', 'tools:lint-all', '--json']);
    expect(shown.status).toBe(0);
    const inputs = new Set((JSON.parse(shown.stdout) as { files: string[] }).files);
    const tracked = run('git', ['ls-files', '-z']);
    expect(tracked.status).toBe(0);
    const linted = tracked.stdout.split('\0').filter((file) => /\.(ts|js|mjs|cjs)$/.test(file));
    expect(linted.length).toBeGreaterThan(100);
    expect(linted.filter((file) => !inputs.has(file))).toEqual([]);
  });
});
