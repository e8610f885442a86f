import { join } from 'node:path';
import { brokenPromiseMessages, retentionOf } from '@checkpoints/analysis';
import { renderStackFile } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { sharedRenderStack, stackConfig, store } from './render';

const hot = { tier: 'high-throughput', zone: 'us-central1-a' };

describe('retention promises of the rendered Cloud Storage stores, simulated', () => {
  it.each(['dev', 'prod'])('the shipped %s stack keeps every promise of every store', async (stack) => {
    const stores = retentionOf(await renderStackFile(join(__dirname, '..'), stack, checkpointStack));
    expect(stores.length).toBeGreaterThan(0);
    expect(stores.every((entry) => entry.tier !== null)).toBe(true);
    expect(stores.flatMap(brokenPromiseMessages)).toEqual([]);
  });

  it.each<[string, Record<string, unknown>]>([
    ['standard defaults', {}],
    [
      'the shortest purge, most versions kept',
      { retention: { keepNoncurrentVersions: 100, noncurrentExpireDays: 1 } },
    ],
    ['the longest purge and soft delete', { retention: { noncurrentExpireDays: 365, softDeleteDays: 90 } }],
    [
      'released checkpoints kept, runs expired',
      { retention: { expireAfterDays: 90, keptPrefixes: ['releases/'], expirePrefixes: ['runs/'] } },
    ],
    ['hierarchical namespace with its defaults', hot],
    [
      'hierarchical namespace with a spec written for every cloud (0 for what it lacks)',
      { ...hot, retention: { keepNoncurrentVersions: 0, noncurrentExpireDays: 0, expireAfterDays: 3 } },
    ],
  ])('%s keeps every promise', async (_title, extra) => {
    const stores = retentionOf(await sharedRenderStack(stackConfig([store(extra)])));
    expect(stores.flatMap(brokenPromiseMessages)).toEqual([]);
  });

  it('keeps hot data hot: the high-throughput tier moves nothing to NEARLINE unless asked', async () => {
    const snapshot = await sharedRenderStack(stackConfig([store(hot)]));
    const bucket = snapshot.resources.find((resource) => resource.type === 'gcp:storage/bucket:Bucket');
    const moves = (bucket?.inputs['lifecycleRules'] as { action: { type: string } }[]).filter(
      (rule) => rule.action.type === 'SetStorageClass',
    );
    expect(moves).toEqual([]);
  });

  it('reports that a hierarchical-namespace bucket recovers from soft delete only', async () => {
    const [entry] = retentionOf(await sharedRenderStack(stackConfig([store(hot)])));
    expect(entry).toMatchObject({ deleteRecoveryDays: 7, overwriteRecoveryDays: 7 });
    expect(entry?.notes).toEqual([expect.stringContaining('soft delete only')]);
  });
});
