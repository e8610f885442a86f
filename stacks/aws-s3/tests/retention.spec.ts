import { join } from 'node:path';
import { brokenPromiseMessages, retentionOf } from '@checkpoints/analysis';
import { renderStackFile } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { renderStack } from './render-stack';

const fast = {
  name: 'llm-pretrain-fast',
  dataClassification: 'internal',
  tier: 'high-throughput',
  zone: 'use1-az4',
};
const standard = { name: 'llm-pretrain', dataClassification: 'internal' };

describe('retention promises of the rendered S3 stores, simulated', () => {
  it.each(['dev', 'prod'])('the shipped %s stack keeps every promise of every store', async (stack) => {
    const stores = retentionOf(await renderStackFile(join(__dirname, '..'), stack, checkpointStack));
    expect(stores.length).toBeGreaterThan(0);
    expect(stores.every((store) => store.tier !== null)).toBe(true);
    expect(stores.flatMap(brokenPromiseMessages)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['standard defaults', standard],
    [
      'the shortest purge, most versions kept',
      { ...standard, retention: { keepNoncurrentVersions: 100, noncurrentExpireDays: 1 } },
    ],
    [
      'no version kept, the longest purge',
      { ...standard, retention: { keepNoncurrentVersions: 0, noncurrentExpireDays: 365 } },
    ],
    ['expiry the day after writing', { ...standard, retention: { coolAfterDays: 0, expireAfterDays: 1 } }],
    [
      'released checkpoints kept, runs expired',
      {
        ...standard,
        retention: { expireAfterDays: 90, keptPrefixes: ['releases/'], expirePrefixes: ['runs/', 'eval/'] },
      },
    ],
    ['a directory bucket with its defaults', fast],
    [
      'a directory bucket with a spec written for every cloud (0 for what it lacks)',
      {
        ...fast,
        retention: {
          keepNoncurrentVersions: 0,
          noncurrentExpireDays: 0,
          coolAfterDays: 0,
          softDeleteDays: 0,
          expireAfterDays: 3,
        },
      },
    ],
  ])('%s keeps every promise', async (_title, store) => {
    expect(retentionOf(await renderStack({ stores: [store] })).flatMap(brokenPromiseMessages)).toEqual([]);
  });

  it('reports what a directory bucket cannot recover', async () => {
    const [store] = retentionOf(
      await renderStack({ stores: [{ ...fast, retention: { expireAfterDays: 7 } }] }),
    );
    expect(store).toMatchObject({
      deleteRecoveryDays: 0,
      overwriteRecoveryDays: 0,
      purgeWithinDays: 0,
      hourlyCopies: 1,
    });
    expect(store?.notes).toEqual([expect.stringContaining('cannot be undone')]);
  });
});
