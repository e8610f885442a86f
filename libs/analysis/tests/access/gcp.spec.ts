import { type RenderedResource } from '@checkpoints/render';
import { analyzeAccess, type Operation } from '../../src';
import { renderOf, resource, STACK_ROOT, storeResource } from './fixtures';

/** The GCP model, one row per documented rule of IAM and Cloud Storage authorization. */
const PROJECT = 'acme-prod';
const BUCKET = 'ckpt-bucket';
const WRITER = `serviceAccount:ckpt-writer@${PROJECT}.iam.gserviceaccount.com`;
const CI = 'serviceAccount:ci-deploy-prod@acme-ci.iam.gserviceaccount.com';

interface Row {
  rule: string;
  source: string;
  bindings?: { type: string; inputs: Record<string, unknown> }[];
  deny?: {
    principals: string[];
    permissions: string[];
    exceptionPermissions?: string[];
    denialCondition?: { expression: string };
  };
  principal: string;
  operation: Operation;
  expected: boolean;
}

const projectRole = (member: string, role: string) => ({
  type: 'gcp:projects/iAMMember:IAMMember',
  inputs: { project: PROJECT, role, member },
});

/** A custom role of the stack project holding `permissions`, and its grant to CI. */
const customRole = (roleId: string, permissions: string[]) => [
  { type: 'gcp:projects/iAMCustomRole:IAMCustomRole', inputs: { project: PROJECT, roleId, permissions } },
  projectRole(CI, `projects/${PROJECT}/roles/${roleId}`),
];

const CI_DENY = [
  'principal://iam.googleapis.com/projects/-/serviceAccounts/ci-deploy-prod@acme-ci.iam.gserviceaccount.com',
];
const KEY = `projects/${PROJECT}/locations/us/keyRings/ring/cryptoKeys/ckpt`;
const POOL_MEMBER =
  'principalSet://iam.googleapis.com/projects/123/locations/global/workloadIdentityPools/checkpoints-ci/attribute.repository/acme/checkpoint-storage';

