import {
  awsRequestAllowed,
  brokenPromiseMessages,
  complianceOf,
  createAnalysisContext,
  planChanges,
  retentionOf,
  type AwsPrincipal,
} from '@checkpoints/analysis';
import { names } from '@checkpoints/naming';
import type { Snapshot } from '@checkpoints/synth';
import { ACCOUNT, documentOf, resource, sharedRenderStack } from './render-stack';

/**
 * `recovery.retentionLock: { days }` on S3: Object Lock with a GOVERNANCE default retention on the store's bucket,
 * judged by what the change analysis says a deploy does, by IAM's evaluation (iam-simulate) of the rendered
 * policies, and by the retention model's replays.
 */
const LOCK_TYPE = 'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration';
const releases = {
  name: 'llm-releases',
  dataClassification: 'confidential',
  encryption: 'customer-managed',
  recovery: { retentionLock: { days: 365 } },
};
/** In prod a store of released checkpoints has a replica (the config refuses it without one). */
const prodReleases = { ...releases, recovery: { ...releases.recovery, replicaRegion: 'us-west-2' } };
const context = { project: 'checkpoints-aws', stack: 'prod', store: releases.name };
const BUCKET = `arn:aws:s3:::${names.s3Bucket(context)}`;
const OBJECT = `${BUCKET}/releases/llm-7b/model.safetensors`;
const roleArn = (purpose: 'writer' | 'reader') =>
  `arn:aws:iam::${ACCOUNT}:role/${names.iamRole(context, purpose)}`;

/** The locks of the store's own bucket (its replica's and the stack audit's log bucket's are their own). */
function lockOf(snapshot: Snapshot) {
  return snapshot.resources.filter(
    (r) => r.type === LOCK_TYPE && r.parent?.endsWith('CheckpointStore::llm-releases'),
  );
}

