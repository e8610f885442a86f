/**
 * Weakening edits of the GCP renders (the bootstrap's CI identities and the gcp-gcs prod stack), each of
 * which the pack must refuse with a mandatory verdict naming the identity, the path and the permission. A
 * mutation the pack lets through is a failing test.
 */
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
  shipped = synthRenders('gcp-gcs', 'prod');
}, 240_000);

const PROD = 'ml-platform-prod-7310';
const CI_PROJECT = 'acme-checkpoints-ci';
const DEPLOY = `serviceAccount:checkpoints-ci-deploy-prod@${CI_PROJECT}.iam.gserviceaccount.com`;
const POOL = 'projects/123456789012/locations/global/workloadIdentityPools/checkpoints-ci';
const DENY = 'gcp:iam/denyPolicy:DenyPolicy';
const BUCKET_BINDING = 'gcp:storage/bucketIAMBinding:BucketIAMBinding';

interface DenyRule {
  denyRule: Record<string, unknown>;
}
const prodDenyRules = (renders: Renders) =>
  resourceOf(renders.bootstrap, DENY, 'ci-guards-prod').inputs['rules'] as DenyRule[];

describe('GCP mutations of the bootstrap and gcp-gcs prod renders', () => {
  it('the shipped renders pass', async () => {
    expect(verdictLines(await mandatoryVerdicts(copyOf(shipped)))).toEqual([]);
  }, 120_000);

  it.each<[string, (renders: Renders) => void, string[]]>([
    [
      'an IAMBinding makes the deploy account a token creator of the CI accounts',
      (r) =>
        addResource(r.bootstrap, 'gcp:projects/iAMBinding:IAMBinding', 'token-creators', {
          project: CI_PROJECT,
          role: 'roles/iam.serviceAccountTokenCreator',
          members: [DEPLOY],
        }),
      [
        'gcp-ci-no-ci-changes',
        'ci deploy-prod',
        'IAMBinding token-creators',
        'iam.serviceAccounts.getAccessToken',
      ],
    ],
    [
      "an IAMPolicy on the deploy account lets the pool's every token act as it",
      (r) =>
        addResource(r.bootstrap, 'gcp:serviceaccount/iAMPolicy:IAMPolicy', 'deploy-prod-policy', {
          serviceAccountId: `projects/${CI_PROJECT}/serviceAccounts/checkpoints-ci-deploy-prod@${CI_PROJECT}.iam.gserviceaccount.com`,
          policyData: JSON.stringify({
            bindings: [
              {
                role: 'roles/iam.workloadIdentityUser',
                members: [`principalSet://iam.googleapis.com/${POOL}/*`],
              },
            ],
          }),
        }),
      [
        'ci-trust-pull-requests-preview-only',
        'ci deploy-prod',
        'trusts pull-request jobs',
        'IAMPolicy deploy-prod-policy',
        'iam.serviceAccounts.getAccessToken',
      ],
    ],
    [
      'a role outside the published data on the stack project counts as every permission',
      (r) =>
        addResource(r.bootstrap, 'gcp:projects/iAMMember:IAMMember', 'deploy-prod-new-role', {
          project: PROD,
          role: 'roles/storage.somethingNew',
          member: DEPLOY,
        }),
      [
        'ci deploy-prod',
        'roles/storage.somethingNew is not in the published role data',
        'resourcemanager.projects.setIamPolicy',
      ],
    ],
    [
      "the data deny's exceptionPermissions give object reads back",
      (r) => {
        const [data] = prodDenyRules(r);
        if (data) data.denyRule['exceptionPermissions'] = ['storage.googleapis.com/objects.get'];
      },
      ['ci-no-data-access', 'ci deploy-prod', 'storage.objects.get from roles/storage.admin'],
    ],
    [
      'a denialCondition makes the data deny one that may not apply',
      (r) => {
        const [data] = prodDenyRules(r);
        if (data) data.denyRule['denialCondition'] = { expression: "resource.matchTag('acme/env', 'prod')" };
      },
      ['ci-no-data-access', 'ci deploy-prod', 'storage.objects.delete from roles/storage.admin'],
    ],
    [
      "the provider's attribute condition is dropped: a repository that takes the name gets in",
      (r) => {
        delete resourceOf(
          r.bootstrap,
          'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider',
          'github',
        ).inputs['attributeCondition'];
      },
      [
        'ci-trust-immutable-ids',
        'ci deploy-prod',
        'renamable name',
        'IAMMember deploy-prod-federation',
        'iam.serviceAccounts.getAccessToken',
      ],
    ],
    [
      "the deploy account's federation widened to pull requests",
      (r) => {
        const binding = resourceOf(
          r.bootstrap,
          'gcp:serviceaccount/iAMMember:IAMMember',
          'deploy-prod-federation',
        );
        binding.inputs['member'] =
          `principal://iam.googleapis.com/${POOL}/subject/repo:acme/checkpoint-storage:pull_request`;
      },
      [
        'ci-trust-pull-requests-preview-only',
        'ci deploy-prod',
        'trusts pull-request jobs',
        'IAMMember deploy-prod-federation',
        'iam.serviceAccounts.getAccessToken',
      ],
    ],
    [
      "the key guard is dropped: the deploy account's key setIamPolicy makes it the key's admin",
      (r) => {
        const policy = resourceOf(r.bootstrap, DENY, 'ci-guards-prod');
        policy.inputs['rules'] = prodDenyRules(r).filter(
          (rule) => !JSON.stringify(rule).includes('cryptoKeyVersions'),
        );
      },
      ['gcp-ci-no-ci-changes', 'ci deploy-prod', 'checkpointsStoreKeys', 'cloudkms.cryptoKeys.setIamPolicy'],
    ],
    [
      "a store grants the CI pool's repository principalSet object reads by config alone",
      (r) =>
        addResource(r.stack, 'gcp:storage/bucketIAMMember:BucketIAMMember', 'llm-pretrain-ci-pool', {
          bucket: 'checkpoints-gcp-prod-llm-pretrain-4300f0',
          role: 'roles/storage.objectViewer',
          member: `principalSet://iam.googleapis.com/${POOL}/attribute.repository/acme/checkpoint-storage`,
        }),
      [
        'ci-no-data-access',
        'ci pool attribute.repository/acme/checkpoint-storage',
        'storage.objects.get',
        'BucketIAMMember llm-pretrain-ci-pool',
      ],
    ],
    [
      "a hurried edit drops a prod bucket's cleared legacy reader role: project viewers read every checkpoint",
      (r) => {
        const binding = resourceOf(r.stack, BUCKET_BINDING, 'llm-pretrain-no-legacyObjectReader');
        r.stack.resources = r.stack.resources.filter((resource) => resource !== binding);
      },
      [
        'gcp-gcs-no-convenience-access',
        'store llm-pretrain (prod)',
        'project viewers can read',
        'storage.objects.get from roles/storage.legacyObjectReader',
      ],
    ],
    [
      'the cleared legacy object owner role is given back to the project editors',
      (r) => {
        resourceOf(r.stack, BUCKET_BINDING, 'llm-pretrain-no-legacyObjectOwner').inputs['members'] = [
          `projectEditor:${PROD}`,
        ];
      },
      [
        'gcp-gcs-no-convenience-access',
        'store llm-pretrain (prod)',
        'project editors can read',
        'roles/storage.legacyObjectOwner',
      ],
    ],
    [
      "an object role granted to the project's viewers by a member resource",
      (r) =>
        addResource(r.stack, 'gcp:storage/bucketIAMMember:BucketIAMMember', 'llm-pretrain-viewers', {
          bucket: 'checkpoints-gcp-prod-llm-pretrain-4300f0',
          role: 'roles/storage.objectUser',
          member: `projectViewer:${PROD}`,
        }),
      [
        'gcp-gcs-no-convenience-access',
        'project viewers can write',
        'storage.objects.create from roles/storage.objectUser',
        'BucketIAMMember llm-pretrain-viewers',
      ],
    ],
    [
      'a new grant type: a legacy ACL entry on a prod bucket',
      (r) =>
        addResource(r.stack, 'gcp:storage/bucketAccessControl:BucketAccessControl', 'llm-pretrain-acl', {
          bucket: 'checkpoints-gcp-prod-llm-pretrain-4300f0',
          role: 'READER',
          entity: 'group-ml-eval@example.com',
        }),
      [
        'ci-no-data-access',
        'store llm-pretrain (prod)',
        'can read',
        'gcp:storage/bucketAccessControl:BucketAccessControl llm-pretrain-acl',
        'is a grant type the access analysis does not read',
      ],
    ],
    [
      'a new grant type in the bootstrap: a principal access boundary binding on the prod project',
      (r) =>
        addResource(r.bootstrap, 'gcp:iam/projectsPolicyBinding:ProjectsPolicyBinding', 'deploy-prod-pab', {
          project: PROD,
          location: 'global',
          policyBindingId: 'deploy-prod-pab',
          target: { principalSet: `//iam.googleapis.com/${POOL}` },
          policyKind: 'PRINCIPAL_ACCESS_BOUNDARY',
          policy: 'organizations/123/locations/global/principalAccessBoundaryPolicies/open',
        }),
      [
        'ci-no-data-access',
        'can delete',
        'gcp:iam/projectsPolicyBinding:ProjectsPolicyBinding deploy-prod-pab',
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
