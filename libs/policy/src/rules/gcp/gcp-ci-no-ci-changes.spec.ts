import { ciViolationsOf, gcpAccount, gcpCiResources, type CiResource } from '../../../testing/ci-identities';
import { gcpCiNoCiChanges } from './gcp-ci-no-ci-changes';

const DEPLOY = `serviceAccount:${gcpAccount('deploy-prod')}`;
const projectRole = (role: string, project = 'ml-platform-prod-7310'): CiResource => ({
  type: 'gcp:projects/iAMMember:IAMMember',
  name: `deploy-prod-${role.split('/').pop() ?? role}`,
  inputs: { project, role, member: DEPLOY },
});
const keyRole = (permissions: string[]): CiResource[] => [
  {
    type: 'gcp:projects/iAMCustomRole:IAMCustomRole',
    name: 'keys',
    inputs: { project: 'ml-platform-prod-7310', roleId: 'keys', permissions },
  },
  projectRole('projects/ml-platform-prod-7310/roles/keys'),
];
const everyoneDenied = (permissions: string[]): CiResource => ({
  type: 'gcp:iam/denyPolicy:DenyPolicy',
  name: 'ci-guards-prod',
  inputs: {
    parent: 'cloudresourcemanager.googleapis.com%2Fprojects%2Fml-platform-prod-7310',
    rules: [
      { denyRule: { deniedPrincipals: ['principalSet://goog/public:all'], deniedPermissions: permissions } },
    ],
  },
});

const judge = (grants: CiResource[]) => ciViolationsOf(gcpCiNoCiChanges, gcpCiResources({ grants }));

describe('gcp-ci-no-ci-changes', () => {
  it('passes a deploy account with bucket rights only', async () => {
    expect(await judge([projectRole('roles/storage.admin')])).toEqual([]);
  });

  it("flags setIamPolicy on CI's service accounts", async () => {
    expect(await judge([projectRole('roles/iam.serviceAccountAdmin', 'acme-checkpoints-ci')])).toContain(
      `ci deploy-prod can change the IAM policy of ci preview: iam.serviceAccounts.setIamPolicy from roles/iam.serviceAccountAdmin on projects/acme-checkpoints-ci (IAMMember deploy-prod-iam.serviceAccountAdmin)`,
    );
  });

  it('flags a role that can rewrite the workload identity providers', async () => {
    const violations = await judge([
      projectRole('roles/iam.workloadIdentityPoolAdmin', 'acme-checkpoints-ci'),
    ]);
    expect(
      violations.some((v) =>
        v.startsWith(
          'ci deploy-prod can change the workload identity providers: iam.workloadIdentityPoolProviders.update from roles/iam.workloadIdentityPoolAdmin',
        ),
      ),
    ).toBe(true);
  });

  it("flags key setIamPolicy while disabling and destroying key versions are not denied: it can make itself the key's admin", async () => {
    expect(await judge(keyRole(['cloudkms.cryptoKeys.setIamPolicy']))).toEqual([
      "ci deploy-prod can change a store key's IAM policy (it can make itself the key's admin): cloudkms.cryptoKeys.setIamPolicy from projects/ml-platform-prod-7310/roles/keys on projects/ml-platform-prod-7310 (IAMMember deploy-prod-keys), and no deny policy denies it cloudkms.cryptoKeyVersions.destroy or cloudkms.cryptoKeyVersions.update",
    ]);
  });

  it('passes key setIamPolicy once a deny policy takes both from every principal', async () => {
    expect(
      await judge([
        ...keyRole(['cloudkms.cryptoKeys.setIamPolicy']),
        everyoneDenied([
          'cloudkms.googleapis.com/cryptoKeyVersions.destroy',
          'cloudkms.googleapis.com/cryptoKeyVersions.update',
        ]),
      ]),
    ).toEqual([]);
  });

  it('counts a grant type no model reads as everything for an unknown principal, naming it', async () => {
    const pool: CiResource = {
      type: 'gcp:iam/workloadIdentityPoolIamMember:WorkloadIdentityPoolIamMember',
      name: 'pool-admin',
      inputs: { role: 'roles/iam.workloadIdentityPoolAdmin', member: DEPLOY },
    };
    expect(await judge([pool])).toEqual([
      'an unknown principal (of gcp:iam/workloadIdentityPoolIamMember:WorkloadIdentityPoolIamMember pool-admin) can change the CI identities: gcp:iam/workloadIdentityPoolIamMember:WorkloadIdentityPoolIamMember pool-admin is a grant type the access analysis does not read: counted as granting every operation to an unknown principal, who may be a CI identity',
    ]);
  });

  it('counts a role outside the published data as holding every permission, and says so', async () => {
    const violations = await judge([projectRole('roles/iam.somethingNew', 'acme-checkpoints-ci')]);
    expect(violations.length).toBeGreaterThan(0);
    expect(
      violations.every((v) => v.includes('roles/iam.somethingNew is not in the published role data')),
    ).toBe(true);
  });
});
