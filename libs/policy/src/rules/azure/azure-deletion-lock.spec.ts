import { violationsOf } from '../../../testing';
import { onPreview, urnOf } from '../../../testing/rules';
import { azureDeletionLock } from './azure-deletion-lock';
import { ACCOUNT_ID, accountProps, vaultProps } from '../../../testing/azure';
import { T } from './support';

const account = { type: T.storageAccount, name: 'llm-pretrain', props: accountProps(), protect: true };
const vault = { type: T.vault, name: 'llm-pretrain', props: vaultProps(), protect: true };
const lock = (name: string, scope: string, level = 'CanNotDelete') => ({
  type: T.lock,
  name,
  props: { scope, level, lockName: 'checkpoints-do-not-delete' },
});

describe('azure-deletion-lock', () => {
  it('passes protected accounts and vaults with a CanNotDelete lock, by ID or by dependency', async () => {
    const vaultLock = { ...lock('vault-lock', 'unknown'), propertyDependencies: { scope: [urnOf(vault)] } };
    expect(
      await violationsOf(azureDeletionLock, onPreview([account, vault, lock('lock', ACCOUNT_ID), vaultLock])),
    ).toEqual([]);
  });

  it('needs no lock on an unprotected store', async () => {
    expect(await violationsOf(azureDeletionLock, [{ ...account, protect: false }])).toEqual([]);
  });

  it('flags a protected account with a ReadOnly lock only, and a protected vault with none', async () => {
    expect(
      await violationsOf(azureDeletionLock, [account, vault, lock('lock', ACCOUNT_ID, 'ReadOnly')]),
    ).toEqual([
      "StorageAccount 'llm-pretrain' is protected but has no CanNotDelete lock; expected a ManagementLockByScope with level CanNotDelete on it",
      "Vault 'llm-pretrain' is protected but has no CanNotDelete lock; expected a ManagementLockByScope with level CanNotDelete on it",
    ]);
  });
});
