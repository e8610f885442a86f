import { formatPlan, planChanges, planVerdict } from '@checkpoints/analysis';
import { editedRender, weakeningRows } from '@checkpoints/synth';
import { GCP_PROJECT, sharedRenderStack, stackConfig, store } from './render';

// Each test renders the stack twice; on a loaded machine that takes longer than jest's 5 s default.
jest.setTimeout(60_000);

const audited = store({ dataClassification: 'confidential' });
const locked = store({
  recovery: { retentionLock: { days: 30 } },
  retention: { keepNoncurrentVersions: 0, noncurrentExpireDays: 0 },
});
const NETWORK = `projects/${GCP_PROJECT}/global/networks/training`;
const fenced = store({ network: { networks: [NETWORK] } });
const REASON = 'soft delete shortened for a throwaway experiment';

const render = (stores: Record<string, unknown>[], overrides: Record<string, string> = {}) =>
  sharedRenderStack(stackConfig(stores, overrides));

describe('weakening on GCS: judged by the retention replay, the audit the stack states and the IP filter', () => {
  it.each([
    [
      'a shorter noncurrent expiry and soft delete',
      [store()],
      [store({ retention: { noncurrentExpireDays: 1, softDeleteDays: 7 } })],
      expect.arrayContaining([
        ['llm-pretrain', 'recovery', 'recovery window of a deleted checkpoint', 15, 9],
        ['llm-pretrain', 'purge', 'purge bound', 15, 9],
      ]),
    ],
    [
      'a Delete of live objects after a day',
      [store()],
      [store({ retention: { coolAfterDays: 0, expireAfterDays: 1 } })],
      [['llm-pretrain', 'live-data', 'age at which lifecycle deletes a live checkpoint', null, 2]],
    ],
    [
      'a shorter retention policy',
      [locked],
      [{ ...locked, recovery: { retentionLock: { days: 7 } } }],
      expect.arrayContaining([['llm-pretrain', 'lock', 'retention lock', 30, 7]]),
    ],
    [
      'Data Access audit logs turned off for the store',
      [audited],
      [{ ...audited, audit: false }],
      [
        [
          'llm-pretrain',
          'audit',
          'Data Access audit logs (DATA_READ, DATA_WRITE)',
          'recorded',
          'not recorded',
        ],
      ],
    ],
    [
      "a shorter independent copy (the store's promise, which the bootstrap's copy is held to)",
      [store({ recovery: { independentCopy: { retentionDays: 14 } } })],
      [store({ recovery: { independentCopy: { retentionDays: 7 } } })],
      [['llm-pretrain', 'recovery', 'recovery window of the independent copy', 14, 7]],
    ],
    [
      'the independent copy turned off',
      [store({ recovery: { independentCopy: { retentionDays: 14 } } })],
      [store()],
      [['llm-pretrain', 'recovery', 'recovery window of the independent copy', 14, 0]],
    ],
    [
      'the IP filter removed',
      [fenced],
      [store()],
      [
        [
          'llm-pretrain',
          'network',
          'network perimeter',
          `${NETWORK} 0.0.0.0/0, ${NETWORK} ::/0`,
          'open to every network',
        ],
      ],
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

  it('soft delete off and versioning off, as a hand edit of the bucket would render them', async () => {
    const base = await render([store()]);
    const next = editedRender(base, 'gcp:storage/bucket:Bucket', (inputs) => {
      inputs['softDeletePolicy'] = { retentionDurationSeconds: 0 };
      inputs['versioning'] = { enabled: false };
    });
    const plan = planChanges(base, next);
    expect(weakeningRows(plan)).toEqual(
      expect.arrayContaining([
        ['llm-pretrain', 'recovery', 'recovery window of a deleted checkpoint', 15, 0],
        ['llm-pretrain', 'recovery', 'recovery window of an overwritten checkpoint', 15, 0],
      ]),
    );
    expect(plan.weakening[0]?.settings).toEqual(['llm-pretrain-bucket softDeletePolicy, versioning']);
  });

  it('a member added to the audit exemptions', async () => {
    const plan = planChanges(
      await render([audited]),
      await render([audited], {
        'checkpoints:auditExemptMembers': JSON.stringify([
          `serviceAccount:trainer@${GCP_PROJECT}.iam.gserviceaccount.com`,
        ]),
      }),
    );
    expect(weakeningRows(plan)).toEqual([
      [
        'llm-pretrain',
        'audit',
        'members exempt from the Data Access audit logs',
        'none',
        `serviceAccount:trainer@${GCP_PROJECT}.iam.gserviceaccount.com`,
      ],
    ]);
  });

  it('passes with an acknowledgement this change brings; the report shows the reason', async () => {
    const after = store({ retention: { noncurrentExpireDays: 1 }, acknowledge: { weakening: REASON } });
    const plan = planChanges(await render([store()]), await render([after]));
    expect(plan.weakening.length).toBeGreaterThan(0);
    expect(plan.weakening.every((w) => w.acknowledgement === REASON)).toBe(true);
    expect(planVerdict(plan)).toBe('clean');
    expect(formatPlan(plan, 'base.json')).toContain(`acknowledged: "${REASON}"`);
  });
});

describe('GCS moves', () => {
  it('a move to another project replaces the bucket and its key: data loss, never unchanged', async () => {
    const cmek = store({ encryption: 'customer-managed' });
    const plan = planChanges(
      await render([cmek]),
      await render([cmek], { 'gcp:project': 'ml-platform-other-9999' }),
    );
    expect(plan.dataLoss.map((loss) => [loss.type, loss.holds])).toEqual(
      expect.arrayContaining([
        ['gcp:storage/bucket:Bucket', 'data'],
        ['gcp:kms/keyRing:KeyRing', 'key'],
      ]),
    );
    expect(plan.dataLoss.find((loss) => loss.type === 'gcp:storage/bucket:Bucket')?.message).toContain(
      '(gcp:project changed)',
    );
    expect(planVerdict(plan)).toBe('data-loss');
  });
});
