import {
  awsRules,
  ConfigError,
  loadStackSpec,
  organizationTrailIssues,
  type CloudRules,
  type ConfigIssue,
} from '../src';

function config(stores: unknown[], environment = 'prod'): Record<string, string> {
  return {
    'checkpoints:environment': environment,
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
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

const fast = (extra: Record<string, unknown> = {}) =>
  store({ tier: 'high-throughput', zone: 'use1-az4', ...extra });

function issuesOf(stores: unknown[], rules: CloudRules = awsRules.forRegion('us-east-1')): ConfigIssue[] {
  try {
    loadStackSpec(config(stores), rules);
  } catch (error) {
    if (error instanceof ConfigError) return [...error.issues];
    throw error;
  }
  return [];
}

describe('awsRules: defaults', () => {
  it('standard tier: the common retention, without soft delete (S3 has none)', () => {
    const spec = loadStackSpec(config([store()]), awsRules);
    expect(spec.stores[0]?.retention).toEqual({
      keepNoncurrentVersions: 3,
      noncurrentExpireDays: 7,
      coolAfterDays: 30,
      archiveAfterDays: 0,
      expireAfterDays: 0,
      abortIncompleteUploadDays: 1,
      softDeleteDays: 0,
      keptPrefixes: [],
      expirePrefixes: [],
    });
  });

  it('high-throughput tier: nothing a directory bucket cannot do (no versions, no transitions)', () => {
    const spec = loadStackSpec(config([fast({ retention: { expireAfterDays: 14 } })]), awsRules);
    expect(spec.stores[0]?.retention).toEqual({
      keepNoncurrentVersions: 0,
      noncurrentExpireDays: 0,
      coolAfterDays: 0,
      archiveAfterDays: 0,
      expireAfterDays: 14,
      abortIncompleteUploadDays: 1,
      softDeleteDays: 0,
      keptPrefixes: [],
      expirePrefixes: [],
    });
    expect(spec.stores[0]?.zone).toBe('use1-az4');
  });
});

describe('awsRules: accepted', () => {
  it.each<[string, Record<string, unknown>]>([
    ['cool at exactly 30 days', store({ retention: { coolAfterDays: 30 } })],
    ['archive exactly 30 days after cool', store({ retention: { coolAfterDays: 30, archiveAfterDays: 60 } })],
    ['archive without cool, from day 1', store({ retention: { coolAfterDays: 0, archiveAfterDays: 1 } })],
    [
      'one spec for every cloud: 0 (never) for what S3 does not have',
      store({ retention: { softDeleteDays: 0 } }),
    ],
    [
      'one spec for every tier: 0 for what a directory bucket does not have',
      fast({
        retention: {
          keepNoncurrentVersions: 0,
          noncurrentExpireDays: 0,
          coolAfterDays: 0,
          archiveAfterDays: 0,
        },
      }),
    ],
    [
      'keep 5 versions for a day',
      store({ retention: { keepNoncurrentVersions: 5, noncurrentExpireDays: 1 } }),
    ],
    [
      'every principal format',
      store({
        access: {
          writers: [
            'arn:aws:iam::123456789012:role/ml-training',
            'arn:aws:iam::123456789012:role/teams/ml/training-jobs',
            'arn:aws:iam::123456789012:user/ci-bot',
            'arn:aws:iam::123456789012:root',
            'sagemaker.amazonaws.com',
            'pods.eks.amazonaws.com',
          ],
          readers: ['ec2.amazonaws.com'],
        },
      }),
    ],
    [
      'a directory bucket that expires objects',
      fast({ retention: { expireAfterDays: 7, abortIncompleteUploadDays: 2 } }),
    ],
  ])('%s', (_title, given) => {
    expect(issuesOf([given])).toEqual([]);
  });

  it('checks the zone and partition against the region only where it knows the region', () => {
    expect(issuesOf([fast({ zone: 'usw2-az1' })], awsRules)).toEqual([]);
    const otherPartitions = [
      'arn:aws-us-gov:iam::123456789012:user/ci-bot',
      'arn:aws-cn:iam::123456789012:root',
    ];
    expect(issuesOf([store({ access: { writers: otherPartitions } })], awsRules)).toEqual([]);
  });

  it.each([
    ['cn-north-1', 'arn:aws-cn:iam::123456789012:role/trainer'],
    ['us-gov-west-1', 'arn:aws-us-gov:iam::123456789012:root'],
  ])("principals of the region's own partition (%s)", (region, principal) => {
    expect(issuesOf([store({ access: { readers: [principal] } })], awsRules.forRegion(region))).toEqual([]);
  });
});

describe('awsRules: refused, with the exact path and message', () => {
  it.each<[string, Record<string, unknown>, string, unknown, string]>([
    [
      'cool tier before 30 days',
      store({ retention: { coolAfterDays: 7 } }),
      'retention.coolAfterDays',
      7,
      'S3 moves objects to STANDARD_IA no earlier than 30 days after creation; use 0 (never) or at least 30',
    ],
    [
      'archive less than 30 days after cool',
      store({ retention: { coolAfterDays: 30, archiveAfterDays: 45 } }),
      'retention.archiveAfterDays',
      45,
      'S3 keeps objects at least 30 days in STANDARD_IA before archiving them (GLACIER_IR); use at least 60 (coolAfterDays + 30) or 0 (never)',
    ],
    [
      'previous versions never purged',
      store({ retention: { keepNoncurrentVersions: 5, noncurrentExpireDays: 0 } }),
      'retention.noncurrentExpireDays',
      0,
      'would keep every overwritten or deleted checkpoint, as a previous version, forever, which the purge promise forbids (docs/config.md); use 1 to 365 days',
    ],
    [
      'incomplete uploads never aborted',
      fast({ retention: { abortIncompleteUploadDays: 0 } }),
      'retention.abortIncompleteUploadDays',
      0,
      'S3 keeps the parts of an incomplete multipart upload, and bills them, until a lifecycle rule aborts it; use 1 to 365 days',
    ],
    [
      'soft delete on the standard tier',
      store({ retention: { softDeleteDays: 14 } }),
      'retention.softDeleteDays',
      14,
      'S3 has no soft delete; deleted objects stay recoverable as noncurrent versions: use retention.noncurrentExpireDays and keepNoncurrentVersions instead, and remove retention.softDeleteDays or set it to 0',
    ],
    [
      'soft delete on a directory bucket',
      fast({ retention: { softDeleteDays: 14 } }),
      'retention.softDeleteDays',
      14,
      'S3 has no soft delete, and S3 directory buckets have no versioning either; remove retention.softDeleteDays or set it to 0',
    ],
    [
      'noncurrent versions on a directory bucket',
      fast({ retention: { keepNoncurrentVersions: 3 } }),
      'retention.keepNoncurrentVersions',
      3,
      'S3 directory buckets have no versioning; remove retention.keepNoncurrentVersions or set it to 0',
    ],
    [
      'noncurrent expiry on a directory bucket',
      fast({ retention: { noncurrentExpireDays: 7 } }),
      'retention.noncurrentExpireDays',
      7,
      'S3 directory buckets have no versioning; remove retention.noncurrentExpireDays or set it to 0',
    ],
    [
      'a cool tier on a directory bucket',
      fast({ retention: { coolAfterDays: 30 } }),
      'retention.coolAfterDays',
      30,
      'S3 directory buckets have one storage class (S3 Express One Zone) and no lifecycle transitions; remove retention.coolAfterDays or set it to 0',
    ],
    [
      'an archive tier on a directory bucket',
      fast({ retention: { archiveAfterDays: 90 } }),
      'retention.archiveAfterDays',
      90,
      'S3 directory buckets have one storage class (S3 Express One Zone) and no lifecycle transitions; remove retention.archiveAfterDays or set it to 0',
    ],
    [
      'a high-throughput store without a zone',
      store({ tier: 'high-throughput' }),
      'zone',
      undefined,
      "is required for tier 'high-throughput' on AWS: the availability zone ID of the S3 Express One Zone directory bucket, e.g. use1-az4",
    ],
    [
      'an AZ name instead of an AZ ID',
      fast({ zone: 'us-east-1a' }),
      'zone',
      'us-east-1a',
      'allowed: an availability zone ID such as use1-az4 (an AZ ID, not an AZ name such as us-east-1a; run `aws ec2 describe-availability-zones` to map them)',
    ],
    [
      'a Local Zone ID',
      fast({ zone: 'usw2-lax1-az1' }),
      'zone',
      'usw2-lax1-az1',
      'allowed: an availability zone ID such as use1-az4 (an AZ ID, not an AZ name such as us-east-1a; run `aws ec2 describe-availability-zones` to map them)',
    ],
    [
      'a zone of another region',
      fast({ zone: 'usw2-az1' }),
      'zone',
      'usw2-az1',
      'is an AZ of us-west-2, not of aws:region us-east-1; S3 Express One Zone AZ IDs in us-east-1: use1-az4, use1-az5, use1-az6',
    ],
    [
      'an account ID instead of its root ARN',
      store({ access: { writers: ['123456789012'] } }),
      'access.writers[0]',
      '123456789012',
      'is an account ID; write the account root ARN instead: arn:aws:iam::123456789012:root',
    ],
    [
      'a role session ARN (what `aws sts get-caller-identity` prints)',
      store({
        access: { readers: ['arn:aws:sts::123456789012:assumed-role/ml-training/botocore-session-1'] },
      }),
      'access.readers[0]',
      'arn:aws:sts::123456789012:assumed-role/ml-training/botocore-session-1',
      'is a role session, which cannot be trusted by name; use the role ARN: arn:aws:iam::123456789012:role/ml-training',
    ],
    [
      'a wildcard principal',
      store({ access: { readers: ['arn:aws:iam::123456789012:role/*'] } }),
      'access.readers[0]',
      'arn:aws:iam::123456789012:role/*',
      'wildcards are not allowed: name each principal; expected an IAM principal ARN (arn:aws:iam::123456789012:root, arn:aws:iam::123456789012:role/NAME or arn:aws:iam::123456789012:user/NAME; partition aws, aws-us-gov or aws-cn) or an AWS service principal such as sagemaker.amazonaws.com',
    ],
    [
      'an 11-digit account in a role ARN',
      store({ access: { writers: ['arn:aws:iam::12345678901:role/ml-training'] } }),
      'access.writers[0]',
      'arn:aws:iam::12345678901:role/ml-training',
      'expected an IAM principal ARN (arn:aws:iam::123456789012:root, arn:aws:iam::123456789012:role/NAME or arn:aws:iam::123456789012:user/NAME; partition aws, aws-us-gov or aws-cn) or an AWS service principal such as sagemaker.amazonaws.com',
    ],
    [
      'an unknown partition',
      store({ access: { writers: ['arn:aws-eu:iam::123456789012:role/ml-training'] } }),
      'access.writers[0]',
      'arn:aws-eu:iam::123456789012:role/ml-training',
      'expected an IAM principal ARN (arn:aws:iam::123456789012:root, arn:aws:iam::123456789012:role/NAME or arn:aws:iam::123456789012:user/NAME; partition aws, aws-us-gov or aws-cn) or an AWS service principal such as sagemaker.amazonaws.com',
    ],
    [
      'a service principal without its domain',
      store({ access: { writers: ['sagemaker'] } }),
      'access.writers[0]',
      'sagemaker',
      'expected an IAM principal ARN (arn:aws:iam::123456789012:root, arn:aws:iam::123456789012:role/NAME or arn:aws:iam::123456789012:user/NAME; partition aws, aws-us-gov or aws-cn) or an AWS service principal such as sagemaker.amazonaws.com',
    ],
    [
      'a GCP member on AWS',
      store({ access: { readers: ['serviceAccount:trainer@proj.iam.gserviceaccount.com'] } }),
      'access.readers[0]',
      'serviceAccount:trainer@proj.iam.gserviceaccount.com',
      'expected an IAM principal ARN (arn:aws:iam::123456789012:root, arn:aws:iam::123456789012:role/NAME or arn:aws:iam::123456789012:user/NAME; partition aws, aws-us-gov or aws-cn) or an AWS service principal such as sagemaker.amazonaws.com',
    ],
  ])('%s', (_title, given, path, value, message) => {
    expect(issuesOf([given])).toEqual([{ path: `checkpoints:stores[0].${path}`, value, message }]);
  });

  it('adds its S3 minimum to the common ordering rule without repeating it', () => {
    const issues = issuesOf([store({ retention: { coolAfterDays: 60, archiveAfterDays: 30 } })]);
    expect(issues.map((issue) => issue.path)).toEqual(['checkpoints:stores[0].retention.archiveAfterDays']);
    expect(issues[0]?.message).toContain('must be greater than retention.coolAfterDays (60)');
  });

  it('lists the problems of every store at once', () => {
    const issues = issuesOf([
      store({ retention: { coolAfterDays: 10 } }),
      fast({ name: 'fast', zone: 'euw1-az1', retention: { keepNoncurrentVersions: 1 } }),
    ]);
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].retention.coolAfterDays',
      'checkpoints:stores[1].zone',
      'checkpoints:stores[1].retention.keepNoncurrentVersions',
    ]);
  });
});

