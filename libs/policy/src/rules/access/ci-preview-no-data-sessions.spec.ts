import { violationsOf } from '../../../testing';
import { ciPreviewNoDataSessions } from './ci-preview-no-data-sessions';
import { azureStore, CUSTOM, GROUP, withBootstrap, BUILT_IN } from '../../../testing/access';

describe('ci-preview-no-data-sessions', () => {
  it('passes a preview identity with Reader', async () => {
    const bootstrap = withBootstrap([{ purpose: 'preview', role: BUILT_IN.reader, scope: GROUP('prod') }]);
    try {
      expect(await violationsOf(ciPreviewNoDataSessions, azureStore('prod'), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it('flags a preview identity that can get a user delegation key (SAS for the data)', async () => {
    const bootstrap = withBootstrap(
      [{ purpose: 'preview', role: CUSTOM, scope: GROUP('prod') }],
      ['Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action'],
    );
    try {
      expect(await violationsOf(ciPreviewNoDataSessions, azureStore('prod'), {}, bootstrap.path)).toEqual([
        'store ckpt (prod): ci preview can open a data session: Microsoft.Storage/storageAccounts/blobServices/generateUserDelegationKey/action from custom on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod (RoleAssignment preview-0)',
      ]);
    } finally {
      bootstrap.remove();
    }
  });
});
