import { type RenderedResource } from '@checkpoints/render';
import { replay, s3Model, type JobEvent, type S3Bucket, type S3Rule } from '../../src';
import { s3Lifecycle } from '../../src/retention/aws';

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
const LOCK = 'https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock.html';
const LOCK_LIFECYCLE =
  'https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-lifecycle';
const LOCK_MARKERS =
  'https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-delete-markers';
/** A versioned bucket whose Object Lock default retention locks each new version for `days`. */
const locked = (days: number, ...rules: S3Rule[]): S3Bucket => ({ ...versioned(...rules), lockDays: days });

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

// Hours from day 0, 00:00 UTC; each version is locked until its write + lockDays x 24 hours.
describe('S3 Object Lock semantics (one row per documented rule)', () => {
  it.each<
    [
      string,
      string,
      S3Bucket,
      JobEvent[],
      { liveUntil?: number; goneAt: [number, number | undefined][]; emptyAt?: number },
    ]
  >([
    [
      "a delete without a version ID adds a delete marker (the job's delete is taken); the version it hides stays locked, and goes on the first noncurrent-expiration pass after the lock ends (10:00 + 5 days -> day 6 00:00)",
      LOCK,
      locked(5, rule({ noncurrentDays: 1 }), rule({ expiredObjectDeleteMarker: true })),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 144]], emptyAt: 168 },
    ],
    [
      'an overwrite adds a new version (taken); the previous version stays locked until its own lock ends',
      LOCK,
      locked(5, rule({ noncurrentDays: 1 })),
      [write(10), write(34)],
      {
        goneAt: [
          [1, 144],
          [2, undefined],
        ],
      },
    ],
    [
      'lifecycle expiration of a current version of a locked object adds a delete marker, as without a lock',
      LOCK_LIFECYCLE,
      locked(5, rule({ expirationDays: 1 })),
      [write(10)],
      { liveUntil: 48, goneAt: [[1, undefined]] },
    ],
    [
      'noncurrent-version expiration does not delete a locked version: due on day 2, locked until day 3 10:00, gone day 4',
      LOCK_LIFECYCLE,
      locked(3, rule({ noncurrentDays: 1 })),
      [write(10), write(11)],
      { goneAt: [[1, 96]] },
    ],
    [
      'a version whose lock ended before its rule is due goes when the rule is due: the lock only delays',
      LOCK_LIFECYCLE,
      locked(1, rule({ noncurrentDays: 5 })),
      [write(10), write(11)],
      { goneAt: [[1, 144]] },
    ],
    [
      'a delete marker takes no retention period: ExpiredObjectDeleteMarker removes it once the locked version under it is gone',
      LOCK_MARKERS,
      locked(2, rule({ noncurrentDays: 1 }), rule({ expiredObjectDeleteMarker: true })),
      [write(10), remove(11)],
      { liveUntil: 11, goneAt: [[1, 72]], emptyAt: 96 },
    ],
  ])('%s (%s)', (_rule, _source, bucket, events, expected) => {
    const trace = replay(s3Model(bucket), 'releases/model.pt', events, 20);
    expect(trace.refused).toEqual([]);
    expect(trace.liveUntil).toBe(expected.liveUntil);
    expect(trace.emptyAt).toBe(expected.emptyAt);
    for (const [generation, at] of expected.goneAt) expect(trace.goneAt.get(generation)).toBe(at);
  });

  it('finds the lock of a rendered versioned bucket and keys the replay cache by it', () => {
    const rendered = (type: string, inputs: Record<string, unknown>): RenderedResource => ({
      urn: `urn:${type}`,
      type,
      name: type,
      parent: null,
      protect: false,
      retainOnDelete: true,
      dependsOn: [],
      inputs,
    });
    const bucket = rendered('aws:s3/bucket:Bucket', {});
    const versioning = rendered('aws:s3/bucketVersioning:BucketVersioning', {
      versioningConfiguration: { status: 'Enabled' },
    });
    const lock = (defaultRetention: Record<string, unknown>) =>
      rendered('aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration', {
        objectLockEnabled: 'Enabled',
        rule: { defaultRetention },
      });
    const resources = (...more: RenderedResource[]) => [bucket, versioning, ...more];
    const days365 = s3Lifecycle(resources(lock({ mode: 'GOVERNANCE', days: 365 })));
    expect(days365.lockDays).toBe(365);
    expect(s3Lifecycle(resources(lock({ mode: 'GOVERNANCE', years: 2 }))).lockDays).toBe(730);
    expect(s3Lifecycle(resources()).lockDays).toBeUndefined();
    expect(days365.settings).not.toBe(
      s3Lifecycle(resources(lock({ mode: 'GOVERNANCE', days: 30 }))).settings,
    );
    // Object Lock works only in versioned buckets: without versioning the render locks nothing.
    expect(s3Lifecycle([bucket, lock({ mode: 'GOVERNANCE', days: 365 })]).lockDays).toBeUndefined();
  });
});
