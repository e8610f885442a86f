import { ENVIRONMENTS, type Environment } from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import { AWS_ACCOUNT_ID, ofType, type RenderedResource, type Snapshot } from '@checkpoints/synth';
import {
  awsStackNamePrefixes,
  deployPolicy,
  splitDeployPolicy,
  deployStatePolicy,
  previewPolicy,
  previewStatePolicy,
  type PolicyDocument,
  type PolicyStatement,
} from '../src/aws/policies';
import {
  awsRequestAllowed,
  type AwsPrincipal,
  type PolicyDocument as AnalysisPolicyDocument,
} from '@checkpoints/analysis';
import { awsCiRoleArnPatterns } from '@checkpoints/translate';
import { ciNames } from '../src/names';
import {
  actionDetails,
  arnPattern,
  conditionKeys,
  expandAction,
  resourceTemplates,
  sampleArn,
} from './iam-data';
import {
  jsonInput,
  ofTypeByName,
  renderBootstrap,
  resource,
  sharedRenderBootstrap,
  standardTagsFor,
} from './helpers';

const ACCOUNT = { partition: 'aws', accountId: AWS_ACCOUNT_ID };
const PROVIDER_ARN = `arn:aws:iam::${AWS_ACCOUNT_ID}:oidc-provider/token.actions.githubusercontent.com`;
const ROLE = 'aws:iam/role:Role';
const ROLE_POLICY = 'aws:iam/rolePolicy:RolePolicy';
const PROD_BOUNDARY = 'arn:aws:iam::123456789012:policy/checkpoints-aws-prod-store-role-boundary-24b5b6';
const BOUNDARIES = [
  'arn:aws:iam::123456789012:policy/checkpoints-aws-dev-store-role-boundary-cd7eb4',
  'arn:aws:iam::123456789012:policy/checkpoints-aws-staging-store-role-boundary-379455',
  PROD_BOUNDARY,
];

function trustOf(snapshot: Snapshot, name: string): unknown {
  return jsonInput(resource(snapshot, ROLE, name), 'assumeRolePolicy');
}

/** A CI role's permissions as it holds them: its inline policy and, for a deploy role, its managed one. */
function permissionsOf(snapshot: Snapshot, name: string): PolicyDocument {
  const inline = jsonInput(
    resource(snapshot, ROLE_POLICY, `${name}-permissions`),
    'policy',
  ) as PolicyDocument;
  const managed = snapshot.resources.find(
    (r) => r.type === 'aws:iam/policy:Policy' && r.name === `${name}-service-roles`,
  );
  if (!managed) return inline;
  const statements = (jsonInput(managed, 'policy') as PolicyDocument).Statement;
  return bySid({ ...inline, Statement: [...inline.Statement, ...statements] });
}

/** A policy's statements in Sid order: where a statement is kept (inline or managed) does not change it. */
function bySid<T extends { Statement: readonly { Sid?: string }[] }>(policy: T): T {
  return {
    ...policy,
    Statement: [...policy.Statement].sort((a, b) => (a.Sid ?? '').localeCompare(b.Sid ?? '')),
  };
}

const PULL_REQUEST = 'repo:acme/checkpoint-storage:pull_request';
const DRIFT = 'repo:acme/checkpoint-storage:environment:drift';

function trustFor(subject: string | string[], providerArn = PROVIDER_ARN) {
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Federated: providerArn },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            'token.actions.githubusercontent.com:aud': 'sts.amazonaws.com',
            'token.actions.githubusercontent.com:sub': subject,
          },
        },
      },
    ],
  };
}

/** What every CI role is denied, whatever else it holds. */
const CI_GUARDS = [
  {
    Sid: 'NeverTouchCheckpointData',
    Effect: 'Deny',
    Action: [
      'kms:Decrypt',
      'kms:Encrypt',
      'kms:GenerateDataKey*',
      'kms:ReEncrypt*',
      's3:DeleteObject*',
      's3:GetObject*',
      's3:PutObject*',
      's3:RestoreObject',
    ],
    Resource: ['*'],
  },
  {
    Sid: 'NeverActAsAnotherRole',
    Effect: 'Deny',
    Action: ['sts:AssumeRole', 'sts:SetSourceIdentity', 'sts:TagSession'],
    Resource: ['*'],
  },
  {
    Sid: 'NeverBypassRetentionLocks',
    Effect: 'Deny',
    Action: ['s3:BypassGovernanceRetention'],
    Resource: ['*'],
  },
  {
    Sid: 'NeverLiftIndependentCopies',
    Effect: 'Deny',
    Action: [
      'backup:DeleteBackupVault',
      'backup:DeleteBackupVaultAccessPolicy',
      'backup:DeleteBackupVaultLockConfiguration',
      'backup:DeleteRecoveryPoint',
      'backup:DisassociateRecoveryPoint',
      'backup:PutBackupVaultAccessPolicy',
      'backup:PutBackupVaultLockConfiguration',
      'backup:StartCopyJob',
      'backup:StartRestoreJob',
      'backup:UpdateRecoveryPointLifecycle',
    ],
    Resource: ['*'],
  },
];

const BACKUP_PLANS = ['arn:aws:backup:*:123456789012:backup-plan:*'];
const BACKUP_PLAN_READS = ['backup:GetBackupPlan', 'backup:GetBackupSelection', 'backup:ListTags'];

