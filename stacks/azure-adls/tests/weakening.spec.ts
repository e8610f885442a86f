import { formatPlan, planChanges, planVerdict } from '@checkpoints/analysis';
import { editedRender, render, weakeningRows } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { PROJECT, sharedRenderStack, stackConfig, SUBSCRIPTION, T, type StackValues } from './render';

// Each test renders the stack twice; on a loaded machine that takes longer than jest's 5 s default.
jest.setTimeout(60_000);

const SUBNET = `/subscriptions/${SUBSCRIPTION}/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/gpu-nodes`;
const zoneId = (zone: string) =>
  `/subscriptions/${SUBSCRIPTION}/resourceGroups/hub-dns/providers/Microsoft.Network/privateDnsZones/${zone}`;
const ZONES = {
  blob: zoneId('privatelink.blob.core.windows.net'),
  dfs: zoneId('privatelink.dfs.core.windows.net'),
};
const store = { name: 'llm', dataClassification: 'internal' };
const audited = { ...store, dataClassification: 'confidential' };
const locked = { ...store, recovery: { retentionLock: { days: 30 } } };
const fenced = { ...store, network: { subnets: [SUBNET] } };
const REASON = 'soft delete shortened while the store is rebuilt';

const renderOf = (stores: unknown[], values: Partial<StackValues> = {}) =>
  sharedRenderStack({ ...values, stores }, values.environment ?? 'dev');

describe('weakening on ADLS Gen2: judged by the retention replay, the diagnostic settings and the network rules', () => {
  it.each([
    [
      'a shorter blob soft delete',
      [{ ...store, retention: { softDeleteDays: 30 } }],
      [{ ...store, retention: { softDeleteDays: 7 } }],
      expect.arrayContaining([
        ['llm', 'recovery', 'recovery window of a deleted checkpoint', 30, 7],
        ['llm', 'purge', 'purge bound', 30, 7],
      ]),
    ],
    [
      'a lifecycle delete of live files after a day',
      [store],
      [{ ...store, retention: { coolAfterDays: 0, expireAfterDays: 1 } }],
      [['llm', 'live-data', 'age at which lifecycle deletes a live checkpoint', null, 2]],
    ],
    [
      'diagnostic settings removed (audit off)',
      [audited],
      [{ ...audited, audit: false }],
      expect.arrayContaining([
        [
          'llm',
          'audit',
          expect.stringMatching(/^diagnostic logs StorageRead, StorageWrite, StorageDelete of /),
          'sent',
          'not sent',
        ],
      ]),
    ],
    [
      'the network rules removed',
      [fenced],
      [store],
      [['llm', 'network', 'network perimeter', `subnet ${SUBNET}`, 'open to every network']],
    ],
  ])(
    '%s: the weakening verdict, with the store and the before/after figures',
    async (_, before, after, expected) => {
      const plan = planChanges(await renderOf(before), await renderOf(after));
      expect(weakeningRows(plan)).toEqual(expected);
      expect(plan.dataLoss).toEqual([]);
      expect(planVerdict(plan)).toBe('weakening');
    },
  );

  it.each([
    ['a shorter independent copy', { independentCopy: { enabled: true, retentionDays: 7 } }, 7],
    ['the independent copy turned off', {}, 0],
  ])('%s (the days the spec holds the bootstrap copy to): weakening', async (_, recovery, after) => {
    const copied = { ...store, recovery: { independentCopy: { enabled: true, retentionDays: 30 } } };
    // Where Azure Backup offers vaulted backup of ADLS.
    const values = { location: 'eastasia' };
    const plan = planChanges(
      await renderOf([copied], values),
      await renderOf([{ ...store, recovery }], values),
    );
    expect(weakeningRows(plan)).toEqual([
      ['llm', 'recovery', 'recovery window of the independent copy', 30, after],
    ]);
    expect(planVerdict(plan)).toBe('weakening');
  });

  it('soft delete off, as a hand edit of the blob service would render it', async () => {
    const base = await renderOf([store]);
    const next = editedRender(base, T.blobService, (inputs) => {
      inputs['deleteRetentionPolicy'] = { enabled: false };
    });
    const plan = planChanges(base, next);
    expect(weakeningRows(plan)).toEqual(
      expect.arrayContaining([['llm', 'recovery', 'recovery window of a deleted checkpoint', 7, 0]]),
    );
    expect(plan.weakening[0]?.message).toBe(
      'store llm: recovery window of a deleted checkpoint 7 -> 0 days (llm deleteRetentionPolicy)',
    );
  });

  it('passes with an acknowledgement this change brings; the report shows the reason', async () => {
    const plan = planChanges(
      await renderOf([{ ...store, retention: { softDeleteDays: 30 } }]),
      await renderOf([{ ...store, retention: { softDeleteDays: 7 }, acknowledge: { weakening: REASON } }]),
    );
    expect(plan.weakening.length).toBeGreaterThan(0);
    expect(plan.weakening.every((w) => w.acknowledgement === REASON)).toBe(true);
    expect(planVerdict(plan)).toBe('clean');
    expect(formatPlan(plan, 'base.json')).toContain(`acknowledged: "${REASON}"`);
  });
});

