import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { main } from '../src/cli';
import { vaultProgram } from './fixtures/project/program';

const project = join(__dirname, 'fixtures', 'project');
const bin = join(__dirname, '..', 'bin', 'synth.js');

const outFolders: string[] = [];
afterAll(() => {
  for (const dir of outFolders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A fresh --out folder, removed after this file's tests. */
function outFolder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'synth-'));
  outFolders.push(dir);
  return dir;
}

/**
 * In process, for the paths that end before or inside the program: same `main`, no process start-up cost,
 * the fixture's program function run as its index.ts runs it.
 */
async function synthInProcess(...args: string[]) {
  const out = outFolder();
  const stdout: string[] = [];
  const stderr: string[] = [];
  const log = jest.spyOn(console, 'log').mockImplementation((text: string) => void stdout.push(text));
  const error = jest.spyOn(console, 'error').mockImplementation((text: string) => void stderr.push(text));
  try {
    const status = await main([`--cwd=${project}`, `--out=${out}`, ...args], { program: vaultProgram });
    return { status, stdout: stdout.join('\n'), stderr: stderr.join('\n'), out };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

/** As a user runs it: a new Node process loading the stack through ts-node, exactly like Pulumi's runner. */
function synth(...args: string[]) {
  const out = outFolder();
  const result = spawnSync(process.execPath, [bin, `--out=${out}`, ...args], {
    cwd: project,
    encoding: 'utf8',
    // Its own cache of transpiled TypeScript (bin/cached-swc.js), not the workspace's.
    env: { ...process.env, CHECKPOINTS_SYNTH_CACHE: join(out, 'swc') },
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, out };
}

/** The dev stack rendered by bin/synth.js, once for the tests of the render and of its Node process. */
let devRun: ReturnType<typeof synth> | undefined;
const renderDev = () => (devRun ??= synth());

describe('synth CLI', () => {
  it('renders the dev stack: table, JSON file, exit 0', () => {
    const result = renderDev();
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('synth-fixture / dev: 2 resources (2 components)');
    expect(result.stdout).toMatch(/ckpt-key\s+aws:kms\/key:Key\s+protect,retain/);
    expect(result.stdout).toContain('Policies: 0 mandatory and 0 advisory violation(s)');
    const json = JSON.parse(readFileSync(join(result.out, 'dev.json'), 'utf8'));
    expect(Object.keys(json)).toEqual([
      'project',
      'stack',
      'placement',
      'resources',
      'outputs',
      'violations',
      'analysis',
    ]);
    // The fixture has no checkpoint store, so nothing to simulate.
    expect(json.analysis).toEqual({ retention: [] });
    expect(json.project).toBe('synth-fixture');
    expect(json.outputs.token).toBe('[secret]');
    expect(Object.keys(json.resources[2])).toEqual(
      expect.arrayContaining([
        'urn',
        'type',
        'name',
        'custom',
        'parent',
        'protect',
        'retainOnDelete',
        'dependsOn',
        'inputs',
      ]),
    );
    expect(JSON.stringify(json)).not.toContain('AAAABBBBCCCC');
  });

  it('exits 1 and names the rule when a mandatory policy is violated', async () => {
    const result = await synthInProcess('--stack=weak');
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('[mandatory] standard-tags: tags missing: owner');
    const json = JSON.parse(readFileSync(join(result.out, 'weak.json'), 'utf8'));
    expect(json.violations[0]).toMatchObject({ policy: 'standard-tags', level: 'mandatory' });
  });

  it.each([
    [['--stack=badspec'], 'checkpoints:environment: got "production"; allowed: one of dev | staging | prod'],
    [
      ['--stack=badspec'],
      "checkpoints:stores[0].retention.coolAfterDay: unknown key; did you mean 'coolAfterDays'?",
    ],
    [
      ['--stack=nope'],
      '; stacks with a config file here: badspec, broken, crash, dev, weak (or pass --config-file=PATH)',
    ],
    [['--stack=broken'], 'Pulumi.broken.yaml:3:1: invalid YAML'],
    [
      ['--bogus'],
      "unknown flag '--bogus'; allowed: --stack, --config-file, --base, --bootstrap, --out, --cwd, --help",
    ],
    [['--stack=a/b'], '--stack=a/b: a stack name has letters'],
    [[`--config-file=${join(project, 'missing.yaml')}`], 'missing.yaml: file not found'],
  ])('exits 2 with a clear message for %j', async (args, message) => {
    const result = await synthInProcess(...args);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it('names the file given with --config-file in config errors', async () => {
    const result = await synthInProcess(`--config-file=${join(project, 'Pulumi.badspec.yaml')}`);
    expect(result.status).toBe(2);
    expect(result.stderr).toMatch(/^synth: Invalid stack config in \S*Pulumi\.badspec\.yaml \(2 problems\):/);
  });

  it('renders any config file given with --config-file', async () => {
    const result = await synthInProcess(
      `--config-file=${join(project, 'Pulumi.weak.yaml')}`,
      '--stack=custom',
    );
    expect(result.status).toBe(1);
    expect(result.stdout).toContain('synth-fixture / custom');
  });

  it('refuses to require a main this process already ran (its cached exports would render nothing)', async () => {
    const out = outFolder();
    const errors: string[] = [];
    const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
    const error = jest.spyOn(console, 'error').mockImplementation((text: string) => void errors.push(text));
    try {
      expect(await main([`--cwd=${project}`, `--out=${out}`])).toBe(0);
      expect(await main([`--cwd=${project}`, `--out=${out}`])).toBe(3);
    } finally {
      log.mockRestore();
      error.mockRestore();
    }
    expect(errors.join('\n')).toContain(
      `${join(project, 'index.ts')} already ran in this process, and a second require would not run it again: pass its program function`,
    );
  });

  it('exits 3 when the program itself fails', async () => {
    const result = await synthInProcess('--stack=crash');
    expect(result.status).toBe(3);
    expect(result.stderr).toContain('fixture crashed on purpose');
  });
});

describe('synth CLI process', () => {
  it("exits with the CLI's status and prints its messages", () => {
    const result = synth('--bogus');
    expect(result.status).toBe(2);
    expect(result.stderr).toContain("unknown flag '--bogus'");
    expect(result.stdout).toBe('');
  });

  it("transpiles the stack's TypeScript through the cache of bin/cached-swc.js (its tsconfig asks for swc)", () => {
    const kept = readdirSync(join(renderDev().out, 'swc'));
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.every((entry) => /^[0-9a-f]{64}\.json$/.test(entry))).toBe(true);
  });
});

describe('synth --base', () => {
  /** The dev render, changed by `edit`, written where --base can read it. */
  async function baseRender(
    edit: (render: { project: string; resources: Record<string, unknown>[] }) => void,
  ) {
    const first = await synthInProcess();
    const render = JSON.parse(readFileSync(join(first.out, 'dev.json'), 'utf8'));
    edit(render);
    const path = join(first.out, 'base.json');
    writeFileSync(path, JSON.stringify(render));
    return path;
  }

  it('prints the plan, writes it as analysis.changes and exits 0 when nothing changes', async () => {
    const base = await baseRender(() => undefined);
    const result = await synthInProcess(`--base=${base}`);
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Change plan against');
    expect(result.stdout).toContain(
      'No resource holding checkpoints or their keys would be deleted or replaced.',
    );
    const json = JSON.parse(readFileSync(join(result.out, 'dev.json'), 'utf8'));
    expect(json.analysis.changes.dataLoss).toEqual([]);
    // The stack, the fixture's component, its key and its alias.
    expect(json.analysis.changes.others.map((change: { kind: string }) => change.kind)).toEqual(
      Array(4).fill('unchanged'),
    );
  });

  it('exits 4 and says why when a key would be replaced', async () => {
    const base = await baseRender((render) => {
      const key = render.resources.find((resource) => resource['type'] === 'aws:kms/key:Key');
      (key!['inputs'] as Record<string, unknown>)['keyUsage'] = 'SIGN_VERIFY';
    });
    const result = await synthInProcess(`--base=${base}`);
    expect(result.status).toBe(4);
    expect(result.stdout).toContain('DATA LOSS: 1 change(s)');
    expect(result.stdout).toMatch(/aws:kms\/key:Key 'ckpt-key' would be replaced \(keyUsage changed\)/);
  });

  it.each([
    ['a file that is not there', () => '/nonexistent/base.json', 'cannot read a render from it'],
    [
      'a render of another project',
      () =>
        baseRender((render) => {
          render.project = 'other-project';
        }),
      'a render of project other-project, not synth-fixture',
    ],
  ])('exits 2 for %s', async (_case, path, message) => {
    const result = await synthInProcess(`--base=${await path()}`);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(message);
  });
});