describe('AWS CI identities', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await sharedRenderBootstrap();
  });

  it('creates the GitHub OIDC provider for STS tokens, protected and tagged', () => {
    const [provider, ...others] = ofType(snapshot, 'aws:iam/openIdConnectProvider:OpenIdConnectProvider');
    expect(others).toEqual([]);
    expect(provider?.inputs).toEqual({
      url: 'https://token.actions.githubusercontent.com',
      clientIdLists: ['sts.amazonaws.com'],
      tags: standardTagsFor('prod'),
    });
    expect(provider?.protect).toBe(true);
  });

  it("has a preview role trusted by the repository's pull requests and its drift environment only", () => {
    expect(trustOf(snapshot, 'preview')).toEqual(trustFor([PULL_REQUEST, DRIFT]));
    // Exact values: StringEquals, each subject spelt out; no StringLike, no wildcard anywhere.
    expect(JSON.stringify(trustOf(snapshot, 'preview'))).not.toMatch(/StringLike|\*/);
  });

  it.each(['dev', 'prod'])('has a %s deploy role trusted by jobs of that GitHub environment only', (env) => {
    expect(trustOf(snapshot, `deploy-${env}`)).toEqual(
      trustFor(`repo:acme/checkpoint-storage:environment:${env}`),
    );
  });

  it('names and tags the roles, and makes no other', () => {
    const roles = ofTypeByName(snapshot, ROLE).map((role) => [role.inputs['name'], role.inputs['tags']]);
    expect(roles).toEqual([
      ['checkpoints-ci-deploy-dev', standardTagsFor('dev')],
      ['checkpoints-ci-deploy-prod', standardTagsFor('prod')],
      ['checkpoints-ci-preview', standardTagsFor('prod')],
    ]);
    const policies = ofTypeByName(snapshot, ROLE_POLICY).map((policy) => [
      policy.inputs['role'],
      policy.inputs['name'],
    ]);
    expect(policies).toEqual([
      ['checkpoints-ci-deploy-dev', 'checkpoint-stacks'],
      ['checkpoints-ci-deploy-prod', 'checkpoint-stacks'],
      ['checkpoints-ci-preview', 'checkpoint-stacks'],
    ]);
  });

  it('gives the preview role reads of the stacks of every environment, by name and tag', () => {
    expect(permissionsOf(snapshot, 'preview')).toEqual({
      Version: '2012-10-17',
      Statement: [
        {
          Sid: 'ReadStackBuckets',
          Effect: 'Allow',
          Action: [
            's3:GetAccelerateConfiguration',
            's3:GetBucket*',
            's3:GetEncryptionConfiguration',
            's3:GetLifecycleConfiguration',
            's3:GetReplicationConfiguration',
            's3:ListBucket',
            's3:ListTagsForResource',
          ],
          Resource: ['arn:aws:s3:::checkpoints-aws-dev-*', 'arn:aws:s3:::checkpoints-aws-prod-*'],
        },
        {
          Sid: 'ReadStackDirectoryBuckets',
          Effect: 'Allow',
          Action: [
            's3express:GetBucketPolicy',
            's3express:GetEncryptionConfiguration',
            's3express:GetLifecycleConfiguration',
          ],
          Resource: [
            'arn:aws:s3express:*:123456789012:bucket/aws-dev-*--x-s3',
            'arn:aws:s3express:*:123456789012:bucket/checkpoints-aws-dev-*--x-s3',
            'arn:aws:s3express:*:123456789012:bucket/aws-prod-*--x-s3',
            'arn:aws:s3express:*:123456789012:bucket/checkpoints-aws-prod-*--x-s3',
          ],
        },
        {
          Sid: 'ReadStackRoles',
          Effect: 'Allow',
          Action: [
            'iam:GetRole',
            'iam:GetRolePolicy',
            'iam:ListAttachedRolePolicies',
            'iam:ListRolePolicies',
            'iam:ListRoleTags',
          ],
          Resource: [
            'arn:aws:iam::123456789012:role/aws-dev-*',
            'arn:aws:iam::123456789012:role/checkpoints-aws-dev-*',
            'arn:aws:iam::123456789012:role/aws-prod-*',
            'arn:aws:iam::123456789012:role/checkpoints-aws-prod-*',
          ],
        },
        {
          Sid: 'ReadStackTrails',
          Effect: 'Allow',
          Action: [
            'cloudtrail:GetEventSelectors',
            'cloudtrail:GetInsightSelectors',
            'cloudtrail:GetTrailStatus',
            'cloudtrail:ListTags',
          ],
          Resource: [
            'arn:aws:cloudtrail:*:123456789012:trail/checkpoints-aws-dev-*',
            'arn:aws:cloudtrail:*:123456789012:trail/checkpoints-aws-prod-*',
          ],
        },
        { Sid: 'ReadStackBackupPlans', Effect: 'Allow', Action: BACKUP_PLAN_READS, Resource: BACKUP_PLANS },
        {
          Sid: 'ReadStackMalwareProtectionPlans',
          Effect: 'Allow',
          Action: ['guardduty:GetMalwareProtectionPlan'],
          Resource: ['arn:aws:guardduty:*:123456789012:malware-protection-plan/*'],
          Condition: {
            StringEquals: {
              'aws:ResourceTag/pulumi-project': 'checkpoints-aws',
              'aws:ResourceTag/pulumi-stack': ['dev', 'prod'],
            },
          },
        },
        {
          Sid: 'ReadStackKeys',
          Effect: 'Allow',
          Action: ['kms:DescribeKey', 'kms:GetKeyPolicy', 'kms:GetKeyRotationStatus', 'kms:ListResourceTags'],
          Resource: ['arn:aws:kms:*:123456789012:key/*'],
          Condition: {
            StringEquals: {
              'aws:ResourceTag/pulumi-project': 'checkpoints-aws',
              'aws:ResourceTag/pulumi-stack': ['dev', 'prod'],
            },
          },
        },
        { Sid: 'ListKeyAliases', Effect: 'Allow', Action: ['kms:ListAliases'], Resource: ['*'] },
        { Sid: 'ListTrails', Effect: 'Allow', Action: ['cloudtrail:DescribeTrails'], Resource: ['*'] },
        ...CI_GUARDS,
        {
          Sid: 'NeverOpenDataSessions',
          Effect: 'Deny',
          Action: ['s3express:CreateSession'],
          Resource: ['*'],
        },
      ],
    });
  });

  it('gives a deploy role the management of its own environment’s stack only', () => {
    const directoryBuckets = [
      'arn:aws:s3express:*:123456789012:bucket/aws-prod-*--x-s3',
      'arn:aws:s3express:*:123456789012:bucket/checkpoints-aws-prod-*--x-s3',
    ];
    const roles = [
      'arn:aws:iam::123456789012:role/aws-prod-*',
      'arn:aws:iam::123456789012:role/checkpoints-aws-prod-*',
    ];
    const prodTags = (prefix: string) => ({
      StringEquals: { [`${prefix}/pulumi-project`]: 'checkpoints-aws', [`${prefix}/pulumi-stack`]: 'prod' },
    });
    expect(permissionsOf(snapshot, 'deploy-prod')).toEqual(
      bySid({
        Version: '2012-10-17',
        Statement: [
          {
            Sid: 'ManageStackBuckets',
            Effect: 'Allow',
            Action: [
              's3:CreateBucket',
              's3:DeleteBucket',
              's3:DeleteBucketPolicy',
              's3:GetAccelerateConfiguration',
              's3:GetBucket*',
              's3:GetEncryptionConfiguration',
              's3:GetLifecycleConfiguration',
              's3:GetReplicationConfiguration',
              's3:ListBucket',
              's3:ListTagsForResource',
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
            ],
            Resource: ['arn:aws:s3:::checkpoints-aws-prod-*'],
          },
          {
            Sid: 'SetDirectoryBucketKeys',
            Effect: 'Allow',
            Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
            Resource: ['arn:aws:kms:*:123456789012:key/*'],
            Condition: {
              ...prodTags('aws:ResourceTag'),
              StringLike: {
                'kms:ViaService': 's3express.*.amazonaws.com',
                'kms:EncryptionContext:aws:s3express:arn': directoryBuckets,
              },
            },
          },
          {
            Sid: 'ManageStackDirectoryBuckets',
            Effect: 'Allow',
            Action: [
              's3express:CreateBucket',
              's3express:DeleteBucket',
              's3express:DeleteBucketPolicy',
              's3express:GetBucketPolicy',
              's3express:GetEncryptionConfiguration',
              's3express:GetLifecycleConfiguration',
              's3express:PutBucketPolicy',
              's3express:PutEncryptionConfiguration',
              's3express:PutLifecycleConfiguration',
              's3express:TagResource',
              's3express:UntagResource',
            ],
            Resource: directoryBuckets,
          },
          {
            Sid: 'ManageStackRoles',
            Effect: 'Allow',
            Action: [
              'iam:GetRole',
              'iam:GetRolePolicy',
              'iam:ListAttachedRolePolicies',
              'iam:ListInstanceProfilesForRole',
              'iam:ListRolePolicies',
              'iam:ListRoleTags',
              'iam:TagRole',
              'iam:UntagRole',
            ],
            Resource: roles,
          },
          {
            Sid: 'ManageBoundedStackRoles',
            Effect: 'Allow',
            Action: [
              'iam:CreateRole',
              'iam:DeleteRole',
              'iam:DeleteRolePolicy',
              'iam:PutRolePermissionsBoundary',
              'iam:PutRolePolicy',
              'iam:UpdateAssumeRolePolicy',
              'iam:UpdateRole',
              'iam:UpdateRoleDescription',
            ],
            Resource: roles,
            Condition: { StringEquals: { 'iam:PermissionsBoundary': PROD_BOUNDARY } },
          },
          {
            Sid: 'PassReplicationRolesToS3',
            Effect: 'Allow',
            Action: ['iam:PassRole'],
            Resource: roles.map((prefix) => `${prefix}-replication-??????`),
            Condition: { StringEquals: { 'iam:PassedToService': 's3.amazonaws.com' } },
          },
          {
            Sid: 'KeepReplicationRolesS3Only',
            Effect: 'Deny',
            Action: [
              'iam:AttachRolePolicy',
              'iam:DeleteRole',
              'iam:DeleteRolePermissionsBoundary',
              'iam:DetachRolePolicy',
              'iam:PutRolePermissionsBoundary',
              'iam:UpdateAssumeRolePolicy',
            ],
            Resource: roles.map((prefix) => `${prefix}-replication-??????`),
          },
          {
            Sid: 'PassMalwareScanRolesToGuardDuty',
            Effect: 'Allow',
            Action: ['iam:PassRole'],
            Resource: roles.map((prefix) => `${prefix}-malware-scan-??????`),
            Condition: {
              StringEquals: { 'iam:PassedToService': 'malware-protection-plan.guardduty.amazonaws.com' },
            },
          },
          {
            Sid: 'KeepMalwareScanRolesGuardDutyOnly',
            Effect: 'Deny',
            Action: [
              'iam:AttachRolePolicy',
              'iam:DeleteRole',
              'iam:DeleteRolePermissionsBoundary',
              'iam:DetachRolePolicy',
              'iam:PutRolePermissionsBoundary',
              'iam:UpdateAssumeRolePolicy',
            ],
            Resource: roles.map((prefix) => `${prefix}-malware-scan-??????`),
          },
          {
            Sid: 'CreateStackMalwareProtectionPlans',
            Effect: 'Allow',
            Action: ['guardduty:CreateMalwareProtectionPlan'],
            Resource: ['*'],
            Condition: {
              StringEquals: {
                'aws:RequestTag/pulumi-project': 'checkpoints-aws',
                'aws:RequestTag/pulumi-stack': 'prod',
              },
            },
          },
          {
            Sid: 'TagNewStackMalwareProtectionPlans',
            Effect: 'Allow',
            Action: ['guardduty:TagResource'],
            Resource: ['arn:aws:guardduty:*:123456789012:malware-protection-plan/*'],
            Condition: {
              StringEquals: {
                'aws:RequestTag/pulumi-project': 'checkpoints-aws',
                'aws:RequestTag/pulumi-stack': 'prod',
              },
            },
          },
          {
            Sid: 'ManageStackMalwareProtectionPlans',
            Effect: 'Allow',
            Action: [
              'guardduty:DeleteMalwareProtectionPlan',
              'guardduty:GetMalwareProtectionPlan',
              'guardduty:TagResource',
              'guardduty:UntagResource',
              'guardduty:UpdateMalwareProtectionPlan',
            ],
            Resource: ['arn:aws:guardduty:*:123456789012:malware-protection-plan/*'],
            Condition: {
              StringEquals: {
                'aws:ResourceTag/pulumi-project': 'checkpoints-aws',
                'aws:ResourceTag/pulumi-stack': 'prod',
              },
            },
          },
          {
            Sid: 'NoRolesNamedLikeCi',
            Effect: 'Deny',
            Action: ['iam:CreateRole'],
            Resource: awsCiRoleArnPatterns('aws', '123456789012'),
          },
          {
            Sid: 'KeepRoleBoundaries',
            Effect: 'Deny',
            Action: ['iam:DeleteRolePermissionsBoundary'],
            Resource: ['arn:aws:iam::123456789012:role/*'],
          },
          {
            Sid: 'KeepStoreRoleBoundaryPolicies',
            Effect: 'Deny',
            Action: [
              'iam:CreatePolicyVersion',
              'iam:DeletePolicy',
              'iam:DeletePolicyVersion',
              'iam:SetDefaultPolicyVersion',
            ],
            Resource: BOUNDARIES,
          },
          {
            Sid: 'CreateStackKeys',
            Effect: 'Allow',
            Action: ['kms:CreateKey'],
            Resource: ['*'],
            Condition: prodTags('aws:RequestTag'),
          },
          {
            Sid: 'TagNewStackKeys',
            Effect: 'Allow',
            Action: ['kms:TagResource'],
            Resource: ['arn:aws:kms:*:123456789012:key/*'],
            Condition: {
              ...prodTags('aws:RequestTag'),
              StringEqualsIfExists: prodTags('aws:ResourceTag').StringEquals,
            },
          },
          {
            Sid: 'ManageStackKeys',
            Effect: 'Allow',
            Action: [
              'kms:CreateAlias',
              'kms:DeleteAlias',
              'kms:DescribeKey',
              'kms:EnableKeyRotation',
              'kms:GetKeyPolicy',
              'kms:GetKeyRotationStatus',
              'kms:ListResourceTags',
              'kms:ScheduleKeyDeletion',
              'kms:TagResource',
              'kms:UntagResource',
              'kms:UpdateAlias',
              'kms:UpdateKeyDescription',
            ],
            Resource: ['arn:aws:kms:*:123456789012:key/*'],
            Condition: prodTags('aws:ResourceTag'),
          },
          {
            Sid: 'ManageStackTrails',
            Effect: 'Allow',
            Action: [
              'cloudtrail:AddTags',
              'cloudtrail:CreateTrail',
              'cloudtrail:DeleteTrail',
              'cloudtrail:GetEventSelectors',
              'cloudtrail:GetInsightSelectors',
              'cloudtrail:GetTrailStatus',
              'cloudtrail:ListTags',
              'cloudtrail:PutEventSelectors',
              'cloudtrail:RemoveTags',
              'cloudtrail:StartLogging',
              'cloudtrail:UpdateTrail',
            ],
            Resource: ['arn:aws:cloudtrail:*:123456789012:trail/checkpoints-aws-prod-*'],
          },
          {
            Sid: 'ManageStackKeyAliases',
            Effect: 'Allow',
            Action: ['kms:CreateAlias', 'kms:DeleteAlias', 'kms:UpdateAlias'],
            Resource: ['arn:aws:kms:*:123456789012:alias/checkpoints-aws-prod-*'],
          },
          { Sid: 'ListKeyAliases', Effect: 'Allow', Action: ['kms:ListAliases'], Resource: ['*'] },
          { Sid: 'ListTrails', Effect: 'Allow', Action: ['cloudtrail:DescribeTrails'], Resource: ['*'] },
          {
            ...CI_GUARDS[0],
            Action: [
              'kms:Encrypt',
              'kms:GenerateDataKeyPair',
              'kms:GenerateDataKeyPairWithoutPlaintext',
              'kms:GenerateDataKeyWithoutPlaintext',
              'kms:ReEncrypt*',
              's3:DeleteObject*',
              's3:GetObject*',
              's3:PutObject*',
              's3:RestoreObject',
            ],
          },
          {
            Sid: 'KeysOnlyThroughS3Express',
            Effect: 'Deny',
            Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
            Resource: ['*'],
            Condition: { StringNotLike: { 'kms:ViaService': 's3express.*.amazonaws.com' } },
          },
          {
            Sid: 'KeysOnlyForStackDirectoryBuckets',
            Effect: 'Deny',
            Action: ['kms:Decrypt', 'kms:GenerateDataKey'],
            Resource: ['*'],
            Condition: { StringNotLike: { 'kms:EncryptionContext:aws:s3express:arn': directoryBuckets } },
          },
          ...CI_GUARDS.slice(1),
          {
            Sid: 'NeverOpenDataSessions',
            Effect: 'Deny',
            Action: ['s3express:CreateSession'],
            Resource: ['*'],
          },
          {
            Sid: 'BreakGlassOnlyInProd',
            Effect: 'Deny',
            Action: [
              'cloudtrail:DeleteTrail',
              'cloudtrail:StopLogging',
              'kms:ScheduleKeyDeletion',
              's3:DeleteBucket',
              's3express:DeleteBucket',
            ],
            Resource: ['*'],
          },
          {
            Sid: 'PassBackupRolesToAwsBackup',
            Effect: 'Allow',
            Action: ['iam:PassRole'],
            Resource: roles.map((prefix) => `${prefix}-backup-??????`),
            Condition: { StringEquals: { 'iam:PassedToService': 'backup.amazonaws.com' } },
          },
          {
            Sid: 'KeepBackupRolesAwsBackupOnly',
            Effect: 'Deny',
            Action: [
              'iam:AttachRolePolicy',
              'iam:DeleteRole',
              'iam:DeleteRolePermissionsBoundary',
              'iam:DetachRolePolicy',
              'iam:PutRolePermissionsBoundary',
              'iam:UpdateAssumeRolePolicy',
            ],
            Resource: roles.map((prefix) => `${prefix}-backup-??????`),
          },
          {
            Sid: 'CreateStackBackupPlans',
            Effect: 'Allow',
            Action: ['backup:CreateBackupPlan', 'backup:TagResource'],
            Resource: BACKUP_PLANS,
            Condition: prodTags('aws:RequestTag'),
          },
          {
            Sid: 'ManageStackBackupPlans',
            Effect: 'Allow',
            Action: [
              ...BACKUP_PLAN_READS,
              'backup:CreateBackupSelection',
              'backup:DeleteBackupPlan',
              'backup:DeleteBackupSelection',
              'backup:UntagResource',
              'backup:UpdateBackupPlan',
            ].sort(),
            Resource: BACKUP_PLANS,
          },
        ],
      }),
    );
    expect(permissionsOf(snapshot, 'deploy-dev')).toEqual(bySid(deployPolicy(ACCOUNT, 'dev')));
  });

  it('outputs the role ARNs as the repository variables', () => {
    expect(snapshot.outputs).toMatchObject({
      AWS_PREVIEW_ROLE_ARN: 'arn:aws:iam::123456789012:role/checkpoints-ci-preview',
      AWS_DEPLOY_ROLE_ARN_DEV: 'arn:aws:iam::123456789012:role/checkpoints-ci-deploy-dev',
      AWS_DEPLOY_ROLE_ARN_PROD: 'arn:aws:iam::123456789012:role/checkpoints-ci-deploy-prod',
    });
  });
});

