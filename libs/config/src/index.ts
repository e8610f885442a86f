export * from './spec';
export * from './issues';
export {
  loadStackSpec,
  formatPath,
  physicalNameIssues,
  type CloudRules,
  type LoadOptions,
  type Report,
} from './load';
export { MAX_DAYS, MAX_FORMER_NAMES, type RawStore } from './schema';
export * from './clouds';
export type { StoreOutputs } from './outputs';
