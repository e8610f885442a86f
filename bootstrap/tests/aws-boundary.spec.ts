/**
 * The permissions boundary of the AWS stacks' store roles: bootstrap creates one per environment, each
 * deploy role may create and change roles only with its own, and no role inside it reaches anything but
 * that environment's checkpoint data.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ENVIRONMENTS, type Environment } from '@checkpoints/config';
import { names } from '@checkpoints/naming';
import { AWS_ACCOUNT_ID, type RenderedResource, type Snapshot } from '@checkpoints/synth';
import {
  awsRequestAllowed,
  type AwsPrincipal,
  type PolicyDocument as AnalysisPolicyDocument,
} from '@checkpoints/analysis';
import {
  deployPolicy,
  storeRoleBoundaryArn,
  storeRoleBoundaryPolicy,
  type PolicyDocument,
} from '../src/aws/policies';
import { jsonInput, ofTypeByName, renderBootstrap, resource, standardTagsFor } from './helpers';
import { arnPattern, conditionKeys, grantedActions } from './iam-data';

const ROOT = join(__dirname, '..', '..');
const ACCOUNT = { partition: 'aws', accountId: AWS_ACCOUNT_ID };
const MANAGED_POLICY = 'aws:iam/policy:Policy';
const ROLE_POLICY = 'aws:iam/rolePolicy:RolePolicy';

const READ_LEVELS = new Set(['Read', 'List']);

/** Every action a document's Allow statements grant, wildcards expanded, with the statement granting it. */
/**
 * Whether a boundary allows `action` on `arn`, for a resource with these tags: an Allow statement names
 * the action, matches the ARN and has every condition met. Only the conditions boundaries here use
 * (StringEquals on aws:ResourceTag) are understood; any other fails the check.
 */
function allows(boundary: PolicyDocument, action: string, arn: string, tags: Record<string, string> = {}) {
  return boundary.Statement.some((statement) => {
    if (statement.Effect !== 'Allow' || !statement.Action.includes(action)) return false;
    if (!(statement.Resource ?? []).some((pattern) => arnPattern(pattern).test(arn))) return false;
    return Object.entries(statement.Condition ?? {}).every(
      ([operator, keys]) =>
        operator === 'StringEquals' &&
        Object.entries(keys).every(([key, expected]) => {
          const tag = /^aws:ResourceTag\/(.+)$/.exec(key)?.[1];
          const actual = tag === undefined ? undefined : tags[tag];
          return actual !== undefined && [expected].flat().includes(actual);
        }),
    );
  });
}

/**
 * What the writer and reader roles of a store are granted (libs/translate `awsStoreAccessPolicy`, asserted
 * action by action on the rendered stack in stacks/aws-s3/tests/identities.spec.ts), on the names and
 * tags the AWS stack of `environment` gives a store.
 */
interface Grant {
  action: string;
  arn: string;
  /** The tags of the resource, where the boundary matches it by tag. */
  tags?: Record<string, string>;
}

