/**
 * Weakening edits of the Azure renders (the bootstrap's CI identities and the azure-adls prod stack), each
 * of which the pack must refuse with a mandatory verdict naming the identity, the path and the permission.
 * A mutation the pack lets through is a failing test.
 */
import { join } from 'node:path';
import { accessAnalysisOf, createAnalysisContext } from '@checkpoints/analysis';
import {
  addResource,
  copyOf,
  mandatoryVerdicts,
  resourceOf,
  synthRenders,
  verdictLines,
  type Renders,
} from '../testing/mutations';
import { verdictsNaming } from '../testing/mutation-verdicts';

let shipped: Renders;

beforeAll(() => {
  shipped = synthRenders('azure-adls', 'prod');
}, 240_000);

const SUBSCRIPTION = '/subscriptions/00000000-0000-4000-a000-000000000001';
const PROD_GROUP = `${SUBSCRIPTION}/resourceGroups/rg-checkpoints-prod`;
const DEPLOY = 'd579da87-daed-4ee2-a570-bded4cc424f4';
const ASSIGNMENT = 'azure-native:authorization:RoleAssignment';
const ROLE = (guid: string) => `${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${guid}`;
const CREDENTIAL = 'azure-native:managedidentity:FederatedIdentityCredential';
const RBAC_ASSIGNMENT = 'deploy-prod-rg-checkpoints-prod-role-based-access-control-administrator';

const deployGrant = (name: string, role: string, scope: string) => ({
  description: 'CI deploy-prod of acme/checkpoint-storage',
  principalId: DEPLOY,
  principalType: 'ServicePrincipal',
  roleAssignmentName: name,
  roleDefinitionId: ROLE(role),
  scope,
});
const deployRole = (renders: Renders) =>
  (
    resourceOf(renders.bootstrap, 'azure-native:authorization:RoleDefinition', 'deploy-prod-role').inputs[
      'permissions'
    ] as { actions: string[]; dataActions: string[] }[]
  )[0]!;

