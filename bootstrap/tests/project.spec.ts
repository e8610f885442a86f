import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { readProject, readStackConfig, render, stackConfigFile } from '@checkpoints/synth';
import { bootstrapStack } from '../src/program';

const ROOT = join(__dirname, '..', '..');

describe('the root Pulumi project', () => {
  const project = readProject(ROOT);

  it('is the bootstrap program, with its stack config in bootstrap/', () => {
    expect(project.name).toBe('checkpoints-bootstrap');
    expect(project.main).toBe(join(ROOT, 'bootstrap', 'index.ts'));
    expect(project.stackConfigDir).toBe(join(ROOT, 'bootstrap'));
    expect(project.typescript).toBe(true);
  });

  it('describes every key the ci stack sets', () => {
    const manifest = parse(readFileSync(join(ROOT, 'Pulumi.yaml'), 'utf8')) as {
      template: { config: Record<string, { description: string }> };
    };
    const stack = parse(readFileSync(stackConfigFile(project, 'ci'), 'utf8')) as {
      config: Record<string, unknown>;
    };
    const described = Object.keys(manifest.template.config);
    expect(Object.keys(stack.config).filter((key) => !described.includes(key))).toEqual([]);
    for (const [key, { description }] of Object.entries(manifest.template.config)) {
      expect([key, description.length > 20]).toEqual([key, true]);
    }
  });

  it('renders the ci stack from its file as Pulumi would load it', async () => {
    const stack = readStackConfig(stackConfigFile(project, 'ci'), project);
    const snapshot = await render(() => bootstrapStack(), {
      project: project.name,
      stack: 'ci',
      config: stack.config,
      secretKeys: stack.secretKeys,
    });
    expect(Object.keys(snapshot.outputs)).toHaveLength(12);
    const protectedResources = snapshot.resources.filter((resource) => resource.protect);
    expect(protectedResources.map((resource) => resource.type).sort()).toEqual([
      // The backup vaults of the independent copies and their compliance-mode locks.
      'aws:backup/vault:Vault',
      'aws:backup/vault:Vault',
      'aws:backup/vaultLockConfiguration:VaultLockConfiguration',
      'aws:backup/vaultLockConfiguration:VaultLockConfiguration',
      'aws:iam/openIdConnectProvider:OpenIdConnectProvider',
      'aws:iam/policy:Policy',
      'aws:iam/policy:Policy',
      // The prod write-once archive of the resource logs: its deletion lock, group, blob service, expiry and account.
      'azure-native:authorization:ManagementLockByScope',
      // The prod guardrails no CI identity may lift: soft delete floor and kept blob logs (Azure), soft
      // delete floor (GCP).
      'azure-native:authorization:PolicyAssignment',
      'azure-native:authorization:PolicyAssignment',
      'azure-native:authorization:PolicyDefinition',
      'azure-native:authorization:PolicyDefinition',
      // The store writer role: the stacks' writer grants name it.
      'azure-native:authorization:RoleDefinition',
      'azure-native:managedidentity:FederatedIdentityCredential',
      'azure-native:managedidentity:FederatedIdentityCredential',
      'azure-native:managedidentity:FederatedIdentityCredential',
      'azure-native:managedidentity:FederatedIdentityCredential',
      'azure-native:resources:ResourceGroup',
      'azure-native:storage:BlobServiceProperties',
      'azure-native:storage:ManagementPolicy',
      'azure-native:storage:StorageAccount',
      'gcp:iam/denyPolicy:DenyPolicy',
      'gcp:iam/denyPolicy:DenyPolicy',
      'gcp:iam/workloadIdentityPool:WorkloadIdentityPool',
      'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider',
      'gcp:logging/projectSink:ProjectSink',
      'gcp:logging/projectSink:ProjectSink',
      'gcp:orgpolicy/policy:Policy',
      'gcp:projects/iAMAuditConfig:IAMAuditConfig',
      'gcp:projects/iAMAuditConfig:IAMAuditConfig',
      // The locked buckets the stack projects' Data Access logs are exported to.
      'gcp:storage/bucket:Bucket',
      'gcp:storage/bucket:Bucket',
    ]);
  });
});
