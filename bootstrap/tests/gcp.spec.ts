import { ofType, type Snapshot } from '@checkpoints/synth';
import type { ConfigError } from '@checkpoints/config';
import { ofTypeByName, renderBootstrap, renderFailure, resource, sortedRows } from './helpers';

const POOL = 'projects/123456789012/locations/global/workloadIdentityPools/checkpoints-ci';
const PROVIDER = `${POOL}/providers/github-actions`;
const EMAIL = (id: string, project = 'acme-checkpoints-ci') => `${id}@${project}.iam.gserviceaccount.com`;
const PREVIEW_ROLES = [
  'roles/storage.bucketViewer',
  'roles/cloudkms.viewer',
  'roles/iam.serviceAccountViewer',
  'roles/iam.securityReviewer',
];
const DEPLOY_ROLES = (project: string) => [
  'roles/storage.admin',
  `projects/${project}/roles/checkpointsBucketPerimeter`,
  `projects/${project}/roles/checkpointsStoreIdentities`,
  `projects/${project}/roles/checkpointsStoreKeys`,
];

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

  it('grants preview the read-only roles on every stack project, each deploy account its stack roles on its own project', () => {
    const projects = { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' };
    expect(projectGrants(snapshot, EMAIL('checkpoints-ci-preview'))).toEqual(
      sortedRows(
        Object.values(projects).flatMap((project) =>
          [...PREVIEW_ROLES, `projects/${project}/roles/checkpointsCacheViewer`].map((role) => [
            project,
            role,
          ]),
        ),
      ),
    );
    for (const [environment, project] of Object.entries(projects)) {
      expect(projectGrants(snapshot, EMAIL(`checkpoints-ci-deploy-${environment}`))).toEqual(
        sortedRows(DEPLOY_ROLES(project).map((role) => [project, role])),
      );
    }
    // The identities themselves stay in the CI project, out of the deploy accounts' reach.
    expect(
      ofType(snapshot, 'gcp:serviceaccount/account:Account').map((account) => account.inputs['project']),
    ).toEqual(['acme-checkpoints-ci', 'acme-checkpoints-ci', 'acme-checkpoints-ci']);
  });

  it('gives no deploy account a role that sets IAM policies on service accounts, and no prod one key destruction', () => {
    const permissions = (name: string) =>
      resource(snapshot, 'gcp:projects/iAMCustomRole:IAMCustomRole', name).inputs['permissions'] as string[];
    for (const environment of ['dev', 'prod']) {
      expect(permissions(`deploy-${environment}-checkpointsStoreIdentities`)).not.toContain(
        'iam.serviceAccounts.setIamPolicy',
      );
    }
    expect(permissions('deploy-dev-checkpointsStoreKeys')).toContain('cloudkms.cryptoKeyVersions.destroy');
    expect(permissions('deploy-prod-checkpointsStoreKeys')).not.toContain(
      'cloudkms.cryptoKeyVersions.destroy',
    );
  });

  it('denies every CI account checkpoint data in each stack project, and the prod deploy account bucket deletion', () => {
    const ci = ['preview', 'deploy-dev', 'deploy-prod'].map(
      (purpose) =>
        `principal://iam.googleapis.com/projects/-/serviceAccounts/${EMAIL(`checkpoints-ci-${purpose}`)}`,
    );
    const policy = (environment: string) =>
      resource(snapshot, 'gcp:iam/denyPolicy:DenyPolicy', `ci-guards-${environment}`);
    expect(policy('dev').inputs['parent']).toBe(
      'cloudresourcemanager.googleapis.com%2Fprojects%2Facme-checkpoints-dev',
    );
    const rules = (environment: string) =>
      (
        policy(environment).inputs['rules'] as {
          denyRule: { deniedPrincipals: string[]; deniedPermissions: string[] };
        }[]
      ).map(({ denyRule }) => denyRule);
    for (const environment of ['dev', 'prod']) {
      expect(rules(environment)[0]?.deniedPrincipals).toEqual(ci);
      expect(rules(environment)[0]?.deniedPermissions).toContain('storage.googleapis.com/objects.get');
      expect(policy(environment).protect).toBe(true);
    }
    expect(rules('dev')).toHaveLength(2);
    expect(rules('prod')[1]).toEqual({
      deniedPrincipals: [ci[2]],
      deniedPermissions: ['storage.googleapis.com/buckets.delete'],
    });
    expect(rules('dev')[1]).toEqual({
      deniedPrincipals: ['principalSet://goog/public:all'],
      deniedPermissions: ['cloudkms.googleapis.com/cryptoKeyVersions.update'],
    });
    expect(rules('prod')[2]).toEqual({
      deniedPrincipals: ['principalSet://goog/public:all'],
      deniedPermissions: [
        'cloudkms.googleapis.com/cryptoKeyVersions.update',
        'cloudkms.googleapis.com/cryptoKeyVersions.destroy',
      ],
    });
  });

  it('records Cloud Storage reads and writes in every stack project, without exemptions unless configured, protected', () => {
    const configs = ofType(snapshot, 'gcp:projects/iAMAuditConfig:IAMAuditConfig');
    expect(sortedRows(configs.map((config) => [config.inputs['project'], config.inputs['service']]))).toEqual(
      [
        ['acme-checkpoints-dev', 'storage.googleapis.com'],
        ['acme-checkpoints-prod', 'storage.googleapis.com'],
      ],
    );
    for (const config of configs) {
      expect(config.inputs['auditLogConfigs']).toEqual([{ logType: 'DATA_READ' }, { logType: 'DATA_WRITE' }]);
      expect(config.protect).toBe(true);
    }
  });

  it('lets CI reach filtered buckets for metadata only: the IP filter exemption, never an object permission', () => {
    const permissions = (name: string) =>
      resource(snapshot, 'gcp:projects/iAMCustomRole:IAMCustomRole', name).inputs['permissions'] as string[];
    expect(permissions('deploy-prod-checkpointsBucketPerimeter')).toEqual([
      'storage.buckets.exemptFromIpFilter',
    ]);
    expect(permissions('preview-acme-checkpoints-prod-checkpointsCacheViewer')).toEqual(
      expect.arrayContaining(['storage.buckets.exemptFromIpFilter', 'storage.buckets.getIpFilter']),
    );
    for (const name of [
      'deploy-prod-checkpointsBucketPerimeter',
      'preview-acme-checkpoints-prod-checkpointsCacheViewer',
    ]) {
      expect(permissions(name).filter((permission) => permission.startsWith('storage.objects.'))).toEqual([]);
    }
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

describe('GCP Data Access audit exemptions (bootstrap:gcp.auditExemptMembers)', () => {
  const STACK_PROJECTS = { dev: 'acme-checkpoints-dev', prod: 'acme-checkpoints-prod' };
  const WRITER = 'serviceAccount:checkpoints-w@acme-checkpoints-prod.iam.gserviceaccount.com';

  it("exempts the configured members from the environment's project only, on both log types", async () => {
    const snapshot = await renderBootstrap({
      'bootstrap:gcp': { stackProjects: STACK_PROJECTS, auditExemptMembers: { prod: [WRITER] } },
    });
    const configOf = (name: string) =>
      resource(snapshot, 'gcp:projects/iAMAuditConfig:IAMAuditConfig', name).inputs['auditLogConfigs'];
    expect(configOf('storage-data-access-acme-checkpoints-prod')).toEqual([
      { logType: 'DATA_READ', exemptedMembers: [WRITER] },
      { logType: 'DATA_WRITE', exemptedMembers: [WRITER] },
    ]);
    expect(configOf('storage-data-access-acme-checkpoints-dev')).toEqual([
      { logType: 'DATA_READ' },
      { logType: 'DATA_WRITE' },
    ]);
  });

  it.each<[string, Record<string, string[]>, string, string]>([
    [
      'a group in prod',
      { prod: ['group:ml@example.com'] },
      'bootstrap:gcp.auditExemptMembers.prod[0]',
      'stands for every member of a domain or group',
    ],
    [
      'a workload identity principal',
      {
        dev: [
          'principal://iam.googleapis.com/projects/1/locations/global/workloadIdentityPools/p-1234/subject/x',
        ],
      },
      'bootstrap:gcp.auditExemptMembers.dev[0]',
      'is not a member an audit config can exempt',
    ],
    [
      'an environment CI does not deploy',
      { staging: [WRITER] },
      'bootstrap:gcp.auditExemptMembers.staging',
      'is not an environment of bootstrap:environments (dev, prod)',
    ],
  ])('refuses %s', async (_title, auditExemptMembers, path, message) => {
    const failure = await renderFailure({
      'bootstrap:gcp': { stackProjects: STACK_PROJECTS, auditExemptMembers },
    });
    const issues = (failure.cause as ConfigError).issues;
    expect(issues.map((issue) => issue.path)).toEqual([path]);
    expect(issues[0]?.message).toContain(message);
  });
});

describe("the stack projects' Data Access log, exported into a locked bucket", () => {
  it('prod: a sink of the storage Data Access log into a bucket whose year of retention is locked; dev: unlocked', async () => {
    const snapshot = await renderBootstrap();
    const buckets = snapshot.resources.filter((r) => r.type === 'gcp:storage/bucket:Bucket');
    const retention = Object.fromEntries(
      buckets.map((b) => [b.inputs['project'], b.inputs['retentionPolicy']]),
    );
    expect(retention).toEqual({
      'acme-checkpoints-dev': { retentionPeriod: '31536000', isLocked: false },
      'acme-checkpoints-prod': { retentionPeriod: '31536000', isLocked: true },
    });
    const sinks = snapshot.resources.filter((r) => r.type === 'gcp:logging/projectSink:ProjectSink');
    expect(sinks.map((sink) => [sink.inputs['project'], sink.inputs['destination'], sink.protect])).toEqual([
      ['acme-checkpoints-dev', 'storage.googleapis.com/acme-checkpoints-dev-data-access-audit', true],
      ['acme-checkpoints-prod', 'storage.googleapis.com/acme-checkpoints-prod-data-access-audit', true],
    ]);
    for (const sink of sinks) {
      expect(sink.inputs['filter']).toContain('cloudaudit.googleapis.com%2Fdata_access');
      expect(sink.inputs['filter']).toContain('protoPayload.serviceName="storage.googleapis.com"');
    }
  });
});
