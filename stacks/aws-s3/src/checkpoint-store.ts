import * as pulumi from '@pulumi/pulumi';
import {
  firstName,
  formerNameAliases,
  storeComponentInputs,
  type ReplacingSetting,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { names, type IdentityPurpose } from '@checkpoints/naming';
import { awsTags, standardTags } from '@checkpoints/tagging';
import type { AwsStoreTarget } from '@checkpoints/translate';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { createDirectoryBucket } from './directory-bucket';
import { createStoreKey, earlierKeyAliases } from './encryption';
import { createGeneralPurposeBucket } from './general-purpose-bucket';
import { createStoreRole } from './identities';
import { createMalwareScan } from './malware-scan';
import { createIndependentCopy } from './independent-copy';
import { perimeterOf } from './perimeter';
import { StoreReplica } from './replica';
import type { BucketPolicyInputs, StoreScope } from './scope';

export interface CheckpointStoreArgs {
  store: StoreSpec;
  stack: Pick<StackSpec, 'environment' | 'owner' | 'costCenter'>;
  region: string;
  project: string;
  stackName: string;
  /** Trusted by a role whose store lists no principals for it (see awsTrustPolicy). */
  accountRootArn: pulumi.Input<string>;
  /**
   * The permissions boundary of every role of the stack: the customer managed policy
   * `names.awsStoreRoleBoundary` of this project and stack, which the bootstrap project creates.
   */
  roleBoundaryArn: pulumi.Input<string>;
  /** The CI roles' exact ARNs (awsCiRoleArns), which refresh buckets from outside any perimeter. */
  ciRoleArns: pulumi.Output<string[]>;
}

/** One checkpoint store on S3: its bucket, its key when customer-managed, and its writer and reader roles. */
export class CheckpointStore extends pulumi.ComponentResource {
  readonly storeName: string;
  /** The store's bucket, which the stack trail records and whose requests it logs. */
  readonly bucketArn: pulumi.Output<string>;
  readonly bucketName: pulumi.Output<string>;
  /** The store's replica (recovery.replicaRegion), recorded and logged like the store's bucket. */
  readonly replica: StoreReplica | undefined;
  readonly outputs: StoreOutputs<pulumi.Output<string>>;

  constructor(name: string, args: CheckpointStoreArgs, opts?: pulumi.ComponentResourceOptions) {
    // The component's inputs carry what libs/analysis judges the rendered resources against: the spec's
    // retention (the retention-promises rule), location and workload (the storage and cost projection),
    // and the settings a previous render is compared with (replacementIssues).
    // Children are named after the store, so they inherit the aliases with the former name in place of
    // the new one: a rename keeps every URN.
    // `audit` and `publicNetwork`: the audit and perimeter rules (libs/policy rules/aws) judge the store by them.
    const inputs = {
      ...storeComponentInputs(args.store, args.region),
      audit: args.store.audit,
      publicNetwork: args.store.network === undefined || args.store.network.public,
    };
    super(COMPONENT_TYPES.store.aws, name, inputs, {
      ...opts,
      aliases: [...(opts?.aliases ?? []), ...formerNameAliases(args.store)],
    });
    const { store, region } = args;
    const scope: StoreScope = {
      store,
      nameContext: { project: args.project, stack: args.stackName, store: firstName(store) },
      tags: awsTags(
        standardTags({
          owner: args.stack.owner,
          costCenter: args.stack.costCenter,
          environment: args.stack.environment,
          dataClassification: store.dataClassification,
          project: args.project,
          stack: args.stackName,
          store: store.name,
        }),
      ),
      parent: this,
    };
    const key = store.encryption === 'customer-managed' ? createStoreKey(scope) : undefined;
    const { replicaRegion, independentCopy } = store.recovery;
    // S3 reads the store's objects and writes the replica's as this role, from its own network: both
    // perimeters exempt it by ARN, which its derived name gives before the role exists. GuardDuty scans and
    // AWS Backup reads the store as their own roles, from their own networks, likewise.
    const roleArn = (purpose: IdentityPurpose | 'replication' | 'malware-scan' | 'backup') =>
      pulumi
        .output(args.accountRootArn)
        .apply((root) => root.replace(/:root$/, `:role/${names.iamRole(scope.nameContext, purpose)}`));
    const replicationRoleArn =
      store.tier === 'standard' && replicaRegion !== undefined ? roleArn('replication') : undefined;
    // Threat detection is a prod setting, on the buckets GuardDuty supports (general purpose ones).
    const malwareScanRoleArn =
      store.tier === 'standard' && args.stack.environment === 'prod' ? roleArn('malware-scan') : undefined;
    const backupRoleArn =
      store.tier === 'standard' && independentCopy !== undefined ? roleArn('backup') : undefined;
    const perimeter = perimeterOf(store, args.ciRoleArns, [
      ...(replicationRoleArn ? [replicationRoleArn] : []),
      ...(malwareScanRoleArn ? [malwareScanRoleArn] : []),
      ...(backupRoleArn ? [backupRoleArn] : []),
    ]);
    // Known by their derived names before the roles exist, as the replication role's is.
    const storeRoleArns = pulumi.all([roleArn('writer'), roleArn('reader')]);
    const policyInputs: BucketPolicyInputs = {
      keyArn: key ? key.arn : pulumi.output(undefined),
      perimeter,
      storeRoleArns,
    };
    const bucket =
      store.tier === 'high-throughput'
        ? createDirectoryBucket(scope, key, policyInputs)
        : createGeneralPurposeBucket(scope, key, policyInputs);
    const target = pulumi.all([bucket.arn, key?.arn]).apply(([bucketArn, keyArn]): AwsStoreTarget => ({
      tier: store.tier,
      bucketArn,
      keyArn,
      earlierKeyAliases: earlierKeyAliases(scope),
      region,
    }));
    let replica: StoreReplica | undefined;
    if (replicaRegion !== undefined && replicationRoleArn !== undefined) {
      replica = new StoreReplica(
        `${store.name}-replica`,
        {
          scope,
          replicaRegion,
          sourceRegion: region,
          source: bucket,
          sourceKey: key,
          accountId: pulumi.output(args.accountRootArn).apply((root) => root.split(':')[4] ?? ''),
          roleBoundaryArn: args.roleBoundaryArn,
          perimeter,
          storeRoleArns,
        },
        { parent: this },
      );
    }
    if (malwareScanRoleArn !== undefined) {
      createMalwareScan(scope, {
        bucket,
        keyArn: policyInputs.keyArn,
        region,
        accountRootArn: args.accountRootArn,
        roleBoundaryArn: args.roleBoundaryArn,
      });
    }
    if (independentCopy !== undefined && backupRoleArn !== undefined) {
      const root = pulumi.output(args.accountRootArn);
      createIndependentCopy({
        scope,
        bucket,
        key,
        region,
        partition: root.apply((arn) => arn.split(':')[1] ?? 'aws'),
        accountId: root.apply((arn) => arn.split(':')[4] ?? ''),
        roleBoundaryArn: args.roleBoundaryArn,
        retentionDays: independentCopy.retentionDays,
      });
    }
    const roleArgs = { accountRootArn: args.accountRootArn, boundaryArn: args.roleBoundaryArn };
    const writer = createStoreRole(scope, 'writer', target, roleArgs);
    const reader = createStoreRole(scope, 'reader', target, roleArgs);

    const uri = pulumi.interpolate`s3://${bucket.name}/`;
    const location = pulumi.output(region);
    this.storeName = store.name;
    this.bucketArn = bucket.arn;
    this.bucketName = bucket.name;
    this.replica = replica;
    this.outputs = {
      uri,
      location,
      writerIdentity: writer.arn,
      readerIdentity: reader.arn,
      env: {
        CHECKPOINT_URI: uri,
        AWS_REGION: location,
        // boto3 and older AWS CLI versions read this name rather than AWS_REGION.
        AWS_DEFAULT_REGION: location,
        CHECKPOINT_ROLE_ARN: writer.arn,
      },
    };
    this.registerOutputs({ ...this.outputs });
  }
}

/** Settings a bucket cannot change in place, per the change rules of libs/analysis/src/changes/aws.ts. */
export const STORE_REPLACING_SETTINGS: readonly ReplacingSetting[] = [
  {
    key: 'tier',
    consequence:
      'a general purpose bucket and a directory bucket are different resources, so the store would point at a new, empty bucket',
  },
  {
    key: 'zone',
    consequence:
      "a directory bucket's availability zone is part of its name and location, so the bucket would be replaced by a new, empty one",
  },
  {
    key: 'encryption',
    consequence:
      'the KMS key would be released and the writer and reader roles would lose kms:Decrypt on it, so the checkpoints already written with it could no longer be read through the store',
    refuses: (before, after) => before === 'customer-managed' && after !== 'customer-managed',
  },
];
