import type { Render, RenderedResource } from '@checkpoints/render';
import { analyzeAccess, type AccessGrant } from '../../src';
import { renderOf, resource } from './fixtures';

/**
 * Destruction and blinding through configuration, judged by what the worst write does to a checkpoint in the
 * retention replay: how many days it stays recoverable, under the guardrails that hold against the principal.
 */
const RETENTION = {
  keepNoncurrentVersions: 3,
  noncurrentExpireDays: 7,
  softDeleteDays: 14,
  expireAfterDays: 0,
  keptPrefixes: [],
  expirePrefixes: [],
};

/** The render with the store component carrying its spec's tier and retention, as the stacks render it. */
function withSpec(render: Pick<Render, 'resources'>, tier = 'standard'): Pick<Render, 'resources'> {
  return {
    resources: render.resources.map((r: RenderedResource) =>
      r.type.endsWith(':CheckpointStore') ? { ...r, inputs: { tier, retention: RETENTION } } : r,
    ),
  };
}

async function grantOf(
  render: Pick<Render, 'resources'>,
  bootstrap: Pick<Render, 'resources'>,
  operation: AccessGrant['operation'],
  label = 'ci deploy-prod',
): Promise<AccessGrant | undefined> {
  const [store] = (await analyzeAccess(render, bootstrap)).stores;
  return store?.grants.find((grant) => grant.principal.label === label && grant.operation === operation);
}

describe('GCP: one bucket update destroys what no organization policy keeps', () => {
  const PROJECT = 'acme-prod';
  const CI = 'serviceAccount:ci-deploy-prod@acme-ci.iam.gserviceaccount.com';
  const store = withSpec(
    renderOf({ type: 'checkpoints:gcp:CheckpointStore' }, [
      resource('gcp:storage/bucket:Bucket', 'ckpt-bucket', {
        name: 'ckpt-bucket',
        project: PROJECT,
        labels: { environment: 'prod' },
        versioning: { enabled: true },
        softDeletePolicy: { retentionDurationSeconds: 14 * 86_400 },
      }),
    ]),
  );
  const bootstrap = (extra: ReturnType<typeof resource>[]) =>
    renderOf({ type: 'checkpoints:bootstrap:GcpCiIdentities', name: 'gcp' }, [
      resource('gcp:serviceaccount/account:Account', 'deploy-prod', {
        accountId: 'ci-deploy-prod',
        project: 'acme-ci',
      }),
      resource('gcp:projects/iAMMember:IAMMember', 'admin', {
        project: PROJECT,
        role: 'roles/storage.admin',
        member: CI,
      }),
      ...extra,
    ]);
  const softDeletePolicy = (days: number) =>
    resource('gcp:orgpolicy/policy:Policy', 'soft-delete', {
      name: `projects/${PROJECT}/policies/storage.softDeletePolicySeconds`,
      parent: `projects/${PROJECT}`,
      spec: { rules: [{ values: { allowedValues: [String(days * 86_400), String(90 * 86_400)] } }] },
    });

  it('without the organization policy, versioning and soft delete go and a Delete at age 0 leaves nothing after a day', async () => {
    const grant = await grantOf(store, bootstrap([]), 'destroy-by-config');
    expect(grant?.configuration).toMatchObject({ goneAfterDays: 1, guardedGoneAfterDays: 1, windowDays: 7 });
    expect(grant?.configuration?.writes.map((write) => write.permission)).toEqual(['storage.buckets.update']);
  });

  it('with the organization policy holding soft delete at 7 days, every checkpoint stays recoverable 7 days or more', async () => {
    const grant = await grantOf(store, bootstrap([softDeletePolicy(7)]), 'destroy-by-config');
    expect(grant?.configuration?.guardedGoneAfterDays).toBeGreaterThanOrEqual(7);
  });

  it('an identity that may set organization policies lifts it', async () => {
    const grant = await grantOf(
      store,
      bootstrap([
        softDeletePolicy(7),
        resource('gcp:projects/iAMCustomRole:IAMCustomRole', 'orgpolicy-role', {
          project: PROJECT,
          roleId: 'orgPolicySetter',
          permissions: ['orgpolicy.policy.set'],
        }),
        resource('gcp:projects/iAMMember:IAMMember', 'orgpolicy', {
          project: PROJECT,
          role: `projects/${PROJECT}/roles/orgPolicySetter`,
          member: CI,
        }),
      ]),
      'destroy-by-config',
    );
    expect(grant?.configuration?.goneAfterDays).toBe(1);
  });
});

