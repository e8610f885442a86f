import { analyzeAccess, DATA_OPERATIONS, dataHolders } from '@checkpoints/analysis';
import { names, nameRules } from '@checkpoints/naming';
import { customResources, ofType, type Snapshot } from '@checkpoints/synth';
import { componentOf, GCP_PROJECT, PROJECT, renderStack, single, stackConfig, store } from './render';

const BUCKET = 'gcp:storage/bucket:Bucket';
const BUCKET_MEMBER = 'gcp:storage/bucketIAMMember:BucketIAMMember';
const ACCOUNT = 'gcp:serviceaccount/account:Account';
const KEY_RING = 'gcp:kms/keyRing:KeyRing';
const KEY = 'gcp:kms/cryptoKey:CryptoKey';
const KEY_MEMBER = 'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember';
const CACHE = 'gcp:storage/anywhereCache:AnywhereCache';

const devContext = { project: PROJECT, stack: 'dev', store: 'llm-pretrain' };
const devBucketName = names.gcsBucket(devContext);
const serviceAccountEmail = (purpose: 'writer' | 'reader', ctx = devContext) =>
  `${names.gcpServiceAccountId(ctx, purpose)}@${GCP_PROJECT}.iam.gserviceaccount.com`;

const devLabels = {
  owner: 'ml-platform',
  'cost-center': 'cc-1234',
  environment: 'dev',
  'data-classification': 'internal',
  'managed-by': 'pulumi',
  'pulumi-project': 'checkpoints-gcp',
  'pulumi-stack': 'dev',
  'checkpoint-store': 'llm-pretrain',
};

function grants(snapshot: Snapshot, storeName = 'llm-pretrain') {
  const parent = componentOf(snapshot, storeName).urn;
  return ofType(snapshot, BUCKET_MEMBER)
    .filter((resource) => resource.parent === parent)
    .map(({ inputs }) => `${inputs['role']} ${inputs['member']} on ${inputs['bucket']}`)
    .sort();
}

