import { gcsIpFilterVerdict, planChanges, type GcsNetworkRequest } from '@checkpoints/analysis';
import { names } from '@checkpoints/naming';
import type { Snapshot } from '@checkpoints/synth';
import { generationName } from '../src/encryption';
import {
  componentOf,
  GCP_PROJECT,
  PROD_NETWORK,
  PROJECT,
  refusal,
  sharedRenderStack,
  single,
  stackConfig,
  store,
} from './render';

const BUCKET = 'gcp:storage/bucket:Bucket';
const KEY_RING = 'gcp:kms/keyRing:KeyRing';
const KEY = 'gcp:kms/cryptoKey:CryptoKey';
const KEY_MEMBER = 'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember';
const TRAINING = PROD_NETWORK.networks[0] as string;
const prod = { 'checkpoints:environment': 'prod' };

const renderProd = (stores: Record<string, unknown>[], overrides: Record<string, string> = {}) =>
  sharedRenderStack(stackConfig(stores, { ...prod, ...overrides }), 'prod');

function filterOf(snapshot: Snapshot, storeName = 'llm-pretrain'): unknown {
  return single(snapshot, BUCKET, storeName).inputs['ipFilter'];
}

const fromInternet = (ip: string): GcsNetworkRequest => ({ from: { internet: ip }, operation: 'object' });
const fromNetwork = (network: string, ip = '10.128.0.7'): GcsNetworkRequest => ({
  from: { network, ip },
  operation: 'object',
});

describe('network perimeter on GCS: the bucket IP filter, judged by the documented filter semantics', () => {
  it('a prod store admits its listed VPC network and refuses the internet and any other network', async () => {
    const filter = filterOf(await renderProd([store()]));
    expect(gcsIpFilterVerdict(filter, fromNetwork(TRAINING)).allowed).toBe(true);
    expect(gcsIpFilterVerdict(filter, fromNetwork(TRAINING, 'fd20::9')).allowed).toBe(true);
    expect(gcsIpFilterVerdict(filter, fromInternet('198.51.100.7')).allowed).toBe(false);
    expect(
      gcsIpFilterVerdict(filter, fromNetwork(`projects/${GCP_PROJECT}/global/networks/sandbox`)).allowed,
    ).toBe(false);
    // A listed network in another organization, and Google services acting as their own agents, stay out.
    expect(
      gcsIpFilterVerdict(filter, {
        from: { network: TRAINING, ip: '10.0.0.2', otherOrganization: true },
        operation: 'object',
      }).allowed,
    ).toBe(false);
    expect(gcsIpFilterVerdict(filter, { ...fromInternet('198.51.100.7'), serviceAgent: true }).allowed).toBe(
      false,
    );
  });

  it('admits the declared public ranges, and nothing next to them', async () => {
    const filter = filterOf(await renderProd([store({ network: { cidrs: ['203.0.113.0/24'] } })]));
    expect(gcsIpFilterVerdict(filter, fromInternet('203.0.113.77')).allowed).toBe(true);
    expect(gcsIpFilterVerdict(filter, fromInternet('203.0.114.1')).allowed).toBe(false);
    expect(gcsIpFilterVerdict(filter, fromNetwork(TRAINING)).allowed).toBe(false);
  });

  it('CI reaches a filtered bucket for its metadata only, never its objects', async () => {
    const filter = filterOf(await renderProd([store()]));
    const ci = { from: { internet: '198.51.100.7' }, exemptFromIpFilter: true } as const;
    expect(gcsIpFilterVerdict(filter, { ...ci, operation: 'bucket-update' }).allowed).toBe(true);
    expect(gcsIpFilterVerdict(filter, { ...ci, operation: 'object' }).allowed).toBe(false);
  });

  it('public: true leaves every network in (the filter, once set, is switched off, not removed); no block: no filter', async () => {
    const open = await renderProd([store({ network: { public: true } })]);
    expect(filterOf(open)).toEqual({ mode: 'Disabled' });
    expect(gcsIpFilterVerdict(filterOf(open), fromInternet('198.51.100.7')).allowed).toBe(true);
    const dev = await sharedRenderStack(stackConfig([store()]));
    expect(filterOf(dev)).toBeUndefined();
  });
});

