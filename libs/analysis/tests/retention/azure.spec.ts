import { adlsModel, replay, type AdlsAccount, type AdlsDeleteRule, type JobEvent } from '../../src';

const write = (at: number): JobEvent => ({ at, kind: 'write' });
const remove = (at: number): JobEvent => ({ at, kind: 'delete' });
const rule = (fields: Partial<AdlsDeleteRule>): AdlsDeleteRule => ({
  name: 'r',
  enabled: true,
  prefixes: [],
  ...fields,
});
const account = (fields: Partial<AdlsAccount>): AdlsAccount => ({
  hierarchicalNamespace: true,
  softDeleteDays: 0,
  rules: [],
  lockDays: 0,
  ...fields,
});

const LIFECYCLE = 'https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-overview';
const LIFECYCLE_DELETE = 'https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-policy-delete';
const SOFT_DELETE_HNS = 'https://learn.microsoft.com/azure/storage/blobs/soft-delete-vs-versioning-options';

describe('Azure Blob lifecycle and soft delete semantics on ADLS Gen2 (one row per documented rule)', () => {
  it.each<
    [string, string, AdlsAccount, JobEvent[], { liveUntil?: number; goneAt: [number, number | undefined][] }]
  >([
    [
      'daysAfterModificationGreaterThan: strictly older than the days, at the daily run (10 h + 7 days -> day 8)',
      LIFECYCLE,
      account({ rules: [rule({ daysAfterModificationGreaterThan: 7 })] }),
      [write(10)],
      { liveUntil: 192, goneAt: [[1, 192]] },
    ],
    [
      'a lifecycle delete on an account with soft delete leaves a soft-deleted blob for the retention period',
      LIFECYCLE_DELETE,
      account({ softDeleteDays: 14, rules: [rule({ daysAfterModificationGreaterThan: 7 })] }),
      [write(10)],
      { liveUntil: 192, goneAt: [[1, 192 + 14 * 24]] },
    ],
    [
      'prefixMatch: a blob outside the prefixes is not deleted',
      LIFECYCLE,
      account({ rules: [rule({ prefixes: ['tmp/'], daysAfterModificationGreaterThan: 1 })] }),
      [write(10)],
      { goneAt: [[1, undefined]] },
    ],
    [
      'blob soft delete protects deletes on a hierarchical-namespace account',
      SOFT_DELETE_HNS,
      account({ softDeleteDays: 7 }),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 34 + 7 * 24]] },
    ],
    [
      'soft delete does not protect overwrites on a hierarchical-namespace account',
      SOFT_DELETE_HNS,
      account({ softDeleteDays: 7 }),
      [write(10), write(34)],
      {
        goneAt: [
          [1, 34],
          [2, undefined],
        ],
      },
    ],
    [
      'on a flat-namespace account soft delete keeps an overwritten blob too',
      SOFT_DELETE_HNS,
      account({ hierarchicalNamespace: false, softDeleteDays: 7 }),
      [write(10), write(34)],
      { goneAt: [[1, 34 + 7 * 24]] },
    ],
  ])('%s (%s)', (_rule, _source, given, events, expected) => {
    const trace = replay(adlsModel(given), 'runs/model.pt', events, 30);
    expect(trace.liveUntil).toBe(expected.liveUntil);
    for (const [generation, at] of expected.goneAt) expect(trace.goneAt.get(generation)).toBe(at);
  });
});

const WORM = 'https://learn.microsoft.com/azure/storage/blobs/immutable-time-based-retention-policy-overview';
const CONTAINER_WORM =
  'https://learn.microsoft.com/azure/storage/blobs/immutable-container-level-worm-policies';
const LIFECYCLE_LIMITS = `${LIFECYCLE}#known-issues-and-limitations`;
const WORM_SOFT_DELETE =
  'https://learn.microsoft.com/azure/storage/blobs/immutable-storage-overview#immutable-storage-with-blob-soft-delete';

describe('a container time-based immutability policy on ADLS Gen2 (one row per documented rule)', () => {
  it.each<
    [
      string,
      string,
      AdlsAccount,
      JobEvent[],
      { liveUntil?: number; goneAt: [number, number | undefined][]; refused: JobEvent[] },
    ]
  >([
    [
      'blobs can be created and read, but not overwritten while the policy is in effect',
      WORM,
      account({ lockDays: 2 }),
      [write(10), write(34)],
      { goneAt: [[1, undefined]], refused: [write(34)] },
    ],
    [
      'after the retention interval has expired, blobs can be deleted but not overwritten',
      WORM,
      account({ lockDays: 1 }),
      [write(10), write(10 + 48)],
      { goneAt: [[1, undefined]], refused: [write(58)] },
    ],
    [
      'a delete is refused until the retention interval since the blob was created has passed',
      WORM,
      account({ lockDays: 2, softDeleteDays: 7 }),
      [write(10), remove(34)],
      { goneAt: [[1, undefined]], refused: [remove(34)] },
    ],
    [
      'once the interval has passed a delete is allowed, into soft delete for its retention',
      WORM_SOFT_DELETE,
      account({ lockDays: 1, softDeleteDays: 7 }),
      [write(10), remove(34)],
      { liveUntil: 34, goneAt: [[1, 34 + 7 * 24]], refused: [] },
    ],
    [
      'the delete action of a lifecycle policy does not work on a blob in an immutable container',
      LIFECYCLE_LIMITS,
      account({ lockDays: 1, rules: [rule({ daysAfterModificationGreaterThan: 7 })] }),
      [write(10)],
      { goneAt: [[1, undefined]], refused: [] },
    ],
    [
      'Put Blob may create a new blob at a free path: a file written again after its delete',
      CONTAINER_WORM,
      account({ lockDays: 1 }),
      [write(10), remove(40), write(50)],
      {
        goneAt: [
          [1, 40],
          [2, undefined],
        ],
        refused: [],
      },
    ],
  ])('%s (%s)', (_rule, _source, given, events, expected) => {
    const trace = replay(adlsModel(given), 'releases/model.pt', events, 30);
    expect(trace.liveUntil).toBe(expected.liveUntil);
    for (const [generation, at] of expected.goneAt) expect(trace.goneAt.get(generation)).toBe(at);
    expect(trace.refused).toEqual(expected.refused);
  });
});
