import {
  AZURE_PRINCIPALS,
  AZURE_SUBSCRIPTION,
  azureCiResources,
  ciViolationsOf,
  type CiResource,
} from '../../../testing/ci-identities';
import { azureCiNoCiChanges } from './azure-ci-no-ci-changes';

const RBAC_ADMIN = 'f58310d9-a9f6-439a-9e8d-f62e7b41a168';
const WRITE = 'Microsoft.Authorization/roleAssignments/write';
const NOT_CI = `((!(ActionMatches{'${WRITE}'})) OR (@Request[Microsoft.Authorization/roleAssignments:PrincipalId] ForAnyOfAllValues:GuidNotEquals {${Object.values(AZURE_PRINCIPALS).join(', ')}}))`;
const assignment = (role: string, scope: string, condition?: string): CiResource => ({
  type: 'azure-native:authorization:RoleAssignment',
  name: `deploy-prod-${role}`,
  inputs: {
    description: 'CI deploy-prod of acme/checkpoint-storage',
    principalId: AZURE_PRINCIPALS['deploy-prod'],
    roleDefinitionId: `/subscriptions/${AZURE_SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${role}`,
    scope,
    ...(condition ? { condition } : {}),
  },
});
const SUBSCRIPTION = `/subscriptions/${AZURE_SUBSCRIPTION}`;

const judge = (grants: CiResource[]) => ciViolationsOf(azureCiNoCiChanges, azureCiResources({ grants }));

describe('azure-ci-no-ci-changes', () => {
  it('passes a role assigner whose condition refuses every CI identity as assignee', async () => {
    expect(await judge([assignment(RBAC_ADMIN, SUBSCRIPTION, NOT_CI)])).toEqual([]);
  });

  it('flags the same condition with its refusal turned into an OR that always holds', async () => {
    const flipped = NOT_CI.replace(') OR (', ') OR (true) OR (');
    const violations = await judge([assignment(RBAC_ADMIN, SUBSCRIPTION, flipped)]);
    expect(violations.some((v) => v.includes('could not be read'))).toBe(true);
  });

  it('flags an unconditioned role assigner, naming the identity, the assignment and the action', async () => {
    expect(await judge([assignment(RBAC_ADMIN, SUBSCRIPTION)])).toContain(
      `ci deploy-prod can change the roles of ci preview: ${WRITE} from Role Based Access Control Administrator on ${SUBSCRIPTION} (RoleAssignment deploy-prod-${RBAC_ADMIN}), and no condition keeps it from naming ci preview`,
    );
  });

  it('flags Managed Identity Contributor on the bootstrap group: it adds federated credentials to CI', async () => {
    const violations = await judge([
      assignment(
        'e40ec5ca-96e0-45a2-b4ff-59039f2c2b59',
        `${SUBSCRIPTION}/resourceGroups/checkpoints-bootstrap-ci`,
      ),
    ]);
    expect(violations).toContain(
      `ci deploy-prod can change the federated credentials of ci deploy-prod: Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials/write from Managed Identity Contributor on ${SUBSCRIPTION}/resourceGroups/checkpoints-bootstrap-ci (RoleAssignment deploy-prod-e40ec5ca-96e0-45a2-b4ff-59039f2c2b59)`,
    );
  });

  it('counts a grant type no model reads as everything for an unknown principal, naming it', async () => {
    const eligibility: CiResource = {
      type: 'azure-native:authorization:PimRoleEligibilitySchedule',
      name: 'deploy-prod-eligible',
      inputs: { principalId: AZURE_PRINCIPALS['deploy-prod'], scope: SUBSCRIPTION },
    };
    expect(await judge([eligibility])).toEqual([
      'an unknown principal (of azure-native:authorization:PimRoleEligibilitySchedule deploy-prod-eligible) can change the CI identities: azure-native:authorization:PimRoleEligibilitySchedule deploy-prod-eligible is a grant type the access analysis does not read: counted as granting every operation to an unknown principal, who may be a CI identity',
    ]);
  });

  it('counts a role ID outside the published data as every action', async () => {
    const violations = await judge([assignment('99999999-9999-4999-8999-999999999999', SUBSCRIPTION)]);
    expect(violations.some((v) => v.includes('not in the published data'))).toBe(true);
  });
});
