import * as pulumi from '@pulumi/pulumi';
import { Role } from '@pulumi/aws/iam/role';
import { RolePolicy } from '@pulumi/aws/iam/rolePolicy';
import { BucketReplicationConfig } from '@pulumi/aws/s3/bucketReplicationConfig';
import type { Key } from '@pulumi/aws/kms/key';
import { names } from '@checkpoints/naming';
import { awsReplicationPolicy, awsReplicationTrustPolicy } from '@checkpoints/translate';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { createStoreKey } from './encryption';
import { createGeneralPurposeBucket } from './general-purpose-bucket';
import type { BucketPolicyInputs, StoreBucket, StoreScope } from './scope';

export interface StoreReplicaArgs {
  scope: StoreScope;
  replicaRegion: string;
  sourceRegion: string;
  source: StoreBucket;
  sourceKey: Key | undefined;
  accountId: pulumi.Input<string>;
  roleBoundaryArn: pulumi.Input<string>;
  /** The replica bucket's perimeter: the store's own, with the replication role exempt as S3 acts as it. */
  perimeter: BucketPolicyInputs['perimeter'];
  storeRoleArns: BucketPolicyInputs['storeRoleArns'];
}

/**
 * S3 Cross-Region Replication of a standard store (`recovery.replicaRegion`): a replica bucket in the second
 * region built like the store's (public access block, owner-enforced ownership, versioning, TLS-only policy
 * with the store's perimeter, the same lifecycle), encrypted with its own key there, and the role S3 assumes
 * to copy every new object version into it. Delete markers are not replicated: a deletion in the store,
 * deliberate or by mistake, leaves the replica's copy current (docs/aws.md "Recovery").
 */
export class StoreReplica extends pulumi.ComponentResource {
  readonly bucketArn: pulumi.Output<string>;
  /** The replica bucket's name and region: the stack trail records it and it logs its requests there. */
  readonly bucketName: pulumi.Output<string>;
  readonly region: string;

  constructor(name: string, args: StoreReplicaArgs, opts?: pulumi.ComponentResourceOptions) {
    super(COMPONENT_TYPES.awsStoreReplica, name, { replicaRegion: args.replicaRegion }, opts);
    const { replicaRegion } = args;
    const scope: StoreScope = { ...args.scope, parent: this };
    const { store } = scope;
    const key = args.sourceKey === undefined ? undefined : createStoreKey(scope, replicaRegion);
    const bucket = createGeneralPurposeBucket(
      scope,
      key,
      {
        keyArn: key ? key.arn : pulumi.output(undefined),
        perimeter: args.perimeter,
        storeRoleArns: args.storeRoleArns,
      },
      {
        logicalPrefix: `${store.name}-replica`,
        bucketName: names.s3ReplicaBucket(scope.nameContext),
        region: replicaRegion,
      },
    );
    const role = new Role(
      `${store.name}-replication`,
      {
        name: names.iamRole(scope.nameContext, 'replication'),
        description: `S3 replicates the checkpoints of store ${store.name} (${scope.nameContext.project}/${scope.nameContext.stack}) into its replica in ${replicaRegion}`,
        assumeRolePolicy: pulumi
          .all([args.source.arn, args.accountId])
          .apply(([sourceBucketArn, accountId]) =>
            JSON.stringify(awsReplicationTrustPolicy(sourceBucketArn, accountId)),
          ),
        permissionsBoundary: args.roleBoundaryArn,
        tags: scope.tags,
      },
      // The bootstrap denies CI deleting a replication role (it could re-create it under the name the
      // perimeter exempts, with another trust): when the replica goes, the stack releases the role instead.
      { parent: this, retainOnDelete: true },
    );
    const rolePolicy = new RolePolicy(
      `${store.name}-replication-access`,
      {
        name: 'checkpoint-store-replication',
        role: role.name,
        policy: pulumi
          .all([args.source.arn, args.sourceKey?.arn, bucket.arn, key?.arn])
          .apply(([sourceBucketArn, sourceKeyArn, replicaBucketArn, replicaKeyArn]) =>
            JSON.stringify(
              awsReplicationPolicy({
                sourceBucketArn,
                sourceRegion: args.sourceRegion,
                replicaBucketArn,
                replicaRegion,
                ...(sourceKeyArn === undefined ? {} : { sourceKeyArn }),
                ...(replicaKeyArn === undefined ? {} : { replicaKeyArn }),
              }),
            ),
          ),
      },
      { parent: this },
    );
    // Not retained: releasing it (recovery.replicaRegion removed) stops replication; the replica keeps its copies.
    new BucketReplicationConfig(
      `${store.name}-replication`,
      {
        bucket: args.source.name,
        role: role.arn,
        rules: [
          {
            id: 'replicate-every-checkpoint',
            status: 'Enabled',
            // An empty filter selects every object and is what the current (V2) configuration schema needs
            // for deleteMarkerReplication: https://docs.aws.amazon.com/AmazonS3/latest/userguide/replication-add-config.html
            filter: {},
            deleteMarkerReplication: { status: 'Disabled' },
            destination: {
              bucket: bucket.arn,
              storageClass: 'STANDARD',
              ...(key ? { encryptionConfiguration: { replicaKmsKeyId: key.arn } } : {}),
            },
            ...(key ? { sourceSelectionCriteria: { sseKmsEncryptedObjects: { status: 'Enabled' } } } : {}),
          },
        ],
      },
      {
        parent: this,
        // S3 refuses a replication configuration before both buckets are versioned and the role may act.
        dependsOn: [
          ...(args.source.versioning ? [args.source.versioning] : []),
          ...(bucket.versioning ? [bucket.versioning] : []),
          rolePolicy,
        ],
      },
    );
    this.bucketArn = bucket.arn;
    this.bucketName = bucket.name;
    this.region = replicaRegion;
    this.registerOutputs({ bucketArn: bucket.arn });
  }
}
