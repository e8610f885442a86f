import * as pulumi from '@pulumi/pulumi';
import { Plan } from '@pulumi/aws/backup/plan';
import { Selection } from '@pulumi/aws/backup/selection';
import { Role } from '@pulumi/aws/iam/role';
import { RolePolicy } from '@pulumi/aws/iam/rolePolicy';
import type { Key } from '@pulumi/aws/kms/key';
import { names } from '@checkpoints/naming';
import { awsBackupPolicy, awsBackupTrustPolicy } from '@checkpoints/translate';
import type { StoreBucket, StoreScope } from './scope';

export interface IndependentCopyArgs {
  scope: StoreScope;
  bucket: StoreBucket;
  key: Key | undefined;
  region: string;
  partition: pulumi.Input<string>;
  accountId: pulumi.Input<string>;
  roleBoundaryArn: pulumi.Input<string>;
  retentionDays: number;
}

/**
 * `recovery.independentCopy`: AWS Backup continuous backup of the store's bucket into the environment's backup
 * vault. Continuous backup restores a bucket to any point in time of the last `retentionDays` (at most 35,
 * https://docs.aws.amazon.com/aws-backup/latest/devguide/s3-backups.html), so a checkpoint deleted in the store, by
 * a job, a lifecycle rule or a rewritten lifecycle configuration, is still in the copy that long. It needs S3
 * Versioning on the bucket (same page, "Backups and versioning"), which every general purpose store has.
 *
 * The vault and its lock (compliance mode) are not the stack's: the admin-run bootstrap creates them, so that no CI
 * identity ever holds a right on the lock (bootstrap/src/aws/backup-vault.ts); the plan names the vault by its
 * derived name. The role AWS Backup assumes trusts the service alone (libs/translate awsBackupTrustPolicy) and
 * carries the stack's permissions boundary.
 */
export function createIndependentCopy(args: IndependentCopyArgs): Role {
  const { scope, retentionDays } = args;
  const { store, parent, tags } = scope;
  const role = new Role(
    `${store.name}-backup`,
    {
      name: names.iamRole(scope.nameContext, 'backup'),
      description: `AWS Backup copies the checkpoints of store ${store.name} (${scope.nameContext.project}/${scope.nameContext.stack}) into the stack's backup vault`,
      assumeRolePolicy: pulumi
        .output(args.accountId)
        .apply((accountId) => JSON.stringify(awsBackupTrustPolicy(accountId))),
      permissionsBoundary: args.roleBoundaryArn,
      tags,
    },
    // No deploy may delete it (bootstrap KeepBackupRolesAwsBackupOnly): one re-created under its exempt name
    // with another trust would read the store from anywhere. Released, not deleted, when the copy goes.
    { parent, retainOnDelete: true },
  );
  new RolePolicy(
    `${store.name}-backup-access`,
    {
      name: 'checkpoint-store-backup',
      role: role.name,
      policy: pulumi
        .all([args.partition, args.accountId, args.bucket.arn, args.key?.arn])
        .apply(([partition, accountId, bucketArn, keyArn]) =>
          JSON.stringify(
            awsBackupPolicy({
              partition,
              accountId,
              region: args.region,
              bucketArn,
              ...(keyArn === undefined ? {} : { keyArn }),
            }),
          ),
        ),
    },
    { parent },
  );
  const plan = new Plan(
    `${store.name}-backup-plan`,
    {
      name: names.iamRole(scope.nameContext, 'backup'),
      rules: [
        {
          ruleName: 'continuous',
          targetVaultName: names.awsBackupVault({
            project: scope.nameContext.project,
            stack: scope.nameContext.stack,
          }),
          enableContinuousBackup: true,
          // The first full backup starts on this schedule; continuous backup then follows every change.
          schedule: 'cron(0 3 * * ? *)',
          lifecycle: { deleteAfter: retentionDays },
        },
      ],
      tags,
    },
    { parent },
  );
  new Selection(
    `${store.name}-backup-selection`,
    {
      name: 'checkpoint-store',
      planId: plan.id,
      iamRoleArn: role.arn,
      resources: [args.bucket.arn],
    },
    { parent, dependsOn: args.bucket.versioning ? [args.bucket.versioning, role] : [role] },
  );
  return role;
}
