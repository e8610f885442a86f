/**
 * A store's independent copy on AWS (`recovery.independentCopy`), as the renders declare it: the stack's backup
 * plan and selection of the store's bucket, and the bootstrap's locked vault the plan backs up into. What it
 * keeps, and against whom, is what ../access/configuration-writes asks of each principal.
 */
import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import { list, numberOr, record } from './values';

/**
 * Whoever holds one of these can lift the copy: delete or shorten a recovery point, delete the vault, change its
 * lock (before the lock's cooling-off ends, when it still can be: https://docs.aws.amazon.com/aws-backup/latest/devguide/API_PutBackupVaultLockConfiguration.html)
 * or its access policy (list_awsbackup.html of the Service Authorization Reference). Asked on the vault or on its
 * recovery points, as each action's resource type is.
 */
export const AWS_COPY_LIFTS: readonly { action: string; on: 'vault' | 'recovery-point' }[] = [
  { action: 'backup:DeleteRecoveryPoint', on: 'recovery-point' },
  { action: 'backup:UpdateRecoveryPointLifecycle', on: 'recovery-point' },
  { action: 'backup:DisassociateRecoveryPoint', on: 'recovery-point' },
  { action: 'backup:DeleteBackupVault', on: 'vault' },
  { action: 'backup:DeleteBackupVaultLockConfiguration', on: 'vault' },
  { action: 'backup:PutBackupVaultLockConfiguration', on: 'vault' },
  { action: 'backup:PutBackupVaultAccessPolicy', on: 'vault' },
  { action: 'backup:DeleteBackupVaultAccessPolicy', on: 'vault' },
];

/**
 * Rewriting or deleting the store's backup plan or selection: a compliance-mode vault lock refuses a recovery point
 * shorter than its minimum ("the vault fails that backup or copy job", API_PutBackupVaultLockConfiguration.html) and
 * forbids shortening one it holds, so against a principal that may do either the copy is counted for the lock's
 * minimum only (what becomes of a continuous recovery point once its plan changes is not stated: fail closed).
 */
export const AWS_COPY_SHORTEN = [
  'backup:UpdateBackupPlan',
  'backup:DeleteBackupPlan',
  'backup:DeleteBackupSelection',
];

export interface AwsIndependentCopy {
  vault: string;
  /** The plan's retention of a recovery point (`lifecycle.deleteAfter`). */
  retentionDays: number;
  continuous: boolean;
  /** The vault lock's minimum retention, when a lock in compliance mode is rendered for the vault. */
  lockMinDays?: number;
  /** Why the copy holds nothing, whoever asks (fail closed), if it does not. */
  broken?: string;
}

/**
 * The copy of the store whose resources are `storeResources` (the backup plan and the selection naming its bucket),
 * with the vault lock from `lockResources` (the bootstrap's render, where the vault lives). Undefined: the store
 * has no backup selection.
 */
export function awsIndependentCopyOf(
  storeResources: readonly RenderedResource[],
  bucket: { arn: string; region: string | undefined },
  lockResources: readonly RenderedResource[],
): AwsIndependentCopy | undefined {
  const bucketArn = bucket.arn;
  const selection = resourcesOfType(storeResources, 'aws:backup/selection:Selection').find((each) =>
    list(each.inputs['resources']).includes(bucketArn),
  );
  if (selection === undefined) return undefined;
  const plan = resourcesOfType(storeResources, 'aws:backup/plan:Plan')[0];
  const rule = record(list(plan?.inputs['rules'])[0]);
  const vault = typeof rule['targetVaultName'] === 'string' ? rule['targetVaultName'] : '';
  const retentionDays = numberOr(record(rule['lifecycle'])['deleteAfter'], 0);
  const continuous = rule['enableContinuousBackup'] === true;
  const lock = resourcesOfType(
    lockResources,
    'aws:backup/vaultLockConfiguration:VaultLockConfiguration',
  ).find((each) => each.inputs['backupVaultName'] === vault);
  const copy: AwsIndependentCopy = { vault, retentionDays, continuous };
  // A lock without changeableForDays is in governance mode, which anyone with the right removes at any time.
  const compliance = lock !== undefined && typeof lock.inputs['changeableForDays'] === 'number';
  const lockMinDays = compliance ? numberOr(lock.inputs['minRetentionDays'], 0) : undefined;
  if (lockMinDays !== undefined) copy.lockMinDays = lockMinDays;
  // AWS Backup backs a bucket up into a vault of the bucket's own region.
  const vaultRegion = resourcesOfType(lockResources, 'aws:backup/vault:Vault').find(
    (each) => each.inputs['name'] === vault,
  )?.inputs['region'];
  if (plan === undefined || vault === '') copy.broken = 'no backup plan names a vault for the selection';
  else if (typeof vaultRegion === 'string' && bucket.region !== undefined && vaultRegion !== bucket.region) {
    copy.broken = `vault ${vault} is in ${vaultRegion}, the store in ${bucket.region}: AWS Backup copies into a vault of the store's region only`;
  } else if (!continuous) copy.broken = 'the backup plan takes no continuous backup';
  else if (lockMinDays === undefined) {
    copy.broken = `no vault lock in compliance mode is rendered for vault ${vault} (the bootstrap's): the copy is counted as holding nothing`;
  } else if (retentionDays < lockMinDays) {
    copy.broken = `the plan keeps recovery points ${retentionDays} days, less than the vault lock's minimum of ${lockMinDays}: AWS Backup fails every backup`;
  }
  return copy;
}
