import {
  analyzeAccess,
  awsDefaultKeyPolicy,
  awsRequestAllowed,
  planChanges,
  type AwsPrincipal,
} from '@checkpoints/analysis';
import { names } from '@checkpoints/naming';
import type { Snapshot } from '@checkpoints/synth';
import { ACCOUNT, documentOf, resource, sharedRenderStack, TYPES } from './render-stack';

/**
 * S3 Cross-Region Replication (`recovery.replicaRegion`), judged by IAM's evaluation (iam-simulate) of the
 * rendered policies: S3, as the replication role, copies the store into its replica and can do nothing else;
 * the store's own roles cannot touch the replica; the perimeter does not stop replication.
 */
const store = {
  name: 'llm-pretrain',
  dataClassification: 'confidential',
  encryption: 'customer-managed',
  recovery: { replicaRegion: 'us-west-2' },
};
/** One request to IAM, as awsRequestAllowed takes it. */
type AwsRequest = Parameters<typeof awsRequestAllowed>[1];

const context = { project: 'checkpoints-aws', stack: 'prod', store: store.name };
const SOURCE = `arn:aws:s3:::${names.s3Bucket(context)}`;
const REPLICA = `arn:aws:s3:::${names.s3ReplicaBucket(context)}`;
const REPLICATION_ROLE = `arn:aws:iam::${ACCOUNT}:role/${names.iamRole(context, 'replication')}`;
/** S3 replicates from AWS's own network: no VPC endpoint, an address no perimeter lists. */
const FROM_S3 = { 'aws:SourceIp': '192.0.2.10' };

function keyArnOf(snapshot: Snapshot, encryption: string): string {
  const rules = resource(snapshot, 'encryption', encryption).inputs['rules'] as {
    applyServerSideEncryptionByDefault: { kmsMasterKeyId: string };
  }[];
  return rules[0]!.applyServerSideEncryptionByDefault.kmsMasterKeyId;
}

