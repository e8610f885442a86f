/**
 * checkpoints-synth-report: the Markdown behind the PR's synth comment and job summary. The report
 * is made in this process (synth-report.cjs); a few tests go through the bin, as npm start and the
 * workflows run it.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../pulumi/synth-report.cjs';
import { inProcess, run, SYNTH_REPORT, tempDir } from './helpers';

function renders(files: Record<string, unknown>): string {
  const dir = tempDir('synth-');
  for (const [path, snapshot] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(snapshot));
  }
  return dir;
}

/** The report `args` ask for, which must succeed without a word on stderr. */
function report(args: string[], through: 'main' | 'bin' = 'main') {
  const result = through === 'bin' ? run(process.execPath, [SYNTH_REPORT, ...args]) : inProcess(main, args);
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
  expect(report([dir], 'bin').split('\n')).toEqual([
    '<!-- checkpoints:synth-report -->',
    '## Checkpoint stores: what this change does',
    '',
    '| stack | verdict | why |',
    '| --- | --- | --- |',
    '| aws-s3/dev | pass | no mandatory policy violated (not planned against a base) |',
    '| aws-s3/prod | **refused** | policy s3-no-public-access: public \\| access |',
    '',
    '<details><summary>Details: every table of the offline render</summary>',
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
    '</details>',
    '',
    '---',
    'offline render',
    '',
  ]);
});

it('says when nothing was rendered, with the note for forks', () => {
  const dir = tempDir('synth-empty-');
  expect(report([join(dir, 'missing'), '--note=From a fork.'])).toBe(
    [
      '<!-- checkpoints:synth-report -->',
      '## Checkpoint stores: what this change does',
      '',
      '> From a fork.',
      '',
      'No stack is affected by this change: nothing was rendered.',
      '',
      '---',
      'offline render',
      '',
    ].join('\n'),
  );
});

