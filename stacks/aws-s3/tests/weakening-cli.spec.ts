import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeSynthRuns, runSynthAgainst, shippedStackConfig, withStores } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

const projectDir = join(__dirname, '..');
// Each test renders the shipped prod stack through the CLI against its shipped render.
jest.setTimeout(180_000);
afterAll(removeSynthRuns);

const prod = shippedStackConfig(projectDir, 'prod');
const REASON = 'noncurrent versions kept one day while the store is rebuilt, approved by ml-platform';

/** The shipped prod stack with store `name` changed by `change`. */
const changed = (name: string, change: (store: Record<string, unknown>) => Record<string, unknown>) =>
  withStores(prod, (stores) => stores.map((store) => (store['name'] === name ? change(store) : store)));

const shorter = (store: Record<string, unknown>) => ({
  ...store,
  retention: { ...(store['retention'] as object), noncurrentExpireDays: 1 },
});

const against = (after: Record<string, string>) =>
  runSynthAgainst(projectDir, prod, after, checkpointStack, 'prod');

describe('synth --base on the shipped aws-s3 prod stack: exit statuses of the change classes', () => {
  it('a shorter recovery window: exit 5, the store, the setting and the before/after window, in the text and the JSON', async () => {
    const run = await against(changed('llm-pretrain', shorter));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(5);
    expect(run.stdout).toContain(
      'store llm-pretrain: recovery window of a deleted checkpoint 8 -> 2 days (llm-pretrain-lifecycle rules, llm-pretrain-replica-lifecycle rules)',
    );
    const json = JSON.parse(readFileSync(run.renderPath, 'utf8'));
    expect(json.analysis.changes.weakening).toContainEqual(
      expect.objectContaining({
        store: 'llm-pretrain',
        aspect: 'recovery',
        before: 8,
        after: 2,
        unit: 'days',
        settings: ['llm-pretrain-lifecycle rules', 'llm-pretrain-replica-lifecycle rules'],
      }),
    );
  });

  it('the same change with acknowledge.weakening: exit 0, and the report shows the acknowledgement', async () => {
    const run = await against(
      changed('llm-pretrain', (store) => ({ ...shorter(store), acknowledge: { weakening: REASON } })),
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`; acknowledged: "${REASON}"`);
    const json = JSON.parse(readFileSync(run.renderPath, 'utf8'));
    expect(
      json.analysis.changes.weakening.map((w: { acknowledgement?: string }) => w.acknowledgement),
    ).toEqual(expect.arrayContaining([REASON]));
  });

  it('keyGeneration 2 on the Express store: exit 6, refused with the migration path', async () => {
    const run = await against(changed('llm-pretrain-fast', (store) => ({ ...store, keyGeneration: 2 })));
    expect(run.status).toBe(6);
    expect(run.stdout).toContain('REFUSED OR IGNORED: 1 change(s)');
    expect(run.stdout).toContain(
      'a directory bucket keeps the customer-managed key it was given for its lifetime',
    );
  });

  it('the shipped dev stack in another aws:region: exit 4, every data holder replaced', async () => {
    const dev = shippedStackConfig(projectDir, 'dev');
    const run = await runSynthAgainst(
      projectDir,
      dev,
      { ...dev, 'aws:region': 'us-east-2' },
      checkpointStack,
    );
    expect(run.status).toBe(4);
    expect(run.stdout).toContain(
      "aws:s3/bucket:Bucket 'llm-pretrain-bucket' would be replaced (aws:region changed)",
    );
  });
});
