import { HOURS_PER_DAY, replay, type JobEvent, type LifecycleModel, type StoredObject } from '../../src';

const write = (at: number): JobEvent => ({ at, kind: 'write' });
const remove = (at: number): JobEvent => ({ at, kind: 'delete' });

/**
 * A store that keeps no previous versions but soft-deletes the replaced or deleted one for a day (as GCS
 * soft delete and Azure blob soft delete do), with no lifecycle rules.
 */
const softDeletesForADay: LifecycleModel = {
  write(object, version) {
    softDeleteLive(object, version.writtenAt);
    object.versions.unshift(version);
  },
  remove: softDeleteLive,
  lifecycle: () => undefined,
};

function softDeleteLive(object: StoredObject, at: number): void {
  const live = object.versions.find((candidate) => candidate.softDeletedAt === undefined);
  if (live === undefined) return;
  live.softDeletedAt = at;
  live.hardDeleteAt = at + HOURS_PER_DAY;
}

describe('replay of soft-deleted copies', () => {
  it('counts each soft-deleted copy until its own hour, in hour order, when several end before the next event', () => {
    const trace = replay(softDeletesForADay, 'run-1/latest.pt', [write(0), write(1), write(2)], 0);
    expect(trace.copies).toEqual([
      { at: 0, count: 1, live: 1, noncurrent: 0, softDeleted: 0 },
      { at: 1, count: 2, live: 1, noncurrent: 0, softDeleted: 1 },
      { at: 2, count: 3, live: 1, noncurrent: 0, softDeleted: 2 },
      { at: 25, count: 2, live: 1, noncurrent: 0, softDeleted: 1 },
      { at: 26, count: 1, live: 1, noncurrent: 0, softDeleted: 0 },
    ]);
  });

  it('a copy whose soft delete ends at the hour of an event is gone at that event, and goneAt says when', () => {
    const trace = replay(softDeletesForADay, 'run-1/latest.pt', [write(0), write(1), write(25)], 0);
    expect(trace.copies).toEqual([
      { at: 0, count: 1, live: 1, noncurrent: 0, softDeleted: 0 },
      { at: 1, count: 2, live: 1, noncurrent: 0, softDeleted: 1 },
      { at: 25, count: 2, live: 1, noncurrent: 0, softDeleted: 1 },
      { at: 49, count: 1, live: 1, noncurrent: 0, softDeleted: 0 },
    ]);
    expect(trace.goneAt.get(1)).toBe(25);
  });

  it('copies whose soft delete ends at the same hour end in one step', () => {
    const trace = replay(softDeletesForADay, 'run-1/latest.pt', [write(0), write(2), remove(2)], 0);
    expect(trace.copies).toEqual([
      { at: 0, count: 1, live: 1, noncurrent: 0, softDeleted: 0 },
      { at: 2, count: 2, live: 1, noncurrent: 0, softDeleted: 1 },
      { at: 2, count: 2, live: 0, noncurrent: 0, softDeleted: 2 },
      { at: 26, count: 0, live: 0, noncurrent: 0, softDeleted: 0 },
    ]);
  });
});
