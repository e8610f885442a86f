import { violationsOf } from '../../../testing';
import { ciNoEscalation } from './ci-no-escalation';
import { azureStore, BUILT_IN, GROUP, withBootstrap } from '../../../testing/access';

const RBAC_ADMIN = 'f58310d9-a9f6-439a-9e8d-f62e7b41a168';
const DATA_ROLE_ONLY =
  "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'})) OR (@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {2a2b9908-6ea1-4ae2-8e65-a410df84e7d1}))";
const NOT_ITSELF =
  "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'})) OR (@Request[Microsoft.Authorization/roleAssignments:PrincipalId] ForAnyOfAllValues:GuidNotEquals {10000000-0000-4000-8000-000000000003}))";

describe('ci-no-escalation', () => {
  it('passes a role assigner that may not name itself', async () => {
    const bootstrap = withBootstrap([
      {
        purpose: 'deploy-prod',
        role: RBAC_ADMIN,
        scope: GROUP('prod'),
        condition: `${NOT_ITSELF} AND ${DATA_ROLE_ONLY}`,
      },
    ]);
    try {
      expect(await violationsOf(ciNoEscalation, azureStore('prod'), {}, bootstrap.path)).toEqual([]);
    } finally {
      bootstrap.remove();
    }
  });

  it('flags a role assigner that may hand itself a data role', async () => {
    const bootstrap = withBootstrap([
      { purpose: 'deploy-prod', role: RBAC_ADMIN, scope: GROUP('prod'), condition: DATA_ROLE_ONLY },
    ]);
    try {
      expect(await violationsOf(ciNoEscalation, azureStore('prod'), {}, bootstrap.path)).toEqual([
        'store ckpt (prod): ci deploy-prod can grant itself data access: Microsoft.Authorization/roleAssignments/write from Role Based Access Control Administrator on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-prod (RoleAssignment deploy-prod-0), and no condition keeps it from assigning itself a data role',
      ]);
    } finally {
      bootstrap.remove();
    }
  });

  it('flags Managed Identity Contributor, which adds federated credentials to the store identities', async () => {
    const bootstrap = withBootstrap([
      { purpose: 'deploy-prod', role: BUILT_IN.managedIdentityContributor, scope: GROUP('prod') },
    ]);
    try {
      const store = [
        ...azureStore('prod'),
        {
          type: 'azure-native:authorization:RoleAssignment',
          name: 'ckpt-writer-identity',
          parent: 'urn:pulumi:test::spec::checkpoints:azure:CheckpointStore::ckpt',
          props: { principalId: '20000000-0000-4000-8000-000000000001', roleDefinitionId: 'x', scope: 'y' },
        },
      ];
      expect(await violationsOf(ciNoEscalation, store, {}, bootstrap.path)).toEqual([
        expect.stringMatching(
          /^store ckpt \(prod\): ci deploy-prod can add a credential to a store identity: can add a federated credential to writer: Microsoft.ManagedIdentity\/userAssignedIdentities\/federatedIdentityCredentials\/write from Managed Identity Contributor/,
        ),
      ]);
    } finally {
      bootstrap.remove();
    }
  });
});
