import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { azureRbacLeastPrivilege } from './azure-rbac-least-privilege';
import { assignment, GROUP, roleDefinitionId } from '../../../testing/azure';
import { ROLES, T } from './support';

/** What the bootstrap project grants its CI identities, on the stacks' resource groups. */
const CONDITION =
  "((!(ActionMatches{'Microsoft.Authorization/roleAssignments/write'})) OR (@Request[Microsoft.Authorization/roleAssignments:RoleDefinitionId] ForAnyOfAnyValues:GuidEquals {ba92f5b4-2d11-453d-a403-e96b0029c9fe}))";
const bootstrapGrants = [
  ['reader', 'acdd72a7-3385-48ef-bd42-f606fba81ae7'],
  ['storage-account-contributor', '17d1049b-9a84-46fb-8f53-869881c3d3ab'],
  ['key-vault-contributor', 'f25e0fa2-a7c8-4377-a976-54943a77a395'],
  ['managed-identity-contributor', 'e40ec5ca-96e0-45a2-b4ff-59039f2c2b59'],
].map(([name, role]) =>
  assignment(`deploy-${name}`, { scope: GROUP, roleDefinitionId: roleDefinitionId(role!) }),
);

describe('azure-rbac-least-privilege', () => {
  it("passes the stack's data-plane grants and bootstrap's conditioned control-plane grants", async () => {
    expect(
      await violationsOf(azureRbacLeastPrivilege, [
        assignment('writer', {}),
        assignment('reader', { roleDefinitionId: roleDefinitionId(ROLES.storageBlobDataReader.id) }),
        ...bootstrapGrants,
        assignment('deploy-rbac-admin', {
          scope: GROUP,
          roleDefinitionId: roleDefinitionId(ROLES.rbacAdministrator.id),
          condition: CONDITION,
          conditionVersion: '2.0',
        }),
      ]),
    ).toEqual([]);
  });

  it('leaves values unknown on a preview alone', async () => {
    expect(
      await violationsOf(
        azureRbacLeastPrivilege,
        onPreview([
          assignment('writer', {
            principalId: UNKNOWN_STRING,
            scope: UNKNOWN_STRING,
            roleDefinitionId: UNKNOWN_STRING,
          }),
          assignment('rbac', {
            roleDefinitionId: roleDefinitionId(ROLES.rbacAdministrator.id),
            condition: UNKNOWN_STRING,
          }),
        ]),
      ),
    ).toEqual([]);
  });

  it.each([
    [ROLES.owner.id, 'Owner (8e3af657-a8ff-443c-a75c-2fe8c4bcb635)'],
    [ROLES.contributor.id, 'Contributor (b24988ac-6180-42a0-ab88-20f7382dd24c)'],
    [ROLES.userAccessAdministrator.id, 'User Access Administrator (18d7d88d-d35e-4fb5-a5c3-7773c20a72d9)'],
    [
      ROLES.storageAccountKeyOperator.id,
      'Storage Account Key Operator Service Role (81a9662b-bebf-436f-a333-f67b29880f12)',
    ],
    [
      ROLES.storageBlobDataOwner.id.toUpperCase(),
      'Storage Blob Data Owner (b7e6dc6d-f1e8-4753-8033-0f276bb0955b)',
    ],
  ])('flags %s, at any scope', async (role, label) => {
    expect(
      await violationsOf(azureRbacLeastPrivilege, [
        assignment('grant', { scope: GROUP, roleDefinitionId: roleDefinitionId(role) }),
      ]),
    ).toEqual([
      `roleDefinitionId grants ${label}; expected a narrower role (never Owner, Contributor, User Access Administrator, Storage Account Key Operator Service Role or Storage Blob Data Owner)`,
    ]);
  });

  it('flags Role Based Access Control Administrator without a condition', async () => {
    expect(
      await violationsOf(azureRbacLeastPrivilege, [
        assignment('rbac', { scope: GROUP, roleDefinitionId: roleDefinitionId(ROLES.rbacAdministrator.id) }),
      ]),
    ).toEqual([
      'roleDefinitionId grants Role Based Access Control Administrator (f58310d9-a9f6-439a-9e8d-f62e7b41a168) and condition is not set; expected a condition limiting the roles it may assign (without one it can grant Owner)',
    ]);
  });

  it('flags a principal that is not an object ID, and PIM eligibilities too', async () => {
    expect(
      await violationsOf(azureRbacLeastPrivilege, [
        assignment('by-name', { principalId: 'alice@contoso.com' }),
        {
          type: T.pimRoleEligibilitySchedule,
          name: 'eligible-owner',
          props: {
            principalId: '0f8fad5b-d9cb-469f-a165-70867728950e',
            roleDefinitionId: roleDefinitionId(ROLES.owner.id),
            scope: GROUP,
          },
        },
      ]),
    ).toEqual([
      'principalId is "alice@contoso.com"; expected a Microsoft Entra object ID (a GUID)',
      'roleDefinitionId grants Owner (8e3af657-a8ff-443c-a75c-2fe8c4bcb635); expected a narrower role (never Owner, Contributor, User Access Administrator, Storage Account Key Operator Service Role or Storage Blob Data Owner)',
    ]);
  });
});
