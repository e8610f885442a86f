import {
  analyzeAccess,
  brokenPromiseMessages,
  countChanges,
  planChanges,
  retentionOf,
} from '@checkpoints/analysis';
import type { Snapshot } from '@checkpoints/synth';
import { sharedRenderStack, stackConfig, store } from './render';

const BUCKET = 'gcp:storage/bucket:Bucket';
const YEAR_SECONDS = String(365 * 86_400);

/** A store of released checkpoints, written once, locked for a year. */
const releases = store({
  name: 'llm-releases',
  recovery: { retentionLock: { days: 365 } },
  workload: { latestOverwriteHours: 0 },
});

function bucketOf(snapshot: Snapshot) {
  const bucket = snapshot.resources.find((resource) => resource.type === BUCKET);
  if (!bucket) throw new Error('no bucket rendered');
  return bucket;
}

/** The same render with the bucket's retention policy replaced (undefined: removed). */
function withPolicy(snapshot: Snapshot, retentionPolicy: unknown): Snapshot {
  return {
    ...snapshot,
    resources: snapshot.resources.map((resource) => {
      if (resource.type !== BUCKET) return resource;
      const { retentionPolicy: _dropped, ...inputs } = resource.inputs;
      return { ...resource, inputs: retentionPolicy === undefined ? inputs : { ...inputs, retentionPolicy } };
    }),
  };
}

describe('retention lock of a whole store on Cloud Storage', () => {
  it('becomes an unlocked bucket retention policy of the stated days, on an unversioned bucket', async () => {
    const bucket = bucketOf(await sharedRenderStack(stackConfig([releases])));
    expect(bucket.inputs['retentionPolicy']).toEqual({ retentionPeriod: YEAR_SECONDS, isLocked: false });
    expect(bucket.inputs['versioning']).toEqual({ enabled: false });
    expect(bucket.retainOnDelete).toBe(true);
  });

  it('is protected with the data in prod: the bucket that carries it is protect and retainOnDelete', async () => {
    const bucket = bucketOf(
      await sharedRenderStack(
        // In prod a store of released checkpoints is dual-region (the config refuses it in one region).
        stackConfig(
          [{ ...releases, recovery: { retentionLock: { days: 365 }, replicaRegion: 'us-east1' } }],
          {
            'checkpoints:environment': 'prod',
          },
        ),
        'prod',
      ),
    );
    expect([bucket.protect, bucket.retainOnDelete]).toEqual([true, true]);
    expect(bucket.inputs['retentionPolicy']).toMatchObject({ isLocked: false });
  });

  it('keeps the lock promise: deletes and overwrites inside the lock are refused, nothing goes before 365 days', async () => {
    const [retention] = retentionOf(await sharedRenderStack(stackConfig([releases])));
    expect(retention?.lock).toEqual({ days: 365, refuses: ['delete', 'overwrite'] });
    expect(retention?.broken).toEqual([]);
    expect(retention?.notes.join('\n')).toContain(
      'once its 365-day lock is over, a deleted object is recovered from soft delete only',
    );
  });

  it('breaks the lock promise when the rendered policy is missing or shorter than the spec', async () => {
    const snapshot = await sharedRenderStack(stackConfig([releases]));
    const missing = retentionOf(withPolicy(snapshot, undefined)).flatMap(brokenPromiseMessages);
    expect(missing).toContain(
      'store llm-releases breaks the lock promise on day 0: the rendered store locks nothing, though recovery.retentionLock.days is 365',
    );
    // Unversioned, without the policy: the job's delete at hour 34 is taken, soft delete ends 7 days later.
    expect(missing).toContain(
      'store llm-releases breaks the lock promise on day 8: a checkpoint deleted by a job is gone on day 8, before its 365-day retention lock ends',
    );
    const shorter = retentionOf(
      withPolicy(snapshot, { retentionPeriod: String(30 * 86_400), isLocked: false }),
    ).flatMap(brokenPromiseMessages);
    expect(shorter).toContain(
      'store llm-releases breaks the lock promise on day 0: the rendered store locks each version for 30 days only, though recovery.retentionLock.days is 365',
    );
  });

  /** The change plan from one store config to another, and what it does to anything but unchanged resources. */
  async function plan(before: Record<string, unknown>, after: Record<string, unknown>) {
    const result = planChanges(
      await sharedRenderStack(stackConfig([before])),
      await sharedRenderStack(stackConfig([after])),
    );
    const changed = result.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    return { result, changes: changed.map((change) => `${change.type} ${change.kind}`) };
  }
  const unlocked = store({ name: 'llm-releases', workload: { latestOverwriteHours: 0 } });

  it('adding the lock to an existing store updates the bucket in place: nothing replaced, no data loss', async () => {
    const { result, changes } = await plan(unlocked, releases);
    expect(changes).toEqual([`${BUCKET} updated`]);
    expect(result.stores[0]!.resources.flatMap((change) => change.replacedBy)).toEqual([]);
    expect(Object.keys(countChanges(result)).sort()).toEqual(['unchanged', 'updated']);
    expect(result.dataLoss).toEqual([]);
  });

  it('removing the key lifts the policy in place (the relaxable mode): the bucket is updated, not replaced', async () => {
    const { result, changes } = await plan(releases, unlocked);
    expect(changes).toEqual([`${BUCKET} updated`]);
    expect(result.dataLoss).toEqual([]);
  });

  it("gives the store's writer and reader, and every declared member, no right to shorten or remove the policy", async () => {
    // An unlocked policy "can be modified or removed from the bucket via a storage.buckets.update operation"
    // (Storage JSON API, Bucket.retentionPolicy): the access analysis calls that right `configure`, from the
    // published role definitions (../shared/reference/cloud-roles).
    const locked = store({
      ...releases,
      access: { writers: ['group:release-managers@example.com'], readers: ['group:ml-eval@example.com'] },
    });
    const analysis = await analyzeAccess(await sharedRenderStack(stackConfig([locked])));
    const grants = analysis.stores.find((entry) => entry.store === 'llm-releases')?.grants ?? [];
    const operationsOf = (kind: string) =>
      [
        ...new Set(grants.filter((grant) => grant.principal.kind === kind).map((grant) => grant.operation)),
      ].sort();
    expect(operationsOf('store-identity')).toEqual(['delete', 'read', 'write']);
    expect(operationsOf('declared')).toEqual(['delete', 'read', 'write']);
    // Only the cloud's own defaults (project owners and editors, through the bucket's convenience values) may
    // update the bucket: the administrators of the break-glass procedure, outside this repository.
    const lifters = grants
      .filter((grant) => grant.operation === 'configure')
      .map((grant) => `${grant.principal.kind} ${grant.principal.label}`);
    expect([...new Set(lifters)].sort()).toEqual([
      'cloud-default project editors',
      'cloud-default project owners',
    ]);
  });
});
