import type * as pulumi from '@pulumi/pulumi';
import { Vault } from '@pulumi/aws/backup/vault';
import { VaultLockConfiguration } from '@pulumi/aws/backup/vaultLockConfiguration';
import { AWS_BACKUP_VAULT_LOCK_MIN_DAYS, type Environment } from '@checkpoints/config';
import { names } from '@checkpoints/naming';
import { awsTags, type Tags } from '@checkpoints/tagging';
import { STACK_PROJECTS } from '../names';

/**
 * Days during which a compliance-mode vault lock can still be removed or changed: "AWS Backup enforces a 72-hour
 * cooling-off period before Vault Lock takes effect and becomes immutable. Therefore, you must set
 * ChangeableForDays to 3 or greater. Before the lock date, you can delete Vault Lock ... or change the Vault Lock
 * configuration using PutBackupVaultLockConfiguration"
 * (https://docs.aws.amazon.com/aws-backup/latest/devguide/API_PutBackupVaultLockConfiguration.html). After it, "If
 * any user (including the root user) attempts to delete a backup or change the lifecycle properties in a locked
 * vault, AWS Backup will deny the operation" (https://docs.aws.amazon.com/aws-backup/latest/devguide/vault-lock.html).
 * Before it, only an identity allowed backup:DeleteBackupVaultLockConfiguration or
 * backup:PutBackupVaultLockConfiguration can change it, which no CI role is (policies.ts).
 */
export const VAULT_LOCK_COOLING_OFF_DAYS = 3;

/** The backup vault of one environment's AWS stack, named as the stack's backup plans name it. */
export function backupVaultName(environment: Environment): string {
  return names.awsBackupVault({ project: STACK_PROJECTS.aws, stack: environment });
}

/**
 * The vault that holds the independent copies of one environment's stores (`recovery.independentCopy`), with its
 * vault lock in compliance mode (a lock with `changeableForDays` is in compliance mode, @pulumi/aws
 * VaultLockConfiguration) and a minimum retention of AWS_BACKUP_VAULT_LOCK_MIN_DAYS: a locked vault refuses to
 * delete a recovery point before its retention ends and to shorten it ("preventing attempts to delete any recovery
 * point ... Vault Lock also prevents attempts to update the lifecycle policy",
 * https://docs.aws.amazon.com/aws-backup/latest/devguide/API_PutBackupVaultLockConfiguration.html).
 *
 * It lives here, in the admin-run bootstrap, and not in the stack: creating a lock takes
 * backup:PutBackupVaultLockConfiguration, with which CI could re-put a shorter lock during the cooling-off or keep
 * restarting it; the stack only names the vault in its backup plans. In the stack's region (`region`): AWS Backup
 * copies a bucket into a vault of its own region. AWS Backup's default key encrypts it.
 */
export function createBackupVault(
  environment: Environment,
  region: string,
  tags: Tags,
  parent: pulumi.Resource,
): Vault {
  const vault = new Vault(
    `backup-vault-${environment}`,
    { name: backupVaultName(environment), region, tags: awsTags(tags) },
    { parent, protect: true, retainOnDelete: true },
  );
  new VaultLockConfiguration(
    `backup-vault-lock-${environment}`,
    {
      backupVaultName: vault.name,
      region,
      changeableForDays: VAULT_LOCK_COOLING_OFF_DAYS,
      minRetentionDays: AWS_BACKUP_VAULT_LOCK_MIN_DAYS,
    },
    { parent, protect: true, retainOnDelete: true },
  );
  return vault;
}
