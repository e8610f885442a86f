/**
 * Weakening edits of the GCP renders (the bootstrap's CI identities and the gcp-gcs prod stack), each of
 * which the pack must refuse with a mandatory verdict naming the identity, the path and the permission. A
 * mutation the pack lets through is a failing test.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse, stringify } from 'yaml';
import { analyzeAccess } from '@checkpoints/analysis';
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

/**
 * A prod store whose spec promises an independent copy (`recovery.independentCopy`), and the bootstrap copying it:
 * no shipped GCP store does (none is restricted), so the suite adds one, `llm-secret`, to the shipped prod stack
 * (declared public: an IP filter refuses the transfer agent) and lists it in the shipped bootstrap's
 * `gcp.independentCopy.prod`. Each mutation is a way a hurried engineer or an attacker could break the copy;
 * `ci-prod-no-destroy` must refuse each, naming the store and why.
 */
describe("GCP mutations of a prod store's independent copy", () => {
  const COPY_PROJECT = 'ml-platform-copies-2291';
  const SECRET = 'llm-secret';
  const JOB = 'gcp:storage/transferJob:TransferJob';
  const GCS_BUCKET = 'gcp:storage/bucket:Bucket';
  let copied: Renders;

  beforeAll(() => {
    const dir = mkdtempSync(join(tmpdir(), 'gcp-copy-'));
    const root = join(__dirname, '..', '..', '..');
    const bootstrap = parse(readFileSync(join(root, 'bootstrap', 'Pulumi.ci.yaml'), 'utf8')) as {
      config: Record<string, Record<string, unknown>>;
    };
    bootstrap.config['bootstrap:gcp']!['independentCopy'] = {
      prod: { project: COPY_PROJECT, location: 'us-central1', retentionDays: 14, stores: [SECRET] },
    };
    const stack = parse(readFileSync(join(root, 'stacks', 'gcp-gcs', 'Pulumi.prod.yaml'), 'utf8')) as {
      config: { 'checkpoints:stores': Record<string, unknown>[] };
    };
    stack.config['checkpoints:stores'].push({
      name: SECRET,
      dataClassification: 'restricted',
      audit: true,
      network: { public: true },
      tier: 'standard',
      encryption: 'customer-managed',
      retention: { keepNoncurrentVersions: 3, noncurrentExpireDays: 14, softDeleteDays: 14 },
      access: { writers: [`serviceAccount:trainer@${PROD}.iam.gserviceaccount.com`] },
    });
    const files = { bootstrap: join(dir, 'Pulumi.ci.yaml'), stack: join(dir, 'Pulumi.prod.yaml') };
    writeFileSync(files.bootstrap, stringify(bootstrap));
    writeFileSync(files.stack, stringify(stack));
    try {
      copied = synthRenders('gcp-gcs', 'prod', files);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  const copyBucket = (renders: Renders) => resourceOf(renders.bootstrap, GCS_BUCKET, 'copy-prod');
  const job = (renders: Renders) => resourceOf(renders.bootstrap, JOB, `copy-prod-${SECRET}`);
  const options = (renders: Renders) =>
    (job(renders).inputs['transferSpec'] as Record<string, Record<string, unknown>>)['transferOptions']!;

  it('the renders with the copy pass', async () => {
    expect(verdictLines(await mandatoryVerdicts(copyOf(copied)))).toEqual([]);
  }, 120_000);

  it("counts the copy's 14 days in what the deploy account's worst write leaves recoverable", async () => {
    const renders = copyOf(copied);
    const analysis = await analyzeAccess(renders.stack, renders.bootstrap);
    const grants = analysis.stores.find((store) => store.store === SECRET)?.grants ?? [];
    const write = grants.find(
      (grant) => grant.principal.label === 'ci deploy-prod' && grant.operation === 'destroy-by-config',
    );
    expect(write?.reason).toMatch(
      /every checkpoint still recoverable from the independent copy \(copy bucket checkpoints-gcp-prod-copy-[0-9a-f]{6} \(project ml-platform-copies-2291\)\) for 14 days after the write/,
    );
    expect(write?.configuration?.copy).toMatchObject({ days: 14, promisedDays: 14, lifts: [] });
    expect(write?.configuration?.guardedGoneAfterDays).toBeGreaterThanOrEqual(14);
    // The copy's transfer agent reads the store, and is no CI identity.
    const agent = grants.filter((grant) => grant.principal.label.startsWith('copy transfer agent project-'));
    expect(agent.map((grant) => grant.operation)).toEqual(['read']);
    expect(agent.every((grant) => !grant.principal.kind.startsWith('ci-'))).toBe(true);
  }, 120_000);

  const refused = (reason: string) => [
    'ci-prod-no-destroy',
    `store ${SECRET} (prod)`,
    'ci deploy-prod',
    'faces no independent copy although the spec promises 14 days',
    reason,
  ];

  it.each<[string, (renders: Renders) => void, string[]]>([
    [
      'the lock left off the copy bucket',
      (r) => {
        copyBucket(r).inputs['retentionPolicy'] = { retentionPeriod: String(14 * 86_400), isLocked: false };
      },
      refused('has no locked retention policy'),
    ],
    [
      'a locked retention shorter than the store promises',
      (r) => {
        copyBucket(r).inputs['retentionPolicy'] = { retentionPeriod: String(7 * 86_400), isLocked: true };
      },
      refused('locked retention is 7 days, shorter than the 14 days the store promises'),
    ],
    [
      "the store's transfer job gone from the bootstrap",
      (r) => {
        r.bootstrap.resources = r.bootstrap.resources.filter(
          (resource) => resource.name !== `copy-prod-${SECRET}`,
        );
      },
      refused("no transfer job of the bootstrap render reads the store's bucket"),
    ],
    [
      "the copy bucket in the stack's own project",
      (r) => {
        copyBucket(r).inputs['project'] = PROD;
        job(r).inputs['project'] = PROD;
      },
      // The deploy account's project-wide roles/storage.admin there lifts it.
      [
        'ci-prod-no-destroy',
        `store ${SECRET} (prod)`,
        'ci deploy-prod',
        `can lift the independent copy in copy bucket`,
        `(project ${PROD})`,
        'storage.buckets.update',
      ],
    ],
    [
      'the copy bucket in the CI project',
      (r) => {
        copyBucket(r).inputs['project'] = CI_PROJECT;
        job(r).inputs['project'] = CI_PROJECT;
      },
      refused('where the CI service accounts live'),
    ],
    [
      'a job that follows the store’s deletes',
      (r) => {
        options(r)['deleteObjectsUniqueInSink'] = true;
      },
      refused('deletes objects'),
    ],
    [
      "the copy bucket's soft delete shorter than the store promises (what lifecycle deletes goes sooner)",
      (r) => {
        copyBucket(r).inputs['softDeletePolicy'] = { retentionDurationSeconds: 7 * 86_400 };
      },
      refused('keeps a checkpoint the lifecycle deletes 7 days'),
    ],
    [
      'a job that overwrites copies with what the store holds now',
      (r) => {
        options(r)['overwriteWhen'] = 'ALWAYS';
      },
      refused('overwrites copied checkpoints (overwriteWhen ALWAYS)'),
    ],
    [
      "an IP filter on the store's bucket that refuses the transfer agent",
      (r) => {
        const bucket = r.stack.resources.find(
          (resource) => resource.type === GCS_BUCKET && resource.name === `${SECRET}-bucket`,
        )!;
        bucket.inputs['ipFilter'] = {
          mode: 'Enabled',
          allowAllServiceAgentAccess: false,
          allowCrossOrgVpcs: false,
          vpcNetworkSources: [
            { network: `projects/${PROD}/global/networks/training`, allowedIpCidrRanges: ['0.0.0.0/0'] },
          ],
        };
      },
      refused('refuses the transfer agent'),
    ],
    [
      'the deploy account granted Storage Admin on the copy bucket',
      (r) =>
        addResource(r.bootstrap, 'gcp:storage/bucketIAMMember:BucketIAMMember', 'copy-prod-deploy', {
          bucket: copyBucket(r).inputs['name'],
          role: 'roles/storage.admin',
          member: DEPLOY,
        }),
      [
        'ci-prod-no-destroy',
        `store ${SECRET} (prod)`,
        'ci deploy-prod',
        'can lift the independent copy in copy bucket',
        'storage.objects.delete by storage.objects.delete from roles/storage.admin',
      ],
    ],
    [
      'the preview account granted a project role in the copy project',
      (r) =>
        addResource(r.bootstrap, 'gcp:projects/iAMMember:IAMMember', 'copy-project-preview', {
          project: COPY_PROJECT,
          role: 'roles/storagetransfer.admin',
          member: `serviceAccount:checkpoints-ci-preview@${CI_PROJECT}.iam.gserviceaccount.com`,
        }),
      [
        'ci-prod-no-destroy',
        `store ${SECRET} (prod)`,
        'ci preview',
        'can lift the independent copy',
        'storagetransfer.jobs.update',
      ],
    ],
  ])(
    'refuses %s',
    async (_name, mutate, words) => {
      expect((await verdictsNaming(copied, mutate, words)).length).toBeGreaterThan(0);
    },
    120_000,
  );
});
