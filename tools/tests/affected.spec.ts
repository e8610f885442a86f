/**
 * checkpoints-affected on a throwaway git repository holding the workspace's real nx.json,
 * package.json and project files (node_modules linked), with small Pulumi stack files of its own.
 * The command runs in this process (affected.cjs) and asks nx for the plan of each change once:
 * tests of the same change share it. Two tests go through the bin, as the workflows run it.
 */
import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { cloudOfFile, main, previewPlan } from '../pulumi/affected.cjs';
import { AFFECTED, inProcess, run, tempDir, WORKSPACE } from './helpers';

interface Entry {
  project: string;
  stack: string;
  clouds: string;
  region: string;
  workDir: string;
  backendVariable: string;
}

const LIBS = ['analysis', 'config', 'naming', 'policy', 'synth', 'tagging'];
const STACK_REGIONS: Record<string, Record<string, string>> = {
  'aws-s3': { 'aws:region': 'us-east-1' },
  'gcp-gcs': { 'gcp:region': 'europe-west4' },
  'azure-adls': { 'azure-native:location': 'westeurope' },
};

let repo: string;
const commits: Record<string, string> = {};

function git(...args: string[]): string {
  return execFileSync('git', args, {
    cwd: repo,
    encoding: 'utf8',
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 't',
      GIT_AUTHOR_EMAIL: 't@t',
      GIT_COMMITTER_NAME: 't',
      GIT_COMMITTER_EMAIL: 't@t',
    },
  }).trim();
}

function write(path: string, content: string) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), content);
}

function commit(name: string, change: () => void) {
  change();
  git('add', '-A');
  git('commit', '-q', '-m', name);
  commits[name] = git('rev-parse', 'HEAD');
}

/** nx's plan of each change (base, head, or --all), made on first use. */
const plans = new Map<string, ReturnType<typeof previewPlan>>();
const keptPlan: typeof previewPlan = (root, options, env) => {
  const key = JSON.stringify([
    root,
    options.all ?? false,
    options.base ?? null,
    options.head ?? null,
    options.files ?? null,
  ]);
  const plan = plans.get(key) ?? previewPlan(root, options, env);
  plans.set(key, plan);
  return plan;
};

/** checkpoints-affected in the fixture repository, in this process or through the bin. */
function command(args: string[], env: Record<string, string> = {}, through: 'main' | 'bin' = 'main') {
  const options = { cwd: repo, env };
  return through === 'bin'
    ? run(process.execPath, [AFFECTED, ...args], options)
    : inProcess((argv, io) => main(argv, io, keptPlan), args, options);
}

function affected(args: string[], env: Record<string, string> = {}, through: 'main' | 'bin' = 'main') {
  const result = command(args, env, through);
  if (result.status !== 0) throw new Error(`checkpoints-affected failed: ${result.stderr}`);
  return result;
}

function matrix(args: string[], through: 'main' | 'bin' = 'main'): Entry[] {
  return (JSON.parse(affected([...args, '--json'], {}, through).stdout) as { include: Entry[] }).include;
}

/** Every stack and environment of the fixture, as `pairs` lists them. */
const EVERY_STACK = ['aws-s3', 'azure-adls', 'gcp-gcs'].flatMap((stack) => [`${stack}/dev`, `${stack}/prod`]);

const pairs = (entries: Entry[]) => entries.map((e) => `${e.project}/${e.stack}`);

