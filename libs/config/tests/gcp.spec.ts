import { ConfigError, gcpRules, loadStackSpec, type ConfigIssue } from '../src';

const base = { environment: 'prod', owner: 'ml-platform', costCenter: 'cc-1234' };

function config(stores: unknown[]): Record<string, string> {
  return {
    'checkpoints:environment': base.environment,
    'checkpoints:owner': base.owner,
    'checkpoints:costCenter': base.costCenter,
    'checkpoints:stores': JSON.stringify(stores.map(withPerimeter)),
  };
}

/** Prod refuses a store without a network block; these tests are about other keys. */
function withPerimeter(store: unknown): unknown {
  const isBlock = store !== null && typeof store === 'object' && !Array.isArray(store);
  return isBlock && !('network' in store) ? { network: { public: true }, ...store } : store;
}

function store(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'llm-pretrain', dataClassification: 'confidential', ...extra };
}

function issuesOf(stores: unknown[], region: string | undefined): ConfigIssue[] {
  try {
    loadStackSpec(config(stores), gcpRules({ region }));
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('gcpRules: accepted', () => {
  it('takes the location from gcp:region and keeps the common retention defaults on the standard tier', () => {
    const spec = loadStackSpec(config([store()]), gcpRules({ region: 'us-central1' }));
    expect(spec.stores[0]?.location).toBeUndefined();
    expect(spec.stores[0]?.retention).toEqual({
      keepNoncurrentVersions: 3,
      noncurrentExpireDays: 7,
      coolAfterDays: 30,
      archiveAfterDays: 0,
      expireAfterDays: 0,
      abortIncompleteUploadDays: 1,
      softDeleteDays: 7,
      keptPrefixes: [],
      expirePrefixes: [],
    });
  });

  it('lowers the noncurrent-version and cool defaults to 0 on the high-throughput tier (no versioning, hot data)', () => {
    const spec = loadStackSpec(
      config([store({ tier: 'high-throughput', zone: 'us-central1-a' })]),
      gcpRules({ region: 'us-central1' }),
    );
    expect(spec.stores[0]?.retention.keepNoncurrentVersions).toBe(0);
    expect(spec.stores[0]?.retention.noncurrentExpireDays).toBe(0);
    expect(spec.stores[0]?.retention.coolAfterDays).toBe(0);
    expect(spec.stores[0]?.zone).toBe('us-central1-a');
  });

  it.each([
    ['a store location and no gcp:region', store({ location: 'europe-west4' }), undefined],
    [
      'a cache zone in the store location',
      store({ tier: 'high-throughput', location: 'europe-west4', zone: 'europe-west4-b' }),
      'us-central1',
    ],
    ['a high-throughput store without a cache', store({ tier: 'high-throughput' }), 'us-central1'],
    ['soft delete at the 90-day maximum', store({ retention: { softDeleteDays: 90 } }), 'us-central1'],
    [
      'expiry at the ARCHIVE minimum',
      store({ retention: { archiveAfterDays: 90, expireAfterDays: 365 } }),
      'us-central1',
    ],
    [
      'expiry at the NEARLINE minimum',
      store({ retention: { coolAfterDays: 7, expireAfterDays: 30 } }),
      'us-central1',
    ],
    [
      'early expiry without any colder class',
      store({ retention: { coolAfterDays: 0, expireAfterDays: 3 } }),
      'us-central1',
    ],
  ])('%s', (_title, given, region) => {
    expect(issuesOf([given], region)).toEqual([]);
  });

  it.each([
    'user:alice@example.com',
    "user:o'brien+ml@example.co.uk",
    'group:ml-training@example.com',
    'serviceAccount:trainer@ml-prod-4821.iam.gserviceaccount.com',
    'serviceAccount:123456789012-compute@developer.gserviceaccount.com',
    'serviceAccount:service-123456789012@gcp-sa-aiplatform-cc.iam.gserviceaccount.com',
    'domain:example.com',
    'principal://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/ml-prod-4821.svc.id.goog/subject/ns/training/sa/trainer',
    'principal://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/github-pool/subject/repo:acme/train:ref:refs/heads/main',
    'principal://iam.googleapis.com/locations/global/workforcePools/acme-staff/subject/alice@example.com',
    'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/ml-prod-4821.svc.id.goog/namespace/training',
    'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/github-pool/attribute.repository/acme/train',
    'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/github-pool/group/trainers',
    'principalSet://iam.googleapis.com/locations/global/workforcePools/acme-staff/group/ml-researchers',
    'principalSet://iam.googleapis.com/locations/global/workforcePools/acme-staff/*',
  ])('member %s', (member) => {
    expect(issuesOf([store({ access: { writers: [member], readers: [member] } })], 'us-central1')).toEqual(
      [],
    );
  });
});

describe('gcpRules: refused', () => {
  it.each<[string, Record<string, unknown>, string | undefined, string, unknown, string]>([
    [
      'no location and no gcp:region',
      store(),
      undefined,
      'checkpoints:stores[0].location',
      undefined,
      'is required when the stack sets no gcp:region: a Google Cloud region such as us-central1',
    ],
    [
      'gcp:region set to a zone',
      store(),
      'us-central1-a',
      'checkpoints:stores[0].location',
      undefined,
      "is not set, so the bucket would go to gcp:region 'us-central1-a', which is a zone, not a region: use its region us-central1",
    ],
    [
      'a zone as location',
      store({ location: 'europe-west4-a' }),
      'us-central1',
      'checkpoints:stores[0].location',
      'europe-west4-a',
      'is a zone, not a region: use its region europe-west4',
    ],
    [
      'a multi-region location',
      store({ location: 'US' }),
      'us-central1',
      'checkpoints:stores[0].location',
      'US',
      'is not a region: checkpoint stores are regional',
    ],
    [
      'a dual-region location',
      store({ location: 'nam4' }),
      'us-central1',
      'checkpoints:stores[0].location',
      'nam4',
      'multi-region and dual-region locations are not offered',
    ],
    [
      'an uppercase region',
      store({ location: 'US-CENTRAL1' }),
      'us-central1',
      'checkpoints:stores[0].location',
      'US-CENTRAL1',
      'must be written in lowercase, e.g. us-central1',
    ],
    [
      'an AWS-style zone',
      store({ tier: 'high-throughput', zone: 'use1-az4' }),
      'us-central1',
      'checkpoints:stores[0].zone',
      'use1-az4',
      'must be a Google Cloud zone such as us-central1-a for the Anywhere Cache',
    ],
    [
      'a region as cache zone',
      store({ tier: 'high-throughput', zone: 'us-central1' }),
      'us-central1',
      'checkpoints:stores[0].zone',
      'us-central1',
      '(that is a region; add the zone letter, e.g. us-central1-a)',
    ],
    [
      'a cache zone outside the bucket region',
      store({ tier: 'high-throughput', zone: 'us-east1-b' }),
      'us-central1',
      'checkpoints:stores[0].zone',
      'us-east1-b',
      "is in region us-east1, but the bucket is in us-central1: an Anywhere Cache must be in a zone of the bucket's region, e.g. us-central1-a",
    ],
    [
      'keepNoncurrentVersions on the high-throughput tier',
      store({ tier: 'high-throughput', retention: { keepNoncurrentVersions: 2 } }),
      'us-central1',
      'checkpoints:stores[0].retention.keepNoncurrentVersions',
      2,
      'tier high-throughput uses a hierarchical-namespace bucket, which does not support object versioning',
    ],
    [
      'noncurrentExpireDays on the high-throughput tier',
      store({ tier: 'high-throughput', retention: { noncurrentExpireDays: 7 } }),
      'us-central1',
      'checkpoints:stores[0].retention.noncurrentExpireDays',
      7,
      'remove retention.noncurrentExpireDays or set it to 0 (soft delete keeps deleted objects recoverable for retention.softDeleteDays instead)',
    ],
    [
      'noncurrent versions never purged on the standard tier',
      store({ retention: { noncurrentExpireDays: 0 } }),
      'us-central1',
      'checkpoints:stores[0].retention.noncurrentExpireDays',
      0,
      'would keep every overwritten or deleted checkpoint, as a noncurrent version, forever, which the purge promise forbids',
    ],
    [
      'soft delete off',
      store({ retention: { softDeleteDays: 0 } }),
      'us-central1',
      'checkpoints:stores[0].retention.softDeleteDays',
      0,
      'soft delete is always on for a store, and Cloud Storage keeps soft-deleted objects 7 to 90 days; use at least 7',
    ],
    [
      'incomplete uploads never aborted',
      store({ retention: { abortIncompleteUploadDays: 0 } }),
      'us-central1',
      'checkpoints:stores[0].retention.abortIncompleteUploadDays',
      0,
      'Cloud Storage keeps the parts of an incomplete multipart upload, and bills them, until a lifecycle rule aborts it',
    ],
    [
      'soft delete beyond 90 days',
      store({ retention: { softDeleteDays: 120 } }),
      'us-central1',
      'checkpoints:stores[0].retention.softDeleteDays',
      120,
      'Cloud Storage keeps soft-deleted objects for 7 to 90 days; use at most 90',
    ],
    [
      'expiry inside the ARCHIVE minimum',
      store({ retention: { archiveAfterDays: 60, expireAfterDays: 180 } }),
      'us-central1',
      'checkpoints:stores[0].retention.expireAfterDays',
      180,
      'objects move to ARCHIVE at day 60 (retention.archiveAfterDays), which has a 365-day minimum storage duration: deleting them at day 180 is billed as if each were kept 365 days',
    ],
    [
      'expiry inside the NEARLINE minimum',
      store({ retention: { coolAfterDays: 7, expireAfterDays: 14 } }),
      'us-central1',
      'checkpoints:stores[0].retention.expireAfterDays',
      14,
      'objects move to NEARLINE at day 7 (retention.coolAfterDays), which has a 30-day minimum storage duration',
    ],
  ])('%s', (_title, given, region, path, value, message) => {
    const issues = issuesOf([given], region);
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe(path);
    expect(issues[0]?.value).toEqual(value);
    expect(issues[0]?.message).toContain(message);
  });

  it.each<[string, string]>([
    ['allUsers', 'public access is never allowed on a checkpoint store'],
    ['allAuthenticatedUsers', 'public access is never allowed on a checkpoint store'],
    ['principalSet://goog/public:all', 'public access is never allowed on a checkpoint store'],
    ['projectEditor:ml-prod-4821', 'grants access to every holder of a basic (owner/editor/viewer) role'],
    ['deleted:serviceAccount:old@ml-prod-4821.iam.gserviceaccount.com', 'is a deleted principal; remove it'],
    [
      'serviceaccount:trainer@ml-prod-4821.iam.gserviceaccount.com',
      "member types are case-sensitive: write 'serviceAccount:'",
    ],
    [
      'user:trainer@ml-prod-4821.iam.gserviceaccount.com',
      "is a service account, not a user: write 'serviceAccount:trainer@ml-prod-4821.iam.gserviceaccount.com'",
    ],
    ['alice@example.com', "has no member type: write e.g. 'user:alice@example.com'"],
    ['serviceAccount:alice@example.com', 'is not a GCP IAM member; expected user:EMAIL'],
    ['user:alice', 'is not a GCP IAM member; expected user:EMAIL'],
    ['group:ml training@example.com', 'is not a GCP IAM member'],
    ['domain:example', 'is not a GCP IAM member'],
    [
      'principal://iam.googleapis.com/projects/ml-prod-4821/locations/global/workloadIdentityPools/ml-prod-4821.svc.id.goog/subject/ns/training/sa/trainer',
      'names the project by ID: workload identity pools are addressed by project number',
    ],
    [
      'principalSet://iam.googleapis.com/projects/123456789012/locations/global/workloadIdentityPools/github-pool/everyone',
      'is not a GCP IAM member',
    ],
    ['arn:aws:iam::123456789012:role/trainer', 'is not a GCP IAM member'],
  ])('member %s', (member, message) => {
    const issues = issuesOf(
      [store({ access: { writers: ['group:ml-training@example.com'], readers: [member] } })],
      'us-central1',
    );
    expect(issues).toHaveLength(1);
    expect(issues[0]?.path).toBe('checkpoints:stores[0].access.readers[0]');
    expect(issues[0]?.value).toBe(member);
    expect(issues[0]?.message).toContain(message);
  });

  it('shows the expected member formats', () => {
    const [issue] = issuesOf([store({ access: { writers: ['trainer'] } })], 'us-central1');
    expect(issue?.path).toBe('checkpoints:stores[0].access.writers[0]');
    expect(issue?.message).toContain(
      'expected user:EMAIL, group:EMAIL, serviceAccount:NAME@PROJECT.iam.gserviceaccount.com, domain:DOMAIN, principal://iam.googleapis.com/projects/PROJECT_NUMBER/locations/global/workloadIdentityPools/POOL/subject/SUBJECT',
    );
  });

  it('reports every problem of every store at once', () => {
    const issues = issuesOf(
      [
        store({ location: 'US', access: { writers: ['allUsers'] } }),
        store({
          name: 'llm-finetune',
          tier: 'high-throughput',
          zone: 'us-east1-b',
          retention: { softDeleteDays: 91 },
        }),
      ],
      'us-central1',
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].location',
      'checkpoints:stores[0].access.writers[0]',
      'checkpoints:stores[1].retention.softDeleteDays',
      'checkpoints:stores[1].zone',
    ]);
  });
});
