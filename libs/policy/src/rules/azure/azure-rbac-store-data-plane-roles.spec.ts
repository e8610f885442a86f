import { checkpointWriterRoleGuid } from '@checkpoints/config';
import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { azureRbacStoreDataPlaneRoles } from './azure-rbac-store-data-plane-roles';
import {
  account,
  ACCOUNT_ID,
  assignment,
  FILESYSTEM_ID,
  GROUP,
  KEY_ID,
  roleDefinitionId,
  SUBSCRIPTION,
} from '../../../testing/azure';
import { ROLES, T } from './support';

const filesystem: ResourceUnderTest = { type: T.blobContainer, name: 'llm-pretrain', props: {} };
const key: ResourceUnderTest = { type: 'azure-native:keyvault:Key', name: 'llm-pretrain', props: {} };
const group: ResourceUnderTest = {
  type: 'azure-native:resources:ResourceGroup',
  name: 'checkpoints',
  props: {},
};
const role = (id: string) => ({ roleDefinitionId: roleDefinitionId(id) });
const expectedOnStorage = 'expected Checkpoint Store Writer or Storage Blob Data Reader only';
const WRITER = checkpointWriterRoleGuid(SUBSCRIPTION);

describe('azure-rbac-store-data-plane-roles', () => {
  it("passes the stack's grants: blob data roles on the filesystem, the crypto role on the key", async () => {
    expect(
      await violationsOf(azureRbacStoreDataPlaneRoles, [
        assignment('writer', role(WRITER)),
        assignment('reader', { ...role(ROLES.storageBlobDataReader.id), scope: ACCOUNT_ID }),
        assignment('encryption', { ...role(ROLES.keyVaultCryptoServiceEncryptionUser.id), scope: KEY_ID }),
      ]),
    ).toEqual([]);
  });

  it('flags Storage Blob Data Contributor on a filesystem: its containers/delete deletes every checkpoint', async () => {
    expect(
      await violationsOf(azureRbacStoreDataPlaneRoles, [
        assignment('writer', role(ROLES.storageBlobDataContributor.id)),
      ]),
    ).toEqual([
      `RoleAssignment 'writer': grants Storage Blob Data Contributor (ba92f5b4-2d11-453d-a403-e96b0029c9fe) on a storage account scope; ${expectedOnStorage}`,
    ]);
  });

  it("takes Storage Account Backup Contributor on an account from a Backup vault's identity alone", async () => {
    const vault: ResourceUnderTest = {
      type: 'azure-native:dataprotection:BackupVault',
      name: 'backup-vault-prod',
      props: {},
    };
    const backup = { ...role(ROLES.storageAccountBackupContributor.id), scope: ACCOUNT_ID };
    const fromVault: ResourceUnderTest = {
      ...assignment('backup', backup),
      propertyDependencies: { principalId: [`urn:pulumi:test::spec::${vault.type}::${vault.name}`] },
    };
    expect(await violationsOf(azureRbacStoreDataPlaneRoles, [vault, fromVault])).toEqual([]);
    expect(await violationsOf(azureRbacStoreDataPlaneRoles, [assignment('backup', backup)])).toEqual([
      `RoleAssignment 'backup': grants Storage Account Backup Contributor (e5e2a7ff-d759-4cd2-bb51-3152d37e2eb1) on a storage account scope; ${expectedOnStorage}`,
    ]);
  });

  it("passes bootstrap's control-plane grants on resource groups", async () => {
    expect(
      await violationsOf(azureRbacStoreDataPlaneRoles, [
        assignment('deploy-storage', { ...role('17d1049b-9a84-46fb-8f53-869881c3d3ab'), scope: GROUP }),
        assignment('deploy-rbac', { ...role(ROLES.rbacAdministrator.id), scope: GROUP, condition: '(...)' }),
      ]),
    ).toEqual([]);
  });

  it('finds the scope through propertyDependencies on a first preview', async () => {
    const resources = [
      filesystem,
      key,
      assignment('writer', { ...role(WRITER), scope: UNKNOWN_STRING }, filesystem),
      assignment(
        'encryption',
        { ...role(ROLES.keyVaultCryptoServiceEncryptionUser.id), scope: UNKNOWN_STRING },
        key,
      ),
    ];
    expect(await violationsOf(azureRbacStoreDataPlaneRoles, onPreview(resources))).toEqual([]);
    expect(
      await violationsOf(
        azureRbacStoreDataPlaneRoles,
        onPreview([
          account,
          key,
          assignment('keys', { ...role(ROLES.contributor.id), scope: UNKNOWN_STRING }, account),
          assignment('vault', { ...role(ROLES.storageBlobDataReader.id), scope: UNKNOWN_STRING }, key),
        ]),
      ),
    ).toEqual([
      `RoleAssignment 'keys': grants Contributor (b24988ac-6180-42a0-ab88-20f7382dd24c) on a storage account scope; ${expectedOnStorage}`,
      "RoleAssignment 'vault': grants Storage Blob Data Reader (2a2b9908-6ea1-4ae2-8e65-a410df84e7d1) on a key vault scope; expected Key Vault Crypto Service Encryption User only",
    ]);
  });

  it('flags control-plane, custom and unknown roles inside a storage account', async () => {
    expect(
      await violationsOf(
        azureRbacStoreDataPlaneRoles,
        onPreview([
          assignment('contributor', { ...role('17d1049b-9a84-46fb-8f53-869881c3d3ab'), scope: ACCOUNT_ID }),
          assignment('custom', { roleDefinitionId: 'my-custom-role', scope: FILESYSTEM_ID.toLowerCase() }),
          assignment('unknown', { roleDefinitionId: UNKNOWN_STRING }),
          assignment('none', { roleDefinitionId: undefined }),
        ]),
      ),
    ).toEqual([
      `RoleAssignment 'contributor': grants 17d1049b-9a84-46fb-8f53-869881c3d3ab on a storage account scope; ${expectedOnStorage}`,
      `RoleAssignment 'custom': grants roleDefinitionId "my-custom-role" on a storage account scope; ${expectedOnStorage}`,
      `RoleAssignment 'unknown': grants a role unknown during preview on a storage account scope; ${expectedOnStorage}`,
      `RoleAssignment 'none': grants no roleDefinitionId on a storage account scope; ${expectedOnStorage}`,
    ]);
  });

  it('flags data-plane roles on a resource group, known or found through its dependencies', async () => {
    expect(
      await violationsOf(azureRbacStoreDataPlaneRoles, [
        group,
        assignment('wide', { ...role(ROLES.storageBlobDataReader.id), scope: GROUP }),
        assignment('wide-writer', { ...role(WRITER), scope: GROUP }),
        assignment(
          'wide-preview',
          { ...role(ROLES.storageBlobDataContributor.id), scope: '[unknown]' },
          group,
        ),
      ]),
    ).toEqual([
      `RoleAssignment 'wide': grants Storage Blob Data Reader (2a2b9908-6ea1-4ae2-8e65-a410df84e7d1) on '${GROUP}'; expected it only on a store's own storage account, filesystem, key vault or key`,
      `RoleAssignment 'wide-writer': grants ${WRITER} on '${GROUP}'; expected it only on a store's own storage account, filesystem, key vault or key`,
      "RoleAssignment 'wide-preview': grants Storage Blob Data Contributor (ba92f5b4-2d11-453d-a403-e96b0029c9fe) on a scope that is not a storage account or key vault; expected it only on a store's own storage account, filesystem, key vault or key",
    ]);
  });
});
