import { gcpAuditExemptionIssues, gcpRules, gcsDualRegionCode, loadStackSpec } from '../src';
import { gcpIssuesOf, NETWORK, prodConfig as config } from './gcp-helpers';

function store(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { name: 'llm-pretrain', dataClassification: 'confidential', network: NETWORK, ...extra };
}

const issuesOf = gcpIssuesOf;

describe('gcpRules: network, recovery (accepted)', () => {
  it('takes a VPC network and public ranges, a replica region of the same continent and turbo replication', () => {
    const spec = loadStackSpec(
      config([
        store({
          network: { ...NETWORK, cidrs: ['203.0.113.0/24', '172.32.0.0/16', '2001:db8::/32'] },
          recovery: { replicaRegion: 'us-east1', turboReplication: true },
        }),
      ]),
      gcpRules({ region: 'us-central1' }),
    );
    expect(spec.stores[0]?.network?.networks).toEqual(NETWORK.networks);
    expect(spec.stores[0]?.recovery).toEqual({
      replicaRegion: 'us-east1',
      turboReplication: true,
      readableReplica: false,
    });
  });
});

describe('gcpRules: network, recovery (refused)', () => {
  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'a bare network name',
      store({ network: { networks: ['training'] } }),
      'checkpoints:stores[0].network.networks[0]',
      'must be a VPC network as projects/PROJECT_ID/global/networks/NETWORK_NAME (a bare name; write projects/PROJECT_ID/global/networks/training)',
    ],
    [
      'a network under a project number',
      store({ network: { networks: ['projects/418230967154/global/networks/training'] } }),
      'checkpoints:stores[0].network.networks[0]',
      "names project '418230967154', which is not a project ID (6 to 30 lowercase letters, digits and hyphens, starting with a letter; that is a project number)",
    ],
    [
      'an uppercase network name',
      store({ network: { networks: ['projects/ml-platform-prod-7310/global/networks/Training'] } }),
      'checkpoints:stores[0].network.networks[0]',
      "names network 'Training', which is not a VPC network name",
    ],
    [
      'a regional network path',
      store({ network: { networks: ['projects/p-123456/regions/us-central1/networks/training'] } }),
      'checkpoints:stores[0].network.networks[0]',
      'must be a VPC network as projects/PROJECT_ID/global/networks/NETWORK_NAME',
    ],
    [
      'a private IPv4 range as a public source',
      store({ network: { cidrs: ['10.8.0.0/16'] } }),
      'checkpoints:stores[0].network.cidrs[0]',
      'is a private range: the IP filter matches cidrs against requests from the internet',
    ],
    [
      'a 172.16/12 range',
      store({ network: { cidrs: ['172.31.0.0/16'] } }),
      'checkpoints:stores[0].network.cidrs[0]',
      'is a private range',
    ],
    [
      'an IPv6 unique-local range',
      store({ network: { cidrs: ['fd00:1::/48'] } }),
      'checkpoints:stores[0].network.cidrs[0]',
      'is a private range',
    ],
    [
      'a replica on another continent',
      store({ recovery: { replicaRegion: 'europe-west4' } }),
      'checkpoints:stores[0].recovery.replicaRegion',
      "cannot pair with the bucket's region us-central1 in a configurable dual-region: both must be in one group, for us-central1 one of us-east1",
    ],
    [
      'the bucket region as its own replica',
      store({ recovery: { replicaRegion: 'us-central1' } }),
      'checkpoints:stores[0].recovery.replicaRegion',
      "is the bucket's own region",
    ],
    [
      'a replica region that does not exist',
      store({ recovery: { replicaRegion: 'us-east9' } }),
      'checkpoints:stores[0].recovery.replicaRegion',
      'is not a Google Cloud region',
    ],
    [
      'a replica on the high-throughput tier',
      store({ tier: 'high-throughput', recovery: { replicaRegion: 'us-east1' } }),
      'checkpoints:stores[0].recovery.replicaRegion',
      'is not offered on tier high-throughput',
    ],
    [
      'turbo replication without a replica',
      store({ recovery: { turboReplication: true } }),
      'checkpoints:stores[0].recovery.turboReplication',
      'applies to a dual-region bucket only: set recovery.replicaRegion as well',
    ],
    [
      'a retention lock on a prefix',
      store({ recovery: { retentionLock: { prefix: 'releases/', days: 365 }, replicaRegion: 'us-east1' } }),
      'checkpoints:stores[0].recovery.retentionLock.prefix',
      'is refused on Cloud Storage: a bucket retention policy locks every object of the bucket',
    ],
  ])('%s', (_title, given, path, message) => {
    const issues = issuesOf([given]);
    expect(issues.map((issue) => issue.path)).toEqual([path]);
    expect(issues[0]?.message).toContain(message);
  });
});