describe('recovery on GCS: a configurable dual-region', () => {
  it('a replica region makes the bucket a dual-region of the continent, default replication', async () => {
    const bucket = single(
      await sharedRenderStack(stackConfig([store({ recovery: { replicaRegion: 'us-east1' } })])),
      BUCKET,
    );
    expect(bucket.inputs['location']).toBe('US');
    expect(bucket.inputs['customPlacementConfig']).toEqual({ dataLocations: ['US-CENTRAL1', 'US-EAST1'] });
    expect(bucket.inputs['rpo']).toBe('DEFAULT');
  });

  it("a customer-managed dual-region store keeps its key in the continent's KMS multi-region", async () => {
    const snapshot = await sharedRenderStack(
      stackConfig([store({ encryption: 'customer-managed', recovery: { replicaRegion: 'us-east1' } })]),
    );
    expect(single(snapshot, KEY_RING).inputs['location']).toBe('us');
    const regional = await sharedRenderStack(stackConfig([store({ encryption: 'customer-managed' })]));
    expect(single(regional, KEY_RING).inputs['location']).toBe('us-central1');
  });

  it('turbo replication sets the 15-minute RPO', async () => {
    const bucket = single(
      await sharedRenderStack(
        stackConfig([store({ recovery: { replicaRegion: 'us-east4', turboReplication: true } })]),
      ),
      BUCKET,
    );
    expect(bucket.inputs['rpo']).toBe('ASYNC_TURBO');
  });

  it('a regional store keeps its region and sets no placement', async () => {
    const bucket = single(await sharedRenderStack(stackConfig([store()])), BUCKET);
    expect(bucket.inputs['location']).toBe('us-central1');
    expect(bucket.inputs['customPlacementConfig']).toBeUndefined();
    expect(bucket.inputs['rpo']).toBeUndefined();
  });

  it('adding a replica to an existing store replaces the bucket: the change plan calls it data loss', async () => {
    const base = await sharedRenderStack(stackConfig([store()]));
    const next = await sharedRenderStack(stackConfig([store({ recovery: { replicaRegion: 'us-east1' } })]));
    const plan = planChanges(base, next);
    expect(plan.dataLoss.map((loss) => [loss.kind, loss.type])).toEqual([['replaced', BUCKET]]);
    expect(plan.dataLoss[0]?.message).toContain('location');
  });
});

