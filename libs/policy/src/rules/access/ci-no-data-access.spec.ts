import { violationsOf } from '../../../testing';
import { ciNoDataAccess } from './ci-no-data-access';
import { CI_NOT_JUDGED } from './analysis';
import { azureStore, BUILT_IN, GROUP, withBootstrap } from '../../../testing/access';

describe('ci-no-data-access', () => {
  it('passes a deploy identity that reads configuration only', async () => {
    const bootstrap = withBootstrap([
      { purpose: 'deploy-prod', role: BUILT_IN.reader, scope: GROUP('prod') },
    ]);
    try {
      expect(await violationsOf(ciNoDataAccess, azureStore('prod'), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it('flags a deploy identity with a data role, naming the store, the operation and the grant', async () => {
    const bootstrap = withBootstrap([
      { purpose: 'deploy-prod', role: BUILT_IN.blobDataReader, scope: GROUP('prod') },
    ]);
    try {
      expect(await violationsOf(ciNoDataAccess, azureStore('prod'), {}, bootstrap.path)).toEqual([
        'store ckpt (prod): ci deploy-prod can read checkpoint data: Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read from Storage Blob Data Reader on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod (RoleAssignment deploy-prod-0)',
      ]);
    } finally {
      bootstrap.remove();
    }
  });

  it('fails closed without a bootstrap render: it says CI identities were not judged', async () => {
    expect(await violationsOf(ciNoDataAccess, azureStore('prod'))).toEqual([CI_NOT_JUDGED]);
  });

  it('says nothing of CI for a render without stores', async () => {
    expect(await violationsOf(ciNoDataAccess, [])).toEqual([]);
  });
});