const rows: Row[] = [
  {
    rule: 'an IAMBinding grants its role to each of its members',
    source: 'https://www.pulumi.com/registry/packages/gcp/api-docs/projects/iambinding/',
    bindings: [
      {
        type: 'gcp:projects/iAMBinding:IAMBinding',
        inputs: {
          project: PROJECT,
          role: 'roles/storage.objectViewer',
          members: ['group:x@acme.example', CI],
        },
      },
    ],
    principal: 'ci deploy-prod',
    operation: 'read',
    expected: true,
  },
  {
    rule: "an IAMPolicy grants each binding of its policyData, a bucket's included",
    source: 'https://cloud.google.com/iam/docs/reference/rest/v1/Policy',
    bindings: [
      {
        type: 'gcp:storage/bucketIAMPolicy:BucketIAMPolicy',
        inputs: {
          bucket: BUCKET,
          policyData: JSON.stringify({ bindings: [{ role: 'roles/storage.objectCreator', members: [CI] }] }),
        },
      },
    ],
    principal: 'ci deploy-prod',
    operation: 'write',
    expected: true,
  },
  {
    rule: 'a role in no published data and no custom role of the render counts as granting every permission',
    source: 'fail closed: https://cloud.google.com/iam/docs/roles-overview (roles are lists of permissions)',
    bindings: [projectRole(CI, 'roles/storage.somethingNew')],
    principal: 'ci deploy-prod',
    operation: 'delete',
    expected: true,
  },
  {
    rule: 'a conditional binding counts as holding',
    source: 'https://cloud.google.com/iam/docs/conditions-overview',
    bindings: [
      {
        type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
        inputs: {
          bucket: BUCKET,
          role: 'roles/storage.objectViewer',
          member: CI,
          condition: { title: 't', expression: "request.time < timestamp('2020-01-01T00:00:00Z')" },
        },
      },
    ],
    principal: 'ci deploy-prod',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'a role on the key ring applies to its keys',
    source: 'https://cloud.google.com/kms/docs/resource-hierarchy',
    bindings: [
      {
        type: 'gcp:kms/keyRingIAMMember:KeyRingIAMMember',
        inputs: { keyRingId: KEY.replace(/\/cryptoKeys\/.*$/, ''), role: 'roles/cloudkms.admin', member: CI },
      },
    ],
    principal: 'ci deploy-prod',
    operation: 'destroy-key',
    expected: true,
  },
  {
    rule: "a folder's role counts on every project (the hierarchy is outside the render)",
    source: 'https://cloud.google.com/iam/docs/resource-hierarchy-access-control',
    bindings: [
      {
        type: 'gcp:folder/iAMMember:IAMMember',
        inputs: { folder: 'folders/42', role: 'roles/storage.objectAdmin', member: CI },
      },
    ],
    principal: 'ci deploy-prod',
    operation: 'delete',
    expected: true,
  },
  {
    rule: 'a deny does not deny its exceptionPermissions',
    source: 'https://cloud.google.com/iam/docs/deny-overview#exception-permissions',
    bindings: [projectRole(CI, 'roles/storage.admin')],
    deny: {
      principals: CI_DENY,
      permissions: ['storage.googleapis.com/objects.get'],
      exceptionPermissions: ['storage.googleapis.com/objects.get'],
    },
    principal: 'ci deploy-prod',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'a deny whose denialCondition may not hold may not apply',
    source: 'https://cloud.google.com/iam/docs/deny-overview#conditions',
    bindings: [projectRole(CI, 'roles/storage.admin')],
    deny: {
      principals: CI_DENY,
      permissions: ['storage.googleapis.com/objects.get'],
      denialCondition: { expression: "resource.matchTag('12345/env', 'prod')" },
    },
    principal: 'ci deploy-prod',
    operation: 'read',
    expected: true,
  },
  {
    rule: "a member of CI's workload identity pool on the bucket is CI",
    source: 'https://cloud.google.com/iam/docs/principal-identifiers',
    bindings: [
      {
        type: 'gcp:storage/bucketIAMMember:BucketIAMMember',
        inputs: { bucket: BUCKET, role: 'roles/storage.objectViewer', member: POOL_MEMBER },
      },
    ],
    principal: 'ci pool attribute.repository/acme/checkpoint-storage',
    operation: 'read',
    expected: true,
  },
  {
    rule: "an authoritative binding of a legacy role replaces the bucket's convenience values of that role",
    source: 'https://cloud.google.com/storage/docs/access-control/iam#convenience-values',
    bindings: [
      {
        type: 'gcp:storage/bucketIAMBinding:BucketIAMBinding',
        inputs: { bucket: BUCKET, role: 'roles/storage.legacyObjectReader', members: [] },
      },
    ],
    principal: 'project viewers',
    operation: 'read',
    expected: false,
  },
  {
    rule: 'a role granted on the project applies to every bucket in it',
    source: 'https://cloud.google.com/iam/docs/resource-hierarchy-access-control',
    bindings: [projectRole(CI, 'roles/storage.admin')],
    principal: 'ci deploy-prod',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'a deny policy on the project overrides that allow',
    source: 'https://cloud.google.com/iam/docs/deny-overview',
    bindings: [projectRole(CI, 'roles/storage.admin')],
    deny: {
      principals: [
        'principal://iam.googleapis.com/projects/-/serviceAccounts/ci-deploy-prod@acme-ci.iam.gserviceaccount.com',
      ],
      permissions: ['storage.googleapis.com/objects.get'],
    },
    principal: 'ci deploy-prod',
    operation: 'read',
    expected: false,
  },
  {
    rule: 'with CMEK the caller needs no key permission to read: the Cloud Storage service agent uses the key',
    source: 'https://cloud.google.com/storage/docs/encryption/customer-managed-keys',
    principal: 'writer',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'a new bucket’s policy makes the project’s viewers legacy object readers (convenience values)',
    source: 'https://cloud.google.com/storage/docs/access-control/iam#convenience-values',
    principal: 'project viewers',
    operation: 'read',
    expected: true,
  },
  {
    rule: 'and not writers',
    source: 'https://cloud.google.com/storage/docs/access-control/iam-roles#legacy-roles',
    principal: 'project viewers',
    operation: 'write',
    expected: false,
  },
  {
    rule: 'iam.serviceAccounts.setIamPolicy on the project lets a principal make itself a token creator of any service account',
    source: 'https://cloud.google.com/iam/docs/service-account-permissions',
    bindings: [projectRole(CI, 'roles/iam.serviceAccountAdmin')],
    principal: 'ci deploy-prod',
    operation: 'act-as',
    expected: true,
  },
  {
    rule: 'roles/iam.serviceAccountViewer does not',
    source: 'https://cloud.google.com/iam/docs/roles-permissions/iam#iam.serviceAccountViewer',
    bindings: [projectRole(CI, 'roles/iam.serviceAccountViewer')],
    principal: 'ci deploy-prod',
    operation: 'act-as',
    expected: false,
  },
  {
    rule: 'storage.buckets.setIamPolicy lets a principal grant itself the data, unless a deny policy denies it the data',
    source: 'https://cloud.google.com/storage/docs/access-control/iam-permissions',
    bindings: [projectRole(CI, 'roles/storage.admin')],
    principal: 'ci deploy-prod',
    operation: 'self-grant',
    expected: true,
  },
  {
    rule: "resourcemanager.projects.setIamPolicy, which setting a project's Data Access audit config takes, lets a principal grant itself anything",
    source:
      'https://cloud.google.com/logging/docs/audit/configure-data-access (audit configs are part of the IAM policy: setIamPolicy); https://cloud.google.com/resource-manager/docs/access-control-proj',
    bindings: customRole('auditConfigurer', ['resourcemanager.projects.setIamPolicy']),
    principal: 'ci deploy-prod',
    operation: 'self-grant',
    expected: true,
  },
  {
    rule: 'storage.buckets.exemptFromIpFilter lets bucket metadata calls through an IP filter and reads no data',
    source: 'https://cloud.google.com/storage/docs/bypass-ip-filter',
    bindings: customRole('checkpointsBucketPerimeter', ['storage.buckets.exemptFromIpFilter']),
    principal: 'ci deploy-prod',
    operation: 'read',
    expected: false,
  },
  {
    rule: 'cloudkms.admin destroys key versions',
    source: 'https://cloud.google.com/kms/docs/reference/permissions-and-roles',
    bindings: [projectRole(CI, 'roles/cloudkms.admin')],
    principal: 'ci deploy-prod',
    operation: 'destroy-key',
    expected: true,
  },
];

