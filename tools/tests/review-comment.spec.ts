/**
 * The pull request comment over the cases a reviewer must never misread: a stack whose synth failed, a change
 * refused for a deployed store, a renamed store, a new stack with no base, and a change of 200 stores. Each
 * comment must carry every stack's verdict, say nothing that contradicts it, and fit in a GitHub comment.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../pulumi/synth-report.cjs';
import { inProcess, tempDir } from './helpers';

/** GitHub refuses an issue comment body over this many characters. */
const GITHUB_COMMENT_LIMIT = 65_536;

interface StoreSpec {
  name: string;
  tier?: string;
  cost?: number;
  protect?: boolean;
  deleteRecoveryDays?: number;
  grants?: string[];
  series?: { storedGiB: number[]; cumulativeUsd: number[] | null };
}

/** A store filling up for 30 days and flat after, spending `cost` a month. */
const fillingSeries = (cost: number) => ({
  storedGiB: Array.from({ length: 19 }, (_, i) => Math.min(i, 6) * 2),
  cumulativeUsd: Array.from({ length: 19 }, (_, i) => Math.round(((cost * i) / 6) * 100) / 100),
});

/** A render of `stores` as synth writes it: a store component and its bucket each, retention and access figures. */
function storeRender(
  project: string,
  stack: string,
  stores: StoreSpec[],
  extra: Record<string, unknown> = {},
) {
  const component = (store: StoreSpec) =>
    `urn:pulumi:${stack}::${project}::checkpoints:aws:CheckpointStore::${store.name}`;
  return {
    project,
    stack,
    resources: stores.flatMap((store) => [
      {
        urn: component(store),
        type: 'checkpoints:aws:CheckpointStore',
        name: store.name,
        custom: false,
        parent: null,
        protect: false,
        inputs: {
          tier: store.tier ?? 'standard',
          location: 'us-east-1',
          encryption: 'customer-managed',
          publicNetwork: false,
        },
      },
      {
        urn: `${component(store)}$aws:s3/bucket:Bucket::${store.name}-bucket`,
        type: 'aws:s3/bucket:Bucket',
        name: `${store.name}-bucket`,
        custom: true,
        parent: component(store),
        protect: store.protect ?? false,
        inputs: {},
      },
    ]),
    violations: [],
    analysis: {
      retention: stores.map((store) => ({
        store: store.name,
        cloud: 'aws',
        deleteRecoveryDays: store.deleteRecoveryDays ?? 8,
        overwriteRecoveryDays: store.deleteRecoveryDays ?? 8,
        purgeWithinDays: 10,
        promisedPurgeWithinDays: 10,
        hourlyCopies: 9,
        expiresAfterDays: null,
        lock: null,
        projection: {
          monthlyCost: store.cost ?? 10,
          currency: 'USD',
          bytesByState: { live: 10 * 1024 ** 3, noncurrent: 0, softDeleted: 0 },
          assumptions: ['workload not stated in the spec, default assumed: checkpointSizeGiB 10'],
          series: seriesOf(store.series ?? fillingSeries(store.cost ?? 10)),
        },
      })),
      access: {
        ciChecked: true,
        stores: stores.map((store) => ({
          store: store.name,
          cloud: 'aws',
          environment: stack,
          grants: [
            ...(store.grants ?? ['role/ml-training']).map((label) => ({
              principal: { id: `arn:aws:iam::1:${label}`, label, kind: 'declared' },
              operation: 'write',
              reason: 'role policy',
            })),
            {
              principal: { id: 'arn:aws:iam::1:root', label: 'account root', kind: 'cloud-default' },
              operation: 'configure',
              reason: 'account default',
            },
          ],
        })),
      },
    },
    ...extra,
  };
}

function seriesOf(series: NonNullable<StoreSpec['series']>) {
  return {
    stepDays: 5,
    storedBytes: series.storedGiB.map((gib) => gib * 1024 ** 3),
    cumulativeUsd: series.cumulativeUsd,
  };
}