describe('S3 Cross-Region Replication of a prod store', () => {
  let snapshot: Snapshot;
  let replication: AwsPrincipal;
  let writer: AwsPrincipal;
  let sourceKey: string;
  let replicaKey: string;
  const onObject = (bucket: string, policy: string, action: string): AwsRequest => ({
    action,
    resource: `${bucket}/run-1/step-100.pt`,
    context: FROM_S3,
    resourcePolicy: documentOf(resource(snapshot, 'bucketPolicy', policy)),
  });
  const onKey = (key: string, action: string, region: string | undefined): AwsRequest => ({
    action,
    resource: key,
    resourcePolicy: awsDefaultKeyPolicy('aws', ACCOUNT),
    context: region === undefined ? {} : { 'kms:ViaService': `s3.${region}.amazonaws.com` },
  });

  beforeAll(async () => {
    snapshot = await sharedRenderStack({ environment: 'prod', stores: [store] });
    const principal = (purpose: string, policy: string): AwsPrincipal => ({
      principal: { id: purpose, label: purpose, kind: 'store-identity' },
      arn: purpose === 'replication' ? REPLICATION_ROLE : `arn:aws:iam::${ACCOUNT}:role/${purpose}`,
      policies: [{ name: 'access', policy: documentOf(resource(snapshot, 'rolePolicy', policy)) }],
    });
    replication = principal('replication', 'llm-pretrain-replication-access');
    writer = principal('writer', 'llm-pretrain-writer-access');
    sourceKey = keyArnOf(snapshot, 'llm-pretrain-encryption');
    replicaKey = keyArnOf(snapshot, 'llm-pretrain-replica-encryption');
  });

  it('puts the replica bucket and its own key in the replica region, both protected and retained like the store', () => {
    const bucket = resource(snapshot, 'bucket', 'llm-pretrain-replica-bucket');
    const key = resource(snapshot, 'key', 'llm-pretrain-replica-key');
    expect([bucket.inputs['region'], bucket.protect, bucket.retainOnDelete]).toEqual([
      'us-west-2',
      true,
      true,
    ]);
    expect([key.inputs['region'], key.inputs['enableKeyRotation'], key.protect, key.retainOnDelete]).toEqual([
      'us-west-2',
      true,
      true,
      true,
    ]);
    expect(replicaKey).toMatch(/^arn:aws:kms:us-west-2:/);
    expect(replicaKey).not.toBe(sourceKey);
    expect(bucket.inputs['tags']).toEqual(resource(snapshot, 'bucket', 'llm-pretrain-bucket').inputs['tags']);
  });

  it('gives the replica every safety setting of the store, in its region, and the same lifecycle', () => {
    const replicaSetting = (type: keyof typeof TYPES, name: string) => resource(snapshot, type, name).inputs;
    expect(replicaSetting('ownership', 'llm-pretrain-replica-ownership')['rule']).toEqual({
      objectOwnership: 'BucketOwnerEnforced',
    });
    expect(
      replicaSetting('versioning', 'llm-pretrain-replica-versioning')['versioningConfiguration'],
    ).toEqual({
      status: 'Enabled',
    });
    const block = replicaSetting('publicAccessBlock', 'llm-pretrain-replica-public-access-block');
    expect([
      block['blockPublicAcls'],
      block['blockPublicPolicy'],
      block['ignorePublicAcls'],
      block['restrictPublicBuckets'],
    ]).toEqual([true, true, true, true]);
    expect(replicaSetting('lifecycle', 'llm-pretrain-replica-lifecycle')['rules']).toEqual(
      resource(snapshot, 'lifecycle', 'llm-pretrain-lifecycle').inputs['rules'],
    );
    for (const name of [
      'ownership',
      'versioning',
      'public-access-block',
      'encryption',
      'lifecycle',
      'policy',
    ]) {
      const setting = snapshot.resources.find((r) => r.name === `llm-pretrain-replica-${name}`);
      expect([name, setting?.inputs['region'], setting?.retainOnDelete]).toEqual([name, 'us-west-2', true]);
    }
  });

  it('lets S3 alone assume the replication role, and only for this store', async () => {
    const role = resource(snapshot, 'role', 'llm-pretrain-replication');
    const trust = documentOf(role, 'assumeRolePolicy');
    const assume = (principal: string, sourceArn: string) =>
      awsRequestAllowed(
        { principal: { id: principal, label: principal, kind: 'declared' }, arn: principal, policies: [] },
        {
          action: 'sts:AssumeRole',
          resource: REPLICATION_ROLE,
          resourcePolicy: trust,
          context: { 'aws:SourceAccount': ACCOUNT, 'aws:SourceArn': sourceArn },
        },
      );
    expect(await assume('s3.amazonaws.com', SOURCE)).toBeDefined();
    expect(await assume('s3.amazonaws.com', 'arn:aws:s3:::someone-elses-bucket')).toBeUndefined();
    expect(await assume(`arn:aws:iam::${ACCOUNT}:role/ml-training-jobs`, SOURCE)).toBeUndefined();
    expect(role.inputs['permissionsBoundary']).toBe(
      `arn:aws:iam::${ACCOUNT}:policy/${names.awsStoreRoleBoundary(context)}`,
    );
  });

  it.each<[string, (ctx: { source: string; replica: string }) => [string, string, string]]>([
    [
      'reads a new version of the store',
      () => ['source', 'llm-pretrain-policy', 's3:GetObjectVersionForReplication'],
    ],
    ['reads its tags', () => ['source', 'llm-pretrain-policy', 's3:GetObjectVersionTagging']],
    ['writes it into the replica', () => ['replica', 'llm-pretrain-replica-policy', 's3:ReplicateObject']],
    ['and its tags', () => ['replica', 'llm-pretrain-replica-policy', 's3:ReplicateTags']],
  ])('the replication role, from outside the perimeter as S3 is, %s', async (_title, what) => {
    const [bucket, policy, action] = what({ source: SOURCE, replica: REPLICA });
    expect(
      await awsRequestAllowed(replication, onObject(bucket === 'source' ? SOURCE : REPLICA, policy, action)),
    ).toBeDefined();
  });

  it('decrypts with the store key through S3 in its region, and encrypts with the replica key through S3 in the replica region', async () => {
    expect(await awsRequestAllowed(replication, onKey(sourceKey, 'kms:Decrypt', 'us-east-1'))).toBeDefined();
    expect(await awsRequestAllowed(replication, onKey(replicaKey, 'kms:Encrypt', 'us-west-2'))).toBeDefined();
  });

  it.each<[string, () => AwsRequest]>([
    [
      'read an object as a client would (GetObject)',
      () => onObject(SOURCE, 'llm-pretrain-policy', 's3:GetObject'),
    ],
    ['write the store', () => onObject(SOURCE, 'llm-pretrain-policy', 's3:PutObject')],
    [
      'delete a version of the replica',
      () => onObject(REPLICA, 'llm-pretrain-replica-policy', 's3:DeleteObjectVersion'),
    ],
    [
      'read another bucket for replication',
      () => ({
        action: 's3:GetObjectVersionForReplication',
        resource: 'arn:aws:s3:::other-bucket/x',
        context: FROM_S3,
      }),
    ],
    [
      'replicate into another bucket',
      () => ({ action: 's3:ReplicateObject', resource: 'arn:aws:s3:::other-bucket/x', context: FROM_S3 }),
    ],
    [
      'decrypt another key',
      () =>
        onKey(
          `arn:aws:kms:us-east-1:${ACCOUNT}:key/0000aaaa-0000-4000-a000-000000000001`,
          'kms:Decrypt',
          'us-east-1',
        ),
    ],
    ['decrypt the store key other than through S3', () => onKey(sourceKey, 'kms:Decrypt', undefined)],
    [
      'encrypt with the replica key through S3 of another region',
      () => onKey(replicaKey, 'kms:Encrypt', 'us-east-1'),
    ],
  ])('the replication role cannot %s', async (_title, request) => {
    expect(await awsRequestAllowed(replication, request())).toBeUndefined();
  });

  it.each([
    's3:PutObject',
    's3:DeleteObject',
    's3:DeleteObjectVersion',
    's3:ReplicateObject',
    's3:ReplicateDelete',
  ])('the writer cannot %s in the replica', async (action) => {
    const request = onObject(REPLICA, 'llm-pretrain-replica-policy', action);
    expect(await awsRequestAllowed(writer, { ...request, context: {} })).toBeUndefined();
  });

  it("counts the replica as a holder of the store's data: only the account's administrators reach its objects", async () => {
    const analysis = await analyzeAccess(snapshot);
    const onReplica = analysis.stores[0]!.grants.filter(
      (grant) =>
        grant.reason.startsWith('on the replica: ') && ['read', 'write', 'delete'].includes(grant.operation),
    );
    expect([...new Set(onReplica.map((grant) => grant.principal.label))]).toEqual(['account administrators']);
    expect(onReplica.map((grant) => grant.operation).sort()).toEqual(['delete', 'read', 'write']);
  });

  it('does not replicate delete markers, and replicates SSE-KMS objects under the replica key', () => {
    const config = snapshot.resources.find(
      (r) => r.type === 'aws:s3/bucketReplicationConfig:BucketReplicationConfig',
    );
    expect(config?.inputs).toEqual(
      expect.objectContaining({ bucket: names.s3Bucket(context), role: REPLICATION_ROLE }),
    );
    expect(config?.inputs['rules']).toEqual([
      expect.objectContaining({
        status: 'Enabled',
        deleteMarkerReplication: { status: 'Disabled' },
        destination: expect.objectContaining({
          bucket: REPLICA,
          encryptionConfiguration: { replicaKmsKeyId: replicaKey },
        }),
        sourceSelectionCriteria: { sseKmsEncryptedObjects: { status: 'Enabled' } },
      }),
    ]);
  });
});