describe('standard tier, defaults (dev)', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderStack(stackConfig([store()]));
  });

  it('creates exactly a bucket, two service accounts and their two bucket grants, all in the store', () => {
    const component = componentOf(snapshot, 'llm-pretrain');
    expect(
      customResources(snapshot)
        .map((resource) => [resource.type, resource.name])
        .sort(),
    ).toEqual([
      [ACCOUNT, 'llm-pretrain-reader'],
      [ACCOUNT, 'llm-pretrain-writer'],
      [BUCKET, 'llm-pretrain-bucket'],
      [BUCKET_MEMBER, 'llm-pretrain-reader-access'],
      [BUCKET_MEMBER, 'llm-pretrain-writer-access'],
    ]);
    expect(customResources(snapshot).every((resource) => resource.parent === component.urn)).toBe(true);
  });

  it('renders the bucket with the whole baseline and nothing else', () => {
    const bucket = single(snapshot, BUCKET);
    expect(bucket.inputs).toEqual({
      name: devBucketName,
      location: 'us-central1',
      storageClass: 'STANDARD',
      uniformBucketLevelAccess: true,
      publicAccessPrevention: 'enforced',
      forceDestroy: false,
      versioning: { enabled: true },
      softDeletePolicy: { retentionDurationSeconds: 604800 },
      // What the rules do is judged in retention.spec.ts.
      lifecycleRules: expect.any(Array),
      labels: devLabels,
    });
    expect(nameRules.gcsBucket(devBucketName)).toBeUndefined();
  });

  it('uses Google-managed encryption and no KMS resources', () => {
    expect(single(snapshot, BUCKET).inputs['encryption']).toBeUndefined();
    expect([
      ...ofType(snapshot, KEY_RING),
      ...ofType(snapshot, KEY),
      ...ofType(snapshot, KEY_MEMBER),
    ]).toEqual([]);
  });

  it('protects nothing outside prod, and still retains the bucket on delete', () => {
    expect(snapshot.resources.filter((resource) => resource.protect)).toEqual([]);
    expect(dataHolders(snapshot)).toEqual([
      expect.objectContaining({ type: BUCKET, holds: 'data', retainOnDelete: true }),
    ]);
  });

  it('grants the writer objectUser and the reader objectViewer on this bucket only', () => {
    expect(grants(snapshot)).toEqual([
      `roles/storage.objectUser serviceAccount:${serviceAccountEmail('writer')} on ${devBucketName}`,
      `roles/storage.objectViewer serviceAccount:${serviceAccountEmail('reader')} on ${devBucketName}`,
    ]);
  });

  it('creates the service accounts with names from libs/naming and no keys', () => {
    const accounts = ofType(snapshot, ACCOUNT).map((account) => account.inputs['accountId']);
    expect(accounts.sort()).toEqual(
      [
        names.gcpServiceAccountId(devContext, 'reader'),
        names.gcpServiceAccountId(devContext, 'writer'),
      ].sort(),
    );
    expect(ofType(snapshot, 'gcp:serviceaccount/key:Key')).toEqual([]);
    expect(ofType(snapshot, 'gcp:storage/hmacKey:HmacKey')).toEqual([]);
  });

  it('exports the outputs every cloud exports and an env a job can use as is', () => {
    const uri = `gs://${devBucketName}/`;
    expect(snapshot.outputs).toEqual({
      stores: {
        'llm-pretrain': {
          uri,
          location: 'us-central1',
          writerIdentity: serviceAccountEmail('writer'),
          readerIdentity: serviceAccountEmail('reader'),
          env: {
            CHECKPOINT_URI: uri,
            GOOGLE_CLOUD_PROJECT: GCP_PROJECT,
            CHECKPOINT_SERVICE_ACCOUNT: serviceAccountEmail('writer'),
          },
        },
      },
      audit: {
        project: GCP_PROJECT,
        service: 'storage.googleapis.com',
        logTypes: ['DATA_READ', 'DATA_WRITE'],
        logName: `projects/${GCP_PROJECT}/logs/cloudaudit.googleapis.com%2Fdata_access`,
        configuredBy: 'bootstrap (IAMAuditConfig of the stack project; see docs/gcp.md, "Audit")',
        exemptMembers: [],
        auditedStores: [],
      },
    });
  });
});

describe('high-throughput tier', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderStack(
      stackConfig([
        store({
          name: 'llm-hot',
          tier: 'high-throughput',
          zone: 'us-central1-a',
          retention: { coolAfterDays: 0, expireAfterDays: 14, softDeleteDays: 10 },
        }),
      ]),
    );
  });

  it('has a hierarchical namespace, no versioning, soft delete and no noncurrent rules', () => {
    const bucket = single(snapshot, BUCKET, 'llm-hot');
    expect(bucket.inputs).toMatchObject({
      uniformBucketLevelAccess: true,
      publicAccessPrevention: 'enforced',
      forceDestroy: false,
      hierarchicalNamespace: { enabled: true },
      versioning: { enabled: false },
      softDeletePolicy: { retentionDurationSeconds: 864000 },
    });
  });

  it('puts an Anywhere Cache in the zone, on the bucket, filled on first read', () => {
    const cache = single(snapshot, CACHE, 'llm-hot');
    expect(cache.name).toBe('llm-hot-cache-us-central1-a');
    expect(cache.inputs).toEqual({
      bucket: names.gcsBucket({ project: PROJECT, stack: 'dev', store: 'llm-hot' }),
      zone: 'us-central1-a',
      ttl: '86400s',
      ingestOnWrite: false,
    });
    expect(cache.dependsOn).toEqual([single(snapshot, BUCKET, 'llm-hot').urn]);
  });

  it('creates no cache without a zone', async () => {
    const withoutZone = await renderStack(stackConfig([store({ tier: 'high-throughput' })]));
    expect(ofType(withoutZone, CACHE)).toEqual([]);
    expect(single(withoutZone, BUCKET).inputs['hierarchicalNamespace']).toEqual({ enabled: true });
  });
});

