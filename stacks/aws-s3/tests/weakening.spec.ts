import { formatPlan, planChanges, planVerdict } from '@checkpoints/analysis';
import { editedRender, weakeningRows } from '@checkpoints/synth';
import { sharedRenderStack, type StackOptions } from './render-stack';

// Each test renders the stack twice; on a loaded machine that takes longer than jest's 5 s default.
jest.setTimeout(60_000);

const store = { name: 'llm-pretrain', dataClassification: 'confidential', encryption: 'customer-managed' };
const fast = { ...store, name: 'llm-fast', tier: 'high-throughput', zone: 'use1-az4' };
const locked = { ...store, recovery: { retentionLock: { days: 30 } } };
const perimeter = { ...store, network: { vpcEndpoints: ['vpce-0a1b2c3d4e5f60718'] } };
const REASON = 'shortened to cut cost, approved by the data owner';

const render = (stores: Record<string, unknown>[], options: Partial<StackOptions> = {}) =>
  sharedRenderStack({ environment: 'dev', ...options, stores });

describe('weakening on S3: judged by the retention replay, the trail selectors and the bucket policy', () => {
  it.each([
    [
      'a shorter noncurrent expiry shortens both recovery windows and the purge bound',
      [store],
      [{ ...store, retention: { noncurrentExpireDays: 1 } }],
      [
        ['llm-pretrain', 'recovery', 'recovery window of a deleted checkpoint', 8, 2],
        ['llm-pretrain', 'recovery', 'recovery window of an overwritten checkpoint', 8, 2],
        ['llm-pretrain', 'purge', 'purge bound', 9, 3],
      ],
    ],
    [
      'expiry of live checkpoints after a day lets lifecycle delete live data',
      [store],
      [{ ...store, retention: { coolAfterDays: 0, expireAfterDays: 1 } }],
      [['llm-pretrain', 'live-data', 'age at which lifecycle deletes a live checkpoint', null, 2]],
    ],
    [
      'a shorter Object Lock',
      [locked],
      [{ ...locked, recovery: { retentionLock: { days: 1 } } }],
      expect.arrayContaining([['llm-pretrain', 'lock', 'retention lock', 30, 1]]),
    ],
    [
      'audit off takes the bucket out of the trail selectors',
      [store],
      [{ ...store, audit: false }],
      [
        [
          'llm-pretrain',
          'audit',
          'CloudTrail data events (reads and writes of its objects)',
          'recorded',
          'not recorded',
        ],
      ],
    ],
    [
      'the perimeter removed opens the bucket to every network',
      [perimeter],
      [store],
      [
        [
          'llm-pretrain',
          'network',
          'network perimeter',
          'aws:SourceVpce vpce-0a1b2c3d4e5f60718',
          'open to every network',
        ],
      ],
    ],
    [
      'a second endpoint widens the perimeter',
      [perimeter],
      [{ ...store, network: { vpcEndpoints: ['vpce-0a1b2c3d4e5f60718', 'vpce-0fffffffffffffff1'] } }],
      [
        [
          'llm-pretrain',
          'network',
          'network perimeter',
          'aws:SourceVpce vpce-0a1b2c3d4e5f60718',
          'aws:SourceVpce vpce-0a1b2c3d4e5f60718, aws:SourceVpce vpce-0fffffffffffffff1',
        ],
      ],
    ],
    [
      "a shorter independent copy (the backup plan's retention)",
      [{ ...store, recovery: { independentCopy: { retentionDays: 14 } } }],
      [{ ...store, recovery: { independentCopy: { retentionDays: 7 } } }],
      [['llm-pretrain', 'recovery', 'recovery window of the independent copy', 14, 7]],
    ],
    [
      'the independent copy turned off',
      [{ ...store, recovery: { independentCopy: { retentionDays: 14 } } }],
      [store],
      [['llm-pretrain', 'recovery', 'recovery window of the independent copy', 14, 0]],
    ],
  ])(
    '%s: the weakening verdict, with the store and the before/after figures',
    async (_, before, after, expected) => {
      const plan = planChanges(await render(before), await render(after));
      expect(weakeningRows(plan)).toEqual(expected);
      expect(plan.dataLoss).toEqual([]);
      expect(planVerdict(plan)).toBe('weakening');
    },
  );

  it('versioning suspended: every previous version unrecoverable, named by the versioning setting', async () => {
    const base = await render([store]);
    const next = editedRender(base, 'llm-pretrain-versioning', (inputs) => {
      inputs['versioningConfiguration'] = { status: 'Suspended' };
    });
    const plan = planChanges(base, next);
    expect(weakeningRows(plan)).toEqual(
      expect.arrayContaining([
        ['llm-pretrain', 'recovery', 'recovery window of a deleted checkpoint', 8, 0],
        ['llm-pretrain', 'recovery', 'recovery window of an overwritten checkpoint', 8, 0],
      ]),
    );
    expect(plan.weakening[0]?.settings).toEqual(['llm-pretrain-versioning versioningConfiguration']);
    expect(plan.weakening[0]?.message).toBe(
      'store llm-pretrain: recovery window of a deleted checkpoint 8 -> 0 days (llm-pretrain-versioning versioningConfiguration)',
    );
  });

  it('the trail selectors rewritten to leave the bucket out: audit weakening named by the trail', async () => {
    const base = await render([store]);
    const next = editedRender(base, 'audit-trail', (inputs) => {
      inputs['advancedEventSelectors'] = [];
    });
    const plan = planChanges(base, next);
    expect(plan.weakening.map((w) => [w.aspect, w.settings])).toEqual([
      ['audit', ['audit-trail advancedEventSelectors']],
    ]);
  });

  it('a longer window, a later expiry or a narrower perimeter weakens nothing', async () => {
    const plan = planChanges(
      await render([{ ...perimeter, retention: { expireAfterDays: 40 } }]),
      await render([{ ...perimeter, retention: { expireAfterDays: 60, noncurrentExpireDays: 14 } }]),
    );
    expect(plan.weakening).toEqual([]);
    expect(planVerdict(plan)).toBe('clean');
  });

  it('passes with an acknowledgement this change brings, and the text report shows it with its reason', async () => {
    const after = { ...store, retention: { noncurrentExpireDays: 1 }, acknowledge: { weakening: REASON } };
    const plan = planChanges(await render([store]), await render([after]));
    expect(plan.weakening.map((w) => w.acknowledgement)).toEqual([REASON, REASON, REASON]);
    expect(planVerdict(plan)).toBe('clean');
    const text = formatPlan(plan, 'base.json');
    expect(text).toContain('weakening acknowledged: 3 change(s):');
    expect(text).toContain(
      `store llm-pretrain: recovery window of a deleted checkpoint 8 -> 2 days (llm-pretrain-lifecycle rules); acknowledged: "${REASON}"`,
    );
    expect(text).not.toContain('WEAKENING:');
  });

  it('an acknowledgement already deployed acknowledges nothing: the next weakening fails again', async () => {
    const acknowledged = { ...store, acknowledge: { weakening: REASON } };
    const plan = planChanges(
      await render([acknowledged]),
      await render([{ ...acknowledged, retention: { noncurrentExpireDays: 1 } }]),
    );
    expect(plan.weakening.every((w) => w.acknowledgement === undefined)).toBe(true);
    expect(planVerdict(plan)).toBe('weakening');
    expect(formatPlan(plan, 'base.json')).toContain(
      "WEAKENING: 3 change(s) weaken a store; state why in the store's acknowledge.weakening to pass",
    );
  });

  it('weakens only the store it changes', async () => {
    const plan = planChanges(
      await render([store, fast]),
      await render([store, { ...fast, retention: { expireAfterDays: 1 } }]),
    );
    expect(weakeningRows(plan)).toEqual([
      ['llm-fast', 'live-data', 'age at which lifecycle deletes a live checkpoint', null, 2],
    ]);
  });
});

