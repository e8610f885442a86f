import { gcsModel, replay, replayLifecycle, type GcsBucket, type JobEvent } from '../../src';

const events: JobEvent[] = [
  { at: 10, kind: 'write' },
  { at: 34, kind: 'delete' },
];
const lifecycleOf = (bucket: GcsBucket) => ({
  model: gcsModel(bucket),
  settings: JSON.stringify(['gcp', bucket]),
  notes: [],
  days: [bucket.softDeleteDays],
  copyDays: [bucket.softDeleteDays],
});
const bucket = (softDeleteDays: number): GcsBucket => ({
  versioned: false,
  hierarchicalNamespace: false,
  softDeleteDays,
  rules: [],
});

describe('replayLifecycle: one replay per distinct lifecycle', () => {
  it('gives each lifecycle its own replay, equal to replaying its model', () => {
    for (const days of [7, 0, 7, 3]) {
      const lifecycle = lifecycleOf(bucket(days));
      expect(replayLifecycle(lifecycle, 'k', events, 30)).toEqual(replay(lifecycle.model, 'k', events, 30));
    }
    expect(replayLifecycle(lifecycleOf(bucket(7)), 'k', events, 30).emptyAt).toBe(34 + 7 * 24);
    expect(replayLifecycle(lifecycleOf(bucket(0)), 'k', events, 30).emptyAt).toBe(34);
  });

  it('shares the replay of equal settings, and tells the key, events and horizon apart', () => {
    const first = replayLifecycle(lifecycleOf(bucket(5)), 'k', events, 30);
    expect(replayLifecycle(lifecycleOf(bucket(5)), 'k', events, 30)).toBe(first);
    expect(replayLifecycle(lifecycleOf(bucket(5)), 'other', events, 30)).not.toBe(first);
    expect(replayLifecycle(lifecycleOf(bucket(5)), 'k', events.slice(0, 1), 30).emptyAt).toBeUndefined();
    expect(replayLifecycle(lifecycleOf(bucket(5)), 'k', events, 2).emptyAt).toBeUndefined();
  });
});
