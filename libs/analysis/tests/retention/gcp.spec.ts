import { gcsModel, replay, type GcsBucket, type GcsRule, type JobEvent } from '../../src';

const write = (at: number): JobEvent => ({ at, kind: 'write' });
const remove = (at: number): JobEvent => ({ at, kind: 'delete' });
const remove_ = (condition: GcsRule['condition']): GcsRule => ({ action: 'Delete', condition });
const bucket = (fields: Partial<GcsBucket>): GcsBucket => ({
  versioned: true,
  hierarchicalNamespace: false,
  softDeleteDays: 0,
  rules: [],
  ...fields,
});

const LIFECYCLE = 'https://cloud.google.com/storage/docs/lifecycle#conditions';
const VERSIONING = 'https://cloud.google.com/storage/docs/object-versioning';
const SOFT_DELETE = 'https://cloud.google.com/storage/docs/soft-delete';
const HNS = 'https://cloud.google.com/storage/docs/hns-overview#limitations';

// Hours from day 0, 00:00 UTC; lifecycle acts at the first daily pass once every condition holds.
describe('Cloud Storage lifecycle semantics (one row per documented rule)', () => {
  it.each<
    [string, string, GcsBucket, JobEvent[], { liveUntil?: number; goneAt: [number, number | undefined][] }]
  >([
    [
      'every condition of a rule must hold: a key written once never has 2 newer versions, so it is never deleted',
      LIFECYCLE,
      bucket({
        rules: [remove_({ withState: 'ARCHIVED', daysSinceNoncurrentTime: 7, numNewerVersions: 2 })],
      }),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, undefined]] },
    ],
    [
      'numNewerVersions counts the live version: one overwrite gives the old version 1 newer version',
      LIFECYCLE,
      bucket({ rules: [remove_({ withState: 'ARCHIVED', numNewerVersions: 1 })] }),
      [write(10), write(34)],
      {
        goneAt: [
          [1, 48],
          [2, undefined],
        ],
      },
    ],
    [
      'daysSinceNoncurrentTime counts from when the version became noncurrent (34 h + 7 days, next pass)',
      LIFECYCLE,
      bucket({ rules: [remove_({ withState: 'ARCHIVED', daysSinceNoncurrentTime: 7 })] }),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 216]] },
    ],
    [
      'age counts from creation; Delete of a live version in a versioned bucket makes it noncurrent',
      VERSIONING,
      bucket({ rules: [remove_({ withState: 'LIVE', age: 3 })] }),
      [write(10)],
      { liveUntil: 96, goneAt: [[1, undefined]] },
    ],
    [
      'withState LIVE leaves noncurrent versions alone',
      LIFECYCLE,
      bucket({ rules: [remove_({ withState: 'LIVE', age: 1 })] }),
      [write(10), write(34)],
      { liveUntil: 72, goneAt: [[1, undefined]] },
    ],
    [
      'matchesPrefix: a key outside the prefixes is not touched',
      LIFECYCLE,
      bucket({ rules: [remove_({ withState: 'LIVE', age: 1, matchesPrefixes: ['tmp/'] })] }),
      [write(10)],
      { goneAt: [[1, undefined]] },
    ],
    [
      'soft delete keeps what lifecycle deletes for its retention more (216 h + 14 days)',
      SOFT_DELETE,
      bucket({ softDeleteDays: 14, rules: [remove_({ withState: 'ARCHIVED', daysSinceNoncurrentTime: 7 })] }),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 216 + 14 * 24]] },
    ],
    [
      'hierarchical namespace: no versions, a delete goes to soft delete',
      HNS,
      bucket({ hierarchicalNamespace: true, softDeleteDays: 7 }),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 34 + 7 * 24]] },
    ],
    [
      'soft delete also keeps an overwritten object of a bucket without versions',
      SOFT_DELETE,
      bucket({ versioned: false, softDeleteDays: 7 }),
      [write(10), write(34)],
      {
        goneAt: [
          [1, 34 + 7 * 24],
          [2, undefined],
        ],
      },
    ],
    [
      'without versions or soft delete a delete is immediate',
      SOFT_DELETE,
      bucket({ versioned: false }),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 34]] },
    ],
  ])('%s (%s)', (_rule, _source, given, events, expected) => {
    const trace = replay(gcsModel(given), 'run-1/model.pt', events, 30);
    expect(trace.liveUntil).toBe(expected.liveUntil);
    for (const [generation, at] of expected.goneAt) expect(trace.goneAt.get(generation)).toBe(at);
  });
});