/** The `line [...]` rows of each Mermaid chart in the body, by the chart's title. */
function chartLines(body: string): Map<string, string[]> {
  const charts = new Map<string, string[]>();
  for (const [, chart = ''] of body.matchAll(/```mermaid\n([\s\S]*?)```/g)) {
    const title = /title "([^"]*)"/.exec(chart)?.[1] ?? '';
    charts.set(
      title,
      [...chart.matchAll(/^ {2}line \[(.*)\]$/gm)].map(([, points = '']) => points),
    );
  }
  return charts;
}

/** A change plan as `synth --base` writes it (analysis.changes). */
const plan = (stores: Record<string, unknown>[], dataLoss: Record<string, unknown>[] = []) => ({
  stores: stores.map((store) => ({ resources: [], ...store })),
  others: [],
  notes: [],
  dataLoss,
});

function withPlan(
  render: ReturnType<typeof storeRender>,
  changes: ReturnType<typeof plan> & Record<string, unknown>,
) {
  return { ...render, analysis: { ...render.analysis, changes } };
}

/** synth's failure record of a config it refused (exit 2), with one issue. */
const configIssue = (path: string, value: string, message: string, refusal?: true) => ({
  project: 'checkpoints-aws',
  stack: 'dev',
  failure: {
    exitStatus: 2,
    message: 'Invalid stack config',
    issues: [{ path, value, message, ...(refusal ? { refusal } : {}) }],
  },
});

function folder(files: Record<string, unknown>): string {
  const dir = tempDir('review-');
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), JSON.stringify(content));
  }
  return dir;
}

function comment(head: Record<string, unknown>, base: Record<string, unknown>, args: string[] = []) {
  const result = inProcess(main, [
    folder(head),
    `--base-dir=${folder(base)}`,
    '--sha=0123456789abcdef',
    '--run-url=https://github.com/acme/store/actions/runs/7',
    ...args,
  ]);
  expect(result.stderr).toBe('');
  expect(result.status).toBe(0);
  return result.stdout;
}

/** The verdict table's row per stack: `stack -> [verdict, why]`. */
function verdicts(body: string): Map<string, [string, string]> {
  const rows = new Map<string, [string, string]>();
  const table = body.slice(body.indexOf('| stack | verdict | why |'));
  for (const line of table.split('\n').slice(2)) {
    if (!line.startsWith('|')) break;
    const [, stack = '', verdict = '', why = ''] = line.split(/(?<!\\)\|/).map((part) => part.trim());
    expect(rows.has(stack)).toBe(false);
    rows.set(stack, [verdict.replace(/\*/g, ''), why]);
  }
  return rows;
}

/** What must hold of every comment: under the limit, the marker first, the commit and run named, no pass beside a failure. */
function expectSound(body: string, expected: Record<string, string>) {
  expect(body.length).toBeLessThan(GITHUB_COMMENT_LIMIT);
  expect(body.startsWith('<!-- checkpoints:synth-report -->\n')).toBe(true);
  expect(body).toContain('commit `0123456789ab`');
  expect(body).toContain('[run](https://github.com/acme/store/actions/runs/7)');
  const rows = verdicts(body);
  expect(Object.fromEntries([...rows].map(([stack, [verdict]]) => [stack, verdict]))).toEqual(expected);
  const failing = Object.values(expected).some((verdict) => verdict !== 'pass');
  if (failing) expect(body).not.toContain('No policy violation.');
  // A stack that did not render has no cost after the change, so no total after it either.
  if (Object.values(expected).includes('synth failed'))
    expect(body).toMatch(/\| \*\*all stacks\*\* \| .* \| unknown: \d+ stack\(s\) not rendered \|/);
  for (const [stack, [verdict, why]] of rows) {
    if (verdict !== 'pass') expect([stack, why]).not.toEqual([stack, '']);
  }
}

