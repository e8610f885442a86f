import { violationsOf } from '../../../testing';
import { ciEnvironmentIsolation } from './ci-environment-isolation';
import { azureStore, CUSTOM, GROUP, withBootstrap } from '../../../testing/access';

describe('ci-environment-isolation', () => {
  const write = ['Microsoft.Storage/storageAccounts/write'];

  it("passes a deploy identity that changes its own environment's store", async () => {
    const bootstrap = withBootstrap([{ purpose: 'deploy-prod', role: CUSTOM, scope: GROUP('prod') }], write);
    try {
      expect(await violationsOf(ciEnvironmentIsolation, azureStore('prod'), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it("flags the dev deploy identity granted on prod's resource group", async () => {
    const bootstrap = withBootstrap([{ purpose: 'deploy-dev', role: CUSTOM, scope: GROUP('prod') }], write);
    try {
      expect(await violationsOf(ciEnvironmentIsolation, azureStore('prod'), {}, bootstrap.path)).toEqual([
        'store ckpt (prod): ci deploy-dev (environment dev) can configure a store of environment prod: Microsoft.Storage/storageAccounts/write from custom on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod (RoleAssignment deploy-dev-0)',
      ]);
    } finally {
      bootstrap.remove();
    }
  });
});