describe('Azure mutations of the bootstrap and azure-adls prod renders', () => {
  it('the shipped renders pass', async () => {
    expect(verdictLines(await mandatoryVerdicts(copyOf(shipped)))).toEqual([]);
  }, 120_000);

  it.each<[string, (renders: Renders) => void, string[]]>([
    [
      "one AND of the deploy identity's role assignment condition turned into OR",
      (r) => {
        const assignment = resourceOf(r.bootstrap, ASSIGNMENT, RBAC_ASSIGNMENT);
        assignment.inputs['condition'] = String(assignment.inputs['condition']).replace(') AND (', ') OR (');
      },
      [
        'ci deploy-prod',
        `RoleAssignment ${RBAC_ASSIGNMENT}`,
        'Microsoft.Authorization/roleAssignments/write',
      ],
    ],
    [
      'a role assignment names a role ID outside the published data',
      (r) =>
        addResource(
          r.bootstrap,
          ASSIGNMENT,
          'deploy-prod-unknown',
          deployGrant(
            '1b9a8d2c-0000-4000-8000-000000000001',
            '99999999-9999-4999-8999-999999999999',
            PROD_GROUP,
          ),
        ),
      ['ci-no-data-access', 'ci deploy-prod', 'not in the published data', 'blobs/read'],
    ],
    [
      'a built-in role that lists account keys, with the account write the deploy identity already holds',
      (r) =>
        addResource(
          r.bootstrap,
          ASSIGNMENT,
          'deploy-prod-key-operator',
          deployGrant(
            '1b9a8d2c-0000-4000-8000-000000000002',
            '81a9662b-bebf-436f-a333-f67b29880f12',
            PROD_GROUP,
          ),
        ),
      [
        'ci-no-data-access',
        'ci deploy-prod',
        'Microsoft.Storage/storageAccounts/listkeys/action',
        'RoleAssignment deploy-prod-key-operator',
      ],
    ],
    [
      'the deploy role gains the ADLS manageOwnership data action',
      (r) => {
        deployRole(r).dataActions.push(
          'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/manageOwnership/action',
        );
      },
      ['ci-no-escalation', 'ci deploy-prod', 'manageOwnership/action'],
    ],
    [
      "the deploy identity's federated credential widened to pull requests",
      (r) => {
        resourceOf(r.bootstrap, CREDENTIAL, 'deploy-prod-github').inputs['subject'] =
          'repo:acme/checkpoint-storage:pull_request';
      },
      [
        'ci-trust-pull-requests-preview-only',
        'ci deploy-prod',
        'trusts pull-request jobs',
        'federated credential github-environment-prod',
      ],
    ],
    [
      "a flexible credential of the deploy identity matches the owner's every repository",
      (r) => {
        const credential = resourceOf(r.bootstrap, CREDENTIAL, 'deploy-prod-github');
        delete credential.inputs['subject'];
        credential.inputs['claimsMatchingExpression'] = {
          value: "claims['sub'] matches 'repo:acme/*'",
          languageVersion: 1,
        };
      },
      [
        'ci-trust-this-repository',
        'ci deploy-prod',
        'trusts another repository',
        'federated credential github-environment-prod',
      ],
    ],
    [
      'Managed Identity Contributor on the bootstrap group: federated credentials on CI',
      (r) =>
        addResource(
          r.bootstrap,
          ASSIGNMENT,
          'deploy-prod-identities',
          deployGrant(
            '1b9a8d2c-0000-4000-8000-000000000003',
            'e40ec5ca-96e0-45a2-b4ff-59039f2c2b59',
            `${SUBSCRIPTION}/resourceGroups/checkpoints-bootstrap-ci-ea804b`,
          ),
        ),
      [
        'azure-ci-no-ci-changes',
        'ci deploy-prod',
        'federatedIdentityCredentials/write',
        'RoleAssignment deploy-prod-identities',
      ],
    ],
    [
      'the deploy role may rewrite role definitions: its own included',
      (r) => {
        deployRole(r).actions.push('Microsoft.Authorization/roleDefinitions/write');
      },
      ['azure-ci-no-ci-changes', 'ci deploy-prod', 'Microsoft.Authorization/roleDefinitions/write'],
    ],
    [
      'a store vault turned to access policies gives the deploy identity key purge',
      (r) => {
        const vault = resourceOf(r.stack, 'azure-native:keyvault:Vault', 'llm-pretrain');
        const properties = vault.inputs['properties'] as Record<string, unknown>;
        properties['enableRbacAuthorization'] = false;
        properties['accessPolicies'] = [
          { objectId: DEPLOY, tenantId: properties['tenantId'], permissions: { keys: ['get', 'purge'] } },
        ];
      },
      ['ci deploy-prod', 'key permission purge from an access policy of vault llm-pretrain'],
    ],
    [
      'a new grant type: an SFTP local user on a prod storage account',
      (r) =>
        addResource(r.stack, 'azure-native:storage:LocalUser', 'llm-pretrain-sftp', {
          accountName: 'prodllmpretrain4ba09a',
          resourceGroupName: 'rg-checkpoints-prod',
          username: 'trainer',
          hasSshPassword: true,
          permissionScopes: [{ permissions: 'rwdlc', resourceName: 'checkpoints', service: 'blob' }],
        }),
      [
        'ci-no-data-access',
        'store llm-pretrain (prod)',
        'can read',
        'azure-native:storage:LocalUser llm-pretrain-sftp',
        'is a grant type the access analysis does not read',
      ],
    ],
    [
      'a new grant type in the bootstrap: a PIM eligibility of the deploy identity',
      (r) =>
        addResource(
          r.bootstrap,
          'azure-native:authorization:PimRoleEligibilitySchedule',
          'deploy-prod-eligible',
          {
            principalId: DEPLOY,
            roleDefinitionId: ROLE('ba92f5b4-2d11-453d-a403-e96b0029c9fe'),
            scope: PROD_GROUP,
          },
        ),
      [
        'ci-no-data-access',
        'can write',
        'azure-native:authorization:PimRoleEligibilitySchedule deploy-prod-eligible',
        'is a grant type the access analysis does not read',
      ],
    ],
  ])(
    '%s',
    async (_name, mutate, words) => {
      expect((await verdictsNaming(shipped, mutate, words)).length).toBeGreaterThan(0);
    },
    120_000,
  );
});

