export * from './spec';
export * from './issues';
export {
  loadStackSpec,
  formatPath,
  physicalNameIssues,
  type CloudRules,
  type CloudStackKey,
  type CloudStoreKey,
  type LoadOptions,
  type Report,
} from './load';
export { CI_RUNNER_KINDS, MAX_FORMER_NAMES, PRIVATE_DNS_MANAGED_BY_POLICY, type RawStore } from './schema';
export {
  AWS_BACKUP_VAULT_LOCK_MIN_DAYS,
  AZURE_VAULTED_BACKUP_DAYS,
  GCP_COPY_DAYS,
  MAX_DAYS,
  MAX_KEY_GENERATION,
} from './limits';
export * from './clouds';
export * from './facts/aws';
export * from './facts/gcp';
export * from './facts/azure';
export type { StoreOutputs } from './outputs';
export * from './quotas';
export * from './deployed';
export { buildStoresInTurns } from './turns';
export * from './writer-role';
