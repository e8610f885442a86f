import type * as Cli from './cli';
import type * as RunCli from './run-cli';

export { render, RenderFailure, type RenderOptions } from './render';
export type { RenderedResource, Snapshot } from './snapshot';
export { SECRET_MARK, UNKNOWN_MARK } from './snapshot';
export { AWS_ACCOUNT_ID, AZURE_SUBSCRIPTION_ID, AZURE_TENANT_ID, GCP_PROJECT_NUMBER } from './mocks';
export { readProject, readStackConfig, stackConfigFile, StackFileError } from './stack-files';
export * from './query';
export { renderStackFile } from './stack-file-render';
export { EXIT } from './exit-status';
export type { InProcessRun, StackProgram } from './cli';
export type { RunPair, SynthRun } from './run-cli';
export { withProdNetwork } from './stores';
export { deepFreeze, sharedPerKey } from './shared-render';

/*
 * The CLI and its runners load on their first call: they bring the policy pack and the analyses, which a
 * test that only renders never uses (in a jest test file that loads the analyses anyway, as the stacks'
 * programs do, the CLI still costs about 85 ms of CPU).
 * Kept once loaded, as an import would be: a later `jest.resetModules()` (a runner's `reload`) must not
 * hand the next call a fresh copy with its own SDK.
 */
let cliModule: typeof Cli | undefined;
let runCliModule: typeof RunCli | undefined;
/* eslint-disable @typescript-eslint/no-require-imports */
const cli = (): typeof Cli => (cliModule ??= require('./cli') as typeof Cli);
const runCli = (): typeof RunCli => (runCliModule ??= require('./run-cli') as typeof RunCli);
/* eslint-enable @typescript-eslint/no-require-imports */

export const synthMain: typeof Cli.main = (...args) => cli().main(...args);
export const missingFromRefusal: typeof RunCli.missingFromRefusal = (...args) =>
  runCli().missingFromRefusal(...args);
export const removeSynthRuns: typeof RunCli.removeSynthRuns = () => runCli().removeSynthRuns();
export const runInProcessAndFresh: typeof RunCli.runInProcessAndFresh = (...args) =>
  runCli().runInProcessAndFresh(...args);
export const runSynth: typeof RunCli.runSynth = (...args) => runCli().runSynth(...args);
export const runSynthAgainst: typeof RunCli.runSynthAgainst = (...args) => runCli().runSynthAgainst(...args);
export const shippedStackConfig: typeof RunCli.shippedStackConfig = (...args) =>
  runCli().shippedStackConfig(...args);
export const withStoreChanged: typeof RunCli.withStoreChanged = (...args) =>
  runCli().withStoreChanged(...args);
export const runShippedChange: typeof RunCli.runShippedChange = (...args) =>
  runCli().runShippedChange(...args);
export const weakeningOfRun: typeof RunCli.weakeningOfRun = (...args) => runCli().weakeningOfRun(...args);
