import { join } from 'node:path';
import { removeSynthRuns, runShippedChange, weakeningOfRun } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

const projectDir = join(__dirname, '..');
// Each test renders the shipped prod stack through the CLI against its shipped render.
jest.setTimeout(180_000);
afterAll(removeSynthRuns);

const REASON = 'soft delete cut to a week for the migration, approved by ml-platform';
const week = (store: Record<string, unknown>) => ({
  ...store,
  retention: { ...(store['retention'] as object), softDeleteDays: 7 },
});

describe('synth --base on the shipped gcp-gcs prod stack: weakening', () => {
  it('soft delete 14 -> 7 days: exit 5; acknowledged: exit 0 with the reason', async () => {
    const open = await runShippedChange(projectDir, checkpointStack, 'prod', 'llm-pretrain', week);
    expect([open.stderr, open.status]).toEqual(['', 5]);
    expect(open.stdout).toContain(
      'store llm-pretrain: recovery window of a deleted checkpoint 22 -> 15 days',
    );
    expect(weakeningOfRun(open)).toContainEqual(
      expect.objectContaining({ store: 'llm-pretrain', aspect: 'purge', before: 22, after: 15 }),
    );
    const acknowledged = await runShippedChange(
      projectDir,
      checkpointStack,
      'prod',
      'llm-pretrain',
      (store) => ({
        ...week(store),
        acknowledge: { weakening: REASON },
      }),
    );
    expect([acknowledged.stderr, acknowledged.status]).toEqual(['', 0]);
    expect(acknowledged.stdout).toContain(`; acknowledged: "${REASON}"`);
  });
});
