import { violationsOf } from '../../../testing';
import { ciProdNoDestroy } from './ci-prod-no-destroy';
import { azureStore, CUSTOM, GROUP, withBootstrap } from '../../../testing/access';

describe('ci-prod-no-destroy', () => {
  const deleteAccounts = ['Microsoft.Storage/storageAccounts/delete'];

  it('passes a dev deploy identity that may delete dev accounts', async () => {
    const bootstrap = withBootstrap(
      [{ purpose: 'deploy-dev', role: CUSTOM, scope: GROUP('dev') }],
      deleteAccounts,
    );
    try {
      expect(await violationsOf(ciProdNoDestroy, azureStore('dev'), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it('flags a prod deploy identity that may delete prod accounts', async () => {
    const bootstrap = withBootstrap(
      [{ purpose: 'deploy-prod', role: CUSTOM, scope: GROUP('prod') }],
      deleteAccounts,
    );
    try {
      expect(await violationsOf(ciProdNoDestroy, azureStore('prod'), {}, bootstrap.path)).toEqual([
        'store ckpt (prod): ci deploy-prod can delete a data-holding resource in prod: Microsoft.Storage/storageAccounts/delete from custom on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod (RoleAssignment deploy-prod-0)',
      ]);
    } finally {
      bootstrap.remove();
    }
  });
});
