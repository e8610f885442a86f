import { dataHolders } from '@checkpoints/analysis';
import { customResources, type Snapshot } from '@checkpoints/synth';
import { ACCOUNT, renderStack, sharedRenderStack, TYPES } from './render-stack';

const standardStore = { name: 'llm-pretrain', dataClassification: 'confidential' };
const fastStore = {
  name: 'llm-fast',
  dataClassification: 'restricted',
  tier: 'high-throughput',
  zone: 'use1-az4',
};

function protectedResources(snapshot: Snapshot): string[] {
  return customResources(snapshot)
    .filter((resource) => resource.protect)
    .map((resource) => resource.name)
    .sort();
}

/** Every data holder, key and safety setting, as the change model classifies them. */
function guarded(snapshot: Snapshot): string[] {
  return dataHolders(snapshot)
    .map((holder) => `${holder.name} ${holder.holds} retain=${holder.retainOnDelete}`)
    .sort();
}

const RETAINED_IN_EVERY_ENVIRONMENT = [
  'llm-fast-bucket data retain=true',
  'llm-fast-encryption safety retain=true',
  'llm-fast-key key retain=true',
  'llm-fast-lifecycle safety retain=true',
  'llm-fast-policy safety retain=true',
  'llm-pretrain-bucket data retain=true',
  'llm-pretrain-encryption safety retain=true',
  'llm-pretrain-key key retain=true',
  'llm-pretrain-lifecycle safety retain=true',
  'llm-pretrain-ownership safety retain=true',
  'llm-pretrain-policy safety retain=true',
  'llm-pretrain-public-access-block safety retain=true',
  'llm-pretrain-versioning safety retain=true',
];

/** The stack audit's log bucket, its settings and (prod) its key: the stores are confidential and restricted. */
const AUDIT_RETAINED = [
  'access-log-bucket data retain=true',
  'access-log-encryption safety retain=true',
  'access-log-lifecycle safety retain=true',
  'access-log-ownership safety retain=true',
  'access-log-policy safety retain=true',
  'access-log-public-access-block safety retain=true',
  'access-log-versioning safety retain=true',
  'audit-bucket data retain=true',
  'audit-encryption safety retain=true',
  'audit-lifecycle safety retain=true',
  'audit-ownership safety retain=true',
  'audit-policy safety retain=true',
  'audit-public-access-block safety retain=true',
  'audit-retention-lock safety retain=true',
  'audit-versioning safety retain=true',
];

describe('protection', () => {
  it.each(['dev', 'staging', 'prod'])(
    '%s: every bucket, key and safety setting is retained on delete, so no deploy deletes it',
    async (environment) => {
      const snapshot = await renderStack({
        environment,
        stores: [
          { ...standardStore, encryption: 'customer-managed' },
          { ...fastStore, encryption: 'customer-managed' },
        ],
      });
      const audit =
        environment === 'prod' ? [...AUDIT_RETAINED, 'audit-key key retain=true'].sort() : AUDIT_RETAINED;
      // In prod a general purpose store is locked for its recovery window (src/retention-lock.ts lockDaysOf).
      const lock = environment === 'prod' ? ['llm-pretrain-retention-lock safety retain=true'] : [];
      expect(guarded(snapshot)).toEqual([...audit, ...[...RETAINED_IN_EVERY_ENVIRONMENT, ...lock].sort()]);
      // Nothing else is retained but the trail, the buckets' access logging, the key aliases (a released key
      // stays findable by its alias) and, in prod, the malware-scan role, which CI may not delete (bootstrap
      // KeepMalwareScanRolesGuardDutyOnly) and only GuardDuty may assume: any other role left behind would keep
      // its access to the released bucket.
      const holders = new Set(dataHolders(snapshot).map((holder) => holder.name));
      const retained = customResources(snapshot).filter((r) => r.retainOnDelete && !holders.has(r.name));
      expect(retained.map((r) => r.name).sort()).toEqual([
        'audit-access-logging',
        'audit-trail',
        'llm-fast-key-alias',
        'llm-pretrain-access-logging',
        'llm-pretrain-key-alias',
        ...(environment === 'prod' ? ['llm-pretrain-malware-scan'] : []),
      ]);
    },
  );

  it('prod default: the buckets and keys are protected, nothing else', async () => {
    const snapshot = await sharedRenderStack({ environment: 'prod', stores: [standardStore, fastStore] });
    expect(protectedResources(snapshot)).toEqual([
      'access-log-bucket',
      'audit-bucket',
      'audit-key',
      'audit-retention-lock',
      'audit-trail',
      'llm-fast-bucket',
      'llm-fast-key',
      'llm-pretrain-bucket',
      'llm-pretrain-key',
      'llm-pretrain-retention-lock',
    ]);
  });

  it('dev default: nothing protected', async () => {
    const snapshot = await renderStack({ environment: 'dev', stores: [standardStore, fastStore] });
    expect(protectedResources(snapshot)).toEqual([]);
  });

  it('follows an explicit protect on the store, in either direction', async () => {
    const snapshot = await renderStack({
      environment: 'staging',
      stores: [
        { ...standardStore, protect: true, encryption: 'customer-managed' },
        { ...fastStore, protect: false, encryption: 'customer-managed' },
      ],
    });
    expect(protectedResources(snapshot)).toEqual(['llm-pretrain-bucket', 'llm-pretrain-key']);
  });
});

