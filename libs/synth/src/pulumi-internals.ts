/**
 * Pulumi SDK functions the real runner uses but marks @internal (absent from the .d.ts files).
 * Typed here once, against @pulumi/pulumi 3.248; the render tests fail loudly if they move.
 */
interface RuntimeStore {
  supportsSecrets: boolean;
  supportsResourceReferences: boolean;
  supportsDeletedWith: boolean;
  supportsAliasSpecs: boolean;
}

/* eslint-disable @typescript-eslint/no-require-imports */
const state = require('@pulumi/pulumi/runtime/state') as {
  getStore(): RuntimeStore;
  withLocalStorage<T>(callback: () => T): T;
};
const settings = require('@pulumi/pulumi/runtime/settings') as {
  waitForRPCs(): Promise<void>;
};
/* eslint-enable @typescript-eslint/no-require-imports */

export const { getStore, withLocalStorage } = state;
export const { waitForRPCs } = settings;
