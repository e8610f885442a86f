import { gcsBucketOf, gcsModel, replay, type GcsBucket, type GcsRule, type JobEvent } from '../../src';

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
// "Any attempt to overwrite or delete objects younger than the retention period will result in a
// PERMISSION_DENIED error" (Storage JSON API, Bucket.retentionPolicy).
const BUCKET_LOCK = 'https://cloud.google.com/storage/docs/bucket-lock';

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

// A bucket retention policy (Bucket Lock, not locked): unversioned, soft delete 7 days, as a locked store renders.
const retained = (retentionDays: number, fields: Partial<GcsBucket> = {}): GcsBucket =>
  bucket({ versioned: false, softDeleteDays: 7, retentionDays, ...fields });

describe('Cloud Storage retention policy semantics (one row per documented rule)', () => {
  it.each<
    [
      string,
      string,
      GcsBucket,
      JobEvent[],
      { refused: JobEvent[]; liveUntil?: number; goneAt: [number, number | undefined][]; copies: number },
    ]
  >([
    [
      "a job's delete of an object younger than the period is refused; the object stays live",
      BUCKET_LOCK,
      retained(30),
      [write(10), remove(34)],
      { refused: [remove(34)], goneAt: [[1, undefined]], copies: 1 },
    ],
    [
      "a job's overwrite of an object younger than the period is refused; the first content stays",
      BUCKET_LOCK,
      retained(30),
      [write(10), write(34)],
      { refused: [write(34)], goneAt: [[1, undefined]], copies: 1 },
    ],
    [
      'a delete once the object is older than the period is taken, and soft delete keeps it 7 days more',
      SOFT_DELETE,
      retained(1),
      [write(10), remove(58)],
      { refused: [], liveUntil: 58, goneAt: [[1, 58 + 7 * 24]], copies: 0 },
    ],
    [
      'an overwrite once the object is older than the period replaces it; the old content goes to soft delete',
      SOFT_DELETE,
      retained(1),
      [write(10), write(58)],
      {
        refused: [],
        goneAt: [
          [1, 58 + 7 * 24],
          [2, undefined],
        ],
        copies: 1,
      },
    ],
    [
      'a lifecycle Delete waits for the period: age 1 holds from day 1, the object goes at the first pass past 5 days (day 6)',
      BUCKET_LOCK,
      retained(5, { rules: [remove_({ withState: 'LIVE', age: 1 })] }),
      [write(10)],
      { refused: [], liveUntil: 6 * 24, goneAt: [[1, 6 * 24 + 7 * 24]], copies: 0 },
    ],
    [
      'a locked policy holds the objects exactly as an unlocked one (locking only stops shortening or removing it)',
      BUCKET_LOCK,
      retained(30, { retentionLocked: true }),
      [write(10), remove(34)],
      { refused: [remove(34)], goneAt: [[1, undefined]], copies: 1 },
    ],
    [
      'a new write to a key whose object was deleted after its period is a new object, not an overwrite',
      BUCKET_LOCK,
      retained(1),
      [write(10), remove(58), write(60)],
      {
        refused: [],
        liveUntil: undefined,
        goneAt: [
          [1, 58 + 7 * 24],
          [2, undefined],
        ],
        copies: 1,
      },
    ],
  ])('%s (%s)', (_rule, _source, given, events, expected) => {
    const trace = replay(gcsModel(given), 'releases/model.pt', events, 40);
    expect(trace.refused).toEqual(expected.refused);
    expect(trace.liveUntil).toBe(expected.liveUntil);
    for (const [generation, at] of expected.goneAt) expect(trace.goneAt.get(generation)).toBe(at);
    expect(trace.copies.at(-1)?.live ?? 0).toBe(expected.copies);
  });

  it('reads the period from the rendered bucket (seconds, a string in @pulumi/gcp 9.37) and whether it is locked', () => {
    const rendered = (retentionPolicy: unknown) => [
      {
        urn: 'bucket',
        type: 'gcp:storage/bucket:Bucket',
        name: 'bucket',
        parent: null,
        protect: false,
        retainOnDelete: true,
        dependsOn: [],
        inputs: { versioning: { enabled: false }, retentionPolicy },
      },
    ];
    expect(gcsBucketOf(rendered({ retentionPeriod: '31536000', isLocked: false }))).toMatchObject({
      retentionDays: 365,
      retentionLocked: false,
    });
    expect(gcsBucketOf(rendered({ retentionPeriod: '86400', isLocked: true }))).toMatchObject({
      retentionDays: 1,
      retentionLocked: true,
    });
    expect(gcsBucketOf(rendered(undefined))).toMatchObject({ retentionDays: 0, retentionLocked: false });
  });
});