/**
 * The independent copy: the renders of ./fixtures/azure-copy (the bootstrap and the prod stack in eastasia, where
 * vaulted backup of ADLS is offered, the prod store llm-pretrain promising a 30-day copy). Every way to break it or
 * to put it in CI's reach must fail a mandatory rule naming the store and why.
 */
describe('Azure mutations of the independent copy', () => {
  const FIXTURES = join(__dirname, 'fixtures', 'azure-copy');
  const VAULT = 'azure-native:dataprotection:BackupVault';
  const POLICY = 'azure-native:dataprotection:BackupPolicy';
  const INSTANCE = 'azure-native:dataprotection:BackupInstance';
  const BACKUP_GROUP = `${SUBSCRIPTION}/resourceGroups/rg-checkpoints-backup-prod`;
  const STORE = 'store llm-pretrain (prod)';
  let copied: Renders;

  beforeAll(() => {
    copied = synthRenders('azure-adls', 'prod', {
      bootstrap: join(FIXTURES, 'ci.yaml'),
      stack: join(FIXTURES, 'prod.yaml'),
    });
  }, 240_000);

  const security = (r: Renders) =>
    (resourceOf(r.bootstrap, VAULT, 'backup-vault-prod').inputs['properties'] as Record<string, unknown>)[
      'securitySettings'
    ] as Record<string, Record<string, unknown>>;
  const instance = (r: Renders) => resourceOf(r.bootstrap, INSTANCE, 'backup-prod-llm-pretrain');
  const instanceProperties = (r: Renders) => instance(r).inputs['properties'] as Record<string, unknown>;

  it('the renders with the copy pass, and the copy holds the store 29 days against the deploy identity', async () => {
    expect(verdictLines(await mandatoryVerdicts(copyOf(copied)))).toEqual([]);
    const { stores } = await accessAnalysisOf(createAnalysisContext(copied.stack, copied.bootstrap));
    const deploy = stores[0]?.grants.find(
      (grant) => grant.principal.label === 'ci deploy-prod' && grant.operation === 'destroy-by-config',
    );
    expect(deploy?.configuration?.copy).toMatchObject({ days: 29, promisedDays: 30, lifts: [] });
    expect(deploy?.reason).toMatch(
      /still recoverable from the independent copy \(Backup vault ckpt-backup-prod-/,
    );
  }, 120_000);

  it.each<[string, (renders: Renders) => void, string[]]>([
    [
      'the vault without immutability',
      (r) => {
        delete security(r)['immutabilitySettings'];
      },
      ['ci-prod-no-destroy', STORE, 'faces no independent copy', 'is not immutable'],
    ],
    [
      'soft delete turned off on the vault',
      (r) => {
        security(r)['softDeleteSettings'] = { state: 'Off' };
      },
      ['ci-prod-no-destroy', STORE, 'faces no independent copy', 'soft delete Off'],
    ],
    [
      "the store's backup instance removed (the bootstrap no longer lists it)",
      (r) => {
        r.bootstrap.resources = r.bootstrap.resources.filter((each) => each.type !== INSTANCE);
      },
      ['ci-prod-no-destroy', STORE, "no backup instance of the store's account is rendered"],
    ],
    [
      'the policy keeps recovery points fewer days than the store promises',
      (r) => {
        const rules = (
          resourceOf(r.bootstrap, POLICY, 'backup-policy-prod').inputs['properties'] as {
            policyRules: { lifecycles?: { deleteAfter: { duration: string } }[] }[];
          }
        ).policyRules;
        for (const rule of rules)
          for (const lifecycle of rule.lifecycles ?? []) lifecycle.deleteAfter.duration = 'P10D';
      },
      ['ci-prod-no-destroy', STORE, 'keeps a recovery point 10 days, less than the 30'],
    ],
    [
      "the vault moved into the stack's own resource group",
      (r) => {
        resourceOf(r.bootstrap, VAULT, 'backup-vault-prod').inputs['resourceGroupName'] =
          'rg-checkpoints-prod';
        instance(r).inputs['resourceGroupName'] = 'rg-checkpoints-prod';
      },
      // There the deploy identity's own roles on the group reach it.
      [
        'ci-prod-no-destroy',
        STORE,
        'ci deploy-prod can lift the independent copy',
        'on /subscriptions/00000000-0000-4000-a000-000000000001/resourceGroups/rg-checkpoints-prod ',
      ],
    ],
    [
      "the vault identity's role on the account removed",
      (r) => {
        r.bootstrap.resources = r.bootstrap.resources.filter(
          (each) => !(each.type === ASSIGNMENT && each.name === 'backup-prod-llm-pretrain'),
        );
      },
      ['ci-prod-no-destroy', STORE, 'holds no Storage Account Backup Contributor role'],
    ],
    [
      "the backup instance leaves out the store's filesystem",
      (r) => {
        const policyInfo = instanceProperties(r)['policyInfo'] as {
          policyParameters: { backupDatasourceParametersList: { containersList: string[] }[] };
        };
        policyInfo.policyParameters.backupDatasourceParametersList[0]!.containersList = ['other'];
      },
      ['ci-prod-no-destroy', STORE, "does not list the store's filesystem"],
    ],
    [
      'the deploy identity made Contributor on the backup resource group: it may rewrite the policy',
      (r) =>
        addResource(
          r.bootstrap,
          ASSIGNMENT,
          'deploy-prod-backup-contributor',
          deployGrant(
            '1b9a8d2c-0000-4000-8000-000000000004',
            'b24988ac-6180-42a0-ab88-20f7382dd24c',
            BACKUP_GROUP,
          ),
        ),
      [
        'ci-prod-no-destroy',
        STORE,
        'ci deploy-prod',
        'can lift the independent copy in Backup vault',
        'Microsoft.DataProtection/backupVaults/backupPolicies/write',
      ],
    ],
    [
      'the deploy role, also granted on the backup group, gains the vault write: it turns the unlocked immutability off',
      (r) => {
        deployRole(r).actions.push('Microsoft.DataProtection/backupVaults/write');
        const definition = resourceOf(
          r.bootstrap,
          'azure-native:authorization:RoleDefinition',
          'deploy-prod-role',
        );
        addResource(
          r.bootstrap,
          ASSIGNMENT,
          'deploy-prod-backup-group',
          deployGrant(
            '1b9a8d2c-0000-4000-8000-000000000006',
            String(definition.inputs['roleDefinitionId']),
            BACKUP_GROUP,
          ),
        );
      },
      [
        'ci-prod-no-destroy',
        STORE,
        'ci deploy-prod can lift the independent copy',
        "which turns off the vault's immutability (Unlocked)",
      ],
    ],
    [
      'another principal made Contributor on the backup resource group by the bootstrap',
      (r) =>
        addResource(r.bootstrap, ASSIGNMENT, 'backup-group-operator', {
          principalId: '7c1d2e3f-0000-4000-8000-00000000abcd',
          principalType: 'User',
          roleAssignmentName: '1b9a8d2c-0000-4000-8000-000000000007',
          roleDefinitionId: ROLE('b24988ac-6180-42a0-ab88-20f7382dd24c'),
          scope: BACKUP_GROUP,
        }),
      [
        'ci-prod-no-destroy',
        STORE,
        '7c1d2e3f-0000-4000-8000-00000000abcd can lift the independent copy',
        'Microsoft.DataProtection/backupVaults/backupPolicies/write',
      ],
    ],
    [
      'the deploy identity given Backup MUA Operator on the vault: it may restore the copy anywhere',
      (r) =>
        addResource(
          r.bootstrap,
          ASSIGNMENT,
          'deploy-prod-backup-operator',
          deployGrant(
            '1b9a8d2c-0000-4000-8000-000000000005',
            'f54b6d04-23c6-443e-b462-9c16ab7b4a52',
            `${BACKUP_GROUP}/providers/Microsoft.DataProtection/backupVaults/${String(
              resourceOf(r.bootstrap, VAULT, 'backup-vault-prod').inputs['vaultName'],
            )}`,
          ),
        ),
      ['ci-no-data-access', STORE, 'ci deploy-prod', 'can restore the independent copy', 'restore/action'],
    ],
  ])(
    '%s',
    async (_name, mutate, words) => {
      expect((await verdictsNaming(copied, mutate, words)).length).toBeGreaterThan(0);
    },
    120_000,
  );
});