function storeRoleGrants(environment: Environment, store: string): Grant[] {
  const ctx = { project: 'checkpoints-aws', stack: environment, store };
  const bucket = `arn:aws:s3:::${names.s3Bucket(ctx)}`;
  const directoryBucket = `arn:aws:s3express:us-east-1:${AWS_ACCOUNT_ID}:bucket/${names.s3DirectoryBucket(ctx, 'use1-az4')}`;
  const key = `arn:aws:kms:us-east-1:${AWS_ACCOUNT_ID}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
  const keyTags = { 'pulumi-project': 'checkpoints-aws', 'pulumi-stack': environment };
  const onKey = (action: string): Grant => ({ action, arn: key, tags: keyTags });
  return [
    { action: 's3:ListBucket', arn: bucket },
    { action: 's3:ListBucketMultipartUploads', arn: bucket },
    ...[
      's3:GetObject',
      's3:PutObject',
      's3:DeleteObject',
      's3:AbortMultipartUpload',
      's3:ListMultipartUploadParts',
    ].map((action) => ({ action, arn: `${bucket}/run-42/step-1000.pt` })),
    { action: 's3express:CreateSession', arn: directoryBucket },
    onKey('kms:GenerateDataKey'),
    onKey('kms:Decrypt'),
  ];
}

const STORES = ['ab', 'llm-pretrain', 'q'.repeat(31), 'prod-mirror', 'checkpoints-aws-prod'];

describe('store role permissions boundaries', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderBootstrap();
  });

  const boundaryOf = (environment: Environment): RenderedResource =>
    resource(snapshot, MANAGED_POLICY, `store-role-boundary-${environment}`);

  it('are one managed policy per environment, named as the AWS stack names it, tagged and protected', () => {
    // The deploy roles' own managed policies (their service-role rights) are CI's, not boundaries.
    const boundaries = ofTypeByName(snapshot, MANAGED_POLICY).filter(
      (policy) => !policy.name.endsWith('-service-roles'),
    );
    const policies = boundaries.map((policy) => [
      policy.name,
      policy.inputs['name'],
      policy.inputs['path'],
      policy.inputs['tags'],
      policy.protect,
    ]);
    expect(policies).toEqual([
      [
        'store-role-boundary-dev',
        'checkpoints-aws-dev-store-role-boundary-cd7eb4',
        undefined,
        standardTagsFor('dev'),
        true,
      ],
      [
        'store-role-boundary-prod',
        'checkpoints-aws-prod-store-role-boundary-24b5b6',
        undefined,
        standardTagsFor('prod'),
        true,
      ],
    ]);
    // The very name stacks/aws-s3 builds the roles' permissionsBoundary from.
    for (const environment of ['dev', 'prod'] as const) {
      expect(boundaryOf(environment).inputs['name']).toBe(
        names.awsStoreRoleBoundary({ project: 'checkpoints-aws', stack: environment }),
      );
    }
  });

  it("allow the environment's buckets, objects, directory bucket sessions and tagged keys, and a SageMaker job's own needs", () => {
    const prod = jsonInput(boundaryOf('prod'), 'policy') as PolicyDocument;
    expect(prod.Statement.filter(({ Sid }) => Sid.startsWith('SageMakerJob')).map(({ Sid }) => Sid)).toEqual([
      'SageMakerJobLogs',
      'SageMakerJobImageLogin',
      'SageMakerJobImages',
      'SageMakerJobNetworkInterfaces',
      'SageMakerJobNetworkLookups',
    ]);
    expect({
      ...prod,
      Statement: prod.Statement.filter(({ Sid }) => !Sid.startsWith('SageMakerJob')),
    }).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'StackBuckets',
          Effect: 'Allow',
          Action: [
            // AWS Backup as a store's backup role: it follows the bucket's changes and inventories it.
            's3:GetBucketAcl',
            's3:GetBucketLocation',
            's3:GetBucketNotification',
            's3:GetBucketTagging',
            's3:GetBucketVersioning',
            's3:GetInventoryConfiguration',
            's3:GetReplicationConfiguration',
            's3:ListBucket',
            's3:ListBucketMultipartUploads',
            's3:ListBucketVersions',
            's3:PutBucketNotification',
            's3:PutInventoryConfiguration',
          ],
          Resource: ['arn:aws:s3:::checkpoints-aws-prod-*'],
        },
        {
          Sid: 'StackObjects',
          Effect: 'Allow',
          Action: [
            's3:AbortMultipartUpload',
            's3:DeleteObject',
            's3:GetObject',
            's3:GetObjectAcl',
            's3:GetObjectLegalHold',
            's3:GetObjectRetention',
            's3:GetObjectTagging',
            's3:GetObjectVersion',
            's3:GetObjectVersionAcl',
            's3:GetObjectVersionForReplication',
            's3:GetObjectVersionTagging',
            's3:ListMultipartUploadParts',
            's3:PutObject',
            's3:ReplicateDelete',
            's3:ReplicateObject',
            's3:ReplicateTags',
          ],
          Resource: ['arn:aws:s3:::checkpoints-aws-prod-*/*'],
        },
        {
          Sid: 'BackupRules',
          Effect: 'Allow',
          Action: [
            'events:DeleteRule',
            'events:DescribeRule',
            'events:DisableRule',
            'events:EnableRule',
            'events:ListTargetsByRule',
            'events:PutRule',
            'events:PutTargets',
            'events:RemoveTargets',
          ],
          Resource: ['arn:aws:events:*:123456789012:rule/AwsBackupManagedRule*'],
        },
        {
          Sid: 'BackupAccountReads',
          Effect: 'Allow',
          Action: ['events:ListRules', 's3:ListAllMyBuckets'],
          Resource: ['*'],
        },
        {
          Sid: 'GuardDutyManagedRules',
          Effect: 'Allow',
          Action: [
            'events:DeleteRule',
            'events:DescribeRule',
            'events:ListTargetsByRule',
            'events:PutRule',
            'events:PutTargets',
            'events:RemoveTargets',
          ],
          Resource: ['arn:aws:events:*:123456789012:rule/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*'],
        },
        {
          Sid: 'StackDirectoryBucketSessions',
          Effect: 'Allow',
          Action: ['s3express:CreateSession'],
          Resource: [
            'arn:aws:s3express:*:123456789012:bucket/aws-prod-*--x-s3',
            'arn:aws:s3express:*:123456789012:bucket/checkpoints-aws-prod-*--x-s3',
          ],
        },
        {
          Sid: 'StackKeys',
          Effect: 'Allow',
          Action: ['kms:Decrypt', 'kms:DescribeKey', 'kms:Encrypt', 'kms:GenerateDataKey'],
          Resource: ['arn:aws:kms:*:123456789012:key/*'],
          Condition: {
            StringEquals: {
              'aws:ResourceTag/pulumi-project': 'checkpoints-aws',
              'aws:ResourceTag/pulumi-stack': 'prod',
            },
          },
        },
      ],
    });
    expect(jsonInput(boundaryOf('dev'), 'policy')).toEqual(storeRoleBoundaryPolicy(ACCOUNT, 'dev'));
  });

  it.each(['dev', 'prod'] as const)(
    'bind the %s deploy role: it creates and changes roles with that policy as their boundary only',
    (environment) => {
      const permissions = resource(snapshot, ROLE_POLICY, `deploy-${environment}-permissions`);
      const bounded = (jsonInput(permissions, 'policy') as PolicyDocument).Statement.find(
        ({ Sid }) => Sid === 'ManageBoundedStackRoles',
      );
      // The ARN IAM gives the policy bootstrap creates (default path `/`).
      expect(bounded?.Condition).toEqual({
        StringEquals: {
          'iam:PermissionsBoundary': `arn:aws:iam::123456789012:policy/${String(boundaryOf(environment).inputs['name'])}`,
        },
      });
      // Registered after the boundary, so that the condition never names a policy that does not exist.
      expect(permissions.dependsOn).toContain(boundaryOf(environment).urn);
    },
  );
});

describe('AWS deploy roles against the permissions boundary, per AWS’s catalogue', () => {
  it.each(ENVIRONMENTS)(
    '%s: every role write IAM can condition on the boundary requires it; the rest are tags',
    async (environment) => {
      const unconditioned: string[] = [];
      for (const { action, level, statement } of await grantedActions(deployPolicy(ACCOUNT, environment))) {
        if (!action.startsWith('iam:') || READ_LEVELS.has(level)) continue;
        const [service = '', name = ''] = action.split(':');
        const honoursBoundary = (await conditionKeys(service, name)).some((key) =>
          key.test('iam:PermissionsBoundary'),
        );
        if (!honoursBoundary) {
          unconditioned.push(action);
          continue;
        }
        expect([action, statement.Condition]).toEqual([
          action,
          { StringEquals: { 'iam:PermissionsBoundary': storeRoleBoundaryArn(ACCOUNT, environment) } },
        ]);
      }
      // PassRole: conditioned on the service instead (see "passes only replication roles, only to S3"; in prod
      // also malware-scan roles, only to GuardDuty).
      expect([...new Set(unconditioned)].sort()).toEqual(['iam:PassRole', 'iam:TagRole', 'iam:UntagRole']);
    },
  );

  it.each(ENVIRONMENTS)(
    '%s: nothing can lift a boundary, and no managed policy is ever written or attached',
    async (environment) => {
      const policy = deployPolicy(ACCOUNT, environment);
      const iamWrites = (await grantedActions(policy))
        .filter(({ action, level }) => action.startsWith('iam:') && !READ_LEVELS.has(level))
        .map(({ action }) => action);
      expect([
        ...new Set(
          iamWrites.filter((action) => /Policy(Version)?$|Attach|Detach|PassRole|Boundary$/.test(action)),
        ),
      ]).toEqual([
        'iam:DeleteRolePolicy',
        'iam:PutRolePermissionsBoundary',
        'iam:PutRolePolicy',
        'iam:UpdateAssumeRolePolicy',
        // Replication roles to S3, backup roles to AWS Backup, in prod malware-scan roles to GuardDuty.
        'iam:PassRole',
      ]);
      // What the denies hold, judged by iam-simulate on the role's whole policy: a service role's trust,
      // boundary and managed policies stay as the stack made them, no role takes a CI role's name, no boundary
      // is removed and no boundary policy rewritten.
      const deploy: AwsPrincipal = {
        principal: { id: environment, label: `deploy-${environment}`, kind: 'ci-deploy' },
        arn: `arn:aws:iam::${AWS_ACCOUNT_ID}:role/checkpoints-ci-deploy-${environment}`,
        policies: [{ name: 'ci', policy: policy as unknown as AnalysisPolicyDocument }],
      };
      const store = { project: 'checkpoints-aws', stack: environment, store: 'llm-pretrain' };
      const role = (name: string) => `arn:aws:iam::${AWS_ACCOUNT_ID}:role/${name}`;
      const serviceRoles = [
        'replication',
        'backup',
        ...(environment === 'prod' ? (['malware-scan'] as const) : []),
      ] as const;
      const refused: [string, string][] = [
        ...serviceRoles.flatMap((kind) =>
          [
            'iam:AttachRolePolicy',
            'iam:DeleteRole',
            'iam:DeleteRolePermissionsBoundary',
            'iam:DetachRolePolicy',
            'iam:PutRolePermissionsBoundary',
            'iam:UpdateAssumeRolePolicy',
          ].map((action): [string, string] => [action, role(names.iamRole(store, kind))]),
        ),
        ['iam:CreateRole', role(`checkpoints-ci-deploy-${environment}`)],
        ['iam:CreateRole', role('checkpoints-ci-preview')],
        ['iam:DeleteRolePermissionsBoundary', role(names.iamRole(store, 'writer'))],
        ...ENVIRONMENTS.flatMap((each) =>
          ['iam:CreatePolicyVersion', 'iam:DeletePolicy', 'iam:SetDefaultPolicyVersion'].map(
            (action): [string, string] => [action, storeRoleBoundaryArn(ACCOUNT, each)],
          ),
        ),
      ];
      const allowedOnes: string[] = [];
      for (const [action, resource] of refused) {
        const boundary = { 'iam:PermissionsBoundary': storeRoleBoundaryArn(ACCOUNT, environment) };
        if ((await awsRequestAllowed(deploy, { action, resource, context: boundary })) !== undefined)
          allowedOnes.push(`${action} ${resource}`);
      }
      expect(allowedOnes).toEqual([]);
      // The same question is answered yes for what the stack does: the simulation can say yes.
      expect(
        await awsRequestAllowed(deploy, {
          action: 'iam:PutRolePolicy',
          resource: role(names.iamRole(store, 'writer')),
          context: { 'iam:PermissionsBoundary': storeRoleBoundaryArn(ACCOUNT, environment) },
        }),
      ).toBeDefined();
    },
  );

  it.each(ENVIRONMENTS)(
    "%s: bucket writes are those of the stack's resources (replication, the retention lock and server access logging included), never ACL, website, CORS, notification or request payment",
    async (environment) => {
      const buckets = deployPolicy(ACCOUNT, environment).Statement.filter(
        ({ Sid }) => Sid === 'ManageStackBuckets',
      );
      const writes = (await grantedActions({ Version: '2012-10-17', Statement: buckets }))
        .filter(({ level }) => !READ_LEVELS.has(level))
        .map(({ action }) => action)
        .sort();
      expect(writes).toEqual([
        's3:CreateBucket',
        's3:DeleteBucket',
        's3:DeleteBucketPolicy',
        's3:PutBucketLogging',
        's3:PutBucketObjectLockConfiguration',
        's3:PutBucketOwnershipControls',
        's3:PutBucketPolicy',
        's3:PutBucketPublicAccessBlock',
        's3:PutBucketTagging',
        's3:PutBucketVersioning',
        's3:PutEncryptionConfiguration',
        's3:PutLifecycleConfiguration',
        's3:PutReplicationConfiguration',
        's3:TagResource',
        's3:UntagResource',
      ]);
      expect(
        writes.filter((action) =>
          /Acl|Website|Cors|Notification|RequestPayment|Accelerate|Bypass|ObjectRetention|LegalHold/i.test(
            action,
          ),
        ),
      ).toEqual([]);
    },
  );

  it.each(ENVIRONMENTS)('%s: no key policy change and no way to switch rotation off', async (environment) => {
    const kms = (await grantedActions(deployPolicy(ACCOUNT, environment)))
      .map(({ action }) => action)
      .filter((action) => action.startsWith('kms:'));
    expect(
      kms.filter((action) => /PutKeyPolicy|DisableKeyRotation|DisableKey$|CreateGrant/.test(action)),
    ).toEqual([]);
    expect(kms).toContain('kms:EnableKeyRotation');
  });
});

describe('a role inside the boundary', () => {
  it.each(ENVIRONMENTS)(
    '%s: reaches only S3, S3 Express and KMS data actions, GuardDuty’s and AWS Backup’s managed EventBridge rules and a SageMaker job’s logs, images and network interfaces, no IAM',
    async (environment) => {
      const granted = await grantedActions(storeRoleBoundaryPolicy(ACCOUNT, environment));
      expect([...new Set(granted.map(({ action }) => action.split(':')[0]))].sort()).toEqual([
        'ec2',
        'ecr',
        'events',
        'kms',
        'logs',
        's3',
        's3express',
      ]);
      // Replicating an object's tags into the replica is the one tagging action; the one permissions
      // management is a SageMaker job's letting its own service attach to its network interfaces.
      expect(
        granted
          .filter(({ level }) => level !== 'Read' && level !== 'List' && level !== 'Write')
          .map(({ action, level }) => [action, level]),
      ).toEqual([
        ['s3:ReplicateTags', 'Tagging, Write'],
        ['ec2:CreateNetworkInterfacePermission', 'Permissions management, Write'],
        ['ec2:DeleteNetworkInterfacePermission', 'Permissions management, Write'],
      ]);
      // Every condition key is one the actions honour.
      for (const { action, statement } of granted) {
        const [service = '', name = ''] = action.split(':');
        const supported = await conditionKeys(service, name);
        for (const key of Object.values(statement.Condition ?? {}).flatMap((keys) => Object.keys(keys))) {
          expect([action, key, supported.some((pattern) => pattern.test(key))]).toEqual([action, key, true]);
        }
      }
    },
  );

  it.each(ENVIRONMENTS)(
    "%s: still has everything the stack's writer and reader roles are granted",
    (environment) => {
      const boundary = storeRoleBoundaryPolicy(ACCOUNT, environment);
      const missing = STORES.flatMap((store) => storeRoleGrants(environment, store)).filter(
        ({ action, arn, tags }) => !allows(boundary, action, arn, tags),
      );
      expect(missing).toEqual([]);
    },
  );

  it.each(
    ENVIRONMENTS.flatMap((bounded) =>
      ENVIRONMENTS.filter((other) => other !== bounded).map((other) => [bounded, other] as const),
    ),
  )('%s: reaches no bucket, object or key of the %s stack', (bounded, other) => {
    const boundary = storeRoleBoundaryPolicy(ACCOUNT, bounded);
    const reachable = STORES.flatMap((store) => storeRoleGrants(other, store)).filter(
      ({ action, arn, tags }) => allows(boundary, action, arn, tags),
    );
    expect(reachable).toEqual([]);
  });

  it('uses no key without the stack’s tags', () => {
    const boundary = storeRoleBoundaryPolicy(ACCOUNT, 'prod');
    const key = `arn:aws:kms:us-east-1:${AWS_ACCOUNT_ID}:key/1234abcd-12ab-34cd-56ef-1234567890ab`;
    expect(allows(boundary, 'kms:Decrypt', key)).toBe(false);
    expect(allows(boundary, 'kms:Decrypt', key, { 'pulumi-project': 'other', 'pulumi-stack': 'prod' })).toBe(
      false,
    );
  });
});

describe('docs/aws.md', () => {
  const docs = readFileSync(join(ROOT, 'docs', 'aws.md'), 'utf8');
  const documented = [...docs.matchAll(/```json\n([\s\S]*?)```/g)]
    .map(([, body]) => body ?? '')
    .find((body) => body.includes('"StackBuckets"'));

  it('gives the exact prod boundary document, for any partition and account', () => {
    expect(documented).toBeDefined();
    const filled = (documented ?? '').replace(/<partition>/g, 'aws').replace(/<account>/g, AWS_ACCOUNT_ID);
    expect(JSON.parse(filled)).toEqual(storeRoleBoundaryPolicy(ACCOUNT, 'prod'));
    const china = { partition: 'aws-cn', accountId: '210987654321' };
    const inChina = (documented ?? '')
      .replace(/<partition>/g, 'aws-cn')
      .replace(/<account>/g, '210987654321');
    expect(JSON.parse(inChina)).toEqual(storeRoleBoundaryPolicy(china, 'prod'));
  });

  it('says how the dev and staging documents differ from it', () => {
    const filled = (documented ?? '').replace(/<partition>/g, 'aws').replace(/<account>/g, AWS_ACCOUNT_ID);
    expect(JSON.parse(filled.replace(/prod/g, 'dev'))).toEqual(storeRoleBoundaryPolicy(ACCOUNT, 'dev'));
    const staging = JSON.parse(filled.replace(/prod/g, 'staging')) as PolicyDocument;
    staging.Statement.find(({ Sid }) => Sid === 'StackDirectoryBucketSessions')?.Resource?.push(
      `arn:aws:s3express:*:${AWS_ACCOUNT_ID}:bucket/staging-*--x-s3`,
    );
    expect(staging).toEqual(storeRoleBoundaryPolicy(ACCOUNT, 'staging'));
  });

  it.each(ENVIRONMENTS)('names the %s boundary policy', (environment) => {
    expect(docs).toContain(names.awsStoreRoleBoundary({ project: 'checkpoints-aws', stack: environment }));
  });
});
