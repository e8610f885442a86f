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
