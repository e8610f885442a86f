import type { RenderedResource } from '@checkpoints/render';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { stackRule } from '../define';
import { read, UNKNOWN } from '../inputs';
import { awsStoresOf } from './support';

const REPLICA_COMPONENT = COMPONENT_TYPES.awsStoreReplica;

/** The KMS key a bucket's default encryption names: undefined for SSE-S3, UNKNOWN on a preview before it exists. */
function keyOf(encryption: RenderedResource | undefined): unknown {
  return read(encryption?.inputs, 'rules', 0, 'applyServerSideEncryptionByDefault', 'kmsMasterKeyId');
}

/** What is wrong with a store's replica, by what its component's children render. */
function replicaProblems(
  replica: RenderedResource[],
  store: { bucket: RenderedResource; ownKeyArn: unknown },
): string[] {
  const ofType = (type: string) => replica.filter((resource) => resource.type === `aws:s3/${type}`);
  const bucket = ofType('bucket:Bucket')[0];
  if (bucket === undefined) return ['has no replica bucket'];
  const problems: string[] = [];
  if (
    read(ofType('bucketVersioning:BucketVersioning')[0]?.inputs, 'versioningConfiguration', 'status') !==
    'Enabled'
  ) {
    problems.push(
      'the replica bucket is not versioned (S3 replicates only into a versioned bucket, and a copy without versions is overwritten)',
    );
  }
  const block = ofType('bucketPublicAccessBlock:BucketPublicAccessBlock')[0]?.inputs ?? {};
  if (
    !['blockPublicAcls', 'blockPublicPolicy', 'ignorePublicAcls', 'restrictPublicBuckets'].every(
      (flag) => block[flag] === true,
    )
  ) {
    problems.push('the replica bucket lacks a public access block with all four flags on');
  }
  if (store.ownKeyArn !== undefined) {
    const keyArn = keyOf(
      ofType('bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration')[0],
    );
    const ownKey = replica.some((resource) => resource.type === 'aws:kms/key:Key');
    // On a preview the new key's ARN is not known yet: only the key resource can be judged then.
    if (!ownKey || (keyArn !== UNKNOWN && (typeof keyArn !== 'string' || keyArn === store.ownKeyArn))) {
      problems.push('the replica bucket is not encrypted with a KMS key of its own (the store is SSE-KMS)');
    }
  }
  if (store.bucket.protect && !bucket.protect) {
    problems.push("the replica bucket is not protected, while the store's bucket is");
  }
  const deleteMarkers = ofType('bucketReplicationConfig:BucketReplicationConfig').flatMap((config) => {
    const rules = config.inputs['rules'];
    return Array.isArray(rules)
      ? rules.map((rule) => read(rule as Record<string, unknown>, 'deleteMarkerReplication', 'status'))
      : [];
  });
  if (deleteMarkers.length === 0) problems.push('has no replication configuration');
  if (deleteMarkers.some((status) => status !== 'Disabled')) {
    problems.push(
      'replicates delete markers, so a deletion in the store would hide the copy in the replica too',
    );
  }
  return problems;
}

/**
 * A store's replica (`recovery.replicaRegion`) is a data holder like the store: versioned, private, encrypted with
 * its own key when the store has one, protected where the store is, and a deletion in the store does not reach it.
 */
export const awsS3ReplicaHardened = stackRule({
  name: 'aws-s3-replica-hardened',
  description:
    "A store's replica bucket is versioned, blocks public access, is encrypted with its own KMS key when the store is SSE-KMS, is protected where the store is, and receives no delete markers",
  source:
    'Amazon S3 User Guide: Replicating objects (versioning on both buckets), Replicating encrypted objects (replica KMS key), Replicating delete markers',
  validate: (_args, report, evaluation) => {
    for (const { store, bucket } of awsStoresOf(evaluation())) {
      const component = store.resources.find(
        (resource) => resource.type === REPLICA_COMPONENT && resource.parent === store.urn,
      );
      if (component === undefined) continue;
      const ownKeyArn = keyOf(
        store.resources.find(
          (resource) =>
            resource.parent === store.urn &&
            resource.type ===
              'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
        ),
      );
      const replica = store.resources.filter((resource) => resource.parent === component.urn);
      for (const problem of replicaProblems(replica, {
        bucket,
        ownKeyArn: typeof ownKeyArn === 'string' ? ownKeyArn : undefined,
      })) {
        report(`store ${store.name}: ${problem}`, component.urn);
      }
    }
  },
});
