import { replay, type JobEvent, type LifecycleModel, type StoredObject } from '../../src';

const write = (at: number): JobEvent => ({ at, kind: 'write' });
const remove = (at: number): JobEvent => ({ at, kind: 'delete' });

/** A write-once store: the first write lands, every later write and every delete is refused. */
const writeOnce: LifecycleModel = {
  write(object: StoredObject, version) {
    if (object.versions.length > 0) return 'refused';
    object.versions.unshift(version);
    return undefined;
  },
  remove: () => 'refused',
  lifecycle: () => undefined,
};

describe('replay of requests a store refuses', () => {
  it('records each refused request in order and leaves the key as it was', () => {
    const trace = replay(writeOnce, 'releases/model.pt', [write(10), write(20), remove(30)], 3);
    expect(trace.refused).toEqual([write(20), remove(30)]);
    expect(trace.liveUntil).toBeUndefined();
    expect(trace.goneAt.size).toBe(0);
    expect(trace.copies.at(-1)).toMatchObject({ count: 1, live: 1 });
  });

  it('records nothing when the store takes every request', () => {
    const takesAll: LifecycleModel = {
      write: (object, version) => void object.versions.unshift(version),
      remove: (object) => void (object.versions = []),
      lifecycle: () => undefined,
    };
    const trace = replay(takesAll, 'run-1/model.pt', [write(10), remove(30)], 3);
    expect(trace.refused).toEqual([]);
    expect(trace.liveUntil).toBe(30);
  });
});
