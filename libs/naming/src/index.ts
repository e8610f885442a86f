export { stableHash } from './hash';
export { auditArchive, azureBackup, names } from './names';
export type { IdentityPurpose, NameContext, NameKind, StackNameContext } from './names';
export { nameRules } from './rules';