describe('key generations on GCS', () => {
  const cmek = store({ encryption: 'customer-managed' });
  const ctx = { project: PROJECT, stack: 'dev', store: 'llm-pretrain' };

  it('generation 1 keeps the names and logical names the store always had', async () => {
    const snapshot = await sharedRenderStack(stackConfig([cmek]));
    expect(single(snapshot, KEY_RING).name).toBe('llm-pretrain-key-ring');
    expect(single(snapshot, KEY_RING).inputs['name']).toBe(names.gcpKeyRing(ctx));
    expect(single(snapshot, KEY).name).toBe('llm-pretrain-key');
    expect(single(snapshot, KEY).inputs['name']).toBe(names.gcpCryptoKey(ctx));
    expect(single(snapshot, KEY_MEMBER).name).toBe('llm-pretrain-key-storage-agent');
  });

  it('generation 2 puts -g2 into the physical and logical names of the key ring, key and agent grant', async () => {
    const snapshot = await sharedRenderStack(stackConfig([{ ...cmek, keyGeneration: 2 }]));
    expect(single(snapshot, KEY_RING).name).toBe('llm-pretrain-key-ring-g2');
    expect(single(snapshot, KEY_RING).inputs['name']).toBe(`${names.gcpKeyRing(ctx)}-g2`);
    expect(single(snapshot, KEY).name).toBe('llm-pretrain-key-g2');
    expect(single(snapshot, KEY).inputs['name']).toBe(`${names.gcpCryptoKey(ctx)}-g2`);
    expect(single(snapshot, KEY_MEMBER).name).toBe('llm-pretrain-key-storage-agent-g2');
    expect(
      (single(snapshot, BUCKET).inputs['encryption'] as { defaultKmsKeyName: string }).defaultKmsKeyName,
    ).toContain(`${names.gcpCryptoKey(ctx)}-g2`);
  });

  it('raising the generation releases the earlier key, ring and grant (kept in the cloud) and creates new ones: no data loss', async () => {
    const plan = planChanges(
      await sharedRenderStack(stackConfig([cmek])),
      await sharedRenderStack(stackConfig([{ ...cmek, keyGeneration: 2 }])),
    );
    const changes = plan.stores[0]!.resources.filter((change) => change.holds === 'key');
    expect(changes.map((change) => `${change.name} ${change.kind}`).sort()).toEqual([
      'llm-pretrain-key released',
      'llm-pretrain-key-g2 created',
      'llm-pretrain-key-ring released',
      'llm-pretrain-key-ring-g2 created',
      'llm-pretrain-key-storage-agent released',
      'llm-pretrain-key-storage-agent-g2 created',
    ]);
    expect(plan.stores[0]!.resources.find((change) => change.type === BUCKET)?.kind).toBe('updated');
    expect(plan.dataLoss).toEqual([]);
  });

  it.each<[string, number, string]>([
    ['checkpoints-gcp-dev-llm-pretrain-c1b8e1', 1, 'checkpoints-gcp-dev-llm-pretrain-c1b8e1'],
    ['checkpoints-gcp-dev-llm-pretrain-c1b8e1', 2, 'checkpoints-gcp-dev-llm-pretrain-c1b8e1-g2'],
    [`checkpoints-${'a'.repeat(44)}-c1b8e1`, 12, `checkpoints-${'a'.repeat(40)}-c1b8e1-g12`],
  ])(
    'names %s generation %i %s: at most 63 characters, the store hash kept',
    (name, generation, expected) => {
      const generated = generationName(name, generation);
      expect(generated).toBe(expected);
      expect(generated.length).toBeLessThanOrEqual(63);
    },
  );

  it('prod protects and retains every generation it creates, the agent grant included', async () => {
    const snapshot = await renderProd([{ ...store(), keyGeneration: 3 }]);
    for (const type of [KEY_RING, KEY, KEY_MEMBER]) {
      expect([single(snapshot, type).protect, single(snapshot, type).retainOnDelete]).toEqual([true, true]);
    }
  });
});

describe('Data Access audit on GCS: the stack states it, the bootstrap configures it', () => {
  it('records on the store whether it is audited, in which project, with which exemptions', async () => {
    const writer = `serviceAccount:trainer@${GCP_PROJECT}.iam.gserviceaccount.com`;
    const snapshot = await renderProd([store()], {
      'checkpoints:auditExemptMembers': JSON.stringify([writer]),
    });
    expect(componentOf(snapshot, 'llm-pretrain').inputs['audit']).toEqual({
      enabled: true,
      project: GCP_PROJECT,
      exemptMembers: [writer],
    });
    expect(snapshot.outputs['audit']).toMatchObject({
      auditedStores: ['llm-pretrain'],
      exemptMembers: [writer],
    });
  });

  it("refuses in prod an exemption for a store's own reader identity, before any resource", async () => {
    // refusal() renders stack dev; the environment key makes it prod.
    const reader = `serviceAccount:${names.gcpServiceAccountId({ project: PROJECT, stack: 'dev', store: 'llm-pretrain' }, 'reader')}@${GCP_PROJECT}.iam.gserviceaccount.com`;
    const { error, resources } = await refusal(
      stackConfig([store()], { ...prod, 'checkpoints:auditExemptMembers': JSON.stringify([reader]) }),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual(['checkpoints:auditExemptMembers[0]']);
    expect(error.issues[0]?.message).toContain('reads the checkpoints of store llm-pretrain');
    expect(resources.filter((resource) => resource.custom)).toEqual([]);
  });
});
