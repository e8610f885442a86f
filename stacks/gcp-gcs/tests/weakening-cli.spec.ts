import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { removeSynthRuns, runSynthAgainst, shippedStackConfig, withStores } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

const projectDir = join(__dirname, '..');
// Each test renders the shipped prod stack through the CLI against its shipped render.
jest.setTimeout(180_000);
afterAll(removeSynthRuns);

const prod = shippedStackConfig(projectDir, 'prod');
const REASON = 'soft delete shortened to a week while the store is rebuilt, approved by ml-platform';

/** The shipped prod stack with store `name` changed by `change`. */
const changed = (name: string, change: (store: Record<string, unknown>) => Record<string, unknown>) =>
  withStores(prod, (stores) => stores.map((store) => (store['name'] === name ? change(store) : store)));

const shorter = (store: Record<string, unknown>) => ({
  ...store,
  retention: { ...(store['retention'] as object), softDeleteDays: 7 },
});

const against = (after: Record<string, string>) =>
  runSynthAgainst(projectDir, prod, after, checkpointStack, 'prod');

describe('synth --base on the shipped gcp-gcs prod stack: exit statuses of the change classes', () => {
  it('a shorter soft delete: exit 5, with the store and the before/after window, in the text and the JSON', async () => {
    const run = await against(changed('llm-pretrain', shorter));
    expect(run.stderr).toBe('');
    expect(run.status).toBe(5);
    expect(run.stdout).toMatch(
      /store llm-pretrain: recovery window of a deleted checkpoint \d+ -> \d+ days \(/,
    );
    const json = JSON.parse(readFileSync(run.renderPath, 'utf8'));
    const recovery = json.analysis.changes.weakening.find(
      (w: { what: string }) => w.what === 'recovery window of a deleted checkpoint',
    );
    expect(recovery).toEqual(
      expect.objectContaining({ store: 'llm-pretrain', aspect: 'recovery', unit: 'days' }),
    );
    expect(recovery.before - recovery.after).toBe(7);
  });

  it('the same change with acknowledge.weakening: exit 0, and the report shows the acknowledgement', async () => {
    const run = await against(
      changed('llm-pretrain', (store) => ({ ...shorter(store), acknowledge: { weakening: REASON } })),
    );
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain(`; acknowledged: "${REASON}"`);
  });
});