it('leaves the details out rather than exceed what a comment may hold, and says so', () => {
  const resources = Array.from({ length: 2000 }, (_, i) => bucket(`store-${i}`));
  const dir = renders({
    'gcp-gcs/dev.json': { project: 'checkpoints-gcp', stack: 'dev', resources, violations: [] },
  });
  const text = report([dir]);
  expect(text.length).toBeLessThan(60_000);
  expect(text).toContain('| gcp-gcs/dev | pass |');
  expect(text).not.toContain('<details>');
  expect(text).toContain('Left out to fit a comment (the full report has them): 1 part(s)');
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
        // A render without stores: no retention section, not an empty one.
        analysis: { retention: [] },
      },
    });
    expect(report([dir, '--format=text']).split('\n')).toEqual([
      '',
      `Offline render (synth): 3 stack(s), from ${dir}/<project>/<stack>.json`,
      '',
      'STACK         PULUMI PROJECT         RESOURCES  PROTECTED  POLICIES                        VERDICT',
      'aws-s3/dev    checkpoints-aws                5          0  pass                            pass',
      'aws-s3/prod   checkpoints-aws                1          1  FAIL (1 mandatory, 1 advisory)  refused',
      'bootstrap/ci  checkpoints-bootstrap          3          1  pass (1 advisory)               pass',
      '',
      'aws-s3/dev (checkpoints-aws)',
      '  verdict:   pass',
      '  resources: 3 in the cloud, in components llm',
      '    aws: 2 iam/Role, 1 s3/Bucket',
      '  policies:  pass',
      '',
      'aws-s3/prod (checkpoints-aws)',
      '  verdict:   refused',
      '    policy s3-no-public-access: public',
      '  resources: 1 in the cloud',
      '    aws: 1 s3/Bucket',
      '  policies:  FAIL (1 mandatory, 1 advisory)',
      '    mandatory s3-no-public-access on llm: public',
      '    advisory standard-tags on the stack: missing owner',
      '',
      'bootstrap/ci (checkpoints-bootstrap)',
      '  verdict:   pass',
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
      'No policy violation in the 4 rendered stack(s).',
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

describe('the offline analyses: change plan, retention and access per stack', () => {
  /**
   * A real render of aws-s3/dev (`nx run aws-s3:synth`), planned by `checkpoints-synth --base`
   * against a copy of it edited to be the PR base: another bucket name (which replaces the bucket)
   * and other retention figures, plus a store the change removes.
   */
  const FIXTURES = join(__dirname, 'fixtures', 'synth-report');
  const HEAD = join(FIXTURES, 'head');
  const BASE = join(FIXTURES, 'base');
  const real = JSON.parse(readFileSync(join(HEAD, 'aws-s3', 'dev.json'), 'utf8'));
  const DATA_LOSS = real.analysis.changes.dataLoss[0].message as string;

  /** The real head render with its analysis replaced by `analysis`. */
  const withAnalysis = (analysis: Record<string, unknown>) => ({ ...real, analysis });

  /** The lines of `text` from the one starting with `heading` up to the next section. */
  function section(text: string, heading: string): string[] {
    const lines = text.split('\n');
    const start = lines.findIndex((line) => line.startsWith(heading));
    if (start < 0) return [];
    // A Markdown section ends at the next heading, a terminal one at the next section or stack.
    // (the violations section has no heading when there is none).
    const next = heading.startsWith('#') ? /^#{2,3} |^No policy violation / : /^$|^ {0,2}[a-z][a-z ]*: /;
    const end = lines.findIndex((line, i) => i > start && next.test(line));
    return lines.slice(start, end < 0 ? undefined : end);
  }

  describe('change plan (analysis.changes)', () => {
    it('puts every data loss first, then per store what changes and the input forcing a replacement', () => {
      const markdown = report([HEAD]);
      expect(section(markdown, '### Change plan')).toEqual([
        '### Change plan (against the PR base)',
        '',
        '> [!CAUTION]',
        '> **Data loss**: 1 change(s) would lose checkpoints or their keys:',
        '>',
        `> **aws-s3/dev**: ${DATA_LOSS}`,
        '',
        '| nx project | stack | store | status | changes | replaced (forced by) |',
        '| --- | --- | --- | --- | --- | --- |',
        '| aws-s3 | dev | llm-pretrain | changed | 1 replaced | llm-pretrain-bucket (aws:s3/bucket:Bucket) [data], forced by bucket |',
        '',
      ]);
      expect(DATA_LOSS).toContain("'llm-pretrain-bucket' would be replaced");
      const text = report([HEAD, '--format=text']);
      expect(section(text, '  change plan')).toEqual([
        '  change plan (against the PR base): 1 change(s) would lose checkpoints or their keys',
        '    store llm-pretrain: changed (1 replaced)',
        '      replaced: llm-pretrain-bucket (aws:s3/bucket:Bucket) [data], forced by bucket',
        `    DATA LOSS: ${DATA_LOSS}`,
      ]);
    });

    it('a renamed store, a change outside the stores and a note; no data loss is said so', () => {
      const dir = renders({
        'gcp-gcs/dev.json': {
          project: 'checkpoints-gcp',
          stack: 'dev',
          resources: [],
          violations: [],
          analysis: {
            changes: {
              stores: [
                {
                  store: 'vision',
                  formerName: 'images',
                  status: 'changed',
                  resources: [
                    {
                      name: 'vision-bucket',
                      type: 'gcp:storage/bucket:Bucket',
                      kind: 'unchanged',
                      holds: 'data',
                    },
                    {
                      name: 'vision-lifecycle',
                      type: 'gcp:storage/x:Y',
                      kind: 'updated',
                      changedInputs: ['rules'],
                    },
                    { name: 'vision-reader', type: 'gcp:serviceaccount/account:Account', kind: 'created' },
                  ],
                },
                {
                  store: 'llm',
                  status: 'unchanged',
                  resources: [{ name: 'llm-bucket', type: 't', kind: 'unchanged' }],
                },
              ],
              others: [{ name: 'ring', type: 'gcp:kms/keyRing:KeyRing', kind: 'released', holds: 'key' }],
              notes: ['store audio is no longer in the config: its resources are released'],
              dataLoss: [],
            },
          },
        },
      });
      expect(section(report([dir]), '### Change plan')).toEqual([
        '### Change plan (against the PR base)',
        '',
        'No resource holding checkpoints or their keys would be deleted or replaced.',
        '',
        '| nx project | stack | store | status | changes | replaced (forced by) |',
        '| --- | --- | --- | --- | --- | --- |',
        '| gcp-gcs | dev | vision (formerly images) | changed | 1 updated, 1 created |  |',
        '| gcp-gcs | dev | llm | unchanged |  |  |',
        '| gcp-gcs | dev | (outside the stores) | changed | 1 released |  |',
        '',
        '- gcp-gcs/dev: store audio is no longer in the config: its resources are released',
        '',
      ]);
      expect(section(report([dir, '--format=text']), '  change plan')).toEqual([
        '  change plan (against the PR base): no data holder deleted or replaced',
        '    store vision (formerly images): changed (1 updated, 1 created)',
        '    unchanged: llm',
        '    outside the stores: 1 released',
        '    note: store audio is no longer in the config: its resources are released',
      ]);
    });

    it('a render planned against no base has no change plan section, and claims no safety', () => {
      const dir = renders({ 'aws-s3/dev.json': withAnalysis({ retention: real.analysis.retention }) });
      for (const text of [report([dir]), report([dir, '--format=text'])]) {
        expect(text.toLowerCase()).not.toContain('change plan');
        expect(text).not.toContain('would be deleted or replaced');
      }
    });
  });

  describe('retention (analysis.retention)', () => {
    it('with --base-dir: before -> after for the figures that changed, and the stores removed', () => {
      const markdown = report([HEAD, `--base-dir=${BASE}`]);
      expect(section(markdown, '### Retention')).toEqual([
        '### Retention (recovery, purge, copies, projected cost)',
        '',
        '**aws-s3/dev**: what this change does',
        '',
        '- llm-pretrain: delete recovery 7 d -> 4 d, overwrite recovery 7 d -> 4 d, purge within 8 d -> 5 d, promised 8 d -> 5 d, hourly copies 193 -> 49',
        '- vision-old (removed): was delete recovery 7 d, overwrite recovery 7 d, purge within 8 d, promised 8 d, hourly copies 193, expires after 31 d',
        '',
      ]);
      expect(section(report([HEAD, '--format=text', `--base-dir=${BASE}`]), '  retention')).toEqual([
        '  retention: what this change does',
        '    llm-pretrain: delete recovery 7 d -> 4 d, overwrite recovery 7 d -> 4 d, purge within 8 d -> 5 d, promised 8 d -> 5 d, hourly copies 193 -> 49',
        '    vision-old (removed): was delete recovery 7 d, overwrite recovery 7 d, purge within 8 d, promised 8 d, hourly copies 193, expires after 31 d',
      ]);
    });

    it('without --base-dir: the current figures, from the render', () => {
      const store = real.analysis.retention[0];
      expect(store).toMatchObject({ deleteRecoveryDays: 4, purgeWithinDays: 5, hourlyCopies: 49 });
      expect(section(report([HEAD, '--format=text']), '  retention')).toEqual([
        '  retention: current figures',
        '    llm-pretrain: delete recovery 4 d, overwrite recovery 4 d, purge within 5 d, promised 5 d, hourly copies 49, expires after 31 d',
      ]);
    });

    it('a store unchanged by the change, a new store and a broken promise; nulls read as what they mean', () => {
      const store = real.analysis.retention[0];
      const kept = { ...store, store: 'kept' };
      const fresh = {
        ...store,
        store: 'fresh',
        deleteRecoveryDays: null,
        purgeWithinDays: null,
        hourlyCopies: null,
        expiresAfterDays: null,
        broken: [{ promise: 'purge', day: 12, message: 'a deleted checkpoint is never purged' }],
      };
      const head = renders({ 'aws-s3/dev.json': withAnalysis({ retention: [kept, fresh] }) });
      const base = renders({ 'aws-s3/dev.json': withAnalysis({ retention: [kept] }) });
      expect(section(report([head, '--format=text', `--base-dir=${base}`]), '  retention')).toEqual([
        '  retention: what this change does',
        '    fresh (new): delete recovery unlimited, overwrite recovery 4 d, purge within never, promised 5 d, hourly copies unbounded, expires after never',
        '      BROKEN: a deleted checkpoint is never purged',
      ]);
      const same = renders({ 'aws-s3/dev.json': withAnalysis({ retention: [kept] }) });
      expect(section(report([same, '--format=text', `--base-dir=${base}`]), '  retention')).toEqual([
        '  retention: unchanged by this change',
      ]);
    });

    it('a locked store reads as refused, not unlimited, and a lock added to a store is a change', () => {
      const store = real.analysis.retention[0];
      const lock = { days: 365, refuses: ['delete', 'overwrite'] };
      const locked = { ...store, deleteRecoveryDays: null, overwriteRecoveryDays: null, lock };
      const head = renders({ 'aws-s3/dev.json': withAnalysis({ retention: [locked] }) });
      const base = renders({ 'aws-s3/dev.json': withAnalysis({ retention: [{ ...store, lock: null }] }) });
      expect(section(report([head, '--format=text', `--base-dir=${base}`]), '  retention')).toEqual([
        '  retention: what this change does',
        '    llm-pretrain: delete recovery 4 d -> refused by the lock, overwrite recovery 4 d -> refused by the lock, retention lock none -> 365 d',
      ]);
      const empty = tempDir('synth-base-');
      expect(section(report([head, '--format=text', `--base-dir=${empty}`]), '  retention')[1]).toBe(
        '    llm-pretrain (new): delete recovery refused by the lock, overwrite recovery refused by the lock, purge within 5 d, promised 5 d, hourly copies 49, expires after 31 d, retention lock 365 d',
      );
    });

    it('a stack the base has no render of, and a base render without retention figures, are said so', () => {
      const empty = tempDir('synth-base-');
      expect(section(report([HEAD, '--format=text', `--base-dir=${empty}`]), '  retention')).toEqual([
        '  retention: no base render of this stack (a new stack, or the base did not render it)',
        '    llm-pretrain (new): delete recovery 4 d, overwrite recovery 4 d, purge within 5 d, promised 5 d, hourly copies 49, expires after 31 d',
      ]);
      const old = renders({ 'aws-s3/dev.json': { ...real, analysis: undefined } });
      expect(section(report([HEAD, '--format=text', `--base-dir=${old}`]), '  retention')).toEqual([
        '  retention: the base render has no retention figures; current figures',
        '    llm-pretrain: delete recovery 4 d, overwrite recovery 4 d, purge within 5 d, promised 5 d, hourly copies 49, expires after 31 d',
      ]);
    });

    it('the storage and cost projection before -> after, when the render carries one', () => {
      const store = real.analysis.retention[0];
      const GIB = 1024 ** 3;
      const projection = (monthlyCost: number | null, live: number, noncurrent: number) => ({
        monthlyCost,
        currency: 'USD',
        bytesByState: { live, noncurrent, softDeleted: 0 },
        priceTable: { date: '2026-11-01', source: 'https://aws.amazon.com/s3/pricing/' },
        assumptions: ['checkpoint 10 GiB every hour, 5 kept'],
        missingPrices: monthlyCost === null ? ['aws s3 standard ap-east-2'] : [],
      });
      const base = renders({
        'aws-s3/dev.json': withAnalysis({
          retention: [{ ...store, projection: projection(3.45, 50 * GIB, 480 * GIB) }],
        }),
      });
      const head = renders({
        'aws-s3/dev.json': withAnalysis({
          retention: [{ ...store, projection: projection(1.15, 50 * GIB, 120 * GIB) }],
        }),
      });
      expect(section(report([head, '--format=text', `--base-dir=${base}`]), '  retention')).toEqual([
        '  retention: what this change does',
        '    llm-pretrain: retention figures unchanged',
        '      monthly cost 3.45 USD/month -> 1.15 USD/month (prices of 2026-11-01); stored live 50.0 GiB, noncurrent 480.0 GiB, soft-deleted 0 B -> live 50.0 GiB, noncurrent 120.0 GiB, soft-deleted 0 B',
        '    monthly total of the stack: 3.45 USD/month -> 1.15 USD/month',
      ]);
      const two = renders({
        'aws-s3/dev.json': withAnalysis({
          retention: [
            { ...store, projection: projection(1.15, GIB, 0) },
            { ...store, store: 'llm-fast', projection: projection(2.5, GIB, 0) },
          ],
        }),
      });
      expect(section(report([two, '--format=text', `--base-dir=${base}`]), '  retention')).toContain(
        '    monthly total of the stack: 3.45 USD/month -> 3.65 USD/month',
      );
      const billed = renders({
        'aws-s3/dev.json': withAnalysis({
          retention: [
            {
              ...store,
              projection: {
                ...projection(1.15, GIB, 0),
                bill: {
                  workload: {
                    checkpointSizeGiB: 10,
                    intervalHours: 4,
                    keepLast: 5,
                    latestOverwriteHours: 1,
                    readBacksPerDay: 1,
                    restartsPerMonth: 4,
                    defaulted: ['keepLast'],
                  },
                  lines: [
                    { what: 'storage STANDARD', usd: 1.1, price: { confirmed: true } },
                    { what: 'PUT requests', usd: 0.05, price: { confirmed: false } },
                    { what: 'LIST requests', usd: 0.001, price: { confirmed: false } },
                  ],
                },
              },
            },
          ],
        }),
      });
      expect(section(report([billed, '--format=text']), '  retention')).toContain(
        '    llm-pretrain bill at 10 GiB every 4 h, 5 kept, latest.pt every 1 h, 1 read-backs/day, 4 restarts/month; defaults: keepLast: storage STANDARD 1.10, PUT requests 0.05* (* unconfirmed price)',
      );
      const unpriced = renders({
        'aws-s3/dev.json': withAnalysis({ retention: [{ ...store, projection: projection(null, GIB, 0) }] }),
      });
      expect(section(report([unpriced, '--format=text']), '  retention')).toContain(
        '      monthly cost unknown (no price for aws s3 standard ap-east-2) (prices of 2026-11-01); stored live 1.0 GiB, noncurrent 0 B, soft-deleted 0 B',
      );
      expect(section(report([unpriced, '--format=text']), '  retention')).toContain(
        '    monthly total of the stack: unknown (no price for llm-pretrain)',
      );
    });

    it('no projection in the render: no cost or bytes are shown', () => {
      for (const text of [
        report([HEAD]),
        report([HEAD, '--format=text']),
        report([HEAD, `--base-dir=${BASE}`]),
      ]) {
        expect(text).not.toMatch(/monthly cost|USD|GiB/);
      }
    });

    it('a render without retention figures has no retention section', () => {
      const dir = renders({ 'aws-s3/dev.json': { ...real, analysis: undefined } });
      for (const text of [report([dir]), report([dir, '--format=text'])]) {
        expect(text.toLowerCase()).not.toContain('retention');
        expect(text).not.toMatch(/### Access|access:/);
        expect(text.toLowerCase()).not.toContain('change plan');
      }
    });
  });

  describe('access (analysis.access, as libs/analysis/src/access/model.ts writes it)', () => {
    const principal = (label: string, kind: string, id = `arn:aws:iam::111122223333:role/${label}`) => ({
      id,
      label,
      kind,
    });
    const writer = principal('writer', 'store-identity');
    const reader = principal('reader', 'store-identity');
    const deploy = principal('ci deploy-dev', 'ci-deploy');
    const grant = (who: typeof writer, operation: string, reason: string) => ({
      principal: who,
      operation,
      reason,
    });
    const access = (grants: unknown[], ciChecked = true) => ({
      ciChecked,
      stores: [{ store: 'llm-pretrain', cloud: 'aws', environment: 'dev', grants }],
    });
    const baseGrants = [
      grant(writer, 'read', 'role policy llm-pretrain-writer-access'),
      grant(writer, 'write', 'role policy llm-pretrain-writer-access'),
      grant(reader, 'read', 'role policy llm-pretrain-reader-access'),
      grant(reader, 'write', 'role policy llm-pretrain-reader-access'),
    ];
    const headGrants = [
      ...baseGrants.filter((each) => !(each.principal === reader && each.operation === 'write')),
      grant(deploy, 'read', 'bucket policy statement Deploy'),
    ];

    it('with --base-dir: per store, the access the change adds and removes, with the reason', () => {
      const head = renders({ 'aws-s3/dev.json': withAnalysis({ access: access(headGrants) }) });
      const base = renders({ 'aws-s3/dev.json': withAnalysis({ access: access(baseGrants) }) });
      expect(section(report([head, `--base-dir=${base}`]), '### Access (who')).toEqual([
        '### Access (who can do what on each store)',
        '',
        '**aws-s3/dev**: access this change adds (+) or removes (-)',
        '',
        '- llm-pretrain (dev):',
        '  - + ci deploy-dev read (bucket policy statement Deploy)',
        '  - - reader write (role policy llm-pretrain-reader-access)',
        '',
      ]);
      expect(section(report([head, '--format=text', `--base-dir=${base}`]), '  access')).toEqual([
        '  access: access this change adds (+) or removes (-)',
        '    llm-pretrain (dev):',
        '      + ci deploy-dev read (bucket policy statement Deploy)',
        '      - reader write (role policy llm-pretrain-reader-access)',
      ]);
      const same = renders({ 'aws-s3/dev.json': withAnalysis({ access: access(baseGrants) }) });
      expect(section(report([same, '--format=text', `--base-dir=${base}`]), '  access')).toEqual([
        '  access: no access added or removed',
      ]);
    });

    it('two principals whose ids the offline render does not know yet are still told apart', () => {
      const unknown = (label: string) => principal(label, 'store-identity', 'unknown');
      const both = [grant(unknown('writer'), 'read', 'r'), grant(unknown('reader'), 'read', 'r')];
      const head = renders({ 'aws-s3/dev.json': withAnalysis({ access: access(both.slice(0, 1)) }) });
      const base = renders({ 'aws-s3/dev.json': withAnalysis({ access: access(both) }) });
      expect(section(report([head, '--format=text', `--base-dir=${base}`]), '  access')).toEqual([
        '  access: access this change adds (+) or removes (-)',
        '    llm-pretrain (dev):',
        '      - reader read (r)',
      ]);
    });

    it('a removed store and a change in whether CI identities were checked are said so', () => {
      const head = renders({ 'aws-s3/dev.json': withAnalysis({ access: { ciChecked: false, stores: [] } }) });
      const base = renders({ 'aws-s3/dev.json': withAnalysis({ access: access(baseGrants) }) });
      expect(section(report([head, '--format=text', `--base-dir=${base}`]), '  access')).toEqual([
        '  access: access this change adds (+) or removes (-); CI identities checked in the base, not now: their grants differ for that reason',
        '    llm-pretrain (dev) (removed): no longer grants writer: read, write; reader: read, write',
      ]);
    });

    it('without --base-dir: one compact line per store, who may do what', () => {
      const dir = renders({ 'aws-s3/dev.json': withAnalysis({ access: access(headGrants, false) }) });
      expect(section(report([dir, '--format=text']), '  access')).toEqual([
        '  access: CI identities not checked (no bootstrap render)',
        '    llm-pretrain (dev): writer: read, write; reader: read; ci deploy-dev: read',
      ]);
      expect(section(report([dir]), '### Access (who')).toEqual([
        '### Access (who can do what on each store)',
        '',
        '**aws-s3/dev**: CI identities not checked (no bootstrap render)',
        '',
        '- llm-pretrain (dev): writer: read, write; reader: read; ci deploy-dev: read',
        '',
      ]);
    });

    it('a render without analysis.access says nothing about access', () => {
      for (const text of [report([HEAD]), report([HEAD, '--format=text', `--base-dir=${BASE}`])]) {
        expect(text.toLowerCase()).not.toContain('access:');
        expect(text).not.toContain('### Access');
      }
    });
  });

  describe('compliance (analysis.compliance, as libs/analysis/src/compliance/model.ts writes it)', () => {
    it("prints the stack's one compliance line, and nothing for a render without the analysis", () => {
      const summary =
        '1 store: 30 pass, 1 fail, 2 exception, 3 not-applicable, 4 outside-repo; FAIL: llm-pretrain S3.9';
      const dir = renders({ 'aws-s3/dev.json': withAnalysis({ compliance: { stores: [], summary } }) });
      const text = report([dir, '--format=text']);
      expect(text.split('\n').filter((line) => line.includes('compliance:'))).toEqual([
        `  compliance: ${summary}`,
      ]);
      expect(report([HEAD, '--format=text'])).not.toContain('compliance:');
    });
  });

  it('refuses a --base-dir that does not exist, naming the flag and what is allowed', () => {
    const result = inProcess(main, [HEAD, `--base-dir=${join(FIXTURES, 'missing')}`]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(`--base-dir=${join(FIXTURES, 'missing')}: no such directory`);
    expect(result.stderr).toContain('allowed: a directory of base renders');
  });
});