function renders(row: Row) {
  const key = `projects/${PROJECT}/locations/us/keyRings/ring/cryptoKeys/ckpt`;
  const store = renderOf({ type: 'checkpoints:gcp:CheckpointStore' }, [
    resource('gcp:storage/bucket:Bucket', 'ckpt-bucket', {
      name: BUCKET,
      labels: { environment: 'prod' },
      encryption: { defaultKmsKeyName: key },
    }),
    resource('gcp:serviceaccount/account:Account', 'ckpt-writer', { accountId: 'ckpt-writer' }),
    resource('gcp:storage/bucketIAMMember:BucketIAMMember', 'ckpt-writer-access', {
      bucket: BUCKET,
      role: 'roles/storage.objectUser',
      member: WRITER,
    }),
  ]);
  const bootstrap = renderOf({ type: 'checkpoints:bootstrap:GcpCiIdentities', name: 'gcp' }, [
    resource('gcp:serviceaccount/account:Account', 'deploy-prod', {
      accountId: 'ci-deploy-prod',
      project: 'acme-ci',
    }),
    resource('gcp:iam/workloadIdentityPool:WorkloadIdentityPool', 'github', {
      project: 'acme-ci',
      workloadIdentityPoolId: 'checkpoints-ci',
    }),
    ...(row.bindings ?? []).map((binding, index) =>
      resource(binding.type, `binding-${index}`, binding.inputs),
    ),
    ...(row.deny
      ? [
          resource('gcp:iam/denyPolicy:DenyPolicy', 'guards', {
            parent: encodeURIComponent(`cloudresourcemanager.googleapis.com/projects/${PROJECT}`),
            rules: [
              {
                denyRule: {
                  deniedPrincipals: row.deny.principals,
                  deniedPermissions: row.deny.permissions,
                  ...(row.deny.exceptionPermissions
                    ? { exceptionPermissions: row.deny.exceptionPermissions }
                    : {}),
                  ...(row.deny.denialCondition ? { denialCondition: row.deny.denialCondition } : {}),
                },
              },
            ],
          }),
        ]
      : []),
  ]);
  return [store, bootstrap] as const;
}

describe('GCP effective access', () => {
  it.each(rows.map((row) => [row.rule, row] as const))('%s', async (_rule, row) => {
    const [store] = (await analyzeAccess(...renders(row))).stores;
    const granted = store?.grants.some(
      (grant) => grant.principal.label === row.principal && grant.operation === row.operation,
    );
    expect([row.source, granted]).toEqual([row.source, row.expected]);
  });
});