describe('AWS CI identities with the account’s existing OIDC provider', () => {
  const existing = 'arn:aws:iam::210987654321:oidc-provider/token.actions.githubusercontent.com';

  it('creates no provider and trusts the existing one', async () => {
    const snapshot = await renderBootstrap({ 'bootstrap:aws': { oidcProviderArn: existing } });
    expect(ofType(snapshot, 'aws:iam/openIdConnectProvider:OpenIdConnectProvider')).toEqual([]);
    const roles: RenderedResource[] = ofTypeByName(snapshot, ROLE);
    expect(roles.map((role) => jsonInput(role, 'assumeRolePolicy'))).toEqual([
      trustFor('repo:acme/checkpoint-storage:environment:dev', existing),
      trustFor('repo:acme/checkpoint-storage:environment:prod', existing),
      trustFor([PULL_REQUEST, DRIFT], existing),
    ]);
  });
});

describe('AWS CI identities with a self-managed S3 state backend (bootstrap:aws.stateBucket)', () => {
  const STATE = 'arn:aws:s3:::acme-pulumi-state';
  const statePolicyOf = (snapshot: Snapshot, name: string) =>
    jsonInput(resource(snapshot, ROLE_POLICY, `${name}-state`), 'policy') as PolicyDocument;
  const resourcesOf = (document: PolicyDocument, sid: string) =>
    document.Statement.find((statement) => statement.Sid === sid)?.Resource;

  it('without it, no role gets any right on a state bucket', async () => {
    const snapshot = await sharedRenderBootstrap();
    expect(ofTypeByName(snapshot, ROLE_POLICY).map((policy) => policy.name)).toEqual([
      'deploy-dev-permissions',
      'deploy-prod-permissions',
      'preview-permissions',
    ]);
  });

  it("the preview role reads the AWS stacks' state and may only take and release their locks", async () => {
    const snapshot = await sharedRenderBootstrap({ 'bootstrap:aws': { stateBucket: 'acme-pulumi-state' } });
    const preview = statePolicyOf(snapshot, 'preview');
    expect(resource(snapshot, ROLE_POLICY, 'preview-state').inputs['name']).toBe('pulumi-state');
    expect(preview.Statement.map((s) => [s.Sid, s.Action])).toEqual([
      ['ListStateBucket', ['s3:ListBucket']],
      ['ReadAwsStackState', ['s3:GetObject']],
      ['LockAwsStacks', ['s3:DeleteObject', 's3:GetObject', 's3:PutObject']],
    ]);
    expect(resourcesOf(preview, 'LockAwsStacks')).toEqual([
      `${STATE}/.pulumi/locks/organization/checkpoints-aws/*/*`,
    ]);
    expect(resourcesOf(preview, 'ReadAwsStackState')).toEqual([
      `${STATE}/.pulumi/meta.yaml`,
      `${STATE}/.pulumi/stacks/checkpoints-aws/*.json*`,
      `${STATE}/.pulumi/history/checkpoints-aws/*/*`,
    ]);
  });

  it.each(['dev', 'prod'])(
    'the %s deploy role writes its own stack’s state, history, backups and lock only',
    async (env) => {
      const snapshot = await sharedRenderBootstrap({ 'bootstrap:aws': { stateBucket: 'acme-pulumi-state' } });
      const deploy = statePolicyOf(snapshot, `deploy-${env}`);
      const writable = deploy.Statement.filter((s) => s.Action.includes('s3:PutObject')).flatMap(
        (s) => s.Resource,
      );
      expect(writable).toEqual([
        `${STATE}/.pulumi/stacks/checkpoints-aws/${env}.json*`,
        `${STATE}/.pulumi/history/checkpoints-aws/${env}/*`,
        `${STATE}/.pulumi/backups/checkpoints-aws/${env}/*`,
        `${STATE}/.pulumi/locks/organization/checkpoints-aws/${env}/*`,
      ]);
      const other = env === 'dev' ? 'prod' : 'dev';
      expect(JSON.stringify(deploy)).not.toContain(`/${other}`);
      expect(resourcesOf(deploy, 'ReadStateBackend')).toEqual([`${STATE}/.pulumi/meta.yaml`]);
    },
  );
});

