import { AZURE_TENANT_ID, ofType, type RenderedResource, type Snapshot } from '@checkpoints/synth';
import { auditArchive, names } from '@checkpoints/naming';
import {
  ofTypeByName,
  renderBootstrap,
  resource,
  sortedRows,
  standardTagsFor,
  SUBSCRIPTION,
} from './helpers';
import { checkpointWriterRoleGuid } from '@checkpoints/config';
import { auditArchiveRoleDefinitionGuid, deployRoleDefinitionGuid } from '../src/azure/roles';

const IDENTITY_GROUP = names.resourceGroup({ project: 'checkpoints-bootstrap', stack: 'ci' });
const GROUP_SCOPE = (group: string) => `/subscriptions/${SUBSCRIPTION}/resourceGroups/${group}`;
const ROLE = (guid: string) =>
  `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
const READER = 'acdd72a7-3385-48ef-bd42-f606fba81ae7';
const RBAC_ADMINISTRATOR = 'f58310d9-a9f6-439a-9e8d-f62e7b41a168';
// The subscription's writer role, Storage Blob Data Reader, Key Vault Crypto Service Encryption User; and
// for removal also Storage Blob Data Contributor (what writers held before the writer role).
const ASSIGNABLE = `${checkpointWriterRoleGuid(SUBSCRIPTION)}, 2a2b9908-6ea1-4ae2-8e65-a410df84e7d1, e147488a-f6f5-4113-8e2d-b22465e65bf6`;
const REMOVABLE = `${ASSIGNABLE}, ba92f5b4-2d11-453d-a403-e96b0029c9fe`;
/** The role assignment condition, never naming one of CI's own identities (`ciPrincipals`) as assignee. */
const RBAC_CONDITION = (ciPrincipals: readonly unknown[]) =>
  "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'}))" +
  ` OR (@Request[Microsoft.Authorization/roleAssignments:PrincipalId] ForAnyOfAllValues:GuidNotEquals {${ciPrincipals.join(', ')}}))` +
  ' AND ' +
  "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'}))" +
  ` OR (@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${ASSIGNABLE}}))` +
  " AND ((!(ActionMatches{'Microsoft.Authorization/roleAssignments/delete'}))" +
  ` OR (@Resource[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {${REMOVABLE}}))`;

const IDENTITY = 'azure-native:managedidentity:UserAssignedIdentity';
const CREDENTIAL = 'azure-native:managedidentity:FederatedIdentityCredential';

/** [scope, role definition, principal type, condition] of every assignment to an identity's principal. */
function assignmentsOf(snapshot: Snapshot, identity: RenderedResource) {
  return sortedRows(
    ofType(snapshot, 'azure-native:authorization:RoleAssignment')
      .filter((assignment) => assignment.propertyDependencies['principalId']?.includes(identity.urn))
      .map((assignment) => [
        assignment.inputs['scope'],
        assignment.inputs['roleDefinitionId'],
        assignment.inputs['principalType'],
        assignment.inputs['condition'],
      ]),
  );
}

/** The principal IDs of the CI identities, as their own role assignments name them. */
function ciPrincipalIds(snapshot: Snapshot): unknown[] {
  return ['preview', 'deploy-dev', 'deploy-prod'].map((purpose) => {
    const identity = resource(snapshot, IDENTITY, purpose);
    return ofType(snapshot, 'azure-native:authorization:RoleAssignment').find((assignment) =>
      assignment.propertyDependencies['principalId']?.includes(identity.urn),
    )?.inputs['principalId'];
  });
}

describe('Azure CI identities', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderBootstrap();
  });

  it("defines the store writer's role: blob data of the filesystem, never the filesystem's deletion", () => {
    const [definition, ...others] = snapshot.resources.filter(
      (r) => r.type === 'azure-native:authorization:RoleDefinition' && r.name === 'store-writer-role',
    );
    expect(others).toEqual([]);
    expect([
      definition?.inputs['roleDefinitionId'],
      definition?.inputs['assignableScopes'],
      definition?.protect,
    ]).toEqual([
      checkpointWriterRoleGuid(SUBSCRIPTION),
      [GROUP_SCOPE('rg-checkpoints-dev'), GROUP_SCOPE('rg-checkpoints-prod')],
      true,
    ]);
    const [permissions] = definition?.inputs['permissions'] as {
      actions: string[];
      dataActions: string[];
    }[];
    expect(permissions?.actions).toEqual(['Microsoft.Storage/storageAccounts/blobServices/containers/read']);
    expect([...(permissions?.dataActions ?? [])].sort()).toEqual(
      [
        'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/add/action',
        'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/delete',
        'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/move/action',
        'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read',
        'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/write',
      ].sort(),
    );
  });

  it('keeps the identities in a resource group of their own, tagged', () => {
    expect(ofType(snapshot, 'azure-native:resources:ResourceGroup').map((group) => group.inputs)).toEqual([
      { resourceGroupName: IDENTITY_GROUP, location: 'eastus2', tags: standardTagsFor('prod') },
      // The prod audit archive's group: outside every stack group, so no deploy identity writes in it.
      { resourceGroupName: 'rg-checkpoints-audit-prod', location: 'eastus2', tags: standardTagsFor('prod') },
    ]);
    expect(ofTypeByName(snapshot, IDENTITY).map((identity) => identity.inputs)).toEqual([
      {
        resourceGroupName: IDENTITY_GROUP,
        resourceName: 'checkpoints-ci-deploy-dev',
        location: 'eastus2',
        tags: standardTagsFor('dev'),
      },
      {
        resourceGroupName: IDENTITY_GROUP,
        resourceName: 'checkpoints-ci-deploy-prod',
        location: 'eastus2',
        tags: standardTagsFor('prod'),
      },
      {
        resourceGroupName: IDENTITY_GROUP,
        resourceName: 'checkpoints-ci-preview',
        location: 'eastus2',
        tags: standardTagsFor('prod'),
      },
    ]);
  });

  /** [logical name, inputs] of every federated credential of an identity. */
  function credentialsOf(identity: string) {
    return ofTypeByName(snapshot, CREDENTIAL)
      .filter((credential) => credential.inputs['resourceName'] === `checkpoints-ci-${identity}`)
      .map((credential) => [credential.name, credential.inputs]);
  }

  const federated = (credential: string, subject: string) => ({
    resourceGroupName: IDENTITY_GROUP,
    federatedIdentityCredentialResourceName: credential,
    issuer: 'https://token.actions.githubusercontent.com',
    subject,
    audiences: ['api://AzureADTokenExchange'],
  });

  it("federates preview with exactly the repository's pull requests and its drift environment", () => {
    expect(credentialsOf('preview')).toEqual([
      // The credential preview always had keeps its name: renaming a protected resource fails the update.
      [
        'preview-github',
        {
          ...federated('github-pull-request', 'repo:acme/checkpoint-storage:pull_request'),
          resourceName: 'checkpoints-ci-preview',
        },
      ],
      [
        'preview-github-environment-drift',
        {
          ...federated('github-environment-drift', 'repo:acme/checkpoint-storage:environment:drift'),
          resourceName: 'checkpoints-ci-preview',
        },
      ],
    ]);
  });

  it.each(['dev', 'prod'])('federates deploy-%s with exactly its GitHub environment', (environment) => {
    expect(credentialsOf(`deploy-${environment}`)).toEqual([
      [
        `deploy-${environment}-github`,
        {
          ...federated(
            `github-environment-${environment}`,
            `repo:acme/checkpoint-storage:environment:${environment}`,
          ),
          resourceName: `checkpoints-ci-deploy-${environment}`,
        },
      ],
    ]);
  });

  it('protects every federated credential, and writes one identity’s credentials one at a time', () => {
    const credentials = ofType(snapshot, CREDENTIAL);
    expect(credentials).toHaveLength(4);
    for (const credential of credentials)
      expect([credential.name, credential.protect]).toEqual([credential.name, true]);
    // Azure answers concurrent writes of one identity's federated credentials with 409 Conflict.
    const pullRequest = resource(snapshot, CREDENTIAL, 'preview-github');
    expect(resource(snapshot, CREDENTIAL, 'preview-github-environment-drift').dependsOn).toContain(
      pullRequest.urn,
    );
  });

  it("gives preview Reader on the stacks' resource groups and nothing on the subscription", () => {
    expect(assignmentsOf(snapshot, resource(snapshot, IDENTITY, 'preview'))).toEqual(
      sortedRows([
        [GROUP_SCOPE('rg-checkpoints-dev'), ROLE(READER), 'ServicePrincipal', undefined],
        [GROUP_SCOPE('rg-checkpoints-prod'), ROLE(READER), 'ServicePrincipal', undefined],
      ]),
    );
  });

  it.each(['dev', 'prod'])(
    "gives the %s deploy identity the stack roles on its own group, role assignments restricted to the stack's roles",
    (environment) => {
      const scope = GROUP_SCOPE(`rg-checkpoints-${environment}`);
      expect(assignmentsOf(snapshot, resource(snapshot, IDENTITY, `deploy-${environment}`))).toEqual(
        sortedRows([
          [scope, ROLE(deployRoleDefinitionGuid(SUBSCRIPTION, environment)), 'ServicePrincipal', undefined],
          [scope, ROLE(RBAC_ADMINISTRATOR), 'ServicePrincipal', RBAC_CONDITION(ciPrincipalIds(snapshot))],
          // In prod, ListKeys and read on the audit archive (its diagnostic settings' destination).
          ...(environment === 'prod'
            ? [
                [
                  GROUP_SCOPE(auditArchive.resourceGroup('prod')),
                  ROLE(auditArchiveRoleDefinitionGuid(SUBSCRIPTION, 'prod')),
                  'ServicePrincipal',
                  undefined,
                ],
              ]
            : []),
        ]),
      );
      const administrator = ofType(snapshot, 'azure-native:authorization:RoleAssignment').find(
        (assignment) =>
          assignment.name ===
          `deploy-${environment}-rg-checkpoints-${environment}-role-based-access-control-administrator`,
      );
      expect(administrator?.inputs['conditionVersion']).toBe('2.0');
    },
  );

  it('names each role assignment after its scope, role and principal, so a re-run finds it', () => {
    const assignments = ofType(snapshot, 'azure-native:authorization:RoleAssignment');
    const assignmentNames = assignments.map((assignment) => assignment.inputs['roleAssignmentName']);
    expect(new Set(assignmentNames).size).toBe(assignments.length);
    for (const name of assignmentNames)
      expect(name).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
  });

  it('outputs the tenant, the subscription and the client IDs as the repository variables', () => {
    const guid = expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(snapshot.outputs).toMatchObject({
      AZURE_TENANT_ID,
      AZURE_SUBSCRIPTION_ID: SUBSCRIPTION,
      AZURE_PREVIEW_CLIENT_ID: guid,
      AZURE_DEPLOY_CLIENT_ID_DEV: guid,
      AZURE_DEPLOY_CLIENT_ID_PROD: guid,
    });
    const clientIds = [
      'AZURE_PREVIEW_CLIENT_ID',
      'AZURE_DEPLOY_CLIENT_ID_DEV',
      'AZURE_DEPLOY_CLIENT_ID_PROD',
    ].map((key) => snapshot.outputs[key]);
    expect(new Set(clientIds).size).toBe(3);
  });
});
