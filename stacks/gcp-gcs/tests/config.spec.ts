import { join } from 'node:path';
import { GCP_IAM_LIMITS, type ConfigError } from '@checkpoints/config';
import { readProject, render, RenderFailure } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { PROJECT, refusal, renderStack, stackConfig, store } from './render';

describe('likely config mistakes fail before any resource, with the key path and why', () => {
  it.each<[string, Record<string, string>, string, string]>([
    [
      'no gcp:region and no store location',
      stackConfig([store()], { 'gcp:region': undefined }),
      'checkpoints:stores[0].location',
      'is required when the stack sets no gcp:region: a Google Cloud region such as us-central1',
    ],
    [
      'gcp:region set to a zone',
      stackConfig([store()], { 'gcp:region': 'us-central1-a' }),
      'checkpoints:stores[0].location',
      "is not set, so the bucket would go to gcp:region 'us-central1-a', which is a zone, not a region: use its region us-central1",
    ],
    [
      'a multi-region location',
      stackConfig([store({ location: 'EU' })]),
      'checkpoints:stores[0].location',
      'got "EU"; is not a region: checkpoint stores are regional',
    ],
    [
      'a cache zone in another region',
      stackConfig([store({ tier: 'high-throughput', zone: 'europe-west4-a' })]),
      'checkpoints:stores[0].zone',
      "is in region europe-west4, but the bucket is in us-central1: an Anywhere Cache must be in a zone of the bucket's region, e.g. us-central1-a",
    ],
    [
      'a cache zone on the standard tier',
      stackConfig([store({ zone: 'us-central1-a' })]),
      'checkpoints:stores[0].zone',
      "applies only to tier 'high-throughput'; remove it or set tier: high-throughput",
    ],
    [
      'previous versions kept on the high-throughput tier',
      stackConfig([store({ tier: 'high-throughput', retention: { keepNoncurrentVersions: 3 } })]),
      'checkpoints:stores[0].retention.keepNoncurrentVersions',
      'tier high-throughput uses a hierarchical-namespace bucket, which does not support object versioning, so there are no previous versions to keep or expire',
    ],
    [
      'soft delete longer than Cloud Storage keeps',
      stackConfig([store({ retention: { softDeleteDays: 365 } })]),
      'checkpoints:stores[0].retention.softDeleteDays',
      'Cloud Storage keeps soft-deleted objects for 7 to 90 days; use at most 90',
    ],
    [
      'expiry inside the ARCHIVE minimum storage duration',
      stackConfig([store({ retention: { archiveAfterDays: 90, expireAfterDays: 180 } })]),
      'checkpoints:stores[0].retention.expireAfterDays',
      'objects move to ARCHIVE at day 90 (retention.archiveAfterDays), which has a 365-day minimum storage duration',
    ],
    [
      'a public reader',
      stackConfig([store({ access: { readers: ['allUsers'] } })]),
      'checkpoints:stores[0].access.readers[0]',
      'public access is never allowed on a checkpoint store',
    ],
    [
      'a service account written as a user',
      stackConfig([
        store({ access: { writers: ['user:trainer@ml-platform-test-1234.iam.gserviceaccount.com'] } }),
      ]),
      'checkpoints:stores[0].access.writers[0]',
      "is a service account, not a user: write 'serviceAccount:trainer@ml-platform-test-1234.iam.gserviceaccount.com'",
    ],
    [
      'an email without member type',
      stackConfig([store({ access: { writers: ['alice@example.com'] } })]),
      'checkpoints:stores[0].access.writers[0]',
      "has no member type: write e.g. 'user:alice@example.com' or 'group:alice@example.com'",
    ],
    [
      'a typo in a retention key',
      stackConfig([store({ retention: { softDeleteDay: 14 } })]),
      'checkpoints:stores[0].retention.softDeleteDay',
      "unknown key; did you mean 'softDeleteDays'?",
    ],
    [
      'a bucket location that does not exist',
      stackConfig([store({ location: 'us-central2' })]),
      'checkpoints:stores[0].location',
      'is not a Google Cloud region (the published list is in libs/config/src/facts/gcp.ts); did you mean us-central1, me-central2, me-central1?',
    ],
    [
      'a gcp:region that does not exist',
      stackConfig([store()], { 'gcp:region': 'europe-west7' }),
      'checkpoints:stores[0].location',
      "is not set, so the bucket would go to gcp:region 'europe-west7', which is not a Google Cloud region",
    ],
    [
      'a cache zone letter that does not exist',
      stackConfig([store({ tier: 'high-throughput', zone: 'us-central1-z' })]),
      'checkpoints:stores[0].zone',
      'does not exist: the zones of us-central1 are us-central1-a, us-central1-b, us-central1-c, us-central1-f',
    ],
    [
      'a project number as gcp:project',
      stackConfig([store()], { 'gcp:project': '123456789012' }),
      'gcp:project',
      'allowed: a project ID: 6 to 30 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen (that is a project number; gcp:project takes the project ID)',
    ],
    [
      'an Azure-only key',
      { ...stackConfig([store()]), 'checkpoints:resourceGroupName': 'rg-ml' },
      'checkpoints:resourceGroupName',
      'is not used on gcp; it applies on azure only',
    ],
    [
      'no gcp:project',
      stackConfig([store()], { 'gcp:project': undefined }),
      'gcp:project',
      'is required: the ID of the Google Cloud project the stores are created in',
    ],
    [
      // Both names shorten to the same 16 characters and their 6-character hashes collide (found by search).
      'two stores deriving one service account',
      stackConfig([store({ name: 'checkpointstoreabc-38s' }), store({ name: 'checkpointstoreabc-8gb' })]),
      'checkpoints:stores[1].name',
      "derives the same cloud names as stores[0] (checkpointstoreabc-38s): service account 'checkpointstorea-writer-c01be1', service account 'checkpointstorea-reader-c01be1'",
    ],
  ])('%s', async (_title, config, path, message) => {
    const { error, resources } = await refusal(config);
    expect(error.issues.map((issue) => issue.path)).toEqual([path]);
    expect(error.message).toContain(`${path}: `);
    expect(error.message).toContain(message);
    expect(error.message).toContain('Invalid stack config in Pulumi.dev.yaml (1 problem)');
    expect(resources.filter((resource) => resource.custom)).toEqual([]);
  });

  it('lists every problem of every store in one error', async () => {
    const { error, resources } = await refusal(
      stackConfig([
        store({ location: 'us-central1-b', access: { writers: ['allAuthenticatedUsers'] } }),
        store({
          name: 'llm-hot',
          tier: 'high-throughput',
          zone: 'use1-az4',
          retention: { noncurrentExpireDays: 3 },
        }),
      ]),
    );
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].location',
      'checkpoints:stores[0].access.writers[0]',
      'checkpoints:stores[1].zone',
      'checkpoints:stores[1].retention.noncurrentExpireDays',
    ]);
    expect(resources.filter((resource) => resource.custom)).toEqual([]);
  });
});

