import { ofType, type Snapshot } from '@checkpoints/synth';
import { ofTypeByName, renderBootstrap, resource, sortedRows } from './helpers';

const POOL = 'projects/123456789012/locations/global/workloadIdentityPools/checkpoints-ci';
const PROVIDER = `${POOL}/providers/github-actions`;
const EMAIL = (id: string, project = 'acme-checkpoints-ci') => `${id}@${project}.iam.gserviceaccount.com`;
const PREVIEW_ROLES = [
  'roles/storage.bucketViewer',
  'roles/cloudkms.viewer',
  'roles/iam.serviceAccountViewer',
  'roles/iam.securityReviewer',
];
const DEPLOY_ROLES = ['roles/storage.admin', 'roles/cloudkms.admin', 'roles/iam.serviceAccountAdmin'];

/** [project, role] of every project-level grant to a service account. */
function projectGrants(snapshot: Snapshot, email: string): [unknown, unknown][] {
  return sortedRows(
    ofType(snapshot, 'gcp:projects/iAMMember:IAMMember')
      .filter((member) => member.inputs['member'] === `serviceAccount:${email}`)
      .map((member): [unknown, unknown] => [member.inputs['project'], member.inputs['role']]),
  );
}

describe('GCP CI identities', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderBootstrap();
  });

  it('has a protected workload identity pool', () => {
    const pool = resource(snapshot, 'gcp:iam/workloadIdentityPool:WorkloadIdentityPool', 'github');
    expect(pool.inputs).toEqual({
      project: 'acme-checkpoints-ci',
      workloadIdentityPoolId: 'checkpoints-ci',
      displayName: 'GitHub Actions',
      description: 'CI of acme/checkpoint-storage: previews and deploys of the checkpoint-storage stacks',
    });
    expect(pool.protect).toBe(true);
  });

  it("admits GitHub's tokens of this repository only, for its own audience, and keeps their subject", () => {
    const provider = resource(
      snapshot,
      'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider',
      'github',
    );
    expect(provider.inputs).toEqual({
      project: 'acme-checkpoints-ci',
      workloadIdentityPoolId: 'checkpoints-ci',
      workloadIdentityPoolProviderId: 'github-actions',
      displayName: 'GitHub',
      description: 'OIDC tokens of GitHub Actions jobs of acme/checkpoint-storage',
      attributeMapping: { 'google.subject': 'assertion.sub', 'attribute.repository': 'assertion.repository' },
      attributeCondition: "assertion.repository == 'acme/checkpoint-storage'",
      oidc: {
        issuerUri: 'https://token.actions.githubusercontent.com',
        allowedAudiences: [`https://iam.googleapis.com/${PROVIDER}`],
      },
    });
    expect(provider.protect).toBe(true);
  });

  it('lets each service account be used by exactly its subjects: pull requests and drift for preview, its environment for deploy', () => {
    const bindings = ofTypeByName(snapshot, 'gcp:serviceaccount/iAMMember:IAMMember').map((binding) => [
      binding.name,
      binding.inputs,
    ]);
    expect(bindings).toEqual([
      [
        'deploy-dev-federation',
        {
          serviceAccountId: `projects/acme-checkpoints-ci/serviceAccounts/${EMAIL('checkpoints-ci-deploy-dev')}`,
          role: 'roles/iam.workloadIdentityUser',
          member: `principal://iam.googleapis.com/${POOL}/subject/repo:acme/checkpoint-storage:environment:dev`,
        },
      ],
      [
        'deploy-prod-federation',
        {
          serviceAccountId: `projects/acme-checkpoints-ci/serviceAccounts/${EMAIL('checkpoints-ci-deploy-prod')}`,
          role: 'roles/iam.workloadIdentityUser',
          member: `principal://iam.googleapis.com/${POOL}/subject/repo:acme/checkpoint-storage:environment:prod`,
        },
      ],
      [
        // The binding the preview account always had keeps its name: renamed, deleting the old one
        // would revoke the very member the new one grants.
        'preview-federation',
        {
          serviceAccountId: `projects/acme-checkpoints-ci/serviceAccounts/${EMAIL('checkpoints-ci-preview')}`,
          role: 'roles/iam.workloadIdentityUser',
          member: `principal://iam.googleapis.com/${POOL}/subject/repo:acme/checkpoint-storage:pull_request`,
        },
      ],
      [
        'preview-federation-environment-drift',
        {
          serviceAccountId: `projects/acme-checkpoints-ci/serviceAccounts/${EMAIL('checkpoints-ci-preview')}`,
          role: 'roles/iam.workloadIdentityUser',
          member: `principal://iam.googleapis.com/${POOL}/subject/repo:acme/checkpoint-storage:environment:drift`,
        },
      ],
    ]);
  });

  it('grants preview the read-only roles and each deploy account the stack roles, on the project', () => {
    expect(projectGrants(snapshot, EMAIL('checkpoints-ci-preview'))).toEqual(
      sortedRows(PREVIEW_ROLES.map((role) => ['acme-checkpoints-ci', role])),
    );
    for (const environment of ['dev', 'prod']) {
      expect(projectGrants(snapshot, EMAIL(`checkpoints-ci-deploy-${environment}`))).toEqual(
        sortedRows(DEPLOY_ROLES.map((role) => ['acme-checkpoints-ci', role])),
      );
    }
    expect(ofType(snapshot, 'gcp:projects/iAMMember:IAMMember')).toHaveLength(
      PREVIEW_ROLES.length + 2 * DEPLOY_ROLES.length,
    );
  });

  it('outputs the provider and the service accounts as the repository variables', () => {
    expect(snapshot.outputs).toMatchObject({
      GCP_WORKLOAD_IDENTITY_PROVIDER: PROVIDER,
      GCP_PREVIEW_SERVICE_ACCOUNT: EMAIL('checkpoints-ci-preview'),
      GCP_DEPLOY_SERVICE_ACCOUNT_DEV: EMAIL('checkpoints-ci-deploy-dev'),
      GCP_DEPLOY_SERVICE_ACCOUNT_PROD: EMAIL('checkpoints-ci-deploy-prod'),
    });
  });
});

describe('GCP CI identities with a project per environment', () => {
  it("grants each deploy account its environment's project, and preview every one of them", async () => {
    const snapshot = await renderBootstrap({
      'bootstrap:gcp': { stackProjects: { prod: 'acme-checkpoints-prod' } },
    });
    expect(projectGrants(snapshot, EMAIL('checkpoints-ci-preview'))).toEqual(
      sortedRows([
        ...PREVIEW_ROLES.map((role) => ['acme-checkpoints-ci', role]),
        ...PREVIEW_ROLES.map((role) => ['acme-checkpoints-prod', role]),
      ]),
    );
    expect(projectGrants(snapshot, EMAIL('checkpoints-ci-deploy-dev'))).toEqual(
      sortedRows(DEPLOY_ROLES.map((role) => ['acme-checkpoints-ci', role])),
    );
    expect(projectGrants(snapshot, EMAIL('checkpoints-ci-deploy-prod'))).toEqual(
      sortedRows(DEPLOY_ROLES.map((role) => ['acme-checkpoints-prod', role])),
    );
    // The identities themselves stay in the CI project, out of the prod deploy account's reach.
    expect(
      ofType(snapshot, 'gcp:serviceaccount/account:Account').map((account) => account.inputs['project']),
    ).toEqual(['acme-checkpoints-ci', 'acme-checkpoints-ci', 'acme-checkpoints-ci']);
  });
});