describe('retention cost warnings', () => {
  // Under the mocks Pulumi's log.warn goes to console.warn.
  let warn: jest.SpyInstance;
  beforeEach(() => {
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());
  const warnings = () => warn.mock.calls.map((call) => String(call[0]));

  it.each<[string, Record<string, unknown>, string[]]>([
    [
      'previous versions of archived checkpoints removed inside the ARCHIVE minimum',
      { coolAfterDays: 30, archiveAfterDays: 180, expireAfterDays: 400 },
      [
        'warning: [runtime] store llm-pretrain: a checkpoint overwritten or deleted between day 180 (in ARCHIVE from then) and day 358 can be removed as a previous version 7 days later',
      ],
    ],
    ['no cold class', { coolAfterDays: 0, noncurrentExpireDays: 3 }, []],
  ])('%s', async (_title, retention, expectedWarnings) => {
    await renderStack(stackConfig([store({ retention })]));
    expect(warnings()).toEqual(expectedWarnings.map((text) => expect.stringContaining(text)));
  });
});

describe('access', () => {
  it('grants the configured members the same roles on this bucket, additively, one resource each', async () => {
    const writers = [
      'group:ml-training@example.com',
      'principal://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/ml-platform-test-1234.svc.id.goog/subject/ns/training/sa/trainer',
    ];
    const readers = ['user:alice@example.com'];
    const snapshot = await renderStack(stackConfig([store({ access: { writers, readers } })]));
    expect(grants(snapshot)).toEqual(
      [
        `roles/storage.objectUser serviceAccount:${serviceAccountEmail('writer')} on ${devBucketName}`,
        `roles/storage.objectViewer serviceAccount:${serviceAccountEmail('reader')} on ${devBucketName}`,
        `roles/storage.objectUser ${writers[0]} on ${devBucketName}`,
        `roles/storage.objectUser ${writers[1]} on ${devBucketName}`,
        `roles/storage.objectViewer ${readers[0]} on ${devBucketName}`,
      ].sort(),
    );
    const iamTypes = new Set(
      snapshot.resources
        .map((resource) => resource.type)
        .filter((type) => /IAM|iam|Policy|Binding/.test(type)),
    );
    expect([...iamTypes].sort()).toEqual([BUCKET_MEMBER]);
  });

  it('names member grants after the member, so reordering the list replaces nothing', async () => {
    const members = ['group:a-team@example.com', 'group:b-team@example.com'];
    const namesOf = async (writers: string[]) =>
      ofType(await renderStack(stackConfig([store({ access: { writers, readers: [] } })])), BUCKET_MEMBER)
        .map((resource) => `${resource.name} ${resource.inputs['member']}`)
        .sort();
    expect(await namesOf(members)).toEqual(await namesOf([...members].reverse()));
  });
});

describe('customer-managed encryption', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderStack(stackConfig([store({ encryption: 'customer-managed' })]));
  });

  it('creates a key ring and a rotating key in the bucket location', () => {
    const ring = single(snapshot, KEY_RING);
    const key = single(snapshot, KEY);
    expect(ring.inputs).toEqual({ name: names.gcpKeyRing(devContext), location: 'us-central1' });
    expect(key.inputs).toEqual({
      name: names.gcpCryptoKey(devContext),
      keyRing: `projects/${GCP_PROJECT}/locations/us-central1/keyRings/${names.gcpKeyRing(devContext)}`,
      purpose: 'ENCRYPT_DECRYPT',
      rotationPeriod: '7776000s',
      labels: devLabels,
    });
  });

  it('grants the Cloud Storage service agent, and only it, encrypt/decrypt on the key', () => {
    const key = single(snapshot, KEY);
    const grant = single(snapshot, KEY_MEMBER);
    const keyId = `projects/${GCP_PROJECT}/locations/us-central1/keyRings/${names.gcpKeyRing(devContext)}/cryptoKeys/${names.gcpCryptoKey(devContext)}`;
    expect(grant.inputs).toEqual({
      cryptoKeyId: keyId,
      role: 'roles/cloudkms.cryptoKeyEncrypterDecrypter',
      member: 'serviceAccount:service-123456789012@gs-project-accounts.iam.gserviceaccount.com',
    });
    expect(grant.dependsOn).toEqual([key.urn]);
  });

  it('sets the key as the bucket default and makes the bucket wait for the grant', () => {
    const bucket = single(snapshot, BUCKET);
    const key = single(snapshot, KEY);
    expect(bucket.inputs['encryption']).toEqual({
      defaultKmsKeyName: `projects/${GCP_PROJECT}/locations/us-central1/keyRings/${names.gcpKeyRing(devContext)}/cryptoKeys/${names.gcpCryptoKey(devContext)}`,
    });
    expect(bucket.dependsOn).toEqual([key.urn, single(snapshot, KEY_MEMBER).urn].sort());
  });
});

