import { AZURE_RESOURCE_PROVIDERS } from '@checkpoints/render';
import { violationsOf } from '../../../testing';
import { ciDeployRights } from './ci-deploy-rights';
import { azureStore, BUILT_IN, CUSTOM, GROUP, withBootstrap } from '../../../testing/access';

describe('ci-deploy-rights', () => {
  const deployActions = [
    'Microsoft.Storage/storageAccounts/write',
    'Microsoft.Storage/storageAccounts/read',
    'Microsoft.Storage/storageAccounts/delete',
    'Microsoft.Storage/storageAccounts/blobServices/containers/write',
    'Microsoft.Storage/storageAccounts/blobServices/containers/read',
  ];
  const grants = [
    { purpose: 'deploy-prod' as const, role: CUSTOM, scope: GROUP('prod') },
    { purpose: 'preview' as const, role: BUILT_IN.reader, scope: GROUP('prod') },
  ];

  it("passes when the deploy identity holds every right of the store's resources and preview reads them", async () => {
    const bootstrap = withBootstrap(grants, [
      ...deployActions,
      'Microsoft.Storage/storageAccounts/blobServices/containers/delete',
    ]);
    try {
      expect(await violationsOf(ciDeployRights, azureStore('prod'), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it('names the call whose resource provider the bootstrap does not register', async () => {
    const bootstrap = withBootstrap(
      grants,
      [...deployActions, 'Microsoft.Storage/storageAccounts/blobServices/containers/delete'],
      AZURE_RESOURCE_PROVIDERS.filter((namespace) => namespace !== 'Microsoft.Storage'),
    );
    try {
      const found = await violationsOf(ciDeployRights, azureStore('prod'), {}, bootstrap.path);
      expect(found.length).toBeGreaterThan(0);
      expect(found.every((message) => message.includes('does not register Microsoft.Storage'))).toBe(true);
    } finally {
      bootstrap.remove();
    }
  });

  it('names the resource, the permission and the identity of a missing right', async () => {
    const bootstrap = withBootstrap(grants, deployActions);
    try {
      expect(await violationsOf(ciDeployRights, azureStore('prod'), {}, bootstrap.path)).toEqual([
        'azure-native:storage:BlobContainer ckpt-container: ci deploy-prod lacks Microsoft.Storage/storageAccounts/blobServices/containers/delete on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod/providers/Microsoft.Storage/storageAccounts/ckptacct/blobServices/default/containers/checkpoints, which its delete needs',
      ]);
    } finally {
      bootstrap.remove();
    }
  });
});
