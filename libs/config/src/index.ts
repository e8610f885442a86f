export * from './spec';
export * from './issues';
export { loadStackSpec, formatPath, type CloudRules, type Report } from './load';
export { MAX_DAYS, type RawStore } from './schema';
export * from './clouds';
export type { StoreOutputs } from './outputs';