describe('tags', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await sharedRenderStack({ environment: 'prod', stores: [standardStore, fastStore] });
  });

  const tagsOf = (store: string, dataClassification: string) => ({
    owner: 'ml-platform',
    'cost-center': 'cc-1234',
    environment: 'prod',
    'data-classification': dataClassification,
    'managed-by': 'pulumi',
    'pulumi-project': 'checkpoints-aws',
    'pulumi-stack': 'prod',
    'checkpoint-store': store,
  });

  it('puts the standard tags in the inputs of every taggable resource', () => {
    const taggable: string[] = [TYPES.bucket, TYPES.directoryBucket, TYPES.key, TYPES.role];
    // The stack audit's resources (its access log bucket included) carry the stack's tags, not a store's: audit.spec.ts.
    const tagged = customResources(snapshot).filter(
      (resource) =>
        taggable.includes(resource.type) &&
        !resource.name.startsWith('audit-') &&
        !resource.name.startsWith('access-log-'),
    );
    expect(tagged.map((resource) => resource.name).sort()).toEqual([
      'llm-fast-bucket',
      'llm-fast-key',
      'llm-fast-reader',
      'llm-fast-writer',
      'llm-pretrain-bucket',
      'llm-pretrain-key',
      'llm-pretrain-malware-scan',
      'llm-pretrain-reader',
      'llm-pretrain-writer',
    ]);
    for (const resource of tagged) {
      const store = resource.name.startsWith('llm-fast') ? 'llm-fast' : 'llm-pretrain';
      const classification = store === 'llm-fast' ? 'restricted' : 'confidential';
      expect({ name: resource.name, tags: resource.inputs['tags'] }).toEqual({
        name: resource.name,
        tags: tagsOf(store, classification),
      });
    }
  });

  it('leaves out only the resource types AWS cannot tag', () => {
    const untagged = customResources(snapshot).filter((resource) => resource.inputs['tags'] === undefined);
    expect([...new Set(untagged.map((resource) => resource.type))].sort()).toEqual(
      [
        TYPES.alias,
        'aws:s3/bucketLogging:BucketLogging',
        'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration',
        TYPES.bucketPolicy,
        TYPES.encryption,
        TYPES.lifecycle,
        TYPES.ownership,
        TYPES.publicAccessBlock,
        TYPES.rolePolicy,
        TYPES.versioning,
      ].sort(),
    );
  });
});

describe('outputs', () => {
  it('gives each store its URI, region, role ARNs and the environment of a training job, no credential', async () => {
    const snapshot = await sharedRenderStack({ environment: 'prod', stores: [standardStore, fastStore] });
    const role = (name: string) => `arn:aws:iam::${ACCOUNT}:role/${name}`;
    const standardUri = 's3://checkpoints-aws-prod-llm-pretrain-0d2516/';
    const fastUri = 's3://checkpoints-aws-prod-llm-fast-3c7d3e--use1-az4--x-s3/';
    const trail = 'checkpoints-aws-prod-audit-log-8850b8';
    expect(snapshot.outputs).toEqual({
      audit: {
        trail: `arn:aws:cloudtrail:us-east-1:${ACCOUNT}:trail/${trail}`,
        logBucket: `s3://${trail}/AWSLogs/`,
      },
      stores: {
        'llm-pretrain': {
          uri: standardUri,
          location: 'us-east-1',
          writerIdentity: role('checkpoints-aws-prod-llm-pretrain-writer-0d2516'),
          readerIdentity: role('checkpoints-aws-prod-llm-pretrain-reader-0d2516'),
          env: {
            CHECKPOINT_URI: standardUri,
            AWS_REGION: 'us-east-1',
            AWS_DEFAULT_REGION: 'us-east-1',
            CHECKPOINT_ROLE_ARN: role('checkpoints-aws-prod-llm-pretrain-writer-0d2516'),
          },
        },
        'llm-fast': {
          uri: fastUri,
          location: 'us-east-1',
          writerIdentity: role('checkpoints-aws-prod-llm-fast-writer-3c7d3e'),
          readerIdentity: role('checkpoints-aws-prod-llm-fast-reader-3c7d3e'),
          env: {
            CHECKPOINT_URI: fastUri,
            AWS_REGION: 'us-east-1',
            AWS_DEFAULT_REGION: 'us-east-1',
            CHECKPOINT_ROLE_ARN: role('checkpoints-aws-prod-llm-fast-writer-3c7d3e'),
          },
        },
      },
    });
  });

  it('reports the region the stack deploys to', async () => {
    const snapshot = await renderStack({ region: 'eu-west-1', stores: [standardStore] });
    const outputs = snapshot.outputs['stores'] as Record<
      string,
      { location: string; env: Record<string, string> }
    >;
    expect(outputs['llm-pretrain']?.location).toBe('eu-west-1');
    expect(outputs['llm-pretrain']?.env['AWS_REGION']).toBe('eu-west-1');
  });
});