describe('awsRules.regionIssues', () => {
  it.each<[string | undefined, ConfigIssue[]]>([
    ['us-east-1', []],
    ['us-gov-west-1', []],
    ['cn-north-1', []],
    [
      undefined,
      [
        {
          path: 'aws:region',
          value: undefined,
          message: 'is required: the region of every store, e.g. us-east-1 (set it in the stack config file)',
        },
      ],
    ],
    [
      'us-east-1a',
      [
        {
          path: 'aws:region',
          value: 'us-east-1a',
          message: 'is an availability zone name, not a region; use its region us-east-1',
        },
      ],
    ],
    [
      'US-EAST-1',
      [{ path: 'aws:region', value: 'US-EAST-1', message: 'region codes are lowercase: use us-east-1' }],
    ],
    [
      'us-east-7',
      [
        {
          path: 'aws:region',
          value: 'us-east-7',
          message:
            'is not an AWS region (the published list is in libs/config/src/facts/aws.ts); did you mean us-east-1, us-east-2, ap-east-1?',
        },
      ],
    ],
  ])('%s', (region, issues) => {
    expect(awsRules.regionIssues(region)).toEqual(issues);
  });
});

describe('awsRules: network, recovery and audit keys', () => {
  const vpce = 'vpce-0a1b2c3d4e5f60718';
  it('accepts 8- and 17-character endpoint and VPC IDs and public CIDRs', () => {
    const ok = store({
      network: {
        vpcEndpoints: [vpce, 'vpce-1a2b3c4d'],
        vpcs: ['vpc-0a1b2c3d4e5f60718'],
        cidrs: ['203.0.113.0/24'],
      },
    });
    expect(issuesOf([ok])).toEqual([]);
  });

  it('accepts a retention lock of a whole standard store, and keeps its days', () => {
    const spec = loadStackSpec(
      config([store({ recovery: { replicaRegion: 'us-west-2', retentionLock: { days: 365 } } })]),
      awsRules,
    );
    expect(spec.stores[0]?.recovery.retentionLock).toEqual({ days: 365 });
  });

  it('refuses a lock of a prefix alone, saying to lock a store of released checkpoints instead', () => {
    const issues = issuesOf([
      store({ recovery: { replicaRegion: 'us-west-2', retentionLock: { prefix: 'releases/', days: 365 } } }),
    ]);
    expect(issues).toEqual([
      {
        path: 'checkpoints:stores[0].recovery.retentionLock.prefix',
        value: 'releases/',
        message: expect.stringContaining(
          'Omit prefix and lock a store of its own that holds the released checkpoints: recovery.retentionLock: { days: 365 }',
        ),
      },
    ]);
    expect(issues[0]?.message).toMatch(/^cannot be locked alone on AWS: .*multipart upload/);
  });

  it('accepts a retention lock together with a replica (the replica takes the same lock)', () => {
    const lock = { days: 30 };
    expect(issuesOf([store({ recovery: { replicaRegion: 'us-west-2', retentionLock: lock } })])).toEqual([]);
  });

  it('accepts a replica in another region of the same partition on a standard store', () => {
    expect(issuesOf([store({ recovery: { replicaRegion: 'us-west-2' } })])).toEqual([]);
  });

  // One row per refusal; the EC2 ID format is https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/resource-ids.html.
  it.each<[string, Record<string, unknown>, string, unknown, string]>([
    [
      'an endpoint ID of the wrong form',
      store({ network: { vpcEndpoints: ['vpce-XYZ'] } }),
      'network.vpcEndpoints[0]',
      'vpce-XYZ',
      'allowed: a VPC endpoint ID, vpce- and 8 or 17 lowercase hexadecimal characters, e.g. vpce-0a1b2c3d4e5f60718 (aws ec2 describe-vpc-endpoints)',
    ],
    [
      'a VPC endpoint ID where a VPC ID belongs',
      store({ network: { vpcs: [vpce] } }),
      'network.vpcs[0]',
      vpce,
      'allowed: a VPC ID, vpc- and 8 or 17 lowercase hexadecimal characters, e.g. vpc-0a1b2c3d4e5f60718 (aws ec2 describe-vpcs)',
    ],
    [
      'a private CIDR, which aws:SourceIp never holds',
      store({ network: { cidrs: ['10.20.0.0/16'] } }),
      'network.cidrs[0]',
      '10.20.0.0/16',
      'is a private range (within 10.0.0.0/8): S3 never sees a private source address in aws:SourceIp, since private traffic reaches it through a VPC endpoint; list that endpoint in network.vpcEndpoints or its VPC in network.vpcs instead',
    ],
    [
      'a replica on a directory bucket',
      fast({ recovery: { replicaRegion: 'us-west-2' } }),
      'recovery.replicaRegion',
      'us-west-2',
      'S3 directory buckets (tier high-throughput) have no replication; remove recovery.replicaRegion, or copy released checkpoints to a standard store that has one',
    ],
    [
      'a retention lock on a directory bucket',
      fast({ recovery: { retentionLock: { days: 30 } } }),
      'recovery.retentionLock',
      { days: 30 },
      'S3 directory buckets (tier high-throughput) have no Object Lock; remove recovery.retentionLock, or keep released checkpoints in a standard store that has one',
    ],
    [
      "a replica in the store's own region",
      store({ recovery: { replicaRegion: 'us-east-1' } }),
      'recovery.replicaRegion',
      'us-east-1',
      "is the store's own region (aws:region us-east-1): a replica there survives no regional outage; name another region",
    ],
    [
      'a replica in no region',
      store({ recovery: { replicaRegion: 'us-west-9' } }),
      'recovery.replicaRegion',
      'us-west-9',
      'is not an AWS region (the published list is in libs/config/src/facts/aws.ts); did you mean us-west-1, us-west-2, ca-west-1?',
    ],
    [
      'a replica in another partition',
      store({ recovery: { replicaRegion: 'cn-north-1' } }),
      'recovery.replicaRegion',
      'cn-north-1',
      'is in partition aws-cn, but aws:region us-east-1 is in aws: S3 replicates within a partition only; name a region of aws',
    ],
    [
      "the audit log's name",
      store({ name: 'audit-log' }),
      'name',
      'audit-log',
      "is the name the stack's audit log bucket is derived from (its CloudTrail trail writes there); choose another store name",
    ],
  ])('%s', (_title, refused, path, value, message) => {
    expect(issuesOf([refused])).toEqual([{ path: `checkpoints:stores[0].${path}`, value, message }]);
  });

  it.each<[string, ConfigIssue[]]>([
    ['arn:aws:cloudtrail:us-east-1:123456789012:trail/org-trail', []],
    [
      'org-trail',
      [
        {
          path: 'checkpoints:organizationTrail',
          value: 'org-trail',
          message:
            'allowed: a trail ARN, arn:aws:cloudtrail:REGION:ACCOUNT:trail/NAME (NAME: 3-128 letters, digits, ".", "_" or "-", a letter or digit at both ends); aws cloudtrail describe-trails prints it as TrailARN',
        },
      ],
    ],
    [
      'arn:aws-cn:cloudtrail:cn-north-1:123456789012:trail/org-trail',
      [
        {
          path: 'checkpoints:organizationTrail',
          value: 'arn:aws-cn:cloudtrail:cn-north-1:123456789012:trail/org-trail',
          message:
            'is in partition aws-cn, but aws:region us-east-1 is in aws: a trail records the events of its own partition only',
        },
      ],
    ],
  ])('organizationTrail %s', (trail, issues) => {
    expect(organizationTrailIssues(trail, 'us-east-1')).toEqual(issues);
  });
});