describe('S3 changes the cloud refuses or that replace a holder, planned as such', () => {
  it('keyGeneration on a directory bucket: refused at plan time, with the migration path', async () => {
    const plan = planChanges(await render([fast]), await render([{ ...fast, keyGeneration: 2 }]));
    expect(plan.refused.map((r) => [r.store, r.outcome, r.type, r.inputs])).toEqual([
      [
        'llm-fast',
        'refused',
        'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
        ['rules'],
      ],
    ]);
    expect(plan.refused[0]?.message).toContain(
      'a directory bucket keeps the customer-managed key it was given for its lifetime',
    );
    expect(plan.refused[0]?.message).toContain(
      'add a new high-throughput store, copy the checkpoints into it',
    );
    expect(planVerdict(plan)).toBe('refused');
  });

  it('keyGeneration on a general purpose bucket stays an ordinary change', async () => {
    const plan = planChanges(await render([store]), await render([{ ...store, keyGeneration: 2 }]));
    expect(plan.refused).toEqual([]);
    expect(planVerdict(plan)).toBe('clean');
  });

  it('a replicaRegion change replaces the replica bucket: data loss, with the name collision and what to do', async () => {
    const replicated = { ...store, recovery: { replicaRegion: 'us-west-2' } };
    const plan = planChanges(
      await render([replicated]),
      await render([{ ...replicated, recovery: { replicaRegion: 'us-east-2' } }]),
    );
    const replica = plan.dataLoss.find((loss) => loss.type === 'aws:s3/bucket:Bucket');
    expect(replica?.kind).toBe('replaced');
    expect(replica?.message).toContain("'llm-pretrain-replica-bucket' would be replaced (region changed)");
    expect(replica?.message).toContain('the create collides with it (BucketAlreadyExists');
    expect(replica?.message).toContain('remove recovery.replicaRegion and deploy');
    expect(planVerdict(plan)).toBe('data-loss');
  });

  it('a move to another region replaces every data holder: data loss, never unchanged', async () => {
    const plan = planChanges(await render([store]), await render([store], { region: 'us-west-2' }));
    expect(plan.stores[0]?.status).toBe('changed');
    expect(plan.dataLoss.map((loss) => [loss.store, loss.type, loss.kind, loss.holds])).toEqual([
      ['llm-pretrain', 'aws:s3/bucket:Bucket', 'replaced', 'data'],
      ['llm-pretrain', 'aws:kms/key:Key', 'replaced', 'key'],
      // The audit-log bucket and the access-log bucket.
      ['(stack)', 'aws:s3/bucket:Bucket', 'replaced', 'data'],
      ['(stack)', 'aws:s3/bucket:Bucket', 'replaced', 'data'],
    ]);
    expect(plan.dataLoss[0]?.message).toContain('(aws:region changed)');
    expect(plan.dataLoss[0]?.message).toContain('Keep aws:region as deployed');
  });

  it('a move to another account (aws:allowedAccountIds) replaces the IAM roles as well', async () => {
    const plan = planChanges(
      await render([store], { extra: { 'aws:allowedAccountIds': '["111111111111"]' } }),
      await render([store], { extra: { 'aws:allowedAccountIds': '["222222222222"]' } }),
    );
    const roles = plan.stores[0]!.resources.filter((change) => change.type === 'aws:iam/role:Role');
    expect(roles.map((change) => change.kind)).toEqual(['replaced', 'replaced']);
    expect(planVerdict(plan)).toBe('data-loss');
  });
});