/** Store `name`'s component and resources, a project role of `auditor` rendered before its bucket roles. */
function gcpStoreResources(name: string, auditor: string): RenderedResource[] {
  const component = `urn:store:${name}`;
  const own = (type: string, suffix: string, inputs: Record<string, unknown>) =>
    storeResource(name, type, suffix, inputs);
  const bucket = `${name}-bucket`;
  return [
    {
      urn: component,
      type: 'checkpoints:gcp:CheckpointStore',
      name,
      parent: 'urn:stack',
      protect: false,
      retainOnDelete: false,
      dependsOn: [],
      inputs: {},
    },
    own('gcp:storage/bucket:Bucket', 'bucket', { name: bucket, project: PROJECT }),
    own('gcp:serviceaccount/account:Account', 'writer', { accountId: `${name}-writer` }),
    own('gcp:projects/iAMMember:IAMMember', 'auditor', {
      project: PROJECT,
      role: 'roles/storage.objectViewer',
      member: auditor,
    }),
    own('gcp:storage/bucketIAMMember:BucketIAMMember', 'writer-access', {
      bucket,
      role: 'roles/storage.objectUser',
      member: `serviceAccount:${name}-writer@${PROJECT}.iam.gserviceaccount.com`,
    }),
    own('gcp:storage/bucketIAMMember:BucketIAMMember', 'auditor-access', {
      bucket,
      role: 'roles/storage.objectViewer',
      member: auditor,
    }),
    own('gcp:storage/bucketIAMMember:BucketIAMMember', 'team-access', {
      bucket,
      role: 'roles/storage.objectViewer',
      member: `group:${name}-team@acme.example`,
    }),
  ];
}

describe('GCP effective access of a render with several stores', () => {
  const stack = STACK_ROOT;
  const first = gcpStoreResources('first', 'group:auditors@acme.example');
  const second = gcpStoreResources('second', 'group:second-auditors@acme.example');
  const principalsOf = async (resources: RenderedResource[]) =>
    Object.fromEntries(
      (await analyzeAccess({ resources })).stores.map((store) => [
        store.store,
        [...new Set(store.grants.map((grant) => grant.principal.label))],
      ]),
    );

  it('names the first binding in render order that gives the permission, whichever scope it is on', async () => {
    const [store] = (await analyzeAccess({ resources: [stack, ...first, ...second] })).stores;
    const read = store?.grants.find(
      (grant) => grant.principal.id === 'group:auditors@acme.example' && grant.operation === 'read',
    );
    expect(read?.reason).toBe(
      `storage.objects.get from roles/storage.objectViewer on projects/${PROJECT} (IAMMember first-auditor)`,
    );
  });

  it("lists each store's principals in binding order: a project role reaches every store of the project", async () => {
    expect(await principalsOf([stack, ...first, ...second])).toEqual({
      first: [
        'writer',
        'group:auditors@acme.example',
        'group:first-team@acme.example',
        'group:second-auditors@acme.example',
        'project owners',
        'project editors',
        'project viewers',
      ],
      second: [
        'writer',
        'group:auditors@acme.example',
        'group:second-auditors@acme.example',
        'group:second-team@acme.example',
        'project owners',
        'project editors',
        'project viewers',
      ],
    });
  });
});

describe('an external principal the stack config lists', () => {
  it("carries its reason into each of its grants, from the store component's inputs", async () => {
    const member = 'group:partners@gmail.com';
    const render = renderOf({ type: 'checkpoints:gcp:CheckpointStore' }, [
      resource('gcp:storage/bucket:Bucket', 'ckpt-bucket', { name: BUCKET, project: PROJECT }),
      resource('gcp:storage/bucketIAMMember:BucketIAMMember', 'ckpt-partners', {
        bucket: BUCKET,
        role: 'roles/storage.objectViewer',
        member,
      }),
    ]);
    const component = render.resources.find((r) => r.type === 'checkpoints:gcp:CheckpointStore');
    if (component)
      component.inputs = {
        externalPrincipals: [{ principal: member, reason: 'evaluation partner, contract 42' }],
      };
    const [store] = (await analyzeAccess(render)).stores;
    expect(store?.grants.find((grant) => grant.principal.id === member)?.reason).toBe(
      `storage.objects.get from roles/storage.objectViewer on buckets/${BUCKET} (BucketIAMMember ckpt-partners); an external principal, listed because: evaluation partner, contract 42`,
    );
  });
});