describe('protection and labels', () => {
  const prodContext = { project: PROJECT, stack: 'prod', store: 'llm-pretrain' };
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderStack(
      stackConfig([store({ dataClassification: 'restricted' })], {
        'checkpoints:environment': 'prod',
        'checkpoints:owner': 'ML Platform',
        'checkpoints:costCenter': 'CC-1234/Research',
      }),
      'prod',
    );
  });

  it('protects and retains the bucket, the key, its ring and the storage agent grant in prod', () => {
    const protectedTypes = snapshot.resources.filter((resource) => resource.protect).map((r) => r.type);
    expect(protectedTypes.sort()).toEqual([KEY, KEY_RING, KEY_MEMBER, BUCKET].sort());
    const holders = dataHolders(snapshot).map(
      (holder) => `${holder.type} ${holder.holds} ${holder.retainOnDelete}`,
    );
    expect(holders.sort()).toEqual(
      [`${BUCKET} data true`, `${KEY} key true`, `${KEY_RING} key true`, `${KEY_MEMBER} key true`].sort(),
    );
    // Nothing else is retained: a service account left behind would keep its grants on the released bucket.
    expect(snapshot.resources.filter((resource) => resource.retainOnDelete)).toHaveLength(4);
  });

  it("leaves no project owner, editor or viewer a way to the prod bucket's data: the convenience values are gone", async () => {
    // The access analysis counts a new bucket's convenience values as granted unless an authoritative
    // binding of their role replaces them: judged there, not by the resources' shape.
    const dataOf = async (rendered: Snapshot) =>
      (await analyzeAccess(rendered)).stores
        .flatMap((entry) => entry.grants)
        .filter((grant) => grant.principal.kind === 'cloud-default')
        .filter((grant) => DATA_OPERATIONS.includes(grant.operation))
        .map((grant) => `${grant.principal.label} ${grant.operation}`);
    expect(await dataOf(snapshot)).toEqual([]);
    // Outside prod the project's people keep the cloud's defaults.
    expect((await dataOf(await renderStack(stackConfig([store()])))).sort()).toEqual([
      'project editors delete',
      'project editors read',
      'project editors write',
      'project owners delete',
      'project owners read',
      'project owners write',
      'project viewers read',
    ]);
  });

  it('uses customer-managed keys by default in prod', () => {
    expect(single(snapshot, BUCKET).inputs['encryption']).toBeDefined();
  });

  it('honours protect: true outside prod', async () => {
    const dev = await renderStack(stackConfig([store({ protect: true })]));
    expect(dev.resources.filter((resource) => resource.protect).map((resource) => resource.type)).toEqual([
      BUCKET,
    ]);
  });

  it('labels the bucket and the key with the standard set, normalised to GCP label rules', () => {
    const labels = {
      owner: 'ml_platform',
      'cost-center': 'cc-1234_research',
      environment: 'prod',
      'data-classification': 'restricted',
      'managed-by': 'pulumi',
      'pulumi-project': 'checkpoints-gcp',
      'pulumi-stack': 'prod',
      'checkpoint-store': 'llm-pretrain',
    };
    expect(single(snapshot, BUCKET).inputs['labels']).toEqual(labels);
    expect(single(snapshot, KEY).inputs['labels']).toEqual(labels);
    expect(single(snapshot, BUCKET).inputs['name']).toBe(names.gcsBucket(prodContext));
  });
});