describe('ADLS changes the cloud refuses or ignores', () => {
  it('a shorter retention lock: refused (the policy needs its ETag), and weakening', async () => {
    const plan = planChanges(
      await renderOf([locked]),
      await renderOf([{ ...locked, recovery: { retentionLock: { days: 7 } } }]),
    );
    expect(plan.refused.map((r) => [r.store, r.outcome, r.inputs])).toEqual([
      ['llm', 'refused', ['immutabilityPeriodSinceCreationInDays']],
    ]);
    expect(plan.refused[0]?.message).toContain('only with its current ETag (If-Match)');
    expect(plan.refused[0]?.message).toContain('az storage container immutability-policy create --if-match');
    expect(weakeningRows(plan)).toEqual(expect.arrayContaining([['llm', 'lock', 'retention lock', 30, 7]]));
    expect(planVerdict(plan)).toBe('refused');
  });

  it('a longer retention lock is refused too: every update of the policy needs the ETag', async () => {
    const plan = planChanges(
      await renderOf([locked]),
      await renderOf([{ ...locked, recovery: { retentionLock: { days: 60 } } }]),
    );
    expect(plan.refused.map((r) => r.outcome)).toEqual(['refused']);
    expect(plan.weakening).toEqual([]);
  });

  it('prod: a private endpoint removed from a locked account is refused (ScopeLocked), and weakening', async () => {
    const prod = { environment: 'prod' };
    const withEndpoint = {
      ...store,
      network: { privateEndpointSubnet: SUBNET, privateDnsZones: ZONES },
    };
    // A prod account without private endpoints must say it is public: the only way to drop them there.
    const opened = { ...store, network: { public: true } };
    const plan = planChanges(await renderOf([withEndpoint], prod), await renderOf([opened], prod));
    const refused = plan.refused.filter((r) => r.type === T.privateEndpoint);
    expect(refused.map((r) => r.outcome)).toEqual(['refused', 'refused']);
    expect(refused[0]?.message).toContain(
      "Azure refuses to delete it (ScopeLocked): the CanNotDelete lock 'checkpoints-do-not-delete'",
    );
    expect(weakeningRows(plan)).toEqual(
      expect.arrayContaining([
        [
          'llm',
          'network',
          'network perimeter',
          expect.stringMatching(/^only its private endpoints \(.+\)$/),
          'open to every network',
        ],
      ]),
    );
    expect(planVerdict(plan)).toBe('refused');
  });

  it('dev (no lock): removing the private endpoints is weakening only', async () => {
    const withEndpoint = { ...store, network: { subnets: [SUBNET], privateEndpointSubnet: SUBNET } };
    const plan = planChanges(await renderOf([withEndpoint]), await renderOf([fenced]));
    expect(plan.refused).toEqual([]);
    expect(plan.weakening.map((w) => [w.aspect, w.what])).toEqual([['network', 'private endpoints']]);
  });

  it('a Key Vault key update (its tags) is planned as ignored, with the way to make it, and fails nothing', async () => {
    const cmek = { ...store, encryption: 'customer-managed' };
    const base = await renderOf([cmek]);
    const next = editedRender(base, T.key, (inputs) => {
      inputs['tags'] = { ...(inputs['tags'] as Record<string, string>), owner: 'another-team' };
    });
    const plan = planChanges(base, next);
    expect(plan.stores[0]?.resources.find((change) => change.type === T.key)?.kind).toBe('ignored');
    expect(plan.refused.map((r) => [r.outcome, r.inputs])).toEqual([['ignored', ['tags']]]);
    expect(plan.refused[0]?.message).toContain('the update would change nothing');
    expect(planVerdict(plan)).toBe('clean');
    expect(formatPlan(plan, 'base.json')).toMatch(/! +llm \(azure-native:keyvault:Key\) \[key\]: ignored/);
  });
});

describe('ADLS moves', () => {
  it('a move to another subscription replaces every data holder: data loss, never unchanged', async () => {
    const config = (subscription: string) => ({
      ...stackConfig({ stores: [store] }),
      'azure-native:subscriptionId': subscription,
    });
    // One render at a time: a render holds the process's Pulumi runtime.
    const base = await render(checkpointStack, {
      project: PROJECT,
      stack: 'dev',
      config: config(SUBSCRIPTION),
    });
    const next = await render(checkpointStack, {
      project: PROJECT,
      stack: 'dev',
      config: config('00000000-0000-4000-a000-000000000002'),
    });
    const plan = planChanges(base, next);
    expect(plan.dataLoss.map((loss) => [loss.type, loss.holds])).toEqual(
      expect.arrayContaining([
        [T.account, 'data'],
        [T.filesystem, 'data'],
      ]),
    );
    expect(plan.dataLoss.find((loss) => loss.type === T.account)?.message).toContain(
      '(azure-native:subscriptionId changed)',
    );
    expect(planVerdict(plan)).toBe('data-loss');
  });

  it('another resource group replaces the account: data loss', async () => {
    const plan = planChanges(
      await renderOf([store], { resourceGroupName: 'rg-one' }),
      await renderOf([store], { resourceGroupName: 'rg-two' }),
    );
    expect(plan.dataLoss.map((loss) => loss.type)).toEqual(expect.arrayContaining([T.account]));
  });
});
