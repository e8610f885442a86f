export * from './spec';
export * from './issues';
export { loadStackSpec, formatPath, type CloudRules, type Report } from './load';
export { MAX_DAYS, type RawStore, type RawStack } from './schema';
export * from './clouds';
export type { StoreOutputs } from './outputs';