beforeAll(() => {
  repo = tempDir('affected-');
  const copy = (path: string) => cpSync(join(WORKSPACE, path), join(repo, path));
  for (const file of ['nx.json', 'tsconfig.base.json']) copy(file);
  const manifest = JSON.parse(readFileSync(join(WORKSPACE, 'package.json'), 'utf8'));
  manifest.workspaces = ['libs/*', 'stacks/*', 'bootstrap'];
  write('package.json', JSON.stringify(manifest, null, 2));
  // The stacks' synth judges CI's rights from the bootstrap render, so they depend on the bootstrap project.
  for (const file of ['package.json', 'project.json']) copy(`bootstrap/${file}`);
  write('bootstrap/index.ts', 'export {};\n');
  write('Pulumi.yaml', 'name: checkpoints-bootstrap\nruntime: nodejs\nstackConfigDir: bootstrap\n');
  write('bootstrap/Pulumi.ci.yaml', 'config:\n  bootstrap:environments: [dev, prod]\n');
  for (const lib of LIBS) {
    for (const file of ['package.json', 'project.json']) copy(`libs/${lib}/${file}`);
    write(`libs/${lib}/src/index.ts`, 'export {};\n');
  }
  // The lib the per-cloud translation moves to, which every stack depends on (as it will).
  write('libs/translate/package.json', JSON.stringify({ name: '@checkpoints/translate', version: '0.1.0' }));
  write('libs/translate/project.json', JSON.stringify({ name: 'translate', projectType: 'library' }));
  write('libs/translate/src/index.ts', 'export {};\n');
  write('libs/translate/src/azure/storage.ts', 'export {};\n');
  write('libs/policy/src/rules/gcp/versioning.ts', 'export {};\n');
  write('libs/analysis/src/access/aws.ts', 'export {};\n');
  for (const [stack, region] of Object.entries(STACK_REGIONS)) {
    for (const file of ['project.json']) copy(`stacks/${stack}/${file}`);
    const stackManifest = JSON.parse(readFileSync(join(WORKSPACE, `stacks/${stack}/package.json`), 'utf8'));
    stackManifest.dependencies['@checkpoints/translate'] = '*';
    write(`stacks/${stack}/package.json`, JSON.stringify(stackManifest, null, 2));
    write(`stacks/${stack}/index.ts`, 'export {};\n');
    write(`stacks/${stack}/Pulumi.yaml`, `name: checkpoints-${stack}\nruntime: nodejs\n`);
    for (const env of ['dev', 'prod']) {
      const [key, value] = Object.entries(region)[0] ?? [];
      write(
        `stacks/${stack}/Pulumi.${env}.yaml`,
        `config:\n  ${key}: ${value}\n  checkpoints:environment: ${env}\n`,
      );
    }
  }
  write('.gitignore', 'node_modules\n.nx\n');
  symlinkSync(join(WORKSPACE, 'node_modules'), join(repo, 'node_modules'));
  git('init', '-q', '-b', 'main');
  commit('base', () => undefined);
  commit('gcp-gcs', () =>
    appendFileSync(join(repo, 'stacks/gcp-gcs/index.ts'), '// a change to the GCS stack\n'),
  );
  commit('naming', () => appendFileSync(join(repo, 'libs/naming/src/index.ts'), '// a change to naming\n'));
  commit('docs', () => write('docs/notes.md', '# notes\n'));
  commit('prod-config', () =>
    appendFileSync(join(repo, 'stacks/aws-s3/Pulumi.prod.yaml'), '  checkpoints:owner: ml-platform\n'),
  );
  commit('bootstrap', () =>
    appendFileSync(join(repo, 'bootstrap/index.ts'), '// a change to the CI identities\n'),
  );
  commit('gcp-rule', () =>
    appendFileSync(join(repo, 'libs/policy/src/rules/gcp/versioning.ts'), '// a GCS rule\n'),
  );
  commit('aws-analysis', () =>
    appendFileSync(join(repo, 'libs/analysis/src/access/aws.ts'), '// an S3 access analysis\n'),
  );
  commit('azure-translate', () =>
    appendFileSync(join(repo, 'libs/translate/src/azure/storage.ts'), '// an ADLS translation\n'),
  );
  commit('translate-shared', () =>
    appendFileSync(join(repo, 'libs/translate/src/index.ts'), '// shared by every cloud\n'),
  );
  commit('gcp-rule-and-aws-analysis', () => {
    appendFileSync(join(repo, 'libs/policy/src/rules/gcp/versioning.ts'), '// another GCS rule\n');
    appendFileSync(join(repo, 'libs/analysis/src/access/aws.ts'), '// another S3 analysis\n');
  });
  commit('gcp-rule-and-aws-config', () => {
    appendFileSync(join(repo, 'libs/policy/src/rules/gcp/versioning.ts'), '// a fourth GCS rule\n');
    appendFileSync(join(repo, 'stacks/aws-s3/Pulumi.dev.yaml'), '  checkpoints:owner: ml-platform\n');
  });
  commit('gcp-rule-and-description', () => {
    appendFileSync(join(repo, 'libs/policy/src/rules/gcp/versioning.ts'), '// a third GCS rule\n');
    const root = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
    write('package.json', JSON.stringify({ ...root, description: 'a new description' }, null, 2));
  });
});

/** The matrix of the change made by the commit `name`, on the commit before it. */
const matrixOf = (name: string, ...args: string[]) =>
  pairs(matrix([`--base=${commits[name]}~1`, `--head=${commits[name]}`, ...args]));

