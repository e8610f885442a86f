/** checkpoints-synth-report: the Markdown behind the PR's synth comment and job summary. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, SYNTH_REPORT, tempDir } from './helpers';

function renders(files: Record<string, unknown>): string {
  const dir = tempDir('synth-');
  for (const [path, snapshot] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(snapshot));
  }
  return dir;
}

function report(args: string[]) {
  const result = run(process.execPath, [SYNTH_REPORT, ...args]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

const bucket = (name: string, protect = false) => ({
  urn: `urn:pulumi:dev::checkpoints-aws::aws:s3/bucket:Bucket::${name}`,
  type: 'aws:s3/bucket:Bucket',
  name,
  custom: true,
  protect,
});

it('one row per rendered stack, the violations, then the resources', () => {
  const dir = renders({
    'aws-s3/dev.json': {
      project: 'checkpoints-aws',
      stack: 'dev',
      resources: [bucket('llm')],
      violations: [],
    },
    'aws-s3/prod.json': {
      project: 'checkpoints-aws',
      stack: 'prod',
      resources: [bucket('llm', true), bucket('vision', true)],
      violations: [
        {
          policy: 's3-no-public-access',
          level: 'mandatory',
          urn: 'urn:pulumi:prod::checkpoints-aws::aws:s3/bucket:Bucket::vision',
          message: 'public | access',
        },
        { policy: 'standard-tags', level: 'advisory', urn: 'urn:x::y', message: 'missing owner' },
      ],
    },
  });
  expect(report([dir]).split('\n')).toEqual([
    '<!-- checkpoints:synth-report -->',
    '## Offline render (synth)',
    '',
    '| nx project | Pulumi project | stack | resources | mandatory violations | advisory |',
    '| --- | --- | --- | ---: | ---: | ---: |',
    '| aws-s3 | checkpoints-aws | dev | 1 | 0 | 0 |',
    '| aws-s3 | checkpoints-aws | prod | 2 | 1 | 1 |',
    '',
    '### Policy violations',
    '',
    '| nx project | stack | level | policy | resource | message |',
    '| --- | --- | --- | --- | --- | --- |',
    '| aws-s3 | prod | mandatory | s3-no-public-access | vision | public \\| access |',
    '| aws-s3 | prod | advisory | standard-tags | y | missing owner |',
    '',
    '### Resources',
    '',
    '<details><summary>aws-s3 / dev: 1 resources</summary>',
    '',
    '| type | name | protected |',
    '| --- | --- | --- |',
    '| aws:s3/bucket:Bucket | llm |  |',
    '',
    '</details>',
    '<details><summary>aws-s3 / prod: 2 resources</summary>',
    '',
    '| type | name | protected |',
    '| --- | --- | --- |',
    '| aws:s3/bucket:Bucket | llm | yes |',
    '| aws:s3/bucket:Bucket | vision | yes |',
    '',
    '</details>',
    '',
  ]);
});

it('says when nothing was rendered, with the note for forks', () => {
  const dir = tempDir('synth-empty-');
  expect(report([join(dir, 'missing'), '--note=From a fork.'])).toBe(
    [
      '<!-- checkpoints:synth-report -->',
      '## Offline render (synth)',
      '',
      '> From a fork.',
      '',
      'No stack is affected by this change: nothing was rendered.',
      '',
    ].join('\n'),
  );
});

it('leaves the resource lists out rather than exceed what a comment may hold', () => {
  const resources = Array.from({ length: 2000 }, (_, i) => bucket(`store-${i}`));
  const dir = renders({
    'gcp-gcs/dev.json': { project: 'checkpoints-gcp', stack: 'dev', resources, violations: [] },
  });
  const text = report([dir]);
  expect(text.length).toBeLessThan(60_000);
  expect(text).toContain('| gcp-gcs | checkpoints-gcp | dev | 2000 | 0 | 0 |');
  expect(text).not.toContain('<details>');
  expect(text).toContain('The resource lists are left out');
});

describe('--format=text: the terminal report npm start prints after the renders', () => {
  const role = (name: string) => ({
    urn: `urn:pulumi:dev::checkpoints-aws::aws:iam/role:Role::${name}`,
    type: 'aws:iam/role:Role',
    name,
    custom: true,
  });
  const store = { urn: 'urn:x::store', type: 'checkpoints:aws:CheckpointStore', name: 'llm', custom: false };
  const stackResource = { urn: 'urn:x::stack', type: 'pulumi:pulumi:Stack', name: 'p-dev', custom: false };

  it('an overview line per stack, then what each creates by provider and kind, and its policy verdict', () => {
    const dir = renders({
      'aws-s3/dev.json': {
        project: 'checkpoints-aws',
        stack: 'dev',
        resources: [stackResource, store, bucket('llm'), role('writer'), role('reader')],
        violations: [],
      },
      'aws-s3/prod.json': {
        project: 'checkpoints-aws',
        stack: 'prod',
        resources: [bucket('llm', true)],
        violations: [
          {
            policy: 's3-no-public-access',
            level: 'mandatory',
            urn: 'urn:pulumi:prod::checkpoints-aws::aws:s3/bucket:Bucket::llm',
            message: 'public',
          },
          { policy: 'standard-tags', level: 'advisory', message: 'missing owner' },
        ],
      },
      'bootstrap/ci.json': {
        project: 'checkpoints-bootstrap',
        stack: 'ci',
        resources: [
          { type: 'gcp:projects/iAMMember:IAMMember', name: 'a', custom: true },
          { type: 'gcp:serviceaccount/iAMMember:IAMMember', name: 'b', custom: true },
          { type: 'azure-native:storage:StorageAccount', name: 'c', custom: true, protect: true },
        ],
        violations: [{ policy: 'standard-tags', level: 'advisory', message: 'x' }],
      },
    });
    expect(report([dir, '--format=text']).split('\n')).toEqual([
      '',
      `Offline render (synth): 3 stack(s), from ${dir}/<project>/<stack>.json`,
      '',
      'STACK         PULUMI PROJECT         RESOURCES  PROTECTED  POLICIES',
      'aws-s3/dev    checkpoints-aws                5          0  pass',
      'aws-s3/prod   checkpoints-aws                1          1  FAIL (1 mandatory, 1 advisory)',
      'bootstrap/ci  checkpoints-bootstrap          3          1  pass (1 advisory)',
      '',
      'aws-s3/dev (checkpoints-aws)',
      '  resources: 3 in the cloud, in components llm',
      '    aws: 2 iam/Role, 1 s3/Bucket',
      '  policies:  pass',
      '',
      'aws-s3/prod (checkpoints-aws)',
      '  resources: 1 in the cloud',
      '    aws: 1 s3/Bucket',
      '  policies:  FAIL (1 mandatory, 1 advisory)',
      '    mandatory s3-no-public-access on llm: public',
      '    advisory standard-tags on the stack: missing owner',
      '',
      'bootstrap/ci (checkpoints-bootstrap)',
      '  resources: 3 in the cloud',
      '    azure-native: 1 storage/StorageAccount',
      '    gcp:          1 projects/IAMMember, 1 serviceaccount/IAMMember',
      '  policies:  pass (1 advisory)',
      '    advisory standard-tags on the stack: x',
      '',
    ]);
  });

  it('wraps a long list of kinds at 100 columns, continuing under the first kind', () => {
    const resources = Array.from({ length: 12 }, (_, i) => ({
      type: `aws:s3/kind${i}:BucketConfigurationNumber${i}`,
      name: `r${i}`,
      custom: true,
    }));
    const dir = renders({ 'aws-s3/dev.json': { project: 'p', stack: 'dev', resources, violations: [] } });
    const lines = report([dir, '--format=text']).split('\n');
    const kinds = lines.filter((line) => line.startsWith('    '));
    expect(kinds.length).toBeGreaterThan(2);
    for (const line of kinds) expect(line.length).toBeLessThanOrEqual(100);
    expect(kinds[0]).toMatch(/^ {4}aws: 1 s3\/BucketConfigurationNumber0, /);
    for (const line of kinds.slice(1)) expect(line).toMatch(/^ {9}1 s3\//);
    expect(kinds.join(' ').match(/1 s3\/BucketConfigurationNumber\d+/g)).toHaveLength(12);
  });

  it('says when nothing was rendered', () => {
    const dir = tempDir('synth-none-');
    expect(report([dir, '--format=text'])).toBe(
      `\nOffline render (synth): 0 stack(s), from ${dir}/<project>/<stack>.json\n\nNothing was rendered.\n`,
    );
  });

  it('refuses a format it does not know, naming what is allowed', () => {
    const result = run(process.execPath, [SYNTH_REPORT, '--format=html']);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('--format=html: allowed: markdown | text');
  });
});

describe('--previews: the real preview of each stack beside its offline render', () => {
  const renderOf = (stack: string) => ({
    project: 'checkpoints-aws',
    stack,
    resources: [bucket('llm')],
    violations: [],
  });

  it('one row per stack: what the real preview would change, its violations, or that there was none', () => {
    const dir = renders({
      'aws-s3/dev.json': renderOf('dev'),
      'aws-s3/prod.json': renderOf('prod'),
      'gcp-gcs/dev.json': { ...renderOf('dev'), project: 'checkpoints-gcp' },
      'gcp-gcs/staging.json': { ...renderOf('staging'), project: 'checkpoints-gcp' },
    });
    const previews = renders({
      'aws-s3/dev.json': {
        stack: 'dev',
        status: 'succeeded',
        exitStatus: 0,
        changes: { create: 2, update: 1, replace: 1, 'create-replacement': 1, 'delete-replaced': 1, same: 4 },
        violations: [
          {
            policy: 'standard-tags',
            level: 'warning',
            urn: 'urn:pulumi:dev::p::aws:s3/bucket:Bucket::llm',
            message: 'no owner',
          },
        ],
      },
      'gcp-gcs/dev.json': {
        stack: 'dev',
        status: 'succeeded',
        exitStatus: 0,
        changes: { same: 7 },
        violations: [],
      },
      'gcp-gcs/staging.json': {
        stack: 'staging',
        status: 'failed',
        exitStatus: 255,
        changes: null,
        violations: [],
      },
    });
    const lines = report([dir, `--previews=${previews}`]).split('\n');
    const start = lines.indexOf(
      '### Real preview (`pulumi preview` against the cloud, with the policy pack)',
    );
    expect(start).toBeGreaterThan(lines.indexOf('| aws-s3 | checkpoints-aws | dev | 1 | 0 | 0 |'));
    expect(lines.slice(start, start + 14)).toEqual([
      '### Real preview (`pulumi preview` against the cloud, with the policy pack)',
      '',
      '| nx project | stack | create | update | replace | delete | mandatory violations | advisory | |',
      '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      '| aws-s3 | dev | 2 | 1 | 1 | 0 | 0 | 1 | **replaces or deletes** |',
      '| aws-s3 | prod |  |  |  |  |  |  | offline render only |',
      '| gcp-gcs | dev | 0 | 0 | 0 | 0 | 0 | 0 | ok |',
      "| gcp-gcs | staging |  |  |  |  |  |  | **preview failed** (exit 255): see the preview job's log |",
      '',
      '| nx project | stack | level | policy | resource | message |',
      '| --- | --- | --- | --- | --- | --- |',
      '| aws-s3 | dev | warning | standard-tags | llm | no owner |',
      '',
      'No policy violation.',
    ]);
  });

  it('a mandatory violation in the real preview is called out', () => {
    const dir = renders({ 'aws-s3/dev.json': renderOf('dev') });
    const previews = renders({
      'aws-s3/dev.json': {
        status: 'succeeded',
        changes: { create: 1 },
        violations: [{ policy: 's3-no-public-access', level: 'mandatory', urn: 'u::b', message: 'public' }],
      },
    });
    expect(report([dir, `--previews=${previews}`])).toContain(
      '| aws-s3 | dev | 1 | 0 | 0 | 0 | 1 | 0 | **policy violated** |',
    );
    expect(report([dir, `--previews=${previews}`, '--format=text'])).toContain(
      '  preview:   1 to create, 0 to update, 0 to replace, 0 to delete; 1 mandatory violation(s)',
    );
  });

  it('a stack not created yet is told apart from a failed preview', () => {
    const dir = renders({ 'aws-s3/staging.json': renderOf('staging') });
    const previews = renders({
      'aws-s3/staging.json': { stack: 'staging', status: 'new-stack', changes: null, violations: [] },
    });
    expect(report([dir, `--previews=${previews}`])).toContain(
      '| aws-s3 | staging |  |  |  |  |  |  | new stack: its first deploy creates it; the offline render is its preview |',
    );
    expect(report([dir, `--previews=${previews}`, '--format=text'])).toContain(
      '  preview:   none, a new stack (its first deploy creates it)',
    );
  });

  it('without --previews the report has no real-preview section', () => {
    const dir = renders({ 'aws-s3/dev.json': renderOf('dev') });
    expect(report([dir])).not.toContain('Real preview');
  });
});
