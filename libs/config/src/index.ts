export * from './spec';
export * from './issues';
export { loadStackSpec, formatPath, type CloudRules, type Report } from './load';
export { MAX_DAYS, type RawStore } from './schema';
export * from './clouds';
export * from './facts/aws';
export * from './facts/gcp';
export * from './facts/azure';
export type { StoreOutputs } from './outputs';