/** Store names the AWS stack may be given: every length, and look-alikes of the other stacks' names. */
const STORES = [
  ...Array.from({ length: 30 }, (_, index) => 'q'.repeat(index + 2)),
  'llm-pretrain',
  'dev',
  'prod-mirror',
  'checkpoints-aws-prod',
  'a1-b2-c3-d4-e5-f6-g7-h8-i9-j0k',
];

function generatedNames(environment: Environment) {
  const contexts: NameContext[] = STORES.map((store) => ({
    project: 'checkpoints-aws',
    stack: environment,
    store,
  }));
  return {
    buckets: contexts.map((ctx) => `arn:aws:s3:::${names.s3Bucket(ctx)}`),
    directoryBuckets: contexts.map(
      (ctx) => `arn:aws:s3express:us-east-1:123456789012:bucket/${names.s3DirectoryBucket(ctx, 'use1-az4')}`,
    ),
    roles: contexts.flatMap((ctx) =>
      (['writer', 'reader'] as const).map(
        (purpose) => `arn:aws:iam::123456789012:role/${names.iamRole(ctx, purpose)}`,
      ),
    ),
    keyAliases: contexts.map((ctx) => `arn:aws:kms:us-east-1:123456789012:${names.kmsKeyAlias(ctx)}`),
  };
}

