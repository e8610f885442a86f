/** Spec helpers of the access rules: an Azure store and a bootstrap render of CI role assignments. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AZURE_RESOURCE_PROVIDERS } from '@checkpoints/render';
import type { ResourceUnderTest } from '.';

const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
export const GROUP = (environment: string) =>
  `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-${environment}`;
export const ROLE = (guid: string) =>
  `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
export const BUILT_IN = {
  reader: 'acdd72a7-3385-48ef-bd42-f606fba81ae7',
  blobDataReader: '2a2b9908-6ea1-4ae2-8e65-a410df84e7d1',
  managedIdentityContributor: 'e40ec5ca-96e0-45a2-b4ff-59039f2c2b59',
};
export const CUSTOM = '44444444-4444-4444-8444-444444444444';

const STORE_URN = 'urn:pulumi:test::spec::checkpoints:azure:CheckpointStore::ckpt';

/** One Azure store of `environment`: its account and container in rg-<environment>. */
export function azureStore(environment: string): ResourceUnderTest[] {
  return [
    { type: 'checkpoints:azure:CheckpointStore', name: 'ckpt', props: {} },
    {
      type: 'azure-native:storage:StorageAccount',
      name: 'ckpt-account',
      parent: STORE_URN,
      props: {
        accountName: 'ckptacct',
        resourceGroupName: `rg-${environment}`,
        allowSharedKeyAccess: false,
        tags: { environment },
      },
    },
    {
      type: 'azure-native:storage:BlobContainer',
      name: 'ckpt-container',
      parent: STORE_URN,
      props: {
        accountName: 'ckptacct',
        containerName: 'checkpoints',
        resourceGroupName: `rg-${environment}`,
      },
    },
  ];
}

export interface CiGrant {
  purpose: 'preview' | 'deploy-dev' | 'deploy-prod';
  role: string;
  scope: string;
  condition?: string;
}

const PRINCIPALS: Record<CiGrant['purpose'], string> = {
  preview: '10000000-0000-4000-8000-000000000001',
  'deploy-dev': '10000000-0000-4000-8000-000000000002',
  'deploy-prod': '10000000-0000-4000-8000-000000000003',
};

/** A resource of a bootstrap render, as synth records one. */
export function bootstrapResource(type: string, name: string, inputs: Record<string, unknown>) {
  return {
    urn: `urn:pulumi:ci::bootstrap::${type}::${name}`,
    type,
    name,
    parent: null,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs,
  };
}

/**
 * Writes a bootstrap render with these CI role assignments (and a custom role `CUSTOM` of `customActions`)
 * and points the access rules at it; returns a function that restores the environment.
 */
export function withBootstrap(
  grants: CiGrant[],
  customActions: string[] = [],
  registered: readonly string[] = AZURE_RESOURCE_PROVIDERS,
): BootstrapFile {
  const resource = bootstrapResource;
  const render = {
    project: 'checkpoints-bootstrap',
    stack: 'ci',
    outputs: {},
    resources: [
      resource('azure-native:authorization:RoleDefinition', 'custom', {
        roleDefinitionId: CUSTOM,
        roleName: 'custom',
        permissions: [{ actions: customActions }],
      }),
      ...grants.map((grant, index) =>
        resource('azure-native:authorization:RoleAssignment', `${grant.purpose}-${index}`, {
          principalId: PRINCIPALS[grant.purpose],
          description: `CI ${grant.purpose} of acme/checkpoint-storage`,
          roleDefinitionId: ROLE(grant.role),
          scope: grant.scope,
          ...(grant.condition ? { condition: grant.condition } : {}),
        }),
      ),
      // The subscription's resource provider registrations (bootstrap/src/azure/resource-providers.ts).
      ...registered.map((namespace) =>
        resource('pulumi-nodejs:dynamic:Resource', `provider-${namespace}`, {
          namespace,
          subscriptionId: '00000000-0000-4000-a000-000000000001',
        }),
      ),
    ],
  };
  return withBootstrapRender(render);
}

/** A bootstrap render written for one test: its path, for the rules' policy config, and its removal. */
export interface BootstrapFile {
  path: string;
  remove(): void;
}

/** Writes `render` as a bootstrap render file, for one test (see violationsOf's `bootstrapRender`). */
export function withBootstrapRender(render: unknown): BootstrapFile {
  const dir = mkdtempSync(join(tmpdir(), 'bootstrap-render-'));
  const path = join(dir, 'ci.json');
  writeFileSync(path, JSON.stringify(render));
  return { path, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