it("a change to one cloud's rules gives only that cloud's stacks (and the bootstrap, which deploys to all)", () => {
  expect(matrixOf('gcp-rule')).toEqual(['bootstrap/ci', 'gcp-gcs/dev', 'gcp-gcs/prod']);
});

it("a change to one cloud's analysis gives only that cloud's stacks", () => {
  expect(matrixOf('aws-analysis', '--exclude=bootstrap')).toEqual(['aws-s3/dev', 'aws-s3/prod']);
});

it("a change to one cloud's translation gives only that cloud's stacks; a shared file of the lib, all", () => {
  expect(matrixOf('azure-translate', '--exclude=bootstrap')).toEqual(['azure-adls/dev', 'azure-adls/prod']);
  expect(matrixOf('translate-shared', '--exclude=bootstrap')).toEqual(EVERY_STACK);
});

const AWS_AND_GCP = ['aws-s3/dev', 'aws-s3/prod', 'gcp-gcs/dev', 'gcp-gcs/prod'];

it('a change to two clouds gives the stacks of both, nothing of the third', () => {
  expect(matrixOf('gcp-rule-and-aws-analysis', '--exclude=bootstrap')).toEqual(AWS_AND_GCP);
});

it("a change to one cloud and to another stack's config gives the stacks of both", () => {
  expect(matrixOf('gcp-rule-and-aws-config', '--exclude=bootstrap')).toEqual(AWS_AND_GCP);
});

it('a change to one cloud and to package.json is not narrowed: nx judges package.json by its diff', () => {
  // Given package.json alone as a file, nx would take it as changed whole; with base and head it diffs it.
  expect(matrixOf('gcp-rule-and-description', '--exclude=bootstrap')).toEqual(EVERY_STACK);
});

it('a change to one cloud and a shared file gives every stack', () => {
  expect(
    pairs(
      matrix([
        `--base=${commits['gcp-rule']}~1`,
        `--head=${commits['translate-shared']}`,
        '--exclude=bootstrap',
      ]),
    ),
  ).toEqual(EVERY_STACK);
});

it.each([
  ['libs/policy/src/rules/gcp/versioning.ts', 'gcp'],
  ['libs/policy/src/aws/bucket.ts', 'aws'],
  ['libs/translate/src/azure/storage/account.ts', 'azure'],
  ['libs/analysis/src/access/aws-renaming.ts', 'aws'],
  ['libs/analysis/src/retention/gcp.ts', 'gcp'],
  ['libs/analysis/tests/access/azure.spec.ts', 'azure'],
  ['libs/analysis/data/gcp-roles.json', 'gcp'],
  ['libs/config/src/clouds/azure.ts', 'azure'],
  ['libs/config/src/facts/aws.ts', 'aws'],
  ['bootstrap/src/gcp/identity.ts', 'gcp'],
  ['libs/config/src/clouds/index.ts', undefined],
  ['libs/analysis/src/access/model.ts', undefined],
  ['libs/policy/src/rules/aws/azure-parity.ts', undefined],
  ['libs/policy/src/aws/gcp/bridge.ts', undefined],
  ['libs/analysis/src/changes/format-aws.ts', undefined],
  ['libs/aws/src/index.ts', undefined],
  ['stacks/gcp-gcs/index.ts', undefined],
  ['docs/aws.md', undefined],
  ['libs/policy/src/rules/awsome.ts', undefined],
])('%s belongs to %s', (path, cloud) => {
  expect(cloudOfFile(path)).toBe(cloud);
});

it("a change to bootstrap gives every stack: each stack's synth judges CI's rights from the bootstrap render", () => {
  const entries = matrix([
    `--base=${commits['prod-config']}`,
    `--head=${commits['bootstrap']}`,
    '--exclude=bootstrap',
  ]);
  expect(pairs(entries)).toEqual(EVERY_STACK);
});

it('a change to libs/naming gives all three stacks', () => {
  // bootstrap uses naming too; the workflows exclude it, as here (its own previews are an administrator's).
  const entries = matrix([
    `--base=${commits['gcp-gcs']}`,
    `--head=${commits['naming']}`,
    '--exclude=bootstrap',
  ]);
  expect(pairs(entries)).toEqual(EVERY_STACK);
  expect(Object.fromEntries(entries.map((e) => [e.project, e.clouds]))).toEqual({
    'aws-s3': 'aws',
    'azure-adls': 'azure',
    'gcp-gcs': 'gcp',
  });
});

