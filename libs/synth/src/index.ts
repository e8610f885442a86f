export { render, RenderFailure, type RenderOptions } from './render';
export type { RenderedResource, Snapshot } from './snapshot';
export { SECRET_MARK, UNKNOWN_MARK } from './snapshot';
export { AWS_ACCOUNT_ID, AZURE_SUBSCRIPTION_ID, AZURE_TENANT_ID, GCP_PROJECT_NUMBER } from './mocks';
export { readProject, readStackConfig, stackConfigFile, StackFileError } from './stack-files';
export * from './query';
export { renderStackFile } from './stack-file-render';
export { EXIT, main as synthMain, type InProcessRun, type StackProgram } from './cli';
export {
  missingFromRefusal,
  removeSynthRuns,
  runInProcessAndFresh,
  runSynth,
  runSynthAgainst,
  type RunPair,
  type SynthRun,
} from './run-cli';
export { withProdNetwork } from './stores';
