import { replay, s3Model, type JobEvent, type S3Bucket, type S3Rule } from '../../src';

const write = (at: number): JobEvent => ({ at, kind: 'write' });
const remove = (at: number): JobEvent => ({ at, kind: 'delete' });
const rule = (fields: Partial<S3Rule>): S3Rule => ({ id: 'r', enabled: true, prefix: '', ...fields });
const versioned = (...rules: S3Rule[]): S3Bucket => ({ directory: false, versioned: true, rules });
const directory = (...rules: S3Rule[]): S3Bucket => ({ directory: true, versioned: false, rules });

const LIFECYCLE = 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/intro-lifecycle-rules.html';
const EXPIRING =
  'https://docs.aws.amazon.com/AmazonS3/latest/userguide/lifecycle-expire-general-considerations.html';
const NONCURRENT = 'https://docs.aws.amazon.com/AmazonS3/latest/API/API_NoncurrentVersionExpiration.html';
const MARKERS = 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/ManagingDelMarkers.html';
const EXPRESS =
  'https://docs.aws.amazon.com/AmazonS3/latest/userguide/directory-buckets-objects-lifecycle.html';

// Hours from day 0, 00:00 UTC. Each row: [documented rule, source, bucket, job events, what the model must give].
describe('S3 lifecycle semantics (one row per documented rule)', () => {
  it.each<
    [
      string,
      string,
      S3Bucket,
      JobEvent[],
      { liveUntil?: number; goneAt?: [number, number | undefined][]; emptyAt?: number },
    ]
  >([
    [
      'expiration: creation time + days, rounded up to the next midnight UTC (Jan 15 10:30 + 3 days -> Jan 19 00:00)',
      LIFECYCLE,
      versioned(rule({ expirationDays: 3 })),
      [write(10.5)],
      { liveUntil: 96, goneAt: [[1, undefined]] },
    ],
    [
      'noncurrent expiration counts from when the version became noncurrent, rounded up to midnight (noncurrent 2 Jan 11:30, 1 day -> 4 Jan 00:00)',
      NONCURRENT,
      versioned(rule({ noncurrentDays: 1 })),
      [write(10.5), write(35.5)],
      { goneAt: [[1, 72]] },
    ],
    [
      'NewerNoncurrentVersions: a version is deleted only once that many newer noncurrent versions exist',
      NONCURRENT,
      versioned(rule({ noncurrentDays: 1, newerNoncurrentVersions: 2 })),
      [write(1), write(2), write(3), write(4)],
      {
        goneAt: [
          [1, 48],
          [2, undefined],
          [3, undefined],
        ],
      },
    ],
    [
      'NewerNoncurrentVersions alone never purges a key written once and deleted: its last version stays',
      NONCURRENT,
      versioned(
        rule({ noncurrentDays: 7, newerNoncurrentVersions: 3 }),
        rule({ expiredObjectDeleteMarker: true }),
      ),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, undefined]] },
    ],
    [
      'expiration in a versioning-enabled bucket adds a delete marker; the current version becomes noncurrent, not deleted',
      EXPIRING,
      versioned(rule({ expirationDays: 1 })),
      [write(10)],
      { liveUntil: 48, goneAt: [[1, undefined]] },
    ],
    [
      'ExpiredObjectDeleteMarker removes a delete marker once it is the only version left (the pass after)',
      MARKERS,
      versioned(rule({ noncurrentDays: 1 }), rule({ expiredObjectDeleteMarker: true })),
      [write(10.5), remove(35.5)],
      { liveUntil: 35.5, goneAt: [[1, 72]], emptyAt: 96 },
    ],
    [
      'without ExpiredObjectDeleteMarker (or a current-version expiration) the lone delete marker stays',
      MARKERS,
      versioned(rule({ noncurrentDays: 1 })),
      [write(10.5), remove(35.5)],
      { liveUntil: 35.5, goneAt: [[1, 72]] },
    ],
    [
      'a rule applies only to keys under its filter prefix',
      LIFECYCLE,
      versioned(rule({ prefix: 'tmp/', expirationDays: 1 })),
      [write(10)],
      {},
    ],
    [
      'directory bucket: no versions, a delete removes the object at once',
      EXPRESS,
      directory(),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 34]], emptyAt: 34 },
    ],
    [
      'directory bucket: an overwrite replaces the object, nothing of it is kept',
      EXPRESS,
      directory(),
      [write(10), write(34)],
      { goneAt: [[1, 34]] },
    ],
    [
      'directory bucket: expiration deletes the object permanently',
      EXPRESS,
      directory(rule({ expirationDays: 1 })),
      [write(10)],
      { liveUntil: 48, goneAt: [[1, 48]], emptyAt: 48 },
    ],
  ])('%s (%s)', (_rule, _source, bucket, events, expected) => {
    const trace = replay(s3Model(bucket), 'run-1/model.pt', events, 10);
    expect(trace.liveUntil).toBe(expected.liveUntil);
    expect(trace.emptyAt).toBe(expected.emptyAt);
    for (const [generation, at] of expected.goneAt ?? []) expect(trace.goneAt.get(generation)).toBe(at);
  });
});