function resourcesOf(document: PolicyDocument, sid: string): RegExp[] {
  const found = document.Statement.find((statement) => statement.Sid === sid);
  if (!found) throw new Error(`no statement ${sid}`);
  return (found.Resource ?? []).map(arnPattern);
}

const covered = (patterns: RegExp[]) => (arn: string) => patterns.some((pattern) => pattern.test(arn));

describe('AWS deploy rights follow the names the naming lib gives the AWS stack', () => {
  it.each(ENVIRONMENTS)('cover every bucket, role and key alias of the %s stack', (environment) => {
    const policy = deployPolicy(ACCOUNT, environment);
    const generated = generatedNames(environment);
    expect(
      generated.buckets.filter((arn) => !covered(resourcesOf(policy, 'ManageStackBuckets'))(arn)),
    ).toEqual([]);
    expect(
      generated.directoryBuckets.filter(
        (arn) => !covered(resourcesOf(policy, 'ManageStackDirectoryBuckets'))(arn),
      ),
    ).toEqual([]);
    expect(generated.roles.filter((arn) => !covered(resourcesOf(policy, 'ManageStackRoles'))(arn))).toEqual(
      [],
    );
    expect(
      generated.keyAliases.filter((arn) => !covered(resourcesOf(policy, 'ManageStackKeyAliases'))(arn)),
    ).toEqual([]);
  });

  it.each(
    ENVIRONMENTS.flatMap((deployed) =>
      ENVIRONMENTS.filter((other) => other !== deployed).map((other) => [deployed, other] as const),
    ),
  )('of the %s stack reach nothing of the %s stack', (deployed, other) => {
    const policy = deployPolicy(ACCOUNT, deployed);
    const generated = generatedNames(other);
    const reachable = [
      ...generated.buckets.filter(covered(resourcesOf(policy, 'ManageStackBuckets'))),
      ...generated.directoryBuckets.filter(covered(resourcesOf(policy, 'ManageStackDirectoryBuckets'))),
      ...generated.roles.filter(covered(resourcesOf(policy, 'ManageStackRoles'))),
      ...generated.keyAliases.filter(covered(resourcesOf(policy, 'ManageStackKeyAliases'))),
    ];
    expect(reachable).toEqual([]);
  });

  it('leave the CI roles themselves out of reach: no deploy role can rewrite its own trust', () => {
    const ciRoles = ['preview', 'deploy-dev', 'deploy-staging', 'deploy-prod'].map(
      (purpose) =>
        `arn:aws:iam::123456789012:role/${ciNames.awsRole({ project: 'checkpoints-bootstrap', stack: 'ci' }, purpose as 'preview')}`,
    );
    const rolePatterns = ENVIRONMENTS.flatMap((environment) =>
      resourcesOf(deployPolicy(ACCOUNT, environment), 'ManageStackRoles'),
    );
    expect(ciRoles.filter(covered(rolePatterns))).toEqual([]);
  });

  it('learn every prefix from the naming lib', () => {
    expect(awsStackNamePrefixes('prod')).toEqual({
      buckets: ['checkpoints-aws-prod-'],
      directoryBuckets: ['aws-prod-', 'checkpoints-aws-prod-'],
      roles: ['aws-prod-', 'checkpoints-aws-prod-'],
      keyAliases: ['alias/checkpoints-aws-prod-'],
    });
  });
});