describe('configurable dual-region pairs (facts)', () => {
  it.each<[string, string, string | undefined]>([
    ['us-central1', 'us-east1', 'US'],
    ['europe-west1', 'europe-west4', 'EU'],
    ['asia-northeast1', 'asia-northeast2', 'ASIA'],
    ['us-central1', 'europe-west4', undefined],
    ['us-central1', 'us-central1', undefined],
    ['australia-southeast1', 'australia-southeast2', undefined],
  ])('%s + %s -> %s', (region, replica, code) => {
    expect(gcsDualRegionCode(region, replica)).toBe(code);
  });
});

describe('gcpAuditExemptionIssues', () => {
  const writer = 'serviceAccount:checkpoints-w@ml-platform-prod-7310.iam.gserviceaccount.com';
  const reader = 'serviceAccount:checkpoints-r@ml-platform-prod-7310.iam.gserviceaccount.com';
  const readers = [
    { member: reader, store: 'llm-pretrain' },
    { member: 'group:ml-eval@example.com', store: 'llm-pretrain' },
  ];

  it('accepts a writer identity in prod, and anything well-formed in dev', () => {
    expect(gcpAuditExemptionIssues([writer], { environment: 'prod', readers })).toEqual([]);
    expect(gcpAuditExemptionIssues([reader, 'domain:example.com'], { environment: 'dev', readers })).toEqual(
      [],
    );
  });

  it.each<[string, string, string]>([
    [
      'a store reader identity',
      reader,
      'reads the checkpoints of store llm-pretrain: in prod every read is recorded',
    ],
    ['a declared reader', 'group:ml-eval@example.com', 'reads the checkpoints of store llm-pretrain'],
    ['a whole domain', 'domain:example.com', 'stands for every member of a domain or group'],
    ['a group', 'group:ml-training@example.com', 'stands for every member of a domain or group'],
    [
      'a workload identity principal set (not an exemptable member)',
      'principalSet://iam.googleapis.com/projects/418230967154/locations/global/workloadIdentityPools/ml-platform-prod-7310.svc.id.goog/namespace/training',
      'is not a member an audit config can exempt',
    ],
    [
      'a malformed member',
      'trainer@example.com',
      "has no member type: write e.g. 'user:trainer@example.com'",
    ],
    ['everyone', 'allUsers', 'grants access to anyone'],
  ])('refuses %s in prod', (_title, member, message) => {
    const issues = gcpAuditExemptionIssues([member], { environment: 'prod', readers });
    expect(issues.map((issue) => [issue.path, issue.value])).toEqual([
      ['checkpoints:auditExemptMembers[0]', member],
    ]);
    expect(issues[0]?.message).toContain(message);
  });

  it('refuses a member listed twice', () => {
    const issues = gcpAuditExemptionIssues([writer, writer], { environment: 'dev', readers });
    expect(issues).toEqual([
      { path: 'checkpoints:auditExemptMembers[1]', value: writer, message: 'is listed twice' },
    ]);
  });
});
