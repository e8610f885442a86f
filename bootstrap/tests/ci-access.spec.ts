import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  readProject,
  readStackConfig,
  render,
  stackConfigFile,
  synthMain,
  type RenderedResource,
  type Snapshot,
  type StackProgram,
  deepFreeze,
} from '@checkpoints/synth';
import {
  analyzeAccess,
  AWS_RIGHTS,
  AZURE_RIGHTS,
  CI_UNREFRESHED_TYPES,
  GCP_RIGHTS,
  missingDeployRights,
} from '@checkpoints/analysis';
import { storesOf } from '@checkpoints/render';
import { bootstrapStack } from '../src/program';

/**
 * The bootstrap render against the shipped stacks, as `synth` judges it: the access rules must pass as
 * shipped, and fail, naming the identity, the operation and the grant, when bootstrap is weakened.
 */
const ROOT = join(__dirname, '..', '..');
// Each case renders a whole stack and simulates every principal's requests: seconds, not milliseconds.
jest.setTimeout(120_000);
const SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';

interface Verdict {
  policy: string;
  message: string;
}

let shippedBootstrap: Promise<Snapshot> | undefined;

/** The shipped bootstrap render, made once for the file's tests, which only read it (frozen) or copy it. */
function renderShippedBootstrap(): Promise<Snapshot> {
  shippedBootstrap ??= renderShipped().then(deepFreeze);
  return shippedBootstrap;
}

async function renderShipped(): Promise<Snapshot> {
  const project = readProject(ROOT);
  const stack = readStackConfig(stackConfigFile(project, 'ci'), project);
  return render(() => bootstrapStack(), {
    project: project.name,
    stack: 'ci',
    config: stack.config,
    secretKeys: stack.secretKeys,
  });
}

/**
 * A shipped stack's program function (its index.ts is `export = checkpointStack()`), for synth to run in this
 * process. Required, not imported: an import would make the bootstrap's typecheck check every stack's sources.
 */
function stackProgram(stack: string): StackProgram {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const program = require(join(ROOT, 'stacks', stack, 'src', 'program')) as { checkpointStack: StackProgram };
  return program.checkpointStack;
}

/** synth of a shipped stack's prod config against this bootstrap render: its exit status and ci-* verdicts. */
async function synthProd(stack: string, bootstrap: Snapshot) {
  const dir = mkdtempSync(join(tmpdir(), 'ci-access-'));
  const bootstrapFile = join(dir, 'ci.json');
  writeFileSync(bootstrapFile, JSON.stringify(bootstrap));
  const log = jest.spyOn(console, 'log').mockImplementation(() => undefined);
  try {
    const status = await synthMain(
      [
        `--cwd=${join(ROOT, 'stacks', stack)}`,
        '--stack=prod',
        `--bootstrap=${bootstrapFile}`,
        `--out=${dir}`,
      ],
      { program: stackProgram(stack) },
    );
    const rendered = JSON.parse(readFileSync(join(dir, 'prod.json'), 'utf8')) as {
      violations: Verdict[];
      resources: RenderedResource[];
    };
    return {
      status,
      verdicts: rendered.violations.filter((verdict) => verdict.policy.startsWith('ci-')),
      types: [...new Set(rendered.resources.filter((r) => r.custom).map((r) => r.type))],
      resources: rendered.resources,
    };
  } finally {
    log.mockRestore();
    rmSync(dir, { recursive: true, force: true });
  }
}

function named(snapshot: Snapshot, type: string, name: string): RenderedResource {
  const found = snapshot.resources.find((resource) => resource.type === type && resource.name === name);
  if (!found) throw new Error(`no ${type} ${name} in the bootstrap render`);
  return found;
}

function weakened(snapshot: Snapshot, change: (copy: Snapshot) => void): Snapshot {
  const copy = JSON.parse(JSON.stringify(snapshot)) as Snapshot;
  change(copy);
  return copy;
}

function extra(type: string, name: string, inputs: Record<string, unknown>): RenderedResource {
  return {
    urn: `urn:pulumi:ci::checkpoints-bootstrap::${type}::${name}`,
    type,
    name,
    custom: true,
    parent: null,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    propertyDependencies: {},
    inputs,
  };
}

const policyOf = (resource: RenderedResource) =>
  JSON.parse(resource.inputs['policy'] as string) as {
    Statement: { Sid: string; Condition?: Record<string, unknown> }[];
  };

/** The bootstrap render with these statements taken out of the prod deploy role's policy. */
/** The prod deploy role's policies, inline and managed (its service-role rights), each as the role holds it. */
function prodDeployPolicies(copy: Snapshot) {
  return [
    named(copy, 'aws:iam/rolePolicy:RolePolicy', 'deploy-prod-permissions'),
    named(copy, 'aws:iam/policy:Policy', 'deploy-prod-service-roles'),
  ];
}