describe('the pull request comment', () => {
  const base = {
    'aws-s3/dev.json': storeRender('checkpoints-aws', 'dev', [{ name: 'llm-pretrain', cost: 30 }]),
  };

  it('a stack whose synth failed: its verdict and why, never a pass, no figures from an earlier render', () => {
    const head = {
      'aws-s3/dev.json': {
        project: 'checkpoints-aws',
        stack: 'dev',
        failure: { exitStatus: 3, message: 'TypeError: x is undefined\n    at program.ts:3' },
      },
      'aws-s3/prod.json': storeRender('checkpoints-aws', 'prod', [{ name: 'llm-pretrain' }]),
    };
    const body = comment(head, {
      ...base,
      'aws-s3/prod.json': storeRender('checkpoints-aws', 'prod', [{ name: 'llm-pretrain' }]),
    });
    expectSound(body, { 'aws-s3/dev': 'synth failed', 'aws-s3/prod': 'pass' });
    expect(verdicts(body).get('aws-s3/dev')?.[1]).toBe('synth exited 3: TypeError: x is undefined');
    expect(body).toContain('| aws-s3/dev | 30.00 USD | not rendered |');
    expect(body).not.toContain('#### aws-s3/dev');
  });

  it('a file that is no render at all counts as a failed synth, not as an empty stack', () => {
    const body = comment({ 'aws-s3/dev.json': { project: 'checkpoints-aws', stack: 'dev' } }, base);
    expectSound(body, { 'aws-s3/dev': 'synth failed' });
  });

  it('a tier change refused for a deployed store: refused with the migration path, no cost drop', () => {
    const refusal =
      'store llm-pretrain already exists with tier "standard" (previous render): the bucket would be replaced. Keep tier "standard" and migrate instead: add a new store with tier "express", copy the checkpoints into it, then retire this one';
    const head = {
      'aws-s3/dev.json': configIssue('checkpoints:stores[0].tier', 'express', refusal, true),
    };
    const body = comment(head, base);
    expectSound(body, { 'aws-s3/dev': 'refused' });
    expect(verdicts(body).get('aws-s3/dev')?.[1]).toContain(
      'checkpoints:stores[0].tier: store llm-pretrain already exists',
    );
    expect(verdicts(body).get('aws-s3/dev')?.[1]).toContain('add a new store with tier');
    expect(body).not.toMatch(/30\.00 USD \| 0\.00 USD/);
  });

  it('a config error that is no refusal reads as invalid config, whatever its message says', () => {
    const head = {
      'aws-s3/dev.json': configIssue('checkpoints:stores[0].tier', 'fast', 'allowed: standard | express'),
    };
    expectSound(comment(head, base), { 'aws-s3/dev': 'invalid config' });
    const lookalike = {
      'aws-s3/dev.json': configIssue(
        'checkpoints:stores[0].name',
        'llm',
        'store llm already exists with name "llm" (previous render): a duplicate name',
      ),
    };
    expectSound(comment(lookalike, base), { 'aws-s3/dev': 'invalid config' });
  });

  it('removing a store protected where it is deployed is refused, as pulumi up would; data loss is said so', () => {
    const head = {
      'aws-s3/dev.json': withPlan(
        storeRender('checkpoints-aws', 'dev', []),
        plan(
          [
            {
              store: 'llm-pretrain',
              status: 'removed',
              resources: [
                { name: 'llm-pretrain-bucket', kind: 'deleted', protectedInBase: true, holds: 'data' },
              ],
            },
          ],
          [{ store: 'llm-pretrain', message: "store llm-pretrain: 'llm-pretrain-bucket' would be deleted" }],
        ),
      ),
    };
    const body = comment(head, {
      'aws-s3/dev.json': storeRender('checkpoints-aws', 'dev', [{ name: 'llm-pretrain', protect: true }]),
    });
    expectSound(body, { 'aws-s3/dev': 'refused' });
    expect(verdicts(body).get('aws-s3/dev')?.[1]).toContain('protected where it is deployed');
  });

  it('a weakening reads as weakening until the store acknowledges it; a change the cloud refuses reads as refused', () => {
    const weakening = {
      store: 'llm-pretrain',
      message: 'store llm-pretrain: recovery window of a deleted checkpoint 8 -> 1 days (lifecycle rules)',
    };
    const weakened = (acknowledgement?: string) => ({
      'aws-s3/dev.json': withPlan(
        storeRender('checkpoints-aws', 'dev', [{ name: 'llm-pretrain', cost: 30 }]),
        {
          ...plan([{ store: 'llm-pretrain', status: 'changed' }]),
          weakening: [{ ...weakening, ...(acknowledgement ? { acknowledgement } : {}) }],
          refused: [],
        },
      ),
    });
    const unacknowledged = comment(weakened(), base);
    expectSound(unacknowledged, { 'aws-s3/dev': 'weakening' });
    expect(verdicts(unacknowledged).get('aws-s3/dev')?.[1]).toContain('8 -> 1 days');
    expectSound(comment(weakened('the data owner approved a shorter window'), base), {
      'aws-s3/dev': 'pass',
    });

    const refusedByCloud = {
      'aws-s3/dev.json': withPlan(
        storeRender('checkpoints-aws', 'dev', [{ name: 'llm-pretrain', cost: 30 }]),
        {
          ...plan([{ store: 'llm-pretrain', status: 'changed' }]),
          weakening: [],
          refused: [
            {
              store: 'llm-pretrain',
              outcome: 'refused',
              message: 'a directory bucket keeps one customer-managed key for its lifetime',
            },
            { store: 'llm-pretrain', outcome: 'ignored', message: 'the key ignores a tag change' },
          ],
        },
      ),
    };
    const refused = comment(refusedByCloud, base);
    expectSound(refused, { 'aws-s3/dev': 'refused' });
    expect(verdicts(refused).get('aws-s3/dev')?.[1]).toContain('one customer-managed key');
    expect(verdicts(refused).get('aws-s3/dev')?.[1]).not.toContain('ignores a tag change');
  });

  it('a renamed store is one store under its new name, compared with its former self', () => {
    const head = {
      'aws-s3/dev.json': withPlan(
        storeRender('checkpoints-aws', 'dev', [{ name: 'llm-train', cost: 30, deleteRecoveryDays: 4 }]),
        plan([{ store: 'llm-train', formerName: 'llm-pretrain', status: 'changed' }]),
      ),
    };
    const body = comment(head, base);
    expectSound(body, { 'aws-s3/dev': 'pass' });
    expect(body).toContain('#### aws-s3/dev: llm-train (formerly llm-pretrain), changed');
    expect(body).toContain(
      '| recovery windows | delete 8 d, overwrite 8 d | **delete 4 d, overwrite 4 d** |',
    );
    expect(body).toContain('| monthly cost | 30.00 USD | 30.00 USD |');
    expect(body).not.toContain('created');
    expect(body).not.toMatch(/, removed|\(removed\)|\(new store\)/);
    expect(body).toContain('No grant added or removed.');
  });

  it('a new stack with no base: every store new, a pass that says why, its cost after only', () => {
    const head = {
      'aws-s3/staging.json': storeRender('checkpoints-aws', 'staging', [
        { name: 'llm-pretrain', cost: 12.5 },
      ]),
    };
    const body = comment(head, base);
    expectSound(body, { 'aws-s3/staging': 'pass' });
    expect(verdicts(body).get('aws-s3/staging')?.[1]).toBe('new stack: nothing deployed to compare with');
    expect(body).toContain('#### aws-s3/staging: llm-pretrain, created');
    expect(body).toContain('| aws-s3/staging | - | 12.50 USD |');
    expect(body).toContain('```mermaid\nxychart-beta');
    expect(body).toContain(
      'Priced on the default workload (no `workload` in the config): 1 store(s), aws-s3/staging llm-pretrain',
    );
  });

  it("the charts draw each changed store's replayed series, before then after; a new store after only", () => {
    const before = {
      storedGiB: Array.from({ length: 19 }, (_, i) => Math.min(i, 2) * 5),
      cumulativeUsd: null,
    };
    const after = {
      storedGiB: Array.from({ length: 19 }, (_, i) => Math.min(i, 4) * 2.5),
      cumulativeUsd: Array.from({ length: 19 }, (_, i) => i * 1.25),
    };
    const body = comment(
      {
        'aws-s3/dev.json': storeRender('checkpoints-aws', 'dev', [
          { name: 'llm-pretrain', cost: 45, series: after },
          { name: 'vision', cost: 6 },
        ]),
      },
      {
        'aws-s3/dev.json': storeRender('checkpoints-aws', 'dev', [{ name: 'llm-pretrain', series: before }]),
      },
    );
    expectSound(body, { 'aws-s3/dev': 'pass' });
    const charts = chartLines(body);
    expect(charts.get('aws-s3/dev llm-pretrain: stored GiB over the first 90 days (before, after)')).toEqual([
      before.storedGiB.join(', '),
      after.storedGiB.join(', '),
    ]);
    // The side without a cost series (an unpriced store) has no cost line: the one line is after's.
    expect(charts.get('aws-s3/dev llm-pretrain: cost over the first 90 days, USD (before, after)')).toEqual([
      after.cumulativeUsd.join(', '),
    ]);
    expect(charts.get('aws-s3/dev vision: stored GiB over the first 90 days (before, after)')).toEqual([
      fillingSeries(6).storedGiB.join(', '),
    ]);
    expect(charts.get('aws-s3/dev vision: cost over the first 90 days, USD (before, after)')).toEqual([
      fillingSeries(6).cumulativeUsd.join(', '),
    ]);
    expect(body).toContain(
      '  x-axis "day" [0, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90]',
    );
  });

  it('200 stores changed in three stacks: every verdict and the totals kept under the limit, the rest in the full report', () => {
    const stores = Array.from({ length: 200 }, (_, i) => ({
      name: `team-${i}-checkpoints`,
      cost: 1,
      grants: [`role/team-${i}`],
    }));
    const head = {
      'aws-s3/dev.json': storeRender('checkpoints-aws', 'dev', stores),
      'aws-s3/prod.json': storeRender('checkpoints-aws', 'prod', stores),
      'gcp-gcs/dev.json': {
        project: 'checkpoints-gcp',
        stack: 'dev',
        failure: { exitStatus: 3, message: 'quota' },
      },
    };
    const dir = tempDir('full-');
    const body = comment(head, {}, [`--full=${join(dir, 'report.md')}`]);
    expectSound(body, { 'aws-s3/dev': 'pass', 'aws-s3/prod': 'pass', 'gcp-gcs/dev': 'synth failed' });
    expect(body).toContain('| aws-s3/prod | - | 200.00 USD |');
    expect(body).toMatch(/Left out to fit a comment \(the full report has them\): \d+ part\(s\)/);
    expect(body).toContain("the full report: the run's `report` artifact");
    const full = readFileSync(join(dir, 'report.md'), 'utf8');
    expect(full.length).toBeGreaterThan(GITHUB_COMMENT_LIMIT);
    expect(full).toContain('#### aws-s3/prod: team-199-checkpoints, created');
    expect(full).not.toContain('Left out');
    // The charts repeat the tables: they go first, so the comment keeps tables and the full report has both.
    expect(body).toContain('#### aws-s3/dev: team-0-checkpoints, created');
    expect(body).not.toContain('```mermaid');
    expect(full).toContain('aws-s3/prod team-199-checkpoints: stored GiB over the first 90 days');
  });

  it('warnings are listed with their code and docs link', () => {
    const warned = storeRender('checkpoints-gcp', 'dev', [{ name: 'llm-pretrain' }], {
      warnings: [
        {
          code: 'early-deletion-billing',
          message: 'billed as if kept 30 days',
          docs: 'docs/warnings.md#early-deletion-billing',
        },
      ],
    });
    const body = comment({ 'gcp-gcs/dev.json': warned }, {});
    expect(body).toContain(
      '- gcp-gcs/dev `early-deletion-billing`: billed as if kept 30 days ([docs/warnings.md#early-deletion-billing](docs/warnings.md#early-deletion-billing))',
    );
  });
});
