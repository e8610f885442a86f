import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const project = join(__dirname, 'fixtures', 'weak-azure');
const bin = join(__dirname, '..', 'bin', 'synth.js');

/** Every Azure rule the weakened store breaks, and a message each one prints. */
const EXPECTED: readonly [string, string][] = [
  [
    'azure-storage-no-public-access',
    'allowBlobPublicAccess is true; expected false, so that no container of the account can be read anonymously',
  ],
  [
    'azure-storage-no-public-access',
    'publicAccess is "Container"; expected "None" or not set (filesystems are private)',
  ],
  ['azure-storage-no-cross-tenant-replication', 'allowCrossTenantReplication is not set; expected false'],
  ['azure-storage-secure-transport', 'minimumTlsVersion is "TLS1_0"; expected "TLS1_2" (or "TLS1_3")'],
  [
    'azure-storage-infrastructure-encryption',
    'encryption.requireInfrastructureEncryption is not set; expected true (it cannot be turned on after the account is created)',
  ],
  [
    'azure-storage-no-shared-key',
    'allowSharedKeyAccess is true; expected false (Microsoft Entra ID authorization only)',
  ],
  [
    'azure-storage-soft-delete',
    "storage account 'weakcheckpoints' has no BlobServiceProperties; expected deleteRetentionPolicy and containerDeleteRetentionPolicy enabled for at least 7 days",
  ],
  ['azure-storage-hierarchical-namespace', 'isHnsEnabled is not set; expected true (an ADLS Gen2 account)'],
  [
    'azure-storage-lifecycle-policy',
    "storage account 'weakcheckpoints' has no ManagementPolicy; expected one with at least one enabled rule",
  ],
  ['azure-keyvault-recoverable', 'properties.enablePurgeProtection is not set; expected true'],
  [
    'azure-keyvault-rbac-authorization',
    'properties.enableRbacAuthorization is false; expected true (no vault access policies)',
  ],
  [
    'azure-rbac-least-privilege',
    'roleDefinitionId grants Owner (8e3af657-a8ff-443c-a75c-2fe8c4bcb635); expected a narrower role',
  ],
  [
    'azure-rbac-store-data-plane-roles',
    "RoleAssignment 'weak-owner': grants Owner (8e3af657-a8ff-443c-a75c-2fe8c4bcb635) on a storage account scope; expected Checkpoint Store Writer or Storage Blob Data Reader only",
  ],
];

describe('synth on a weakened ADLS store', () => {
  const out = mkdtempSync(join(tmpdir(), 'synth-weak-azure-'));
  afterAll(() => rmSync(out, { recursive: true, force: true }));
  let result: { status: number | null; stdout: string; stderr: string };

  beforeAll(() => {
    result = spawnSync(process.execPath, [bin, `--out=${out}`], { cwd: project, encoding: 'utf8' });
  }, 60_000);

  it('renders the program and exits 1: mandatory violations', () => {
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain('weak-azure-fixture / dev');
    expect(result.status).toBe(1);
  });

  it.each(EXPECTED)('names %s in the table and in the JSON violations', (policy, message) => {
    expect(result.stdout).toContain(`[mandatory] ${policy}: ${message}`);
    const { violations } = JSON.parse(readFileSync(join(out, 'dev.json'), 'utf8')) as {
      violations: { policy: string; level: string; message: string }[];
    };
    expect(violations).toContainEqual(
      expect.objectContaining({ policy, level: 'mandatory', message: expect.stringContaining(message) }),
    );
  });
});
