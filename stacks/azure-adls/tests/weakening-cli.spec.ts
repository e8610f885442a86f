import { join } from 'node:path';
import { removeSynthRuns, runShippedChange, weakeningOfRun } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

const projectDir = join(__dirname, '..');
// Each test renders the shipped prod stack through the CLI against its shipped render.
jest.setTimeout(180_000);
afterAll(removeSynthRuns);

const prodChange = (name: string, change: (store: Record<string, unknown>) => Record<string, unknown>) =>
  runShippedChange(projectDir, checkpointStack, 'prod', name, change);

describe('synth --base on the shipped azure-adls prod stack', () => {
  it('blob soft delete 14 -> 7 days: exit 5; with acknowledge.weakening: exit 0 and the reason shown', async () => {
    const reason = 'deleted files kept a week during the rebuild, approved by ml-platform';
    const week = (store: Record<string, unknown>) => ({
      ...store,
      retention: { ...(store['retention'] as object), softDeleteDays: 7 },
    });
    const open = await prodChange('llm-pretrain', week);
    expect([open.stderr, open.status]).toEqual(['', 5]);
    expect(weakeningOfRun(open)).toContainEqual(
      expect.objectContaining({
        store: 'llm-pretrain',
        aspect: 'recovery',
        before: 14,
        after: 7,
        unit: 'days',
      }),
    );
    const acknowledged = await prodChange('llm-pretrain', (store) => ({
      ...week(store),
      acknowledge: { weakening: reason },
    }));
    expect([acknowledged.stderr, acknowledged.status]).toEqual(['', 0]);
    expect(acknowledged.stdout).toContain(`; acknowledged: "${reason}"`);
  });

  it('a shorter retention lock on llm-releases: exit 6, refused for its ETag, with the path', async () => {
    const run = await prodChange('llm-releases', (store) => ({
      ...store,
      recovery: { ...(store['recovery'] as object), retentionLock: { days: 30 } },
    }));
    expect(run.status).toBe(6);
    expect(run.stdout).toContain('only with its current ETag (If-Match)');
    expect(run.stdout).toContain('store llm-releases: retention lock 365 -> 30 days');
  });
});