describe('Azure: management policy and soft delete, under an Azure Policy deny', () => {
  const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
  const GROUP = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-prod`;
  const CI = '10000000-0000-4000-8000-000000000003';
  const ROLE = '44444444-4444-4444-8444-444444444444';
  const store = withSpec(
    renderOf({ type: 'checkpoints:azure:CheckpointStore' }, [
      resource('azure-native:storage:StorageAccount', 'ckpt-account', {
        accountName: 'ckptacct',
        resourceGroupName: 'rg-prod',
        isHnsEnabled: true,
        allowSharedKeyAccess: false,
        tags: { environment: 'prod' },
      }),
      resource('azure-native:storage:BlobContainer', 'ckpt-container', {
        accountName: 'ckptacct',
        containerName: 'checkpoints',
        resourceGroupName: 'rg-prod',
      }),
      resource('azure-native:storage:BlobServiceProperties', 'ckpt-blob', {
        accountName: 'ckptacct',
        resourceGroupName: 'rg-prod',
        deleteRetentionPolicy: { enabled: true, days: 14 },
      }),
    ]),
  );
  const bootstrap = (actions: string[], extra: ReturnType<typeof resource>[] = []) =>
    renderOf({ type: 'checkpoints:bootstrap:AzureCiIdentities', name: 'azure' }, [
      resource('azure-native:authorization:RoleDefinition', 'deploy', {
        roleDefinitionId: ROLE,
        roleName: 'checkpoints-deploy-prod',
        scope: GROUP,
        permissions: [{ actions, notActions: [], dataActions: [], notDataActions: [] }],
        assignableScopes: [GROUP],
      }),
      resource('azure-native:authorization:RoleAssignment', 'deploy-prod-0', {
        principalId: CI,
        principalType: 'ServicePrincipal',
        roleDefinitionId: `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/${ROLE}`,
        scope: GROUP,
        description: 'CI deploy-prod of acme/checkpoint-storage',
      }),
      resource('azure-native:managedidentity:UserAssignedIdentity', 'deploy-prod', {
        resourceName: 'ci-deploy-prod',
      }),
      ...extra,
    ]);
  const DEPLOY = [
    'Microsoft.Storage/storageAccounts/managementPolicies/write',
    'Microsoft.Storage/storageAccounts/blobServices/write',
    'Microsoft.Insights/diagnosticSettings/write',
  ];
  const softDeleteGuard = [
    resource('azure-native:authorization:PolicyDefinition', 'soft-delete', {
      policyDefinitionName: 'checkpoints-soft-delete-minimum',
      policyRule: {
        if: {
          field: 'Microsoft.Storage/storageAccounts/blobServices/default.deleteRetentionPolicy.days',
          less: "[parameters('minimumDays')]",
        },
        then: { effect: 'deny' },
      },
    }),
    resource('azure-native:authorization:PolicyAssignment', 'soft-delete-prod', {
      policyDefinitionId: `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/policyDefinitions/checkpoints-soft-delete-minimum`,
      scope: GROUP,
      parameters: { minimumDays: { value: 14 } },
    }),
  ];

  it('without the policy, soft delete is turned off and every blob is deleted after a day', async () => {
    const grant = await grantOf(store, bootstrap(DEPLOY), 'destroy-by-config');
    expect(grant?.configuration).toMatchObject({ goneAfterDays: 1, windowDays: 14 });
    expect(grant?.configuration?.writes.map((write) => write.permission)).toEqual(DEPLOY.slice(0, 2));
  });

  it('with the deny assignment at the group, what lifecycle deletes stays in soft delete 14 days or more', async () => {
    const grant = await grantOf(store, bootstrap(DEPLOY, softDeleteGuard), 'destroy-by-config');
    expect(grant?.configuration?.guardedGoneAfterDays).toBeGreaterThanOrEqual(14);
  });

  it('an identity that may rewrite policy assignments lifts the deny', async () => {
    const grant = await grantOf(
      store,
      bootstrap([...DEPLOY, 'Microsoft.Authorization/policyAssignments/write'], softDeleteGuard),
      'destroy-by-config',
    );
    expect(grant?.configuration?.guardedGoneAfterDays).toBe(1);
  });

  it('diagnosticSettings/write is blind-audit', async () => {
    const grant = await grantOf(store, bootstrap(DEPLOY), 'blind-audit');
    expect(grant?.configuration?.writes.map((write) => write.permission)).toEqual([
      'Microsoft.Insights/diagnosticSettings/write',
    ]);
  });
});

describe('AWS: a lifecycle configuration against Object Lock', () => {
  const ACCOUNT = '123456789012';
  const bucket = (lockDays: number | undefined, directory = false) =>
    withSpec(
      renderOf({ type: 'checkpoints:aws:CheckpointStore' }, [
        directory
          ? resource('aws:s3/directoryBucket:DirectoryBucket', 'ckpt-bucket', {
              bucket: 'ckpt--use1-az4--x-s3',
              tags: { environment: 'prod' },
            })
          : resource('aws:s3/bucket:Bucket', 'ckpt-bucket', {
              bucket: 'ckpt-bucket',
              tags: { environment: 'prod' },
            }),
        resource('aws:s3/bucketVersioning:BucketVersioning', 'ckpt-versioning', {
          bucket: 'ckpt-bucket',
          versioningConfiguration: { status: 'Enabled' },
        }),
        ...(lockDays === undefined
          ? []
          : [
              resource('aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration', 'ckpt-lock', {
                bucket: 'ckpt-bucket',
                objectLockEnabled: 'Enabled',
                rule: { defaultRetention: { mode: 'GOVERNANCE', days: lockDays } },
              }),
            ]),
        resource('aws:iam/role:Role', 'ckpt-writer', {
          name: 'ckpt-writer',
          assumeRolePolicy: JSON.stringify({ Version: '2012-10-17', Statement: [] }),
          permissionsBoundary: `arn:aws:iam::${ACCOUNT}:policy/boundary`,
        }),
      ]),
      directory ? 'high-throughput' : 'standard',
    );
  const bootstrap = renderOf({ type: 'checkpoints:bootstrap:AwsCiIdentities', name: 'aws' }, [
    resource('aws:iam/role:Role', 'deploy-prod', { name: 'ci-deploy-prod' }),
    resource('aws:iam/rolePolicy:RolePolicy', 'deploy-prod-policy', {
      role: 'ci-deploy-prod',
      name: 'checkpoint-stacks',
      policy: JSON.stringify({
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'ManageStackBuckets',
            Effect: 'Allow',
            Action: [
              's3:PutLifecycleConfiguration',
              's3:PutBucketVersioning',
              's3express:PutLifecycleConfiguration',
            ],
            Resource: '*',
          },
        ],
      }),
    }),
  ]);

  it('without a lock, a checkpoint is gone two days after the write, on the version the lock would hold', async () => {
    const grant = await grantOf(bucket(undefined), bootstrap, 'destroy-by-config');
    expect(grant?.configuration).toMatchObject({ goneAfterDays: 2, guardedGoneAfterDays: 2, windowDays: 7 });
  });

  it('with a 7-day GOVERNANCE lock, a fresh checkpoint outlasts the window; an older one does not, and the grant says no S3 mechanism holds it', async () => {
    const grant = await grantOf(bucket(7), bootstrap, 'destroy-by-config');
    expect(grant?.configuration?.guardedGoneAfterDays).toBeGreaterThanOrEqual(7);
    expect(grant?.configuration?.goneAfterDays).toBeLessThan(7);
    expect(grant?.configuration?.unguarded).toMatch(/Object Lock retention has run out/);
  });

  it('a directory bucket has no guardrail at all', async () => {
    const grant = await grantOf(bucket(undefined, true), bootstrap, 'destroy-by-config');
    expect(grant?.configuration?.unguarded).toMatch(/neither versioning nor Object Lock/);
    expect(grant?.configuration?.writes.map((write) => write.permission)).toEqual([
      's3express:PutLifecycleConfiguration',
    ]);
  });
});