describe('a replica of a store with S3-managed keys', () => {
  it('is encrypted by S3 as the store is, and the replication role gets no KMS right at all', async () => {
    const snapshot = await sharedRenderStack({
      environment: 'dev',
      stores: [{ ...store, encryption: 'provider-managed' }],
    });
    expect(snapshot.resources.filter((r) => r.type === TYPES.key)).toEqual([]);
    const rules = resource(snapshot, 'encryption', 'llm-pretrain-replica-encryption').inputs['rules'];
    expect(rules).toEqual([
      expect.objectContaining({ applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' } }),
    ]);
    const actions = documentOf(
      resource(snapshot, 'rolePolicy', 'llm-pretrain-replication-access'),
    ).Statement.flatMap((statement) => statement.Action);
    expect(actions.filter((action) => action.startsWith('kms:'))).toEqual([]);
  });
});

describe('adding a replica to an existing store', () => {
  it('creates the replica, its key and role and the replication, and replaces or deletes nothing', async () => {
    const { recovery: _, ...without } = store;
    const base = await sharedRenderStack({ environment: 'prod', stores: [without] });
    const next = await sharedRenderStack({ environment: 'prod', stores: [store] });
    const plan = planChanges(base, next);
    const changes = plan.stores[0]!.resources;
    expect(
      changes.filter(
        (change) => change.kind === 'replaced' || change.kind === 'deleted' || change.kind === 'released',
      ),
    ).toEqual([]);
    expect(plan.dataLoss).toEqual([]);
    expect(
      changes
        .filter((change) => change.kind === 'created')
        .map((change) => change.name)
        .sort(),
    ).toEqual(
      [
        'llm-pretrain-replica',
        'llm-pretrain-replica-bucket',
        'llm-pretrain-replica-encryption',
        'llm-pretrain-replica-key',
        'llm-pretrain-replica-key-alias',
        'llm-pretrain-replica-lifecycle',
        'llm-pretrain-replica-ownership',
        'llm-pretrain-replica-policy',
        'llm-pretrain-replica-public-access-block',
        // The replica takes the store's prod lock: S3 replicates a locked bucket into a locked one only.
        'llm-pretrain-replica-retention-lock',
        'llm-pretrain-replica-versioning',
        'llm-pretrain-replication',
        'llm-pretrain-replication',
        'llm-pretrain-replication-access',
      ].sort(),
    );
    // The store's bucket policy now exempts the replication role from the perimeter: an in-place update.
    expect(changes.find((change) => change.name === 'llm-pretrain-policy')?.kind).toBe('updated');
  });
});
