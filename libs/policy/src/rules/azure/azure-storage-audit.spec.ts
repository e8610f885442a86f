import { violationsOf } from '../../../testing';
import { onPreview, urnOf } from '../../../testing/rules';
import { azureStorageAudit } from './azure-storage-audit';
import { ACCOUNT_ID, accountProps, VAULT_ID, vaultProps } from '../../../testing/azure';
import { T } from './support';

const WORKSPACE =
  '/subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-checkpoints-prod/providers/Microsoft.OperationalInsights/workspaces/audit';
const account = (tags: Record<string, string>) => ({
  type: T.storageAccount,
  name: 'llm-pretrain',
  props: accountProps({ tags }),
});
const vault = {
  type: T.vault,
  name: 'llm-pretrain',
  props: { ...vaultProps(), tags: { environment: 'prod' } },
};
const setting = (
  name: string,
  resourceUri: string,
  categories: string[],
  workspaceId: unknown = WORKSPACE,
) => ({
  type: T.diagnosticSetting,
  name,
  props: { resourceUri, workspaceId, logs: categories.map((category) => ({ category, enabled: true })) },
});
const BLOB = ['StorageRead', 'StorageWrite', 'StorageDelete'];

describe('azure-storage-audit', () => {
  it('passes a prod account and vault whose settings send every category to a workspace', async () => {
    expect(
      await violationsOf(azureStorageAudit, [
        account({ environment: 'prod' }),
        vault,
        setting('blob', `${ACCOUNT_ID}/blobServices/default`, BLOB),
        setting('vault', VAULT_ID, ['AuditEvent']),
      ]),
    ).toEqual([]);
  });

  it('passes on a preview, where the setting names the account through a dependency', async () => {
    const audited = account({ environment: 'prod' });
    const linked = {
      ...setting('blob', 'unknown', BLOB),
      propertyDependencies: { resourceUri: [urnOf(audited)] },
    };
    expect(await violationsOf(azureStorageAudit, onPreview([audited, linked]))).toEqual([]);
  });

  it("needs no audit of the bootstrap's write-once archive of the stores' logs, but of a prod store", async () => {
    const archive = {
      ...account({ environment: 'prod' }),
      name: 'audit-archive-prod',
      props: accountProps({
        accountName: 'ckptauditprod1ce99f',
        tags: { environment: 'prod' },
        immutableStorageWithVersioning: { enabled: true },
      }),
    };
    const found = await violationsOf(azureStorageAudit, [archive, account({ environment: 'prod' })]);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain("storage account 'prodllmpretrain4ba09a' is not audited");
  });

  it('needs no audit for an internal dev store', async () => {
    expect(
      await violationsOf(azureStorageAudit, [
        account({ environment: 'dev', 'data-classification': 'internal' }),
      ]),
    ).toEqual([]);
  });

  it('flags a confidential account without StorageRead, and a prod vault without any setting', async () => {
    expect(
      await violationsOf(azureStorageAudit, [
        account({ environment: 'dev', 'data-classification': 'confidential' }),
        vault,
        setting('blob', `${ACCOUNT_ID}/blobServices/default`, ['StorageWrite', 'StorageDelete']),
      ]),
    ).toEqual([
      "storage account 'prodllmpretrain4ba09a' is not audited: expected a diagnostic setting on it/blobServices/default sending StorageRead, StorageWrite, StorageDelete to a Log Analytics workspace (workspaceId)",
      "key vault 'prod-llm-pretrain-4ba09a' is not audited: expected a diagnostic setting on it sending AuditEvent to a Log Analytics workspace (workspaceId)",
    ]);
  });
});