describe('a locked S3 store', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await sharedRenderStack({ environment: 'prod', stores: [prodReleases] });
  });

  it("locks every new version of the store's bucket for the stated days in GOVERNANCE mode, protected like the data", () => {
    const [lock, ...others] = lockOf(snapshot);
    expect(others).toEqual([]);
    expect(lock?.inputs).toMatchObject({
      bucket: names.s3Bucket(context),
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: 'GOVERNANCE', days: 365 } },
    });
    expect(lock?.inputs['rule']).toEqual({ defaultRetention: { mode: 'GOVERNANCE', days: 365 } });
    expect([lock?.protect, lock?.retainOnDelete]).toEqual([true, true]);
    // S3 enables Object Lock on an existing bucket only once versioning is on.
    expect(lock?.dependsOn).toContain(resource(snapshot, 'versioning', 'llm-releases-versioning').urn);
    // The bucket's own objectLockEnabled would replace the bucket: never set.
    expect(resource(snapshot, 'bucket', 'llm-releases-bucket').inputs).not.toHaveProperty(
      'objectLockEnabled',
    );
  });

  it('locks the replica the same way: every bucket holding the releases keeps each version 365 days', async () => {
    const { stores } = await complianceOf(createAnalysisContext(snapshot));
    const objectLock = stores[0]?.controls.find((each) => each.control === 'S3.15');
    expect(objectLock?.verdict).toBe('pass');
    expect(objectLock?.detail).toContain(
      'store bucket: Object Lock, GOVERNANCE default retention 365 d; replica bucket: Object Lock, GOVERNANCE default retention 365 d',
    );
    const replicated = stores[0]?.controls.find(
      (each) => each.control === 'checkpoints releases-replicated (AWS)',
    );
    expect(replicated?.verdict).toBe('pass');
  });

  it('keeps the retention promises, the lock among them, in the replays of the rendered store', () => {
    const [store] = retentionOf(snapshot);
    expect(store?.lock).toEqual({ days: 365, refuses: [] });
    expect(store ? brokenPromiseMessages(store) : ['no store']).toEqual([]);
  });

  it.each<[string, (lock: Snapshot['resources'][number]) => Snapshot['resources'][number] | null]>([
    ['without its lock', () => null],
    [
      'with a lock shorter than the spec states',
      (lock) => ({
        ...lock,
        inputs: { ...lock.inputs, rule: { defaultRetention: { mode: 'GOVERNANCE', days: 30 } } },
      }),
    ],
  ])('breaks the lock promise when the render is %s', (_title, change) => {
    const resources = snapshot.resources.flatMap((each) =>
      each.type === LOCK_TYPE ? (change(each) ?? []) : [each],
    );
    const [store] = retentionOf({ resources });
    expect(store?.broken.filter((broken) => broken.promise === 'lock').length).toBeGreaterThan(0);
    // A version gone before its 365 days: the replays say on which day.
    expect(store ? brokenPromiseMessages(store).join('\n') : '').toMatch(
      /before its 365-day retention lock ends/,
    );
  });

  it('is not protected outside prod, and still retained', async () => {
    const dev = await sharedRenderStack({ stores: [releases] });
    const [lock] = lockOf(dev);
    expect([lock?.protect, lock?.retainOnDelete]).toEqual([false, true]);
  });

  it('leaves a store without the key unlocked outside prod', async () => {
    const { recovery: _, ...unlocked } = releases;
    const plain = await sharedRenderStack({ stores: [unlocked] });
    expect(lockOf(plain)).toEqual([]);
    const statements = documentOf(resource(plain, 'bucketPolicy', 'llm-releases-policy')).Statement;
    expect(statements.map((s) => s.Sid)).not.toContain('DenyBypassingRetentionLock');
  });

  it('in prod, locks a store without the key for its recovery window: the guardrail a CI identity cannot lift', async () => {
    const { recovery: _, ...unlocked } = releases;
    const prod = await sharedRenderStack({ environment: 'prod', stores: [unlocked] });
    const [store] = retentionOf(prod);
    // The default retention.noncurrentExpireDays.
    expect(store?.lock).toEqual({ days: 7, refuses: [] });
    expect(store ? brokenPromiseMessages(store) : ['no store']).toEqual([]);
    const statements = documentOf(resource(prod, 'bucketPolicy', 'llm-releases-policy')).Statement;
    expect(statements.map((s) => s.Sid)).toContain('DenyBypassingRetentionLock');
  });

  describe('who may lift or bypass it (iam-simulate over the rendered policies)', () => {
    const principal = (arn: string, policy: unknown): AwsPrincipal => ({
      principal: { id: arn, label: arn, kind: 'store-identity' },
      arn,
      policies: [{ name: 'access', policy: policy as AwsPrincipal['policies'][number]['policy'] }],
    });
    const writer = () =>
      principal(
        roleArn('writer'),
        documentOf(resource(snapshot, 'rolePolicy', 'llm-releases-writer-access')),
      );
    /** An identity of the account allowed everything on S3 by its own policy, e.g. an administrator. */
    const administrator = principal(`arn:aws:iam::${ACCOUNT}:role/platform-admin`, {
      Version: '2012-10-17',
      Statement: [{ Effect: 'Allow', Action: ['s3:*'], Resource: ['*'] }],
    });
    const ask = (who: AwsPrincipal, action: string, on = OBJECT) =>
      awsRequestAllowed(who, {
        action,
        resource: on,
        context: { 'aws:SourceVpce': 'vpce-0a1b2c3d4e5f60718' },
        resourcePolicy: documentOf(resource(snapshot, 'bucketPolicy', 'llm-releases-policy')),
      });

    it('lets the writer write and delete (a delete marker), never delete a version or bypass the lock', async () => {
      expect(await ask(writer(), 's3:PutObject')).toBeDefined();
      expect(await ask(writer(), 's3:DeleteObject')).toBeDefined();
      expect(await ask(writer(), 's3:DeleteObjectVersion')).toBeUndefined();
      expect(await ask(writer(), 's3:BypassGovernanceRetention')).toBeUndefined();
      expect(await ask(writer(), 's3:PutObjectRetention')).toBeUndefined();
    });

    it('denies bypassing the lock to everyone, an identity allowed s3:* included (break glass edits the policy first)', async () => {
      expect(await ask(administrator, 's3:DeleteObjectVersion')).toBeDefined();
      expect(await ask(administrator, 's3:BypassGovernanceRetention')).toBeUndefined();
    });

    it("denies the store's roles changing the lock even if a policy allowed it, and no one else", async () => {
      const allowedEverything = (arn: string) =>
        principal(arn, { Version: '2012-10-17', Statement: administrator.policies[0]!.policy.Statement });
      for (const purpose of ['writer', 'reader'] as const) {
        expect(
          await ask(allowedEverything(roleArn(purpose)), 's3:PutBucketObjectLockConfiguration', BUCKET),
        ).toBeUndefined();
      }
      expect(await ask(administrator, 's3:PutBucketObjectLockConfiguration', BUCKET)).toBeDefined();
    });
  });
});

describe('adding the lock to an existing store', () => {
  it('creates the lock, updates the bucket policy in place, and replaces or deletes nothing', async () => {
    const { recovery: _, ...unlocked } = releases;
    const base = await sharedRenderStack({ stores: [unlocked] });
    const next = await sharedRenderStack({ stores: [releases] });
    const plan = planChanges(base, next);
    // Every resource the deploy touches, and how: nothing else changes (in name order: the plan lists
    // resources in the order they registered, which the render does not fix).
    const touched = plan.stores[0]!.resources.filter((change) => change.kind !== 'unchanged')
      .map((change) => [change.name, change.kind])
      .sort(([a], [b]) => (a ?? '').localeCompare(b ?? ''));
    expect(touched).toEqual([
      ['llm-releases-policy', 'updated'],
      ['llm-releases-retention-lock', 'created'],
    ]);
    expect(plan.dataLoss).toEqual([]);
  });

  it('releases the lock (never deletes it) when the key is removed, and the plan says so', async () => {
    const { recovery: _, ...unlocked } = releases;
    const dev = await sharedRenderStack({ stores: [releases] });
    const removed = await sharedRenderStack({ stores: [unlocked] });
    const change = planChanges(dev, removed).stores[0]!.resources.find(
      (each) => each.name === 'llm-releases-retention-lock',
    );
    expect(change?.kind).toBe('released');
  });
});