describe('AWS CI policies hold up against AWS’s own action and resource catalogue', () => {
  const documents: [string, PolicyDocument][] = [
    ['preview', previewPolicy(ACCOUNT, [...ENVIRONMENTS])],
    ...ENVIRONMENTS.flatMap((environment): [string, PolicyDocument][] => {
      const { inline, managed } = splitDeployPolicy(deployPolicy(ACCOUNT, environment));
      return [
        [`deploy-${environment}`, inline],
        [`deploy-${environment}-service-roles`, managed],
      ];
    }),
    ['preview-state', previewStatePolicy(ACCOUNT, 'acme-pulumi-state')],
    ...ENVIRONMENTS.map((environment): [string, PolicyDocument] => [
      `deploy-${environment}-state`,
      deployStatePolicy(ACCOUNT, 'acme-pulumi-state', environment),
    ]),
  ];
  const statements = documents.flatMap(([role, document]) =>
    document.Statement.map((statement): [string, string, PolicyStatement] => [
      role,
      statement.Sid,
      statement,
    ]),
  );

  it.each(statements)(
    '%s %s: every action exists and applies to every resource given',
    async (_role, _sid, statement) => {
      for (const action of statement.Action) {
        const expanded = await expandAction(action);
        expect(expanded.length).toBeGreaterThan(0);
        for (const { service, name } of expanded) {
          const details = await actionDetails(service, name);
          // An explicit deny sparing only what NotResource names is a guard as wide as `*`.
          const resources = statement.Resource ?? ['*'];
          if (resources.includes('*')) {
            // An explicit deny on `*` is a guard: the wider, the safer.
            if (statement.Effect === 'Deny') continue;
            // `*` only where AWS supports nothing narrower.
            expect([`${service}:${name}`, details.isWildcardOnly]).toEqual([`${service}:${name}`, true]);
            continue;
          }
          const templates = await resourceTemplates(service, name);
          for (const arn of resources) {
            expect([
              `${service}:${name}`,
              arn,
              templates.some((template) => template.test(sampleArn(arn))),
            ]).toEqual([`${service}:${name}`, arn, true]);
          }
        }
      }
    },
  );

  it.each(statements)(
    '%s %s: every condition key is one the actions honour',
    async (_role, _sid, statement) => {
      const keys = Object.values(statement.Condition ?? {}).flatMap((operator) => Object.keys(operator));
      for (const action of statement.Action) {
        for (const { service, name } of await expandAction(action)) {
          const supported = await conditionKeys(service, name);
          for (const key of keys) {
            expect([`${service}:${name}`, key, supported.some((pattern) => pattern.test(key))]).toEqual([
              `${service}:${name}`,
              key,
              true,
            ]);
          }
        }
      }
    },
  );

  it('preview is allowed reads and lists only, and no data session', async () => {
    const [, preview] = documents[0] ?? [];
    const levels = new Map<string, string>();
    for (const statement of (preview?.Statement ?? []).filter(({ Effect }) => Effect === 'Allow')) {
      for (const action of statement.Action) {
        for (const { service, name } of await expandAction(action)) {
          levels.set(`${service}:${name}`, (await actionDetails(service, name)).accessLevel);
        }
      }
    }
    const writes = [...levels].filter(([, level]) => level !== 'Read' && level !== 'List');
    expect(writes).toEqual([]);
    expect(
      [...levels.keys()].filter((action) => /^s3:(GetObject|PutObject|DeleteObject)/.test(action)),
    ).toEqual([]);
  });

  // The quota is the sum of a role's inline policies: a role's permissions and its state policy together.
  it.each(['preview', ...ENVIRONMENTS.map((environment) => `deploy-${environment}`)])(
    '%s fits in the 10,240 characters IAM allows a role’s inline policies',
    (role) => {
      const total = documents
        .filter(([name]) => name === role || name === `${role}-state`)
        .reduce((sum, [, document]) => sum + JSON.stringify(document).length, 0);
      expect(total).toBeLessThan(10_240);
    },
  );

  it.each(ENVIRONMENTS.map((environment) => `deploy-${environment}-service-roles`))(
    '%s fits in the 6,144 characters IAM allows a managed policy',
    (name) => {
      const document = documents.find(([each]) => each === name)?.[1];
      expect(JSON.stringify(document).length).toBeLessThan(6_144);
    },
  );
});

