import { violationsOf } from '../../testing';
import { ciNoDataAccess } from './ci-no-data-access';
import { azureStore, BUILT_IN, GROUP, withBootstrap } from './spec-helpers';

describe('ci-no-data-access', () => {
  it('passes a deploy identity that reads configuration only', async () => {
    const restore = withBootstrap([{ purpose: 'deploy-prod', role: BUILT_IN.reader, scope: GROUP('prod') }]);
    try {
      expect(await violationsOf(ciNoDataAccess, azureStore('prod'))).toEqual([]);
    } finally {
      restore();
    }
  });

  it('flags a deploy identity with a data role, naming the store, the operation and the grant', async () => {
    const restore = withBootstrap([
      { purpose: 'deploy-prod', role: BUILT_IN.blobDataReader, scope: GROUP('prod') },
    ]);
    try {
      expect(await violationsOf(ciNoDataAccess, azureStore('prod'))).toEqual([
        'store ckpt (prod): ci deploy-prod can read checkpoint data: Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read from Storage Blob Data Reader on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod (RoleAssignment deploy-prod-0)',
      ]);
    } finally {
      restore();
    }
  });

  it('is not checked without a bootstrap render (a preview sees only its own stack)', async () => {
    expect(await violationsOf(ciNoDataAccess, azureStore('prod'))).toEqual([]);
  });
});
