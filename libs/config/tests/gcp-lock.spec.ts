import { gcpRules, loadStackSpec, type ConfigIssue } from '../src';
import { gcpIssuesOf, NETWORK, prodConfig as config } from './gcp-helpers';

function releases(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'llm-releases',
    dataClassification: 'confidential',
    network: NETWORK,
    recovery: { retentionLock: { days: 365 }, replicaRegion: 'us-east1' },
    workload: { latestOverwriteHours: 0 },
    ...extra,
  };
}

function issuesOf(store: Record<string, unknown>): ConfigIssue[] {
  return gcpIssuesOf([store]);
}

describe('gcpRules: retention lock of a whole store (accepted)', () => {
  it('takes { days } on the standard tier, with a replica region, and noncurrent keys at 0', () => {
    const spec = loadStackSpec(
      config([
        releases({
          recovery: { retentionLock: { days: 365 }, replicaRegion: 'us-east1' },
          retention: { keepNoncurrentVersions: 0, noncurrentExpireDays: 0, expireAfterDays: 400 },
        }),
      ]),
      gcpRules({ region: 'us-central1' }),
    );
    expect(spec.stores[0]?.recovery.retentionLock).toEqual({ days: 365 });
    expect(spec.stores[0]?.retention.noncurrentExpireDays).toBe(0);
  });

  it('still refuses noncurrentExpireDays: 0 on an unlocked standard store', () => {
    const issues = issuesOf(releases({ recovery: {}, retention: { noncurrentExpireDays: 0 } }));
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].retention.noncurrentExpireDays',
    ]);
  });
});

describe('gcpRules: retention lock of a whole store (refused, with the key, the value and what is allowed)', () => {
  it.each<[string, Record<string, unknown>, string, unknown, string]>([
    [
      'a prefix',
      releases({
        recovery: { retentionLock: { prefix: 'releases/', days: 365 }, replicaRegion: 'us-east1' },
      }),
      'checkpoints:stores[0].recovery.retentionLock.prefix',
      'releases/',
      'omit prefix and lock a store of its own that holds the released checkpoints: recovery.retentionLock: { days: 365 }',
    ],
    [
      'the high-throughput tier',
      releases({ tier: 'high-throughput', recovery: { retentionLock: { days: 365 } } }),
      'checkpoints:stores[0].recovery.retentionLock',
      { days: 365 },
      'is not offered on tier high-throughput: its hierarchical-namespace bucket is for the folder renames and overwrites of a running job',
    ],
    [
      'previous versions to keep',
      releases({ retention: { keepNoncurrentVersions: 3 } }),
      'checkpoints:stores[0].retention.keepNoncurrentVersions',
      3,
      'Cloud Storage does not allow Object Versioning on a bucket with one, so there are no previous versions to keep or expire; remove retention.keepNoncurrentVersions or set it to 0',
    ],
    [
      'previous versions to expire',
      releases({ retention: { noncurrentExpireDays: 7 } }),
      'checkpoints:stores[0].retention.noncurrentExpireDays',
      7,
      'remove retention.noncurrentExpireDays or set it to 0',
    ],
    [
      'an expiry inside the lock',
      releases({ retention: { expireAfterDays: 365 } }),
      'checkpoints:stores[0].retention.expireAfterDays',
      365,
      'expires checkpoints inside the 365-day retention lock, which refuses the lifecycle delete until the lock ends; set expireAfterDays to 0 (never) or above 365',
    ],
    [
      'a job overwriting latest.pt',
      releases({ workload: { latestOverwriteHours: 1 } }),
      'checkpoints:stores[0].workload.latestOverwriteHours',
      1,
      'a job cannot overwrite latest.pt in a locked store',
    ],
  ])('%s', (_title, store, path, value, message) => {
    const issues = issuesOf(store);
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([[path, value]]);
    expect(issues[0]?.message).toContain(message);
  });
});
