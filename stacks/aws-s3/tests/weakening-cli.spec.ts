import { join } from 'node:path';
import {
  removeSynthRuns,
  runShippedChange,
  runSynthAgainst,
  shippedStackConfig,
  weakeningOfRun,
} from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

const projectDir = join(__dirname, '..');
// Each test renders the shipped stack through the CLI against its shipped render.
jest.setTimeout(180_000);
afterAll(removeSynthRuns);

const REASON = 'noncurrent versions kept one day while the store is rebuilt, approved by ml-platform';
const oneDay = (store: Record<string, unknown>) => ({
  ...store,
  retention: { ...(store['retention'] as object), noncurrentExpireDays: 1 },
});
const prodChange = (name: string, change: (store: Record<string, unknown>) => Record<string, unknown>) =>
  runShippedChange(projectDir, checkpointStack, 'prod', name, change);

describe('synth --base on the shipped aws-s3 stacks: exit statuses of the change classes', () => {
  it('prod, a shorter recovery window: exit 5, the store, the setting and the window before and after', async () => {
    const run = await prodChange('llm-pretrain', oneDay);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(5);
    // The store's replay reads the replica's lifecycle and both default locks too: every setting is named.
    expect(run.stdout).toContain(
      'store llm-pretrain: recovery window of a deleted checkpoint 8 -> 2 days (llm-pretrain-retention-lock rule, llm-pretrain-lifecycle rules, llm-pretrain-replica-retention-lock rule, llm-pretrain-replica-lifecycle rules)',
    );
    expect(weakeningOfRun(run)).toContainEqual(
      expect.objectContaining({
        store: 'llm-pretrain',
        aspect: 'recovery',
        before: 8,
        after: 2,
        unit: 'days',
      }),
    );
  });

  it('prod, the same change with acknowledge.weakening: exit 0, and the report shows the acknowledgement', async () => {
    const run = await prodChange('llm-pretrain', (store) => ({
      ...oneDay(store),
      acknowledge: { weakening: REASON },
    }));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`; acknowledged: "${REASON}"`);
    expect(weakeningOfRun(run).map((weakening) => weakening['acknowledgement'])).toContain(REASON);
  });

  it('prod, keyGeneration 2 on the Express store: exit 6, refused with the migration path', async () => {
    const run = await prodChange('llm-pretrain-fast', (store) => ({ ...store, keyGeneration: 2 }));
    expect(run.status).toBe(6);
    expect(run.stdout).toContain('REFUSED OR IGNORED: 1 change(s)');
    expect(run.stdout).toContain(
      'a directory bucket keeps the customer-managed key it was given for its lifetime',
    );
  });

  it('dev in another aws:region: exit 4, every data holder replaced', async () => {
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