describe('the CI role names the stores’ perimeters exempt (awsCiRoleArnPatterns)', () => {
  const matches = (pattern: string, arn: string) =>
    new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(arn);
  const patterns = awsCiRoleArnPatterns('aws', '123456789012');
  const role = (name: string) => `arn:aws:iam::123456789012:role/${name}`;

  it.each(['ci', 'org-main'])('cover every CI role of bootstrap stack %s', (stack) => {
    const context = { project: 'checkpoints-bootstrap', stack };
    for (const purpose of [
      'preview',
      ...ENVIRONMENTS.map((environment) => `deploy-${environment}`),
    ] as const) {
      const arn = role(ciNames.awsRole(context, purpose as 'preview'));
      expect([arn, patterns.some((pattern) => matches(pattern, arn))]).toEqual([arn, true]);
    }
  });

  it.each(['x-preview', 'x-deploy-prod', 'deploy-prod'])('and no store role (store %s)', (name) => {
    const store: NameContext = { project: 'checkpoints-aws', stack: 'prod', store: name };
    for (const purpose of ['writer', 'reader'] as const) {
      expect(patterns.some((pattern) => matches(pattern, role(names.iamRole(store, purpose))))).toBe(false);
    }
  });
});

describe('no deploy identity blinds the audit or deletes its log (judged by iam-simulate)', () => {
  const trailArn = `arn:aws:cloudtrail:us-east-1:${AWS_ACCOUNT_ID}:trail/${names.s3Bucket({ project: 'checkpoints-aws', stack: 'prod', store: 'audit-log' })}`;
  const logBucket = `arn:aws:s3:::${names.s3Bucket({ project: 'checkpoints-aws', stack: 'prod', store: 'audit-log' })}`;
  const deploy = (environment: Environment): AwsPrincipal => ({
    principal: { id: environment, label: `deploy-${environment}`, kind: 'ci-deploy' },
    arn: `arn:aws:iam::${AWS_ACCOUNT_ID}:role/checkpoints-ci-deploy-${environment}`,
    policies: [
      { name: 'ci', policy: deployPolicy(ACCOUNT, environment) as unknown as AnalysisPolicyDocument },
    ],
  });
  const allowed = (action: string, resource: string) =>
    awsRequestAllowed(deploy('prod'), { action, resource });

  it.each([
    ['cloudtrail:StopLogging', trailArn],
    ['cloudtrail:DeleteTrail', trailArn],
    ['s3:DeleteBucket', logBucket],
    ['s3:DeleteObject', `${logBucket}/AWSLogs/${AWS_ACCOUNT_ID}/CloudTrail/x.json.gz`],
    ['s3:GetObject', `${logBucket}/AWSLogs/${AWS_ACCOUNT_ID}/CloudTrail/x.json.gz`],
  ])('prod: %s is denied', async (action, resource) => {
    expect(await allowed(action, resource)).toBeUndefined();
  });

  it('while creating the trail and adding a store to its selectors is allowed', async () => {
    expect(await allowed('cloudtrail:CreateTrail', trailArn)).toBeDefined();
    expect(await allowed('cloudtrail:PutEventSelectors', trailArn)).toBeDefined();
  });
});

describe('deploy identities pass replication roles to S3 and nothing else (judged by iam-simulate)', () => {
  const store: NameContext = { project: 'checkpoints-aws', stack: 'prod', store: 'llm-pretrain' };
  const roleArn = (name: string) => `arn:aws:iam::${AWS_ACCOUNT_ID}:role/${name}`;
  const deploy: AwsPrincipal = {
    principal: { id: 'prod', label: 'deploy-prod', kind: 'ci-deploy' },
    arn: roleArn('checkpoints-ci-deploy-prod'),
    policies: [{ name: 'ci', policy: deployPolicy(ACCOUNT, 'prod') as unknown as AnalysisPolicyDocument }],
  };
  const passRole = (role: string, service: string) =>
    awsRequestAllowed(deploy, {
      action: 'iam:PassRole',
      resource: roleArn(role),
      context: { 'iam:PassedToService': service },
    });

  it("passes a store's replication role to S3, which its replication configuration needs", async () => {
    expect(await passRole(names.iamRole(store, 'replication'), 's3.amazonaws.com')).toBeDefined();
  });

  it.each<[string, string, string]>([
    ['the replication role, to another service', names.iamRole(store, 'replication'), 'ec2.amazonaws.com'],
    ['the writer role, to S3', names.iamRole(store, 'writer'), 's3.amazonaws.com'],
    ['the reader role, to S3', names.iamRole(store, 'reader'), 's3.amazonaws.com'],
    [
      "another environment's replication role, to S3",
      names.iamRole({ ...store, stack: 'dev' }, 'replication'),
      's3.amazonaws.com',
    ],
    [
      'the writer of a store named like a replication role, to S3',
      names.iamRole({ ...store, store: 'x-replication-abcdef' }, 'writer'),
      's3.amazonaws.com',
    ],
  ])('refuses to pass %s', async (_title, role, service) => {
    expect(await passRole(role, service)).toBeUndefined();
  });

  it('cannot assume the replication role itself', async () => {
    expect(
      await awsRequestAllowed(deploy, {
        action: 'sts:AssumeRole',
        resource: roleArn(names.iamRole(store, 'replication')),
      }),
    ).toBeUndefined();
  });
});