it('a change to one stack config file gives that stack', () => {
  expect(pairs(matrix([`--base=${commits['docs']}`, `--head=${commits['prod-config']}`], 'bin'))).toEqual([
    'aws-s3/dev',
    'aws-s3/prod',
  ]);
});

it('a change outside every project gives an empty matrix, and says so', () => {
  // One run: the text on stdout, the matrix and count in $GITHUB_OUTPUT.
  const output = join(repo, 'github-output-empty');
  writeFileSync(output, '');
  const result = affected([`--base=${commits['naming']}`, `--head=${commits['docs']}`, '--github-output'], {
    GITHUB_OUTPUT: output,
  });
  expect(result.stdout.trim()).toBe('No stack is affected.');
  const lines = readFileSync(output, 'utf8').trim().split('\n');
  expect(JSON.parse((lines[0] ?? '').replace(/^matrix=/, '')).include).toEqual([]);
  expect(lines[1]).toBe('count=0');
});

it('--environments and --exclude narrow the matrix; a missing stack file is noted, not invented', () => {
  const result = affected([
    `--base=${commits['gcp-gcs']}`,
    `--head=${commits['naming']}`,
    '--environments=prod,staging',
    '--exclude=azure-adls',
    '--json',
  ]);
  expect(pairs((JSON.parse(result.stdout) as { include: Entry[] }).include)).toEqual([
    'aws-s3/prod',
    'gcp-gcs/prod',
  ]);
  expect(result.stderr).toContain('aws-s3: no Pulumi.staging.yaml in stacks/aws-s3, skipped');
});

it('--all lists every stack whatever changed (the nightly drift matrix)', () => {
  expect(matrix(['--all', '--exclude=bootstrap'])).toHaveLength(6);
  expect(pairs(matrix(['--all']))).toContain('bootstrap/ci');
});

it('a change to stacks/gcp-gcs gives only gcp-gcs: a readable table locally, matrix and count for GitHub', () => {
  const output = join(repo, 'github-output');
  writeFileSync(output, '');
  const result = affected(
    [`--base=${commits['base']}`, `--head=${commits['gcp-gcs']}`, '--github-output'],
    { GITHUB_OUTPUT: output },
    'bin',
  );
  expect(result.stdout.trim().split('\n')).toEqual([
    'PROJECT  STACK  CLOUD  REGION        FOLDER',
    'gcp-gcs  dev    gcp    europe-west4  stacks/gcp-gcs',
    'gcp-gcs  prod   gcp    europe-west4  stacks/gcp-gcs',
    '',
    '2 stack(s) in 1 project(s).',
  ]);
  const lines = readFileSync(output, 'utf8').trim().split('\n');
  expect(lines[1]).toBe('count=2');
  expect(JSON.parse((lines[0] ?? '').replace(/^matrix=/, '')).include).toEqual([
    ...['dev', 'prod'].map((stack) => ({
      project: 'gcp-gcs',
      stack,
      clouds: 'gcp',
      region: 'europe-west4',
      workDir: 'stacks/gcp-gcs',
      backendVariable: 'PULUMI_BACKEND_URL_GCP',
    })),
  ]);
});

it('--projects keeps the projects named, and --output-prefix names the outputs of one matrix among several', () => {
  const output = join(repo, 'github-output-prefixed');
  writeFileSync(output, '');
  const result = affected(
    [
      '--all',
      '--projects=azure-adls',
      '--environments=prod',
      '--json',
      '--github-output',
      '--output-prefix=prod',
    ],
    { GITHUB_OUTPUT: output },
  );
  expect(result.status).toBe(0);
  const lines = readFileSync(output, 'utf8').trim().split('\n');
  expect(lines[1]).toBe('prod-count=1');
  expect(JSON.parse((lines[0] ?? '').replace(/^prod-matrix=/, '')).include).toEqual([
    {
      project: 'azure-adls',
      stack: 'prod',
      clouds: 'azure',
      region: 'westeurope',
      workDir: 'stacks/azure-adls',
      backendVariable: 'PULUMI_BACKEND_URL_AZURE',
    },
  ]);
});

it('--projects with a project that has no stacks: a usage error naming what is allowed', () => {
  const result = command(['--all', '--projects=aws-s4']);
  expect(result.status).toBe(2);
  expect(result.stderr).toContain(
    "--projects: no project 'aws-s4' with a preview target; allowed: aws-s3, azure-adls",
  );
});
