import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { awsS3ReplicaHardened } from './aws-s3-replica-hardened';
import { FIXTURE_KEY, STORE_URN, storeFixture } from '../../../testing/aws';

const REPLICA_URN = 'urn:pulumi:test::spec::checkpoints:aws:StoreReplica::ckpt-replica';
const REPLICA_BUCKET = 'ckpt-replica';
const REPLICA_KEY = 'arn:aws:kms:us-west-2:123456789012:key/99999999-2222-4333-8444-555555555555';

/** The store fixture (SSE-KMS, protected) with a compliant replica; `change` edits one replica child by name. */
function replicated(change: (child: ResourceUnderTest) => ResourceUnderTest | null = (child) => child) {
  const child = (type: string, name: string, props: Record<string, unknown>, protect = false) => ({
    type,
    name,
    props,
    protect,
    parent: REPLICA_URN,
  });
  const replica: ResourceUnderTest[] = [
    child('aws:kms/key:Key', 'ckpt-replica-key', { region: 'us-west-2' }, true),
    child(
      'aws:s3/bucket:Bucket',
      'ckpt-replica-bucket',
      { bucket: REPLICA_BUCKET, region: 'us-west-2' },
      true,
    ),
    child('aws:s3/bucketVersioning:BucketVersioning', 'ckpt-replica-versioning', {
      bucket: REPLICA_BUCKET,
      versioningConfiguration: { status: 'Enabled' },
    }),
    child('aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock', 'ckpt-replica-public-access-block', {
      bucket: REPLICA_BUCKET,
      blockPublicAcls: true,
      blockPublicPolicy: true,
      ignorePublicAcls: true,
      restrictPublicBuckets: true,
    }),
    child(
      'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
      'ckpt-replica-encryption',
      {
        bucket: REPLICA_BUCKET,
        rules: [
          { applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: REPLICA_KEY } },
        ],
      },
    ),
    child('aws:s3/bucketReplicationConfig:BucketReplicationConfig', 'ckpt-replication', {
      bucket: 'ckpt-bucket',
      rules: [{ status: 'Enabled', deleteMarkerReplication: { status: 'Disabled' } }],
    }),
  ];
  const store = storeFixture({ key: true }).map((resource) =>
    resource.name === 'ckpt-bucket' ? { ...resource, protect: true } : resource,
  );
  return [
    ...store,
    { type: 'checkpoints:aws:StoreReplica', name: 'ckpt-replica', props: {}, parent: STORE_URN },
    ...replica.flatMap((resource) => change(resource) ?? []),
  ];
}

describe('aws-s3-replica-hardened', () => {
  it('passes a versioned, private, protected replica with its own key that receives no delete markers', async () => {
    expect(await violationsOf(awsS3ReplicaHardened, replicated())).toEqual([]);
  });

  it('leaves a store without a replica alone', async () => {
    expect(await violationsOf(awsS3ReplicaHardened, storeFixture({ key: true }))).toEqual([]);
  });

  it("flags a replica encrypted with the store's own key and replicating delete markers", async () => {
    const weakened = replicated((child) => {
      if (child.name === 'ckpt-replica-encryption') {
        return {
          ...child,
          props: {
            ...child.props,
            rules: [
              {
                applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: FIXTURE_KEY },
              },
            ],
          },
        };
      }
      if (child.name === 'ckpt-replication') {
        return {
          ...child,
          props: {
            ...child.props,
            rules: [{ status: 'Enabled', deleteMarkerReplication: { status: 'Enabled' } }],
          },
        };
      }
      return child;
    });
    expect(await violationsOf(awsS3ReplicaHardened, weakened)).toEqual([
      'store ckpt: the replica bucket is not encrypted with a KMS key of its own (the store is SSE-KMS)',
      'store ckpt: replicates delete markers, so a deletion in the store would hide the copy in the replica too',
    ]);
  });

  it('flags an unversioned, unprotected replica without a public access block', async () => {
    const weakened = replicated((child) => {
      if (child.name === 'ckpt-replica-versioning' || child.name === 'ckpt-replica-public-access-block')
        return null;
      return child.name === 'ckpt-replica-bucket' ? { ...child, protect: false } : child;
    });
    expect(await violationsOf(awsS3ReplicaHardened, weakened)).toEqual([
      'store ckpt: the replica bucket is not versioned (S3 replicates only into a versioned bucket, and a copy without versions is overwritten)',
      'store ckpt: the replica bucket lacks a public access block with all four flags on',
      "store ckpt: the replica bucket is not protected, while the store's bucket is",
    ]);
  });
});