describe('a stack that alone needs more than a default quota deploys with a warning that names it', () => {
  let warn: jest.SpyInstance;
  beforeEach(() => {
    // Under the mocks Pulumi's log.warn goes to console.warn.
    warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
  });
  afterEach(() => warn.mockRestore());
  const warnings = () => warn.mock.calls.map((call) => String(call[0]));

  // One render of 51 stores (seconds, more on a busy machine: its own timeout): the only way to see the program emit the warning; the quota's
  // boundary (none at 100 service accounts, one above) is tested in libs/config.
  it('51 stores need 102 service accounts, over the 100 a project has by default', async () => {
    const stores = Array.from({ length: 51 }, (_, i) => store({ name: `store-${i}` }));
    await renderStack(stackConfig(stores));
    expect(warnings().filter((text) => text.includes('Number of service accounts'))).toEqual([
      expect.stringContaining(
        'the stack needs 102 service accounts (a writer and a reader per store), more than the default quota "Number of service accounts" of 100',
      ),
    ]);
  }, 60_000);
});

describe('Pulumi.yaml', () => {
  const project = readProject(join(__dirname, '..'));

  it('declares project checkpoints-gcp running index.ts with TypeScript', () => {
    expect(project.name).toBe('checkpoints-gcp');
    expect(project.main).toBe(join(__dirname, '..', 'index.ts'));
    expect(project.typescript).toBe(true);
  });
});

describe("the bucket IAM policy stays inside IAM's member limits at the most principals the schema allows", () => {
  it('100 writers and 100 readers, half of them groups', async () => {
    const members = (kind: string, count: number) =>
      Array.from({ length: count }, (_, i) => `${i % 2 === 0 ? 'group' : 'user'}:${kind}-${i}@example.com`);
    const snapshot = await renderStack(
      stackConfig([store({ access: { writers: members('w', 100), readers: members('r', 100) } })]),
    );
    const bound = snapshot.resources
      .filter((found) => found.type === 'gcp:storage/bucketIAMMember:BucketIAMMember')
      .map((found) => String(found.inputs['member']));
    expect(bound.length).toBeGreaterThanOrEqual(200);
    expect(bound.length).toBeLessThanOrEqual(GCP_IAM_LIMITS.membersPerPolicy);
    expect(bound.filter((member) => member.startsWith('group:')).length).toBeLessThanOrEqual(
      GCP_IAM_LIMITS.groupsPerPolicy,
    );
  });
});

describe('secrets', () => {
  it('refuses a secret checkpoints: value, which would land in labels, before any resource', async () => {
    const failure = await render(checkpointStack, {
      project: PROJECT,
      stack: 'dev',
      config: stackConfig([store()], { 'checkpoints:owner': '[secret]' }),
      secretKeys: ['checkpoints:owner'],
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(RenderFailure);
    const { cause, resources } = failure as RenderFailure;
    expect((cause as ConfigError).issues).toEqual([
      expect.objectContaining({ path: 'checkpoints:owner', value: '[secret]' }),
    ]);
    expect(resources.filter((resource) => resource.custom)).toEqual([]);
  });
});
