import { join } from 'node:path';
import { brokenPromiseMessages, retentionOf } from '@checkpoints/analysis';
import { renderStackFile } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { sharedRenderStack } from './render';

const llm = { name: 'llm', dataClassification: 'internal' };

describe('retention promises of the rendered ADLS Gen2 stores, simulated', () => {
  it.each(['dev', 'prod'])('the shipped %s stack keeps every promise of every store', async (stack) => {
    const stores = retentionOf(await renderStackFile(join(__dirname, '..'), stack, checkpointStack));
    expect(stores.length).toBeGreaterThan(0);
    expect(stores.every((entry) => entry.tier !== null)).toBe(true);
    expect(stores.flatMap(brokenPromiseMessages)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['standard defaults', llm],
    [
      'the shortest expiry on premium',
      { ...llm, tier: 'high-throughput', retention: { expireAfterDays: 1 } },
    ],
    ['the longest soft delete', { ...llm, retention: { softDeleteDays: 365 } }],
    [
      'released checkpoints kept, runs expired',
      {
        ...llm,
        retention: { expireAfterDays: 90, keptPrefixes: ['releases/'], expirePrefixes: ['runs/', 'eval/'] },
      },
    ],
    [
      'a spec written for every cloud (0 for what ADLS Gen2 lacks)',
      {
        ...llm,
        tier: 'high-throughput',
        retention: {
          keepNoncurrentVersions: 0,
          noncurrentExpireDays: 0,
          abortIncompleteUploadDays: 0,
          coolAfterDays: 0,
          archiveAfterDays: 0,
          expireAfterDays: 14,
        },
      },
    ],
  ])('%s keeps every promise', async (_title, store) => {
    const stores = retentionOf(await sharedRenderStack({ stores: [store] }));
    expect(stores.flatMap(brokenPromiseMessages)).toEqual([]);
  });

  it('reports that an overwrite cannot be recovered on a hierarchical namespace', async () => {
    const [entry] = retentionOf(await sharedRenderStack({ stores: [llm] }));
    expect(entry).toMatchObject({ deleteRecoveryDays: 7, overwriteRecoveryDays: 0, hourlyCopies: 1 });
    expect(entry?.notes).toEqual([expect.stringContaining('overwritten file cannot be recovered')]);
  });
});