function withoutProdDeployStatement(bootstrap: Snapshot, ...sids: string[]): Snapshot {
  return weakened(bootstrap, (copy) => {
    for (const policy of prodDeployPolicies(copy)) {
      const document = policyOf(policy);
      document.Statement = document.Statement.filter((statement) => !sids.includes(statement.Sid));
      policy.inputs['policy'] = JSON.stringify(document);
    }
  });
}

describe('the CI identities of the shipped bootstrap against the shipped stacks (prod)', () => {
  let bootstrap: Snapshot;
  beforeAll(async () => {
    bootstrap = await renderShippedBootstrap();
  });

  it.each([
    ['aws-s3', AWS_RIGHTS],
    ['gcp-gcs', GCP_RIGHTS],
    ['azure-adls', AZURE_RIGHTS],
  ] as const)(
    '%s: every access rule passes, and the rights tables know every resource type it renders',
    async (stack, rights) => {
      const { status, verdicts, types } = await synthProd(stack, bootstrap);
      expect(verdicts).toEqual([]);
      expect(status).toBe(0);
      expect(types.filter((type) => !(type in rights))).toEqual([]);
    },
  );

  it("AWS: a dev deploy role that may tag any key with its own tags can take over prod's keys", async () => {
    const result = await synthProd(
      'aws-s3',
      weakened(bootstrap, (copy) => {
        const policy = named(copy, 'aws:iam/rolePolicy:RolePolicy', 'deploy-dev-permissions');
        const document = policyOf(policy);
        const tagging = document.Statement.find((statement) => statement.Sid === 'TagNewStackKeys');
        delete tagging?.Condition?.['StringEqualsIfExists'];
        policy.inputs['policy'] = JSON.stringify(document);
      }),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-environment-isolation',
        message: expect.stringMatching(
          /^store llm-pretrain \(prod\): ci deploy-dev \(environment dev\) can change-access a store of environment prod: kms:TagResource: policy checkpoint-stacks TagNewStackKeys/,
        ),
      }),
    );
  });

  it("AWS: without passing replication roles to S3 the deploy role cannot set up the prod store's replication", async () => {
    const result = await synthProd(
      'aws-s3',
      withoutProdDeployStatement(bootstrap, 'PassReplicationRolesToS3'),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-deploy-rights',
        message: expect.stringContaining('iam:PassRole'),
      }),
    );
  });

  it.each(['PassBackupRolesToAwsBackup', 'CreateStackBackupPlans', 'ManageStackBackupPlans'])(
    "AWS: without %s the deploy role cannot set up the prod store's independent copy",
    async (sid) => {
      const result = await synthProd('aws-s3', withoutProdDeployStatement(bootstrap, sid));
      expect(result.status).toBe(1);
      expect(result.verdicts).toContainEqual(
        expect.objectContaining({
          policy: 'ci-deploy-rights',
          message: expect.stringMatching(/llm-pretrain-backup-(plan|selection)/),
        }),
      );
    },
  );

  it.each([
    [
      'gcp-gcs',
      'gcp:orgpolicy/policy:Policy',
      /^store llm-pretrain \(prod\): ci deploy-prod can make checkpoints unrecoverable through configuration: its lifecycle, soft delete, versioning and retention policy \(storage\.buckets\.update\) write leaves a checkpoint recoverable for 1 day, inside the 7-day recovery window/,
    ],
    [
      'azure-adls',
      'azure-native:authorization:PolicyAssignment',
      /^store llm-pretrain \(prod\): ci deploy-prod can make checkpoints unrecoverable through configuration: its lifecycle management policy \(Microsoft\.Storage\/storageAccounts\/managementPolicies\/write\), blob soft delete \(Microsoft\.Storage\/storageAccounts\/blobServices\/write\) write leaves a checkpoint recoverable for 1 day, inside the 14-day recovery window/,
    ],
  ] as const)(
    '%s: without the guardrail the bootstrap sets on the prod stack scope, the prod deploy identity destroys checkpoints through configuration',
    async (stack, guardType, message) => {
      const result = await synthProd(
        stack,
        weakened(bootstrap, (copy) => {
          copy.resources = copy.resources.filter((resource) => resource.type !== guardType);
        }),
      );
      expect(result.status).toBe(1);
      expect(result.verdicts).toContainEqual(
        expect.objectContaining({ policy: 'ci-prod-no-destroy', message: expect.stringMatching(message) }),
      );
    },
  );

  it("AWS: without the prod break-glass guard the deploy role could delete the prod store's replica and its key", async () => {
    const result = await synthProd('aws-s3', withoutProdDeployStatement(bootstrap, 'BreakGlassOnlyInProd'));
    expect(result.status).toBe(1);
    const prodNoDestroy = result.verdicts
      .filter((verdict) => verdict.policy === 'ci-prod-no-destroy')
      .map((verdict) => verdict.message);
    expect(prodNoDestroy).toContain(
      'store llm-pretrain (prod): ci deploy-prod can delete a data-holding resource in prod: on the replica: s3:DeleteBucket: policy checkpoint-stacks ManageStackBuckets',
    );
    expect(prodNoDestroy).toContain(
      'store llm-pretrain (prod): ci deploy-prod can destroy a key in prod: on the replica: kms:ScheduleKeyDeletion: policy checkpoint-stacks ManageStackKeys, key policy Enable IAM User Permissions',
    );
  });

  it('AWS: a deploy role without the data guards can grant itself the data through the bucket policy', async () => {
    // The object and key deny, and the two that keep the directory-bucket key exception to S3 Express and the
    // stack's directory buckets: each of these alone still keeps the key out of a standard store's reads.
    const result = await synthProd(
      'aws-s3',
      withoutProdDeployStatement(
        bootstrap,
        'NeverTouchCheckpointData',
        'KeysOnlyThroughS3Express',
        'KeysOnlyForStackDirectoryBuckets',
      ),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-no-escalation',
        message: expect.stringMatching(
          /^store llm-pretrain \(prod\): ci deploy-prod can grant itself data access: s3:PutBucketPolicy: policy checkpoint-stacks ManageStackBuckets, and with its own grant in the bucket policy s3:GetObject: bucket policy GrantedToItself; kms:Decrypt/,
        ),
      }),
    );
  });

  it('GCP: a project-wide roles/iam.serviceAccountAdmin lets the deploy account act as the store writer', async () => {
    const deploy = named(
      bootstrap,
      'gcp:projects/iAMMember:IAMMember',
      'deploy-prod-ml-platform-prod-7310-storage.admin',
    );
    const result = await synthProd(
      'gcp-gcs',
      weakened(bootstrap, (copy) => {
        copy.resources.push(
          extra('gcp:projects/iAMMember:IAMMember', 'deploy-prod-sa-admin', {
            project: 'ml-platform-prod-7310',
            role: 'roles/iam.serviceAccountAdmin',
            member: deploy.inputs['member'],
          }),
        );
      }),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-no-escalation',
        message:
          'store llm-pretrain (prod): ci deploy-prod can act as another identity: can act as writer: iam.serviceAccounts.setIamPolicy from roles/iam.serviceAccountAdmin on projects/ml-platform-prod-7310 (IAMMember deploy-prod-sa-admin)',
      }),
    );
  });

  it("GCP: the dev deploy account granted in the prod project can change prod's stores", async () => {
    const deployDev = named(
      bootstrap,
      'gcp:projects/iAMMember:IAMMember',
      'deploy-dev-ml-platform-dev-4821-storage.admin',
    );
    const result = await synthProd(
      'gcp-gcs',
      weakened(bootstrap, (copy) => {
        copy.resources.push(
          extra('gcp:projects/iAMMember:IAMMember', 'deploy-dev-in-prod', {
            ...deployDev.inputs,
            project: 'ml-platform-prod-7310',
          }),
        );
      }),
    );
    expect(result.status).toBe(1);
    const isolation = result.verdicts.filter((verdict) => verdict.policy === 'ci-environment-isolation');
    expect(isolation.map((verdict) => verdict.message)).toContain(
      'store llm-pretrain (prod): ci deploy-dev (environment dev) can delete-store a store of environment prod: storage.buckets.delete from roles/storage.admin on projects/ml-platform-prod-7310 (IAMMember deploy-dev-in-prod)',
    );
    // The prod project's deny policy still keeps the data from it.
    expect(result.verdicts.filter((verdict) => verdict.policy === 'ci-no-data-access')).toEqual([]);
  });

  it('Azure: a data role for the preview identity breaks the data and the pull-request rules', async () => {
    const readerAssignment = named(
      bootstrap,
      'azure-native:authorization:RoleAssignment',
      'preview-rg-checkpoints-prod-reader',
    );
    const result = await synthProd(
      'azure-adls',
      weakened(bootstrap, (copy) => {
        copy.resources.push(
          extra('azure-native:authorization:RoleAssignment', 'preview-blob-reader', {
            ...readerAssignment.inputs,
            roleDefinitionId: `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/2a2b9908-6ea1-4ae2-8e65-a410df84e7d1`,
          }),
        );
      }),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts.map((verdict) => [verdict.policy, verdict.message.split(': ')[1]])).toEqual(
      expect.arrayContaining([
        ['ci-no-data-access', 'ci preview can read checkpoint data'],
        ['ci-preview-no-data-sessions', 'ci preview can read'],
      ]),
    );
    expect(result.verdicts.find((verdict) => verdict.policy === 'ci-no-data-access')?.message).toContain(
      'Microsoft.Storage/storageAccounts/blobServices/containers/blobs/read from Storage Blob Data Reader',
    );
  });

  it("Azure: Storage Account Contributor for the prod deploy identity reaches the data and deletes filesystems (the account's lock stops the account's deletion)", async () => {
    const result = await synthProd(
      'azure-adls',
      weakened(bootstrap, (copy) => {
        const assignment = copy.resources.find(
          (resource) =>
            resource.type === 'azure-native:authorization:RoleAssignment' &&
            resource.name === 'deploy-prod-rg-checkpoints-prod-checkpoints-deploy',
        );
        if (assignment) {
          assignment.inputs['roleDefinitionId'] =
            `/subscriptions/${SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/17d1049b-9a84-46fb-8f53-869881c3d3ab`;
        }
      }),
    );
    expect(result.status).toBe(1);
    const messages = result.verdicts.map((verdict) => `${verdict.policy}: ${verdict.message}`);
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^ci-no-data-access: store llm-pretrain \(prod\): ci deploy-prod can read checkpoint data: account keys: Microsoft.Storage\/storageAccounts\/listkeys\/action from Storage Account Contributor/,
      ),
    );
    expect(messages).toContainEqual(
      expect.stringMatching(
        /^ci-prod-no-destroy: store llm-pretrain \(prod\): ci deploy-prod can delete a data-holding resource in prod: Microsoft.Storage\/storageAccounts\/blobServices\/containers\/delete from Storage Account Contributor/,
      ),
    );
  });

  it('AWS: a deploy role without a right a rendered resource needs fails, naming resource, permission and role', async () => {
    const result = await synthProd(
      'aws-s3',
      weakened(bootstrap, (copy) => {
        const policy = named(copy, 'aws:iam/rolePolicy:RolePolicy', 'deploy-prod-permissions');
        const document = policyOf(policy) as unknown as { Statement: { Sid: string; Action: string[] }[] };
        const buckets = document.Statement.find((statement) => statement.Sid === 'ManageStackBuckets');
        if (buckets)
          buckets.Action = buckets.Action.filter((action) => action !== 's3:PutLifecycleConfiguration');
        policy.inputs['policy'] = JSON.stringify(document);
      }),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-deploy-rights',
        message:
          'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration llm-pretrain-lifecycle: ci deploy-prod lacks s3:PutLifecycleConfiguration on arn:aws:s3:::checkpoints-aws-prod-llm-pretrain-0d2516, which its create needs',
      }),
    );
  });

  it('GCP: a deploy role without cloudkms.cryptoKeys.create cannot deploy the store keys', async () => {
    const result = await synthProd(
      'gcp-gcs',
      weakened(bootstrap, (copy) => {
        const role = named(
          copy,
          'gcp:projects/iAMCustomRole:IAMCustomRole',
          'deploy-prod-checkpointsStoreKeys',
        );
        role.inputs['permissions'] = (role.inputs['permissions'] as string[]).filter(
          (permission) => permission !== 'cloudkms.cryptoKeys.create',
        );
      }),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-deploy-rights',
        message:
          'gcp:kms/cryptoKey:CryptoKey llm-pretrain-key: ci deploy-prod lacks cloudkms.cryptoKeys.create on projects/ml-platform-prod-7310, which its create needs',
      }),
    );
  });

  it('Azure: attaching the encryption identity needs assign/action on it (a linked authorization)', async () => {
    const result = await synthProd(
      'azure-adls',
      weakened(bootstrap, (copy) => {
        const role = named(copy, 'azure-native:authorization:RoleDefinition', 'deploy-prod-role');
        const [permissions] = role.inputs['permissions'] as { actions: string[] }[];
        if (permissions) {
          permissions.actions = permissions.actions.filter((action) => !action.endsWith('/assign/action'));
        }
      }),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-deploy-rights',
        message: expect.stringMatching(
          /^azure-native:storage:StorageAccount llm-pretrain: ci deploy-prod lacks Microsoft.ManagedIdentity\/userAssignedIdentities\/assign\/action on \/subscriptions\/.+\/userAssignedIdentities\/prodllmpretrain4ba09a-encryption, which its create needs$/,
        ),
      }),
    );
  });

  it('GCP: deploy rights granted in another project than the stack deploys into are missing rights (the wiring check)', async () => {
    const result = await synthProd(
      'gcp-gcs',
      weakened(bootstrap, (copy) => {
        for (const grant of copy.resources) {
          if (grant.type === 'gcp:projects/iAMMember:IAMMember' && grant.name.startsWith('deploy-prod-')) {
            grant.inputs['project'] = 'ml-platform-other-1234';
          }
        }
      }),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-deploy-rights',
        message:
          'gcp:storage/bucket:Bucket llm-pretrain-bucket: ci deploy-prod lacks storage.buckets.create on projects/ml-platform-prod-7310, which its create needs',
      }),
    );
  });

  it.each([
    ['missing', null, "no such file; render it with 'npx nx run bootstrap:synth'"],
    ['not a render', '{"project":"x"}', "not a synth render (no 'resources' list)"],
    ['not JSON', 'resources: []', 'not a JSON render'],
  ])('a %s --bootstrap file exits 2 and says what to pass', async (_case, content, message) => {
    const dir = mkdtempSync(join(tmpdir(), 'ci-access-bad-'));
    const file = join(dir, 'ci.json');
    if (content !== null) writeFileSync(file, content);
    const errors: string[] = [];
    const error = jest.spyOn(console, 'error').mockImplementation((text: string) => void errors.push(text));
    try {
      const status = await synthMain(
        [`--cwd=${join(ROOT, 'stacks', 'aws-s3')}`, `--bootstrap=${file}`, `--out=${dir}`],
        { program: stackProgram('aws-s3') },
      );
      expect(status).toBe(2);
      expect(errors.join('\n')).toContain(`--bootstrap=${file}: ${message}`);
    } finally {
      error.mockRestore();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** The prod deploy role's policy statements, rewritten by `change`. */
function withProdDeployStatements(
  bootstrap: Snapshot,
  change: (statements: PolicyStatementText[]) => PolicyStatementText[],
): Snapshot {
  return weakened(bootstrap, (copy) => {
    const policy = named(copy, 'aws:iam/rolePolicy:RolePolicy', 'deploy-prod-permissions');
    const document = policyOf(policy) as unknown as { Statement: PolicyStatementText[] };
    document.Statement = change(document.Statement);
    policy.inputs['policy'] = JSON.stringify(document);
  });
}

interface PolicyStatementText {
  Sid: string;
  Effect: string;
  Action: string[];
  Resource?: string[];
  Condition?: Record<string, Record<string, unknown>>;
}

/** A statement's condition without the key (and an operator left empty without its block). */
function withoutConditionKey(statement: PolicyStatementText, key: string): PolicyStatementText {
  const Condition = Object.fromEntries(
    Object.entries(statement.Condition ?? {})
      .map(([operator, keys]) => [
        operator,
        Object.fromEntries(Object.entries(keys).filter(([k]) => k !== key)),
      ])
      .filter(([, keys]) => Object.keys(keys as object).length > 0),
  );
  return { ...statement, Condition };
}

describe('AWS: the Express store with its own key (prod llm-pretrain-fast), deployed and drift-checked by CI', () => {
  let bootstrap: Snapshot;
  beforeAll(async () => {
    bootstrap = await renderShippedBootstrap();
  });
  const ENCRYPTION = 'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration';

  it.each([
    [
      'without the S3 Express key exception (SetDirectoryBucketKeys)',
      (all: PolicyStatementText[]) => all.filter((statement) => statement.Sid !== 'SetDirectoryBucketKeys'),
    ],
    [
      'with every data key action denied, as before the exception',
      (all: PolicyStatementText[]) =>
        all.map((statement) =>
          statement.Sid === 'NeverTouchCheckpointData'
            ? { ...statement, Action: [...statement.Action, 'kms:Decrypt', 'kms:GenerateDataKey*'] }
            : statement,
        ),
    ],
  ])(
    '%s the deploy role cannot set the bucket encryption: PutBucketEncryption needs GenerateDataKey and Decrypt on the key',
    async (_, change) => {
      const result = await synthProd('aws-s3', withProdDeployStatements(bootstrap, change));
      expect(result.status).toBe(1);
      const missing = result.verdicts
        .filter((verdict) => verdict.policy === 'ci-deploy-rights')
        .map((verdict) => verdict.message.replace(/key\/[0-9a-f-]+/, 'key/ID'));
      expect(missing).toEqual(
        ['create', 'update'].flatMap((operation) =>
          ['kms:GenerateDataKey', 'kms:Decrypt'].map(
            (permission) =>
              `${ENCRYPTION} llm-pretrain-fast-encryption: ci deploy-prod lacks ${permission} on arn:aws:kms:us-east-1:123456789012:key/ID, which its ${operation} needs`,
          ),
        ),
      );
    },
  );

  it('as shipped the deploy role holds both, pinned to S3 Express and the bucket, and still reaches no data', async () => {
    const result = await synthProd('aws-s3', bootstrap);
    expect(result.verdicts).toEqual([]);
    const rights = await missingDeployRights('aws', { resources: result.resources }, bootstrap, 'prod');
    expect(rights).toEqual([]);
    const access = await analyzeAccess({ resources: result.resources }, bootstrap);
    const fast = access.stores.find((store) => store.store === 'llm-pretrain-fast');
    const ci = fast?.grants.filter((grant) => grant.principal.kind.startsWith('ci-'));
    expect(fast?.grants.length).toBeGreaterThan(0);
    expect(
      ci?.filter((grant) => ['read', 'write', 'delete', 'open-session', 'use-key'].includes(grant.operation)),
    ).toEqual([]);
  });

  it('without the kms:ViaService pin the deploy role may use the store key itself: ci-no-data-access fails', async () => {
    const result = await synthProd(
      'aws-s3',
      withProdDeployStatements(bootstrap, (all) =>
        all
          .filter((statement) => statement.Sid !== 'KeysOnlyThroughS3Express')
          .map((statement) => withoutConditionKey(statement, 'kms:ViaService')),
      ),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-no-data-access',
        message: expect.stringMatching(
          /^store llm-pretrain-fast \(prod\): ci deploy-prod can use a store key: kms:Decrypt: policy checkpoint-stacks SetDirectoryBucketKeys/,
        ),
      }),
    );
  });

  it('a deploy role that may open a session reads the Express store through the key exception: ci-no-data-access fails', async () => {
    const result = await synthProd(
      'aws-s3',
      withProdDeployStatements(bootstrap, (all) => [
        ...all.filter((statement) => statement.Sid !== 'NeverOpenDataSessions'),
        {
          Sid: 'OpenReadOnlyDirectoryBucketSessions',
          Effect: 'Allow',
          Action: ['s3express:CreateSession'],
          Resource: ['arn:aws:s3express:*:123456789012:bucket/checkpoints-aws-prod-*--x-s3'],
          Condition: { StringEquals: { 's3express:SessionMode': 'ReadOnly' } },
        },
      ]),
    );
    expect(result.status).toBe(1);
    expect(result.verdicts).toContainEqual(
      expect.objectContaining({
        policy: 'ci-no-data-access',
        message: expect.stringMatching(
          /^store llm-pretrain-fast \(prod\): ci deploy-prod can read checkpoint data: s3express:CreateSession: policy checkpoint-stacks OpenReadOnlyDirectoryBucketSessions; kms:Decrypt: policy checkpoint-stacks SetDirectoryBucketKeys/,
        ),
      }),
    );
  });

  it('drift: the refresh leaves out exactly the reads no CI role makes, and the preview role holds every other', async () => {
    const { resources } = await synthProd('aws-s3', bootstrap);
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const runner = require(join(ROOT, 'tools', 'pulumi', 'run.cjs')) as {
      TARGETS: { drift: { excludes: string[] }; refresh: { excludes: string[] } };
    };
    const globs = runner.TARGETS.drift.excludes;
    // A refresh leaves out the same, unless asked to include them with credentials that may open a session.
    expect(runner.TARGETS.refresh.excludes).toEqual(globs);
    // Pulumi's URN globs: `**` any text, `*` any text without `:` (UrnTargets, pulumi/pulumi pkg/resource/deploy).
    const matchers = globs.map(
      (glob) =>
        new RegExp(
          `^${glob
            .split('**')
            .map((part) =>
              part
                .split('*')
                .map((text) => text.replace(/[.*+?^${}()|[\]\\$]/g, '\\$&'))
                .join('[^:]*'),
            )
            .join('.*')}$`,
        ),
    );
    const excluded = resources.filter((resource) => matchers.some((matcher) => matcher.test(resource.urn)));
    const unrefreshed = resources.filter((resource) => CI_UNREFRESHED_TYPES.has(resource.type));
    expect(unrefreshed.map((resource) => resource.name)).toEqual(['llm-pretrain-fast-bucket']);
    expect(excluded).toEqual(unrefreshed);
    // What the left-out read would take: a data session, which the preview role never holds, and the tags.
    expect(
      new Set(unrefreshed.flatMap((resource) => AWS_RIGHTS[resource.type]?.read ?? ['unknown'])),
    ).toEqual(new Set(['s3express:CreateSession', 's3express:ListTagsForResource']));
    const rights = await missingDeployRights('aws', { resources }, bootstrap, 'prod');
    expect(rights.filter((right) => right.identity === 'ci preview')).toEqual([]);
    // The directory bucket's encryption, policy and lifecycle are refreshed: a deleted bucket still shows.
    const refreshedOfBucket = resources.filter(
      (resource) =>
        resource.inputs['bucket'] === unrefreshed[0]?.inputs['bucket'] && !excluded.includes(resource),
    );
    expect(refreshedOfBucket.map((resource) => resource.type.split(':').pop()).sort()).toEqual([
      'BucketLifecycleConfiguration',
      'BucketPolicy',
      'BucketServerSideEncryptionConfiguration',
    ]);
  });
});

describe("Azure prod: the write-once archive of the stores' resource logs", () => {
  it('a deploy identity that may write the archive (and so shorten its unlocked policy) fails ci-prod-no-blind-audit', async () => {
    const bootstrap = await renderShippedBootstrap();
    const result = await synthProd(
      'azure-adls',
      weakened(bootstrap, (copy) => {
        const role = named(
          copy,
          'azure-native:authorization:RoleDefinition',
          'deploy-prod-audit-archive-role',
        );
        (role.inputs['permissions'] as { actions: string[] }[])[0]!.actions.push(
          'Microsoft.Storage/storageAccounts/write',
        );
      }),
    );
    expect(result.status).toBe(1);
    const blind = result.verdicts.filter((verdict) => verdict.policy === 'ci-prod-no-blind-audit');
    expect(blind.length).toBe(3);
    expect(blind[0]?.message).toContain('Microsoft.Storage/storageAccounts/write');
  });
});

describe('Azure deletion guards and network joins of the shipped bootstrap', () => {
  let bootstrap: Snapshot;
  beforeAll(async () => {
    bootstrap = await renderShippedBootstrap();
  });
  const account = `/subscriptions/${SUBSCRIPTION}/resourceGroups/rg-checkpoints-prod/providers/Microsoft.Storage/storageAccounts/prodllm`;
  const subnet = `/subscriptions/${SUBSCRIPTION}/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets`;

  /** What a deploy of `resources` would need that the environment's deploy identity lacks, as `permission on`. */
  async function missing(environment: string, ...resources: RenderedResource[]): Promise<string[]> {
    const rights = await missingDeployRights('azure', { resources }, bootstrap, environment);
    return rights.map((right) => `${right.identity} ${right.operation} ${right.permission} on ${right.on}`);
  }

  it.each(['dev', 'prod'])(
    '%s: CI creates a CanNotDelete lock but cannot remove it (break-glass only)',
    async (environment) => {
      // An unprotected lock, so the check asks for its deletion too.
      const lock = extra('azure-native:authorization:ManagementLockByScope', 'llm-lock', {
        scope: account.replace('prod', environment),
        lockName: 'checkpoints-do-not-delete',
        level: 'CanNotDelete',
      });
      const lockId = `${account.replace('prod', environment)}/providers/Microsoft.Authorization/locks/checkpoints-do-not-delete`;
      expect(await missing(environment, lock)).toEqual([
        `ci deploy-${environment} delete Microsoft.Authorization/locks/delete on ${lockId}`,
      ]);
    },
  );

  it('prod: CI may join the subnet the config lists, and no other subnet of the network', async () => {
    const accountWith = (subnetId: string) =>
      extra('azure-native:storage:StorageAccount', 'llm', {
        resourceGroupName: 'rg-checkpoints-prod',
        accountName: 'prodllm',
        networkRuleSet: {
          defaultAction: 'Deny',
          virtualNetworkRules: [{ virtualNetworkResourceId: subnetId }],
        },
      });
    const listed = (await missing('prod', { ...accountWith(`${subnet}/gpu-nodes`), protect: true })).filter(
      (right) => right.includes('Microsoft.Network'),
    );
    expect(listed).toEqual([]);
    const other = (await missing('prod', { ...accountWith(`${subnet}/web`), protect: true })).filter(
      (right) => right.includes('Microsoft.Network'),
    );
    expect(other).toEqual(
      ['create', 'update'].map(
        (operation) =>
          `ci deploy-prod ${operation} Microsoft.Network/virtualNetworks/subnets/joinViaServiceEndpoint/action on ${subnet}/web`,
      ),
    );
  });
});

describe('Azure private DNS zones: CI registers endpoints in the listed zones alone', () => {
  const zone = (group: string, name: string) =>
    `/subscriptions/${SUBSCRIPTION}/resourceGroups/${group}/providers/Microsoft.Network/privateDnsZones/${name}`;
  const BLOB_ZONE = zone('hub-dns', 'privatelink.blob.core.windows.net');
  const OTHER_ZONE = zone('other-dns', 'privatelink.blob.core.windows.net');
  let bootstrap: Snapshot;
  beforeAll(async () => {
    const project = readProject(ROOT);
    const stack = readStackConfig(stackConfigFile(project, 'ci'), project);
    const azure = JSON.parse(stack.config['bootstrap:azure'] ?? '{}') as Record<string, unknown>;
    bootstrap = await render(() => bootstrapStack(), {
      project: project.name,
      stack: 'ci',
      config: {
        ...stack.config,
        'bootstrap:azure': JSON.stringify({ ...azure, privateDnsZones: { prod: [BLOB_ZONE] } }),
      },
      secretKeys: stack.secretKeys,
    });
  });

  const zoneGroup = (zoneId: string) =>
    extra('azure-native:network:PrivateDnsZoneGroup', 'llm-blob-dns', {
      resourceGroupName: 'rg-checkpoints-prod',
      privateEndpointName: 'prodllm-blob',
      privateDnsZoneGroupName: 'default',
      privateDnsZoneConfigs: [{ name: 'privatelink-blob-core-windows-net', privateDnsZoneId: zoneId }],
    });

  async function missing(zoneId: string): Promise<string[]> {
    const rights = await missingDeployRights('azure', { resources: [zoneGroup(zoneId)] }, bootstrap, 'prod');
    return rights.map((right) => `${right.identity} ${right.operation} ${right.permission} on ${right.on}`);
  }

  it('prod: a zone group in the listed zone needs nothing CI lacks; one in another zone lacks the join', async () => {
    expect(await missing(BLOB_ZONE)).toEqual([]);
    expect(await missing(OTHER_ZONE)).toEqual(
      ['create', 'update'].map(
        (operation) =>
          `ci deploy-prod ${operation} Microsoft.Network/privateDnsZones/join/action on ${OTHER_ZONE}`,
      ),
    );
  });

  it('the zone role can join and read the zone, and change nothing in it', () => {
    const definitions = bootstrap.resources.filter(
      (r) =>
        r.type === 'azure-native:authorization:RoleDefinition' &&
        String(r.inputs['roleName']).startsWith('checkpoints-join-dns-zones-'),
    );
    expect(
      definitions.map((r) => [r.inputs['roleName'], r.inputs['permissions'], r.inputs['assignableScopes']]),
    ).toEqual([
      [
        expect.stringMatching(/^checkpoints-join-dns-zones-prod-[0-9a-f]{8}$/),
        [
          {
            actions: [
              'Microsoft.Network/privateDnsZones/join/action',
              'Microsoft.Network/privateDnsZones/read',
            ],
            notActions: [],
            dataActions: [],
            notDataActions: [],
          },
        ],
        [`/subscriptions/${SUBSCRIPTION}/resourceGroups/hub-dns`],
      ],
    ]);
    const scopes = bootstrap.resources
      .filter(
        (r) =>
          r.type === 'azure-native:authorization:RoleAssignment' &&
          r.name.endsWith('-checkpoints-join-dns-zone'),
      )
      .map((r) => [r.name.split('-')[0] + '-' + r.name.split('-')[1], r.inputs['scope']]);
    expect(scopes).toEqual([['deploy-prod', BLOB_ZONE]]);
  });
});

/**
 * The AWS analyses share IAM's answers between stores whose questions differ only in the stores' own
 * words (libs/analysis src/access/aws-renaming): a store of a many-store render must be granted exactly
 * what it is granted rendered alone, where it has no other store to share with and every question is
 * simulated as it is. The names differ in length, letters and digits, and the stores in tier and
 * replica, as users' do.
 */
describe('AWS: answers shared between the stores of one render', () => {
  const NAMES = ['llm-pretrain', 'v7', 'vision-2026', 'rl', 'ckpt-0042'];
  const STACK_DIR = join(ROOT, 'stacks', 'aws-s3');

  function prodConfig() {
    const project = readProject(STACK_DIR);
    return { project, ...readStackConfig(stackConfigFile(project, 'prod'), project) };
  }

  function prodRender(stores: unknown[]): Promise<Snapshot> {
    const { project, config, secretKeys } = prodConfig();
    return render(stackProgram('aws-s3'), {
      project: project.name,
      stack: 'prod',
      config: { ...config, 'checkpoints:stores': JSON.stringify(stores) },
      secretKeys,
    });
  }

  /** The shipped prod stores renamed: its first standard and its first high-throughput store in turn. */
  function storesNamed(names: readonly string[]): unknown[] {
    const shipped = JSON.parse(prodConfig().config['checkpoints:stores']!) as {
      name: string;
      tier?: string;
    }[];
    const tiers = [
      shipped.find((store) => store.tier !== 'high-throughput'),
      shipped.find((store) => store.tier === 'high-throughput'),
    ];
    return names.map((name, index) => ({ ...tiers[index % 2], name }));
  }

  it('grants each store what it is granted rendered alone, and lacks the same deploy rights for it', async () => {
    const bootstrap = await renderShippedBootstrap();
    const stores = storesNamed(NAMES);
    const together = await prodRender(stores);
    const access = await analyzeAccess(together, bootstrap);
    const rights = await missingDeployRights('aws', together, bootstrap, 'prod');
    expect(access.stores.map((store) => store.store)).toEqual(NAMES);
    for (const [index, name] of NAMES.entries()) {
      // The store alone is its own analysis: every question asked afresh, none answered from the many-store render's.
      const alone = await prodRender([stores[index]]);
      const aloneAccess = await analyzeAccess(alone, bootstrap);
      expect(aloneAccess.stores[0]?.grants.length).toBeGreaterThan(0);
      expect(access.stores.find((store) => store.store === name)?.grants).toEqual(
        aloneAccess.stores[0]?.grants,
      );
      const own = new Set(
        storesOf(alone)[0]?.resources.map((resource) => `${resource.type} ${resource.name}`),
      );
      const aloneRights = await missingDeployRights('aws', alone, bootstrap, 'prod');
      expect(rights.filter((right) => own.has(right.resource))).toEqual(
        aloneRights.filter((right) => own.has(right.resource)),
      );
    }
  });
});
