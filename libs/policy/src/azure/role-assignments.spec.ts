import {
  adlsFilesystemGrants,
  azureRoleDefinitionId,
  type AdlsRoleGrant,
  type AzureBuiltInRole,
} from './role-assignments';

const CONTRIBUTOR = 'Storage Blob Data Contributor';
const READER = 'Storage Blob Data Reader';
const storeIdentities: AdlsRoleGrant[] = [
  { role: CONTRIBUTOR, grantee: { kind: 'store-identity', purpose: 'writer' } },
  { role: READER, grantee: { kind: 'store-identity', purpose: 'reader' } },
];
const alice = '0f8fad5b-d9cb-469f-a165-70867728950e';
const group = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

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

describe('adlsFilesystemGrants', () => {
  it.each<[string, { writers: string[]; readers: string[] }, AdlsRoleGrant[]]>([
    ['store identities only', { writers: [], readers: [] }, storeIdentities],
    [
      'a writer principal',
      { writers: [alice], readers: [] },
      [
        ...storeIdentities,
        { role: CONTRIBUTOR, grantee: { kind: 'principal', purpose: 'writer', objectId: alice } },
      ],
    ],
    [
      'a reader group',
      { writers: [], readers: [group] },
      [
        ...storeIdentities,
        { role: READER, grantee: { kind: 'principal', purpose: 'reader', objectId: group } },
      ],
    ],
    [
      'the same principal as writer and reader',
      { writers: [alice], readers: [alice] },
      [
        ...storeIdentities,
        { role: CONTRIBUTOR, grantee: { kind: 'principal', purpose: 'writer', objectId: alice } },
        { role: READER, grantee: { kind: 'principal', purpose: 'reader', objectId: alice } },
      ],
    ],
    [
      'upper-case object IDs are lowered',
      { writers: [alice.toUpperCase()], readers: [] },
      [
        ...storeIdentities,
        { role: CONTRIBUTOR, grantee: { kind: 'principal', purpose: 'writer', objectId: alice } },
      ],
    ],
  ])('%s', (_title, access, grants) => {
    expect(adlsFilesystemGrants(access)).toEqual(grants);
  });

  it('never grants an owner, contributor or key operator role', () => {
    const roles = new Set(adlsFilesystemGrants({ writers: [alice], readers: [group] }).map((g) => g.role));
    expect([...roles].sort()).toEqual([READER, CONTRIBUTOR].sort());
  });
});
