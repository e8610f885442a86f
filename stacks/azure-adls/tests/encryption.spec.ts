import { byName, ofType } from '@checkpoints/synth';
import { AZURE_ROLE_PROPAGATION_SECONDS, goDurationSeconds } from '@checkpoints/analysis';
import { inputsOf, renderStack, sharedRenderStack, SUBSCRIPTION, T, TENANT } from './render';

const GROUP = 'checkpoints-azure-dev-1592ff';
const GROUP_ID = `/subscriptions/${SUBSCRIPTION}/resourceGroups/${GROUP}`;
const VAULT = 'azure-dev-llm-b6ad56';
const ENCRYPTION_IDENTITY = `${GROUP_ID}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/azuredevllmb6ad56-encryption`;
const KEY_ID = `${GROUP_ID}/providers/Microsoft.KeyVault/vaults/${VAULT}/keys/checkpoints-llm`;

const customerManaged = () =>
  sharedRenderStack({
    stores: [{ name: 'llm', dataClassification: 'internal', encryption: 'customer-managed' }],
  });

describe('customer-managed key', () => {
  it('creates a vault with RBAC, purge protection and 90-day soft delete, closed to the internet', async () => {
    const vault = inputsOf(await customerManaged(), T.vault, 'llm');
    expect(vault).toMatchObject({ resourceGroupName: GROUP, vaultName: VAULT, location: 'eastus2' });
    expect(vault['properties']).toEqual({
      tenantId: TENANT,
      sku: { family: 'A', name: 'standard' },
      enableRbacAuthorization: true,
      enableSoftDelete: true,
      softDeleteRetentionInDays: 90,
      enablePurgeProtection: true,
      publicNetworkAccess: 'Enabled',
      networkAcls: { defaultAction: 'Deny', bypass: 'AzureServices' },
      // Defaults the provider fills in: no VM, disk or template access to the vault.
      enabledForDeployment: false,
      enabledForDiskEncryption: false,
      enabledForTemplateDeployment: false,
    });
  });

  it('creates an RSA 3072 wrap/unwrap key that rotates yearly', async () => {
    const snapshot = await customerManaged();
    const key = byName(snapshot, T.key, 'llm');
    expect(key.inputs).toMatchObject({
      resourceGroupName: GROUP,
      vaultName: VAULT,
      keyName: 'checkpoints-llm',
    });
    expect(key.inputs['properties']).toEqual({
      kty: 'RSA',
      keySize: 3072,
      keyOps: ['wrapKey', 'unwrapKey'],
      attributes: { enabled: true, exportable: false },
      rotationPolicy: {
        attributes: { expiryTime: 'P2Y' },
        lifetimeActions: [
          { trigger: { timeAfterCreate: 'P1Y' }, action: { type: 'rotate' } },
          { trigger: { timeBeforeExpiry: 'P30D' }, action: { type: 'notify' } },
        ],
      },
    });
    expect(key.dependsOn).toContain(byName(snapshot, T.vault, 'llm').urn);
  });

  it('lets only the account identity use the key, with the crypto service encryption role on the key', async () => {
    const snapshot = await customerManaged();
    const identity = byName(snapshot, T.identity, 'llm-encryption');
    expect(identity.inputs['resourceName']).toBe('azuredevllmb6ad56-encryption');
    const grant = byName(snapshot, T.roleAssignment, 'llm-encryption-key');
    expect(grant.inputs).toMatchObject({
      scope: KEY_ID,
      roleDefinitionId: `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/e147488a-f6f5-4113-8e2d-b22465e65bf6`,
      principalType: 'ServicePrincipal',
    });
    expect(grant.dependsOn).toEqual([byName(snapshot, T.key, 'llm').urn, identity.urn].sort());
  });

  it('encrypts the account with the key through its user-assigned identity, once the role is granted', async () => {
    const snapshot = await customerManaged();
    const account = byName(snapshot, T.account, 'llm');
    expect(account.inputs['identity']).toEqual({
      type: 'UserAssigned',
      userAssignedIdentities: [ENCRYPTION_IDENTITY],
    });
    expect(account.inputs['encryption']).toEqual({
      keySource: 'Microsoft.Keyvault',
      // No key version: the account follows the key's rotation.
      keyVaultProperties: { keyName: 'checkpoints-llm', keyVaultUri: `https://${VAULT}.vault.azure.net/` },
      encryptionIdentity: { encryptionUserAssignedIdentity: ENCRYPTION_IDENTITY },
      requireInfrastructureEncryption: true,
      services: { blob: { enabled: true, keyType: 'Account' } },
    });
    // Created once the key role is in effect: after a wait of the propagation time that follows the grant.
    const wait = byName(snapshot, T.sleep, 'llm-encryption-key-in-effect');
    expect(account.dependsOn).toContain(wait.urn);
    expect(wait.dependsOn).toContain(byName(snapshot, T.roleAssignment, 'llm-encryption-key').urn);
    expect(goDurationSeconds(wait.inputs['createDuration'])).toBeGreaterThanOrEqual(
      AZURE_ROLE_PROPAGATION_SECONDS,
    );
  });

  it('is the default in prod, on both tiers', async () => {
    const snapshot = await renderStack(
      {
        environment: 'prod',
        stores: [
          { name: 'llm', dataClassification: 'internal' },
          {
            name: 'fast',
            dataClassification: 'internal',
            tier: 'high-throughput',
            retention: { expireAfterDays: 7 },
          },
        ],
      },
      'prod',
    );
    expect(
      ofType(snapshot, T.account).map((a) => (a.inputs['encryption'] as { keySource: string }).keySource),
    ).toEqual(['Microsoft.Keyvault', 'Microsoft.Keyvault']);
    expect(ofType(snapshot, T.vault)).toHaveLength(2);
  });
});

describe('provider-managed keys', () => {
  it('uses Microsoft-managed keys with infrastructure encryption, and no vault, key or account identity', async () => {
    const snapshot = await renderStack({ stores: [{ name: 'llm', dataClassification: 'internal' }] });
    const account = inputsOf(snapshot, T.account, 'llm');
    expect(account['encryption']).toEqual({
      keySource: 'Microsoft.Storage',
      requireInfrastructureEncryption: true,
      services: { blob: { enabled: true, keyType: 'Account' } },
    });
    expect(account).not.toHaveProperty('identity');
    expect([...ofType(snapshot, T.vault), ...ofType(snapshot, T.key)]).toEqual([]);
    expect(ofType(snapshot, T.identity).map((identity) => identity.name)).toEqual([
      'llm-writer',
      'llm-reader',
    ]);
  });
});