describe("deploy identities set a store's retention lock and can never lift or bypass it (judged by iam-simulate)", () => {
  const context: NameContext = { project: 'checkpoints-aws', stack: 'prod', store: 'llm-releases' };
  const bucket = `arn:aws:s3:::${names.s3Bucket(context)}`;
  const locked = `${bucket}/releases/llm-7b/model.safetensors`;
  const ci = (role: string, policy: unknown): AwsPrincipal => ({
    principal: { id: role, label: role, kind: role === 'preview' ? 'ci-preview' : 'ci-deploy' },
    arn: `arn:aws:iam::${AWS_ACCOUNT_ID}:role/checkpoints-ci-${role}`,
    policies: [{ name: 'ci', policy: policy as AnalysisPolicyDocument }],
  });
  const roles = [
    ci('preview', previewPolicy(ACCOUNT, ENVIRONMENTS)),
    ...ENVIRONMENTS.map((environment) => ci(`deploy-${environment}`, deployPolicy(ACCOUNT, environment))),
  ];
  const prod = roles.find((role) => role.principal.id === 'deploy-prod')!;

  it("prod deploy creates, updates and refreshes the lock configuration of its stack's buckets", async () => {
    for (const action of ['s3:PutBucketObjectLockConfiguration', 's3:GetBucketObjectLockConfiguration']) {
      expect([action, await awsRequestAllowed(prod, { action, resource: bucket })]).toEqual([
        action,
        expect.any(String),
      ]);
    }
  });

  it.each([
    ['s3:BypassGovernanceRetention', locked],
    ['s3:PutObjectRetention', locked],
    ['s3:PutObjectLegalHold', locked],
    ['s3:DeleteObjectVersion', locked],
  ])('no CI role is allowed %s on a locked version', async (action, resource) => {
    for (const role of roles) {
      expect([role.principal.id, await awsRequestAllowed(role, { action, resource })]).toEqual([
        role.principal.id,
        undefined,
      ]);
    }
  });

  it("preview cannot change a lock, and no deploy role can change another environment's", async () => {
    const put = (role: AwsPrincipal, on: string) =>
      awsRequestAllowed(role, { action: 's3:PutBucketObjectLockConfiguration', resource: on });
    expect(await put(roles[0]!, bucket)).toBeUndefined();
    const devBucket = `arn:aws:s3:::${names.s3Bucket({ ...context, stack: 'dev' })}`;
    expect(await put(prod, devBucket)).toBeUndefined();
  });
});

describe("the environments' backup vaults: locked, and out of every CI identity's reach (judged by iam-simulate)", () => {
  const store: NameContext = { project: 'checkpoints-aws', stack: 'prod', store: 'llm-pretrain' };
  const vault = names.awsBackupVault({ project: 'checkpoints-aws', stack: 'prod' });
  const vaultArn = `arn:aws:backup:us-east-1:${AWS_ACCOUNT_ID}:backup-vault:${vault}`;
  const recoveryPoint = `arn:aws:backup:us-east-1:${AWS_ACCOUNT_ID}:recovery-point:continuous:${vault}`;
  const principal = (purpose: string, policy: unknown): AwsPrincipal => ({
    principal: { id: purpose, label: purpose, kind: 'ci-deploy' },
    arn: `arn:aws:iam::${AWS_ACCOUNT_ID}:role/checkpoints-ci-${purpose}`,
    policies: [{ name: 'ci', policy: policy as AnalysisPolicyDocument }],
  });
  const identities = [
    principal('deploy-prod', deployPolicy(ACCOUNT, 'prod')),
    principal('deploy-dev', deployPolicy(ACCOUNT, 'dev')),
    principal('preview', previewPolicy(ACCOUNT, ['dev', 'prod'])),
  ];

  it('renders a vault per environment with a compliance-mode lock of at least 7 days, protected and retained', async () => {
    const snapshot = await sharedRenderBootstrap();
    for (const environment of ['dev', 'prod'] as const) {
      const lock = snapshot.resources.find(
        (r) =>
          r.type === 'aws:backup/vaultLockConfiguration:VaultLockConfiguration' &&
          r.inputs['backupVaultName'] ===
            names.awsBackupVault({ project: 'checkpoints-aws', stack: environment }),
      );
      expect(lock?.inputs['changeableForDays']).toBeGreaterThanOrEqual(3);
      expect(lock?.inputs['minRetentionDays']).toBeGreaterThanOrEqual(7);
      expect([lock?.protect, lock?.retainOnDelete]).toEqual([true, true]);
    }
  });

  it.each([
    ['backup:DeleteRecoveryPoint', recoveryPoint],
    ['backup:UpdateRecoveryPointLifecycle', recoveryPoint],
    ['backup:StartRestoreJob', recoveryPoint],
    ['backup:StartCopyJob', recoveryPoint],
    ['backup:DeleteBackupVault', vaultArn],
    ['backup:DeleteBackupVaultLockConfiguration', vaultArn],
    ['backup:PutBackupVaultLockConfiguration', vaultArn],
    ['backup:PutBackupVaultAccessPolicy', vaultArn],
  ])('no CI identity may %s', async (action, resource) => {
    for (const identity of identities) {
      expect(await awsRequestAllowed(identity, { action, resource })).toBeUndefined();
    }
  });

  it("the prod deploy role passes a store's backup role to AWS Backup only, and cannot assume it", async () => {
    const [deploy] = identities;
    const backupRole = `arn:aws:iam::${AWS_ACCOUNT_ID}:role/${names.iamRole(store, 'backup')}`;
    const pass = (service: string) =>
      awsRequestAllowed(deploy!, {
        action: 'iam:PassRole',
        resource: backupRole,
        context: { 'iam:PassedToService': service },
      });
    expect(await pass('backup.amazonaws.com')).toBeDefined();
    expect(await pass('ec2.amazonaws.com')).toBeUndefined();
    expect(
      await awsRequestAllowed(deploy!, { action: 'sts:AssumeRole', resource: backupRole }),
    ).toBeUndefined();
  });
});
