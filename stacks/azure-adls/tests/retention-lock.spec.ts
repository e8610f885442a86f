import { brokenPromiseMessages, planChanges, retentionOf } from '@checkpoints/analysis';
import { byName, customResources, type Snapshot } from '@checkpoints/synth';
import { refusal, sharedRenderStack, stackConfig, T } from './render';

const POLICY = 'azure-native:storage:BlobContainerImmutabilityPolicy';
const released = {
  name: 'llm-releases',
  dataClassification: 'confidential',
  retention: { coolAfterDays: 30 },
  // In prod a store of released checkpoints is geo-redundant (the config refuses it in one region).
  recovery: { replicaRegion: 'centralus', retentionLock: { days: 365 } },
};
const unlocked = { ...released, recovery: { replicaRegion: 'centralus' } };

const policies = (snapshot: Snapshot) => customResources(snapshot).filter((r) => r.type === POLICY);

describe('retention lock of a whole ADLS Gen2 store', () => {
  it.each(['dev', 'prod'])(
    '%s: a time-based immutability policy of the spec days on the filesystem, unlocked, without appends, kept like the data',
    async (environment) => {
      const snapshot = await sharedRenderStack({ environment, stores: [released] }, environment);
      const filesystem = byName(snapshot, T.filesystem, 'llm-releases');
      const account = byName(snapshot, T.account, 'llm-releases');
      const [policy, ...others] = policies(snapshot);
      expect(others).toEqual([]);
      expect(policy?.inputs).toEqual({
        resourceGroupName: account.inputs['resourceGroupName'],
        accountName: account.inputs['accountName'],
        containerName: filesystem.inputs['containerName'],
        immutabilityPolicyName: 'default',
        immutabilityPeriodSinceCreationInDays: 365,
        allowProtectedAppendWrites: false,
        allowProtectedAppendWritesAll: false,
      });
      expect([policy?.retainOnDelete, policy?.protect]).toEqual([true, environment === 'prod']);
      expect(policy?.dependsOn).toContain(filesystem.urn);
    },
  );

  it('renders no policy for a store without the key', async () => {
    expect(policies(await sharedRenderStack({ stores: [unlocked] }))).toEqual([]);
  });

  it('adding the lock to an existing store creates the policy and replaces or releases nothing', async () => {
    const base = await sharedRenderStack({ environment: 'prod', stores: [unlocked] }, 'prod');
    const next = await sharedRenderStack({ environment: 'prod', stores: [released] }, 'prod');
    const plan = planChanges(base, next);
    const changed = plan.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    expect(changed.map((change) => `${change.type} ${change.name} ${change.kind}`)).toEqual([
      `${POLICY} llm-releases created`,
    ]);
    expect(plan.dataLoss).toEqual([]);
  });

  it('changing the days updates the policy in place; removing the key releases it (Azure keeps the lock)', async () => {
    const base = await sharedRenderStack({ environment: 'prod', stores: [released] }, 'prod');
    const longer = { ...released, recovery: { ...released.recovery, retentionLock: { days: 730 } } };
    const extended = planChanges(
      base,
      await sharedRenderStack({ environment: 'prod', stores: [longer] }, 'prod'),
    );
    const policy = extended.stores[0]!.resources.find((change) => change.type === POLICY);
    expect([policy?.kind, policy?.replacedBy]).toEqual(['updated', []]);
    const removed = planChanges(
      base,
      await sharedRenderStack({ environment: 'prod', stores: [unlocked] }, 'prod'),
    );
    const gone = removed.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    expect(gone.map((change) => `${change.type} ${change.kind}`)).toEqual([`${POLICY} released`]);
    expect(removed.dataLoss).toEqual([]);
  });

  it('refuses a lock of a prefix before any resource is registered, saying what to do instead', async () => {
    const { issues, registered } = await refusal(
      stackConfig({
        stores: [{ ...released, recovery: { retentionLock: { prefix: 'releases/', days: 365 } } }],
      }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].recovery.retentionLock.prefix',
    ]);
    expect(issues[0]?.message).toContain('Omit prefix and lock a store of its own');
    expect(registered.filter((r) => r.custom)).toEqual([]);
  });

  it('keeps the lock promise and every other promise of the locked store', async () => {
    const [entry] = retentionOf(await sharedRenderStack({ stores: [released] }));
    expect(entry?.lock).toEqual({ days: 365, refuses: ['delete', 'overwrite'] });
    expect(brokenPromiseMessages(entry!)).toEqual([]);
  });

  it('breaks the lock promise when the render locks nothing or fewer days than the spec', async () => {
    const snapshot = await sharedRenderStack({ stores: [released] });
    const without: Snapshot = { ...snapshot, resources: snapshot.resources.filter((r) => r.type !== POLICY) };
    const [unlockedEntry] = retentionOf(without);
    expect(unlockedEntry?.broken.filter((broken) => broken.promise === 'lock')).toEqual([
      {
        promise: 'lock',
        day: 0,
        message: 'the rendered store locks nothing, though recovery.retentionLock.days is 365',
      },
      // Soft delete keeps the deleted file 7 days; nothing keeps an overwritten one on a hierarchical namespace.
      {
        promise: 'lock',
        day: 8,
        message: 'a checkpoint deleted by a job is gone on day 8, before its 365-day retention lock ends',
      },
      {
        promise: 'lock',
        day: 1,
        message:
          'the previous content of an overwritten checkpoint is gone on day 1, before its 365-day retention lock ends',
      },
    ]);
    const shorter: Snapshot = {
      ...snapshot,
      resources: snapshot.resources.map((r) =>
        r.type === POLICY ? { ...r, inputs: { ...r.inputs, immutabilityPeriodSinceCreationInDays: 30 } } : r,
      ),
    };
    const [shorterEntry] = retentionOf(shorter);
    expect(shorterEntry?.lock).toEqual({ days: 30, refuses: ['delete', 'overwrite'] });
    expect(brokenPromiseMessages(shorterEntry!)).toEqual([
      expect.stringContaining('each version for 30 days only, though recovery.retentionLock.days is 365'),
    ]);
  });
});
