import {
  adlsFilesystemGrants,
  azurePrincipal,
  azureRoleDefinitionId,
  CHECKPOINT_WRITER_ROLE_NAME,
  type AdlsRoleGrant,
  type AzureBuiltInRole,
} from '../../src/azure/role-assignments';
import { checkpointWriterRoleGuid } from '@checkpoints/config';

const WRITER = CHECKPOINT_WRITER_ROLE_NAME;
const READER = 'Storage Blob Data Reader';
const storeIdentities: AdlsRoleGrant[] = [
  { role: WRITER, grantee: { kind: 'store-identity', purpose: 'writer' } },
  { role: READER, grantee: { kind: 'store-identity', purpose: 'reader' } },
];
const alice = '0f8fad5b-d9cb-469f-a165-70867728950e';
const group = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
const pipeline = 'c56a4180-65aa-42ec-a945-5fd21dec0538';

describe('azureRoleDefinitionId', () => {
  it.each<[AzureBuiltInRole, string]>([
    ['Storage Blob Data Contributor', 'ba92f5b4-2d11-453d-a403-e96b0029c9fe'],
    ['Storage Blob Data Reader', '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1'],
    ['Key Vault Crypto Service Encryption User', 'e147488a-f6f5-4113-8e2d-b22465e65bf6'],
  ])('%s', (role, guid) => {
    expect(azureRoleDefinitionId('11111111-2222-3333-4444-555555555555', role)).toBe(
      `/subscriptions/11111111-2222-3333-4444-555555555555/providers/Microsoft.Authorization/roleDefinitions/${guid}`,
    );
  });
});

describe('the writer role', () => {
  const subscription = '11111111-2222-3333-4444-555555555555';

  it("is the subscription's own definition: one GUID per subscription, the same on every run", () => {
    expect(azureRoleDefinitionId(subscription, WRITER)).toBe(
      `/subscriptions/${subscription}/providers/Microsoft.Authorization/roleDefinitions/${checkpointWriterRoleGuid(subscription)}`,
    );
    expect(checkpointWriterRoleGuid(subscription.toUpperCase())).toBe(checkpointWriterRoleGuid(subscription));
    expect(checkpointWriterRoleGuid('00000000-0000-4000-a000-000000000001')).not.toBe(
      checkpointWriterRoleGuid(subscription),
    );
    expect(checkpointWriterRoleGuid(subscription)).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    );
  });
});

describe('azurePrincipal', () => {
  it.each([
    [`user:${alice}`, 'User', alice],
    [`group:${group}`, 'Group', group],
    [`servicePrincipal:${pipeline}`, 'ServicePrincipal', pipeline],
    [`group:${group.toUpperCase()}`, 'Group', group],
  ])('%s', (entry, principalType, objectId) => {
    expect(azurePrincipal(entry)).toEqual({ principalType, objectId });
  });

  it.each([alice, `Group:${group}`, `serviceAccount:${pipeline}`, `toString:${alice}`])(
    'refuses %s',
    (entry) => {
      expect(() => azurePrincipal(entry)).toThrow(
        `'${entry}' is not 'user:', 'group:' or 'servicePrincipal:' followed by an object ID`,
      );
    },
  );
});

describe('adlsFilesystemGrants', () => {
  it.each<[string, { writers: string[]; readers: string[] }, AdlsRoleGrant[]]>([
    ['store identities only', { writers: [], readers: [] }, storeIdentities],
    [
      'a writer user',
      { writers: [`user:${alice}`], readers: [] },
      [
        ...storeIdentities,
        {
          role: WRITER,
          grantee: { kind: 'principal', purpose: 'writer', principalType: 'User', objectId: alice },
        },
      ],
    ],
    [
      'a reader group',
      { writers: [], readers: [`group:${group}`] },
      [
        ...storeIdentities,
        {
          role: READER,
          grantee: { kind: 'principal', purpose: 'reader', principalType: 'Group', objectId: group },
        },
      ],
    ],
    [
      'a writing pipeline and a reading group',
      { writers: [`servicePrincipal:${pipeline}`], readers: [`group:${group}`] },
      [
        ...storeIdentities,
        {
          role: WRITER,
          grantee: {
            kind: 'principal',
            purpose: 'writer',
            principalType: 'ServicePrincipal',
            objectId: pipeline,
          },
        },
        {
          role: READER,
          grantee: { kind: 'principal', purpose: 'reader', principalType: 'Group', objectId: group },
        },
      ],
    ],
    [
      'the same principal as writer and reader',
      { writers: [`user:${alice}`], readers: [`user:${alice}`] },
      [
        ...storeIdentities,
        {
          role: WRITER,
          grantee: { kind: 'principal', purpose: 'writer', principalType: 'User', objectId: alice },
        },
        {
          role: READER,
          grantee: { kind: 'principal', purpose: 'reader', principalType: 'User', objectId: alice },
        },
      ],
    ],
    [
      'upper-case object IDs are lowered',
      { writers: [`user:${alice.toUpperCase()}`], readers: [] },
      [
        ...storeIdentities,
        {
          role: WRITER,
          grantee: { kind: 'principal', purpose: 'writer', principalType: 'User', objectId: alice },
        },
      ],
    ],
  ])('%s', (_title, access, grants) => {
    expect(adlsFilesystemGrants(access)).toEqual(grants);
  });

  it('never grants an owner, contributor (Storage Blob Data Contributor included: it deletes the filesystem) or key operator role', () => {
    const roles = new Set(
      adlsFilesystemGrants({ writers: [`user:${alice}`], readers: [`group:${group}`] }).map((g) => g.role),
    );
    expect([...roles].sort()).toEqual([READER, WRITER].sort());
  });
});
