import { ENVIRONMENTS, type Environment } from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import {
  AWS_MALWARE_SCAN_ACTIONS,
  AWS_MALWARE_SCAN_SERVICE,
  AWS_BACKUP_ACTIONS,
  AWS_REPLICATION_ACTIONS,
  AWS_STORE_WRITER_ACTIONS,
  awsCiRoleArnPatterns,
} from '@checkpoints/translate';
import { AWS_STS_AUDIENCE, GITHUB_OIDC_HOST } from '../github';
import { STACK_PROJECTS, stackNamePrefixes } from '../names';
import { stateObjects } from '../state-layout';

export interface PolicyStatement {
  Sid: string;
  Effect: 'Allow' | 'Deny';
  Action: string[];
  /** A deny that spares what NotResource names has none. */
  Resource?: string[];
  NotResource?: string[];
  Condition?: Record<string, Record<string, string | string[]>>;
}

export interface PolicyDocument {
  Version: '2012-10-17';
  Statement: PolicyStatement[];
}

export interface TrustPolicyDocument {
  Version: '2012-10-17';
  Statement: {
    Effect: 'Allow';
    Principal: { Federated: string };
    Action: 'sts:AssumeRoleWithWebIdentity';
    Condition: { StringEquals: Record<string, string | string[]> };
  }[];
}

/** Where the stacks live: ARNs are built for this partition and account. */
export interface AwsAccount {
  partition: string;
  accountId: string;
}

/**
 * Trusts exactly these OIDC subjects of one repository, and tokens minted for STS only. `StringEquals` on
 * both claims (a list of subjects matches any one of them): a `StringLike` or a missing `sub` condition
 * would let any repository on GitHub in.
 */
export function githubTrustPolicy(
  providerArn: string,
  subjects: readonly [string, ...string[]],
): TrustPolicyDocument {
  const [only] = subjects;
  return {
    Version: '2012-10-17',
    Statement: [
      {
        Effect: 'Allow',
        Principal: { Federated: providerArn },
        Action: 'sts:AssumeRoleWithWebIdentity',
        Condition: {
          StringEquals: {
            [`${GITHUB_OIDC_HOST}:aud`]: AWS_STS_AUDIENCE,
            [`${GITHUB_OIDC_HOST}:sub`]: subjects.length === 1 ? only : [...subjects],
          },
        },
      },
    ],
  };
}

/** The tags the AWS stack puts on its KMS keys (`standardTags`): key IDs are random, so keys are scoped by tag. */
export const STACK_PROJECT_TAG = 'pulumi-project';
export const STACK_NAME_TAG = 'pulumi-stack';

/** Any AZ ID gives the same base for the usual AZ ID length; Local Zone IDs are longer and shorten the base further. */
const DIRECTORY_BUCKET_PROBE_ZONE = 'use1-az4';

/** Prefixes of the names the AWS stack of `environment` gives its buckets, roles and key aliases. */
export function awsStackNamePrefixes(environment: Environment) {
  const project = STACK_PROJECTS.aws;
  const prefixes = (nameOf: (ctx: NameContext) => string) => stackNamePrefixes(environment, nameOf, project);
  return {
    buckets: prefixes(names.s3Bucket),
    directoryBuckets: prefixes((ctx) => names.s3DirectoryBucket(ctx, DIRECTORY_BUCKET_PROBE_ZONE)),
    roles: [
      ...new Set([
        ...prefixes((ctx) => names.iamRole(ctx, 'writer')),
        ...prefixes((ctx) => names.iamRole(ctx, 'reader')),
      ]),
    ].sort(),
    keyAliases: prefixes(names.kmsKeyAlias),
  };
}

/**
 * The customer managed policy every store role of the AWS stack of `environment` must have as its
 * permissions boundary (`names.awsStoreRoleBoundary`, shared with the stack): one per environment, so
 * that no environment's deploy role can give a role it creates more than that environment's stores.
 */
export function storeRoleBoundaryName(environment: Environment): string {
  return names.awsStoreRoleBoundary({ project: STACK_PROJECTS.aws, stack: environment });
}

export function storeRoleBoundaryArn(account: AwsAccount, environment: Environment): string {
  return `arn:${account.partition}:iam::${account.accountId}:policy/${storeRoleBoundaryName(environment)}`;
}

/** ARN patterns of what the AWS stacks of these environments manage. */
function stackResources(account: AwsAccount, environments: readonly Environment[]) {
  const { partition, accountId } = account;
  const prefixes = environments.map(awsStackNamePrefixes);
  return {
    // Bucket ARNs, never `bucket/*`: object-level actions (GetObject and the like) match object ARNs only.
    buckets: prefixes.flatMap((p) => p.buckets).map((prefix) => `arn:${partition}:s3:::${prefix}*`),
    // The objects of those buckets: only a store role's boundary names them.
    objects: prefixes.flatMap((p) => p.buckets).map((prefix) => `arn:${partition}:s3:::${prefix}*/*`),
    // The stacks choose the region; the account and the names pin the buckets down.
    directoryBuckets: prefixes
      .flatMap((p) => p.directoryBuckets)
      .map((prefix) => `arn:${partition}:s3express:*:${accountId}:bucket/${prefix}*--x-s3`),
    roles: prefixes
      .flatMap((p) => p.roles)
      .map((prefix) => `arn:${partition}:iam::${accountId}:role/${prefix}*`),
    // Only a replication role's name ends in `-replication-` and the store's 6-character hash
    // (names.iamRole(ctx, 'replication')); a writer or reader role's ends in `-writer-` or `-reader-` and it.
    replicationRoles: prefixes
      .flatMap((p) => p.roles)
      .map((prefix) => `arn:${partition}:iam::${accountId}:role/${prefix}*-replication-??????`),
    // Likewise a malware-scan role's (names.iamRole(ctx, 'malware-scan')).
    malwareScanRoles: prefixes
      .flatMap((p) => p.roles)
      .map((prefix) => `arn:${partition}:iam::${accountId}:role/${prefix}*-malware-scan-??????`),
    // The EventBridge rules GuardDuty manages for a protected bucket (libs/translate awsMalwareScanPolicy).
    malwareScanRules: [
      `arn:${partition}:events:*:${accountId}:rule/DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3*`,
    ],
    // A plan's ID is random: the stack's plans are the ones with its tags, as its keys are.
    malwareProtectionPlans: [`arn:${partition}:guardduty:*:${accountId}:malware-protection-plan/*`],
    // Only a backup role's name ends in `-backup-` and the store's hash (names.iamRole(ctx, 'backup')).
    backupRoles: prefixes
      .flatMap((p) => p.roles)
      .map((prefix) => `arn:${partition}:iam::${accountId}:role/${prefix}*-backup-??????`),
    // A backup plan's ARN ends in its random ID, never its name: AWS Backup offers no narrower pattern.
    backupPlans: [`arn:${partition}:backup:*:${accountId}:backup-plan:*`],
    keyAliases: prefixes
      .flatMap((p) => p.keyAliases)
      .map((prefix) => `arn:${partition}:kms:*:${accountId}:${prefix}*`),
    keys: [`arn:${partition}:kms:*:${accountId}:key/*`],
    // The stack trail is named as its log bucket is (one per stack, the audit log's name in place of a store's).
    trails: prefixes
      .flatMap((p) => p.buckets)
      .map((prefix) => `arn:${partition}:cloudtrail:*:${accountId}:trail/${prefix}*`),
  };
}

/** What a refresh of the stack trail reads. DescribeTrails supports no resource but `*`. */
const TRAIL_READS = [
  'cloudtrail:GetEventSelectors',
  'cloudtrail:GetInsightSelectors',
  'cloudtrail:GetTrailStatus',
  'cloudtrail:ListTags',
];

/**
 * What creating, changing and (outside prod) deleting the stack trail takes (list_awscloudtrail.html of the
 * Service Authorization Reference). Never StopLogging: the trail always logs, and a deploy identity that could
 * stop it could blind the audit of the stores it deploys; in prod DeleteTrail is denied as well (break-glass).
 */
const TRAIL_WRITES = [
  'cloudtrail:AddTags',
  'cloudtrail:CreateTrail',
  'cloudtrail:DeleteTrail',
  'cloudtrail:PutEventSelectors',
  'cloudtrail:RemoveTags',
  'cloudtrail:StartLogging',
  'cloudtrail:UpdateTrail',
];

/** Bucket-level reads a refresh of the stack's buckets makes; no object is ever read. */
const BUCKET_READS = [
  's3:GetAccelerateConfiguration',
  's3:GetBucket*',
  's3:GetEncryptionConfiguration',
  's3:GetLifecycleConfiguration',
  's3:GetReplicationConfiguration',
  // HeadBucket, which finds a bucket, is authorised as ListBucket: it lists object keys, never contents.
  's3:ListBucket',
  // The provider reads a bucket's tags through S3 Control's ListTagsForResource (GetBucketTagging, in
  // GetBucket*, is its fallback).
  's3:ListTagsForResource',
];

/**
 * The bucket writes of the resources the AWS stack declares, by the API calls the Pulumi AWS provider
 * makes for them, and nothing else: no ACL, website, CORS, notification, logging, request payment or
 * accelerate configuration. Deleting a setting is authorised as its Put.
 */
const BUCKET_WRITES = [
  // Bucket: CreateBucket carries the tags, which S3 authorises as TagResource as well; tag changes go
  // through S3 Control's TagResource and UntagResource, or PutBucketTagging and DeleteBucketTagging.
  's3:CreateBucket',
  's3:DeleteBucket',
  's3:PutBucketTagging',
  's3:TagResource',
  's3:UntagResource',
  // BucketOwnershipControls (Put/DeleteBucketOwnershipControls).
  's3:PutBucketOwnershipControls',
  // BucketPublicAccessBlock (Put/DeletePublicAccessBlock).
  's3:PutBucketPublicAccessBlock',
  // BucketVersioning (a deleted resource suspends versioning).
  's3:PutBucketVersioning',
  // BucketServerSideEncryptionConfiguration (Put/DeleteBucketEncryption).
  's3:PutEncryptionConfiguration',
  // BucketLifecycleConfiguration (PutBucketLifecycleConfiguration, DeleteBucketLifecycle).
  's3:PutLifecycleConfiguration',
  // BucketLogging (PutBucketLogging): server access logging of the stores' buckets and the audit-log bucket.
  's3:PutBucketLogging',
  // BucketPolicy.
  's3:PutBucketPolicy',
  's3:DeleteBucketPolicy',
  // BucketReplicationConfig (Put/DeleteBucketReplication): S3 copies a store into its replica.
  's3:PutReplicationConfiguration',
  // BucketObjectLockConfiguration (PutObjectLockConfiguration), the retention lock of a store
  // (recovery.retentionLock): it enables Object Lock and sets the default retention of new versions. It
  // cannot unlock a version already written: that takes s3:BypassGovernanceRetention, which CI never holds.
  's3:PutBucketObjectLockConfiguration',
];

/**
 * What a refresh of a directory bucket's settings reads. Not the bucket's own read (HeadBucket and its tags): that
 * needs a data session, which no CI role may open, so CI's refresh leaves the bucket out (tools/pulumi run.cjs).
 */
const DIRECTORY_BUCKET_READS = [
  's3express:GetBucketPolicy',
  's3express:GetEncryptionConfiguration',
  's3express:GetLifecycleConfiguration',
];

const ROLE_READS = [
  'iam:GetRole',
  'iam:GetRolePolicy',
  'iam:ListAttachedRolePolicies',
  'iam:ListRolePolicies',
  'iam:ListRoleTags',
];

const KEY_READS = ['kms:DescribeKey', 'kms:GetKeyPolicy', 'kms:GetKeyRotationStatus', 'kms:ListResourceTags'];

/** What a refresh of a store's backup plan and selection reads (list_awsbackup.html of the Service Authorization Reference). */
const BACKUP_PLAN_READS = ['backup:GetBackupPlan', 'backup:GetBackupSelection', 'backup:ListTags'];

/**
 * The backup plan and selection of a store's independent copy (`recovery.independentCopy`): Plan
 * (Create/Update/DeleteBackupPlan), Selection (Create/DeleteBackupSelection) and their tags. Creating a plan is
 * allowed with the stack's tags only (CreateBackupPlan conditions on aws:RequestTag); the others support no
 * condition on the plan's tags, so they reach every plan of the account (docs/aws.md). None of them touches a
 * vault, its lock or a recovery point: a plan whose retention is shorter than the vault lock's minimum makes its
 * backups fail, it shortens no recovery point (backup-vault.ts of the bootstrap).
 */
const BACKUP_PLAN_WRITES = [
  'backup:CreateBackupSelection',
  'backup:DeleteBackupPlan',
  'backup:DeleteBackupSelection',
  'backup:UntagResource',
  'backup:UpdateBackupPlan',
];

/**
 * What a store role may ever be allowed, its permissions boundary whatever its own policy says: the
 * writer's and reader's actions (libs/translate `awsStoreAccessPolicy`) on the buckets, objects and keys
 * of one environment's stack.
 */
/**
 * IAM writes on the stack's roles, each of which IAM lets a policy condition on the role's permissions
 * boundary (`iam:PermissionsBoundary`, per the Service Authorization Reference): on CreateRole and
 * PutRolePermissionsBoundary it is the boundary requested, on the others the one the role has.
 */
const BOUNDED_ROLE_WRITES = [
  'iam:CreateRole',
  'iam:DeleteRole',
  'iam:DeleteRolePolicy',
  // Sets the boundary on a role created before there was one (its next update).
  'iam:PutRolePermissionsBoundary',
  'iam:PutRolePolicy',
  'iam:UpdateAssumeRolePolicy',
  'iam:UpdateRole',
  'iam:UpdateRoleDescription',
];

/**
 * What would let a principal other than S3 act as a store's replication role, which every perimeter of the
 * store exempts for its data actions (S3 replicates from AWS's own network): a new trust, the role deleted
 * and re-created under its name with another trust, a managed policy attached or detached, its boundary
 * replaced or removed. The trust is set when the role is created (CreateRole's AssumeRolePolicyDocument,
 * https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreateRole.html) and the stack never changes it;
 * the stack retains the role when a replica goes (docs/aws.md, Replication). Its inline policy stays the
 * deploy's to write: while S3 alone may assume the role it decides what S3 replicates, within the boundary.
 */
const REPLICATION_ROLE_TAKEOVER = [
  'iam:AttachRolePolicy',
  'iam:DeleteRole',
  'iam:DeleteRolePermissionsBoundary',
  'iam:DetachRolePolicy',
  'iam:PutRolePermissionsBoundary',
  'iam:UpdateAssumeRolePolicy',
];

/** What would undo a boundary: removing it from a role, or rewriting or deleting the policy itself. */
const BOUNDARY_REMOVAL = ['iam:DeleteRolePermissionsBoundary'];
const BOUNDARY_POLICY_CHANGES = [
  'iam:CreatePolicyVersion',
  'iam:DeletePolicy',
  'iam:DeletePolicyVersion',
  'iam:SetDefaultPolicyVersion',
];

function statement(
  Sid: string,
  Action: string[],
  Resource: string[],
  Condition?: PolicyStatement['Condition'],
): PolicyStatement {
  return { Sid, Effect: 'Allow', Action: [...Action].sort(), Resource, ...(Condition ? { Condition } : {}) };
}

function unique(...lists: readonly (readonly string[])[]): string[] {
  return [...new Set(lists.flat())];
}

function deny(Sid: string, Action: string[], Resource: string[]): PolicyStatement {
  return { Sid, Effect: 'Deny', Action: [...Action].sort(), Resource };
}

/** Account-wide listings both roles need: AWS supports no narrower resource for them. */
function sharedStatements(): PolicyStatement[] {
  return [
    // ListAliases supports no resource but `*`; reading an alias means listing the account's aliases.
    statement('ListKeyAliases', ['kms:ListAliases'], ['*']),
    // DescribeTrails supports no resource but `*`; it reads trail settings, never a log file.
    statement('ListTrails', ['cloudtrail:DescribeTrails'], ['*']),
  ];
}

/**
 * What no CI role may ever do, whatever else it is granted now or later (an explicit deny wins over every
 * allow, a bucket or key policy's included: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html):
 * touch checkpoint data or use a key for it, or become another role (a rewritten trust policy naming
 * the role would otherwise let it in without any identity permission).
 */
const CI_NEVER = {
  data: [
    's3:GetObject*',
    's3:PutObject*',
    's3:DeleteObject*',
    's3:RestoreObject',
    'kms:Decrypt',
    'kms:Encrypt',
    'kms:GenerateDataKey*',
    'kms:ReEncrypt*',
  ],
  actAs: ['sts:AssumeRole', 'sts:SetSourceIdentity', 'sts:TagSession'],
  // Deleting a version a retention lock holds, or shortening its lock, in GOVERNANCE mode takes this
  // permission (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-bypass);
  // s3:PutObjectRetention and s3:PutObjectLegalHold fall under s3:PutObject* above.
  lockBypass: ['s3:BypassGovernanceRetention'],
  // The independent copies: no CI role deletes a recovery point or shortens one, changes a backup vault, its
  // lock or its access policy (the lock holds against everyone once its cooling-off is over, and no CI role can
  // lift it before: https://docs.aws.amazon.com/aws-backup/latest/devguide/vault-lock.html), restores one (a
  // restore writes checkpoint data) or copies one elsewhere (list_awsbackup.html of the Service Authorization
  // Reference).
  copyLift: [
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
};

/**
 * `stateBucket`: the self-managed state backend's objects are spared the object deny (and only they: Pulumi's
 * DIY backend keeps everything under `.pulumi/`, https://www.pulumi.com/docs/iac/concepts/state-and-backends/#using-a-diy-backend),
 * else the deny, which wins over the state policy's allows, fails every CI run. The key actions stay denied
 * everywhere: a state bucket encrypted with a customer key is not readable by CI (docs/bootstrap.md).
 */
function ciGuards(stateBucket?: string, partition = 'aws', directoryBuckets?: string[]): PolicyStatement[] {
  const objects = CI_NEVER.data.filter((action) => action.startsWith('s3:'));
  const keys =
    directoryBuckets === undefined
      ? CI_NEVER.data.filter((action) => action.startsWith('kms:'))
      : KEY_ACTIONS_BUT_DIRECTORY_BUCKET_ENCRYPTION;
  return [
    ...(stateBucket === undefined
      ? [deny('NeverTouchCheckpointData', [...objects, ...keys], ['*'])]
      : [
          {
            Sid: 'NeverTouchCheckpointData',
            Effect: 'Deny' as const,
            Action: [...objects].sort(),
            NotResource: [`arn:${partition}:s3:::${stateBucket}/.pulumi/*`],
          },
          deny('NeverUseKeysForData', keys, ['*']),
        ]),
    ...(directoryBuckets === undefined ? [] : directoryBucketKeyGuards(directoryBuckets)),
    deny('NeverActAsAnotherRole', CI_NEVER.actAs, ['*']),
    deny('NeverBypassRetentionLocks', CI_NEVER.lockBypass, ['*']),
    deny('NeverLiftIndependentCopies', CI_NEVER.copyLift, ['*']),
    // A session is the only way to a directory bucket's objects: with none, S3 Express never uses a store key
    // to read or write one for CI (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateSession.html).
    deny('NeverOpenDataSessions', ['s3express:CreateSession'], ['*']),
  ];
}

/**
 * The key actions a directory bucket's default encryption with SSE-KMS takes of its caller
 * (PutBucketEncryption, "Directory bucket permissions": kms:GenerateDataKey and kms:Decrypt, in IAM and in
 * the key policy: https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutBucketEncryption.html).
 */
const DIRECTORY_BUCKET_KEY_ACTIONS = ['kms:Decrypt', 'kms:GenerateDataKey'];

/**
 * CI_NEVER's key actions but those two, by name: kms:GenerateDataKey* would match GenerateDataKey too, so its
 * other actions are listed (list_awskeymanagementservice.html of the Service Authorization Reference).
 */
const KEY_ACTIONS_BUT_DIRECTORY_BUCKET_ENCRYPTION = [
  'kms:Encrypt',
  'kms:GenerateDataKeyPair',
  'kms:GenerateDataKeyPairWithoutPlaintext',
  'kms:GenerateDataKeyWithoutPlaintext',
  'kms:ReEncrypt*',
];

/**
 * The deploy role's key deny keeps one exception, the one PutBucketEncryption on a directory bucket needs:
 * those two actions, called by S3 Express (kms:ViaService) for one of the environment's directory buckets (the
 * encryption context S3 Express sends, `aws:s3express:arn` = the bucket's ARN:
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-UsingKMSEncryption.html#s3-express-encryption-context).
 * A deny stays out of the way only when one of its conditions fails, so each pin is a deny of its own: a call
 * that is not through S3 Express, or not for those buckets, stays denied whatever else is allowed. S3 Express
 * makes the same calls for objects only inside a session, which NeverOpenDataSessions denies: the exception
 * reaches no object.
 */
function directoryBucketKeyGuards(directoryBuckets: string[]): PolicyStatement[] {
  return [
    {
      ...deny('KeysOnlyThroughS3Express', DIRECTORY_BUCKET_KEY_ACTIONS, ['*']),
      Condition: { StringNotLike: { 'kms:ViaService': S3_EXPRESS_VIA_SERVICE } },
    },
    {
      ...deny('KeysOnlyForStackDirectoryBuckets', DIRECTORY_BUCKET_KEY_ACTIONS, ['*']),
      Condition: { StringNotLike: { [S3_EXPRESS_CONTEXT]: directoryBuckets } },
    },
  ];
}

/**
 * kms:ViaService of S3 Express in any region (the stacks choose theirs): its endpoint, as KMS names every
 * service (https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-via-service).
 * AWS's list of that key's values does not spell S3 Express out, and neither do the S3 Express SSE-KMS pages,
 * which document only the encryption context
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-UsingKMSEncryption.html#s3-express-encryption-context).
 * AWS's CloudFormation handler for AWS::S3Express::DirectoryBucket lists the same two KMS actions for create and
 * update (libs/analysis/data/cfn-handlers.json), with no condition: it confirms the actions, not this value. A
 * different name fails PutBucketEncryption closed (AccessDenied), never open (docs/aws.md).
 */
const S3_EXPRESS_VIA_SERVICE = 's3express.*.amazonaws.com';
const S3_EXPRESS_CONTEXT = 'kms:EncryptionContext:aws:s3express:arn';

/**
 * Break-glass only, an administrator's: in prod, no CI role deletes a bucket, schedules a key's deletion, or
 * stops or deletes a trail (which would blind the audit of the stores: docs/aws.md, Break-glass).
 */
const PROD_BREAK_GLASS = [
  'cloudtrail:DeleteTrail',
  'cloudtrail:StopLogging',
  'kms:ScheduleKeyDeletion',
  's3:DeleteBucket',
  's3express:DeleteBucket',
];

function stackTagCondition(
  prefix: 'aws:ResourceTag' | 'aws:RequestTag',
  environments: readonly Environment[],
) {
  const [only] = environments;
  const stacks = environments.length === 1 && only !== undefined ? only : [...environments];
  return {
    StringEquals: {
      [`${prefix}/${STACK_PROJECT_TAG}`]: STACK_PROJECTS.aws,
      [`${prefix}/${STACK_NAME_TAG}`]: stacks,
    },
  };
}

/**
 * What `pulumi preview` of the AWS stacks of every environment reads: bucket, directory bucket, role and
 * key configuration, limited to the names and tags those stacks use. No object, no secret, no write.
 */
export function previewPolicy(
  account: AwsAccount,
  environments: readonly Environment[],
  stateBucket?: string,
): PolicyDocument {
  const resources = stackResources(account, environments);
  return {
    Version: '2012-10-17',
    Statement: [
      statement('ReadStackBuckets', BUCKET_READS, resources.buckets),
      statement('ReadStackDirectoryBuckets', DIRECTORY_BUCKET_READS, resources.directoryBuckets),
      statement('ReadStackRoles', ROLE_READS, resources.roles),
      statement('ReadStackTrails', TRAIL_READS, resources.trails),
      statement('ReadStackBackupPlans', BACKUP_PLAN_READS, resources.backupPlans),
      statement(
        'ReadStackMalwareProtectionPlans',
        ['guardduty:GetMalwareProtectionPlan'],
        resources.malwareProtectionPlans,
        stackTagCondition('aws:ResourceTag', environments),
      ),
      statement(
        'ReadStackKeys',
        KEY_READS,
        resources.keys,
        stackTagCondition('aws:ResourceTag', environments),
      ),
      ...sharedStatements(),
      // Pull requests run untrusted code: no data session (ciGuards), not even a read-only one, and no key use.
      ...ciGuards(stateBucket, account.partition),
    ],
  };
}

/**
 * What a SageMaker training job's execution role needs besides its checkpoints, per "CreateTrainingJob API:
 * Execution Role Permissions" (https://docs.aws.amazon.com/sagemaker/latest/dg/sagemaker-roles.html#sagemaker-roles-createtrainingjob-perms):
 * its CloudWatch Logs, pulling its training image from ECR (AWS's framework images live in AWS's
 * own accounts, so any account's repository, read only), and, in a VPC, its network interfaces. None of it
 * reaches a bucket, object or key: the boundary still caps a store role at its environment's data. The
 * writer's own policy grants none of it; the team attaches what its jobs use (docs/aws.md). Not
 * cloudwatch:PutMetricData: a request without a dataset is authorised on `*` only, which the pack's
 * aws-iam-no-wildcard-resources refuses for an action that supports a resource type (docs/aws.md says so).
 */
function sageMakerJobStatements(account: AwsAccount): PolicyStatement[] {
  const { partition, accountId } = account;
  return [
    statement(
      'SageMakerJobLogs',
      ['logs:CreateLogGroup', 'logs:CreateLogStream', 'logs:DescribeLogStreams', 'logs:PutLogEvents'],
      [
        `arn:${partition}:logs:*:${accountId}:log-group:/aws/sagemaker/*`,
        `arn:${partition}:logs:*:${accountId}:log-group:/aws/sagemaker/*:log-stream:*`,
      ],
    ),
    // GetAuthorizationToken supports no resource but `*`.
    statement('SageMakerJobImageLogin', ['ecr:GetAuthorizationToken'], ['*']),
    statement(
      'SageMakerJobImages',
      ['ecr:BatchCheckLayerAvailability', 'ecr:BatchGetImage', 'ecr:GetDownloadUrlForLayer'],
      [`arn:${partition}:ecr:*:*:repository/*`],
    ),
    // A job in a VPC: its network interfaces, in the account's subnets and security groups.
    statement(
      'SageMakerJobNetworkInterfaces',
      [
        'ec2:CreateNetworkInterface',
        'ec2:CreateNetworkInterfacePermission',
        'ec2:DeleteNetworkInterface',
        'ec2:DeleteNetworkInterfacePermission',
      ],
      ['network-interface', 'subnet', 'security-group'].map(
        (type) => `arn:${partition}:ec2:*:${accountId}:${type}/*`,
      ),
    ),
    // The Describe calls support no resource but `*`.
    statement(
      'SageMakerJobNetworkLookups',
      [
        'ec2:DescribeDhcpOptions',
        'ec2:DescribeNetworkInterfaces',
        'ec2:DescribeSecurityGroups',
        'ec2:DescribeSubnets',
        'ec2:DescribeVpcs',
      ],
      ['*'],
    ),
  ];
}

/**
 * The permissions boundary of every store role of the AWS stack of `environment`: the most any of them
 * may do, whatever inline policy it is given. Its writer and reader policies are narrower still (one
 * store; readers get no writes, read-only sessions and Decrypt only); this caps a role the deploy identity
 * could create or rewrite at that environment's data, never IAM, never another environment's buckets or keys.
 */
export function storeRoleBoundaryPolicy(account: AwsAccount, environment: Environment): PolicyDocument {
  const resources = stackResources(account, [environment]);
  return {
    Version: '2012-10-17',
    Statement: [
      // Each with what S3 does as a store's replication role (libs/translate awsReplicationPolicy), GuardDuty
      // as a store's malware-scan role (awsMalwareScanPolicy; only prod stores have one, the cap is the same in
      // every environment) and AWS Backup as its backup role (awsBackupPolicy).
      statement(
        'StackBuckets',
        unique(
          AWS_STORE_WRITER_ACTIONS.bucket,
          AWS_REPLICATION_ACTIONS.sourceBucket,
          AWS_MALWARE_SCAN_ACTIONS.bucketNotification,
          AWS_MALWARE_SCAN_ACTIONS.bucketOwnership,
          AWS_BACKUP_ACTIONS.bucket,
        ),
        resources.buckets,
      ),
      statement(
        'StackObjects',
        unique(
          AWS_STORE_WRITER_ACTIONS.objects,
          AWS_REPLICATION_ACTIONS.sourceObjects,
          AWS_REPLICATION_ACTIONS.replicaObjects,
          AWS_MALWARE_SCAN_ACTIONS.scanObjects,
          AWS_MALWARE_SCAN_ACTIONS.validationObject,
          AWS_BACKUP_ACTIONS.objects,
        ),
        resources.objects,
      ),
      // AWS Backup follows a bucket's changes through EventBridge rules of its own naming.
      statement(
        'BackupRules',
        [...AWS_BACKUP_ACTIONS.rules],
        [`arn:${account.partition}:events:*:${account.accountId}:rule/AwsBackupManagedRule*`],
      ),
      statement('BackupAccountReads', [...AWS_BACKUP_ACTIONS.anyResource], ['*']),
      statement(
        'GuardDutyManagedRules',
        unique(AWS_MALWARE_SCAN_ACTIONS.managedRule, AWS_MALWARE_SCAN_ACTIONS.watchRule),
        resources.malwareScanRules,
      ),
      statement(
        'StackDirectoryBucketSessions',
        [...AWS_STORE_WRITER_ACTIONS.directoryBucket],
        resources.directoryBuckets,
      ),
      // Key IDs are random: the stack's keys are the ones with its tags, as for the deploy role.
      statement(
        'StackKeys',
        unique(
          AWS_STORE_WRITER_ACTIONS.key,
          AWS_REPLICATION_ACTIONS.sourceKey,
          AWS_REPLICATION_ACTIONS.replicaKey,
          AWS_BACKUP_ACTIONS.key,
        ),
        resources.keys,
        stackTagCondition('aws:ResourceTag', [environment]),
      ),
      ...sageMakerJobStatements(account),
    ],
  };
}

/**
 * What `pulumi up` of the AWS stack of one environment needs: create, change and delete that stack's
 * buckets, directory buckets, roles (with their inline policies), keys and aliases, and nothing else.
 * Every role it creates or changes must have the environment's store role boundary, which it can
 * neither remove nor rewrite: a role it creates can never hold more than the boundary allows.
 */
/**
 * The deploy policy's statements about the service roles (replication, malware scan, backup) and the plans that
 * name them. IAM caps the inline policies of a role at 10,240 characters in all and a managed policy at 6,144
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html, "IAM and STS character limits"):
 * the deploy role keeps these in a customer managed policy of its own, attached to it alone.
 */
export const DEPLOY_SERVICE_ROLE_SIDS: ReadonlySet<string> = new Set([
  'PassReplicationRolesToS3',
  'KeepReplicationRolesS3Only',
  'PassMalwareScanRolesToGuardDuty',
  'KeepMalwareScanRolesGuardDutyOnly',
  'CreateStackMalwareProtectionPlans',
  'TagNewStackMalwareProtectionPlans',
  'ManageStackMalwareProtectionPlans',
  'PassBackupRolesToAwsBackup',
  'KeepBackupRolesAwsBackupOnly',
  'CreateStackBackupPlans',
  'ManageStackBackupPlans',
]);

/** A deploy policy as the role holds it: the inline part, and the managed part (DEPLOY_SERVICE_ROLE_SIDS). */
export function splitDeployPolicy(policy: PolicyDocument): {
  inline: PolicyDocument;
  managed: PolicyDocument;
} {
  const of = (managed: boolean): PolicyDocument => ({
    ...policy,
    Statement: policy.Statement.filter(({ Sid }) => DEPLOY_SERVICE_ROLE_SIDS.has(Sid ?? '') === managed),
  });
  return { inline: of(false), managed: of(true) };
}

export function deployPolicy(
  account: AwsAccount,
  environment: Environment,
  stateBucket?: string,
): PolicyDocument {
  const resources = stackResources(account, [environment]);
  const boundaryArn = storeRoleBoundaryArn(account, environment);
  return {
    Version: '2012-10-17',
    Statement: [
      statement('ManageStackBuckets', [...BUCKET_READS, ...BUCKET_WRITES], resources.buckets),
      // A store's directory bucket encryption with its key (PutBucketEncryption): S3 Express calls KMS for the
      // deploy role, for that bucket (directoryBucketKeyGuards); only the stack's keys, as every key statement.
      statement('SetDirectoryBucketKeys', DIRECTORY_BUCKET_KEY_ACTIONS, resources.keys, {
        ...stackTagCondition('aws:ResourceTag', [environment]),
        StringLike: {
          'kms:ViaService': S3_EXPRESS_VIA_SERVICE,
          [S3_EXPRESS_CONTEXT]: resources.directoryBuckets,
        },
      }),
      statement(
        'ManageStackDirectoryBuckets',
        [
          ...DIRECTORY_BUCKET_READS,
          's3express:CreateBucket',
          's3express:DeleteBucket',
          's3express:DeleteBucketPolicy',
          's3express:PutBucketPolicy',
          's3express:PutEncryptionConfiguration',
          's3express:PutLifecycleConfiguration',
          's3express:TagResource',
          's3express:UntagResource',
        ],
        resources.directoryBuckets,
      ),
      statement(
        'ManageStackRoles',
        [
          ...ROLE_READS,
          // Deleting a role first takes it out of its instance profiles: this finds them.
          'iam:ListInstanceProfilesForRole',
          // Tags grant nothing here: no policy of the stacks or of CI conditions on a role's tags.
          'iam:TagRole',
          'iam:UntagRole',
        ],
        resources.roles,
      ),
      statement('ManageBoundedStackRoles', BOUNDED_ROLE_WRITES, resources.roles, {
        StringEquals: { 'iam:PermissionsBoundary': boundaryArn },
      }),
      // A replication configuration names the role S3 assumes, which is passing it to S3: only the stack's
      // replication roles, and only to S3. CI never assumes them (NeverActAsAnotherRole; they trust S3 alone).
      statement('PassReplicationRolesToS3', ['iam:PassRole'], resources.replicationRoles, {
        StringEquals: { 'iam:PassedToService': 's3.amazonaws.com' },
      }),
      deny('KeepReplicationRolesS3Only', REPLICATION_ROLE_TAKEOVER, resources.replicationRoles),
      ...(environment === 'prod' ? malwareProtectionStatements(resources, environment) : []),
      // A backup selection names the role AWS Backup assumes: only the stack's backup roles, and only to AWS
      // Backup. CI never assumes them (NeverActAsAnotherRole; they trust AWS Backup alone).
      statement('PassBackupRolesToAwsBackup', ['iam:PassRole'], resources.backupRoles, {
        StringEquals: { 'iam:PassedToService': 'backup.amazonaws.com' },
      }),
      // The store's perimeter exempts the backup role as it does the replication role (AWS Backup reads from its
      // own network): the same takeover writes are denied, so that only AWS Backup ever acts as it.
      deny('KeepBackupRolesAwsBackupOnly', REPLICATION_ROLE_TAKEOVER, resources.backupRoles),
      statement(
        'CreateStackBackupPlans',
        ['backup:CreateBackupPlan', 'backup:TagResource'],
        resources.backupPlans,
        stackTagCondition('aws:RequestTag', [environment]),
      ),
      statement(
        'ManageStackBackupPlans',
        [...BACKUP_PLAN_READS, ...BACKUP_PLAN_WRITES],
        resources.backupPlans,
      ),
      // The stores' bucket policies exempt CI's roles from their listing deny by exact ARN; no deploy role
      // may create a role under any CI role's name either, so that none can stand in for one.
      deny(
        'NoRolesNamedLikeCi',
        ['iam:CreateRole'],
        awsCiRoleArnPatterns(account.partition, account.accountId),
      ),
      // Explicit, so that no other grant to this role, now or later, can lift a boundary: not from a
      // role, and not by rewriting or deleting the boundary policy of any environment.
      deny('KeepRoleBoundaries', BOUNDARY_REMOVAL, [
        `arn:${account.partition}:iam::${account.accountId}:role/*`,
      ]),
      deny(
        'KeepStoreRoleBoundaryPolicies',
        BOUNDARY_POLICY_CHANGES,
        ENVIRONMENTS.map((each) => storeRoleBoundaryArn(account, each)),
      ),
      // CreateKey supports no resource but `*`: the key does not exist yet. The tags it must be created
      // with are what every other key statement matches.
      statement(
        'CreateStackKeys',
        ['kms:CreateKey'],
        ['*'],
        stackTagCondition('aws:RequestTag', [environment]),
      ),
      // Tagging a key as it is created needs TagResource on every key of the account (KMS's rule); the
      // tags requested must still be the stack's own, and a key that already carries stack tags must carry
      // this environment's: else the role could re-tag another environment's key as its own and then act
      // on it (ABAC: https://docs.aws.amazon.com/kms/latest/developerguide/abac.html).
      statement('TagNewStackKeys', ['kms:TagResource'], resources.keys, {
        ...stackTagCondition('aws:RequestTag', [environment]),
        StringEqualsIfExists: stackTagCondition('aws:ResourceTag', [environment]).StringEquals,
      }),
      statement(
        'ManageStackKeys',
        [
          ...KEY_READS,
          'kms:CreateAlias',
          'kms:DeleteAlias',
          // The stack always enables rotation and keeps the default key policy: no DisableKeyRotation,
          // and no PutKeyPolicy, with which the deploy identity could hand a key to another account.
          'kms:EnableKeyRotation',
          'kms:ScheduleKeyDeletion',
          'kms:TagResource',
          'kms:UntagResource',
          'kms:UpdateAlias',
          'kms:UpdateKeyDescription',
        ],
        resources.keys,
        stackTagCondition('aws:ResourceTag', [environment]),
      ),
      statement('ManageStackTrails', [...TRAIL_READS, ...TRAIL_WRITES], resources.trails),
      // Alias operations are authorised on the alias and on its key: the key side is ManageStackKeys.
      statement(
        'ManageStackKeyAliases',
        ['kms:CreateAlias', 'kms:DeleteAlias', 'kms:UpdateAlias'],
        resources.keyAliases,
      ),
      ...sharedStatements(),
      ...ciGuards(stateBucket, account.partition, resources.directoryBuckets),
      ...(environment === 'prod' ? [deny('BreakGlassOnlyInProd', PROD_BREAK_GLASS, ['*'])] : []),
    ],
  };
}

/**
 * What the prod deploy role needs for the GuardDuty Malware Protection for S3 plans of prod stores (stacks/aws-s3
 * malware-scan.ts), per list_amazonguardduty.html of the Service Authorization Reference.
 */
function malwareProtectionStatements(
  resources: ReturnType<typeof stackResources>,
  environment: Environment,
): PolicyStatement[] {
  return [
    // A plan names the role GuardDuty assumes: only the stack's malware-scan roles, and only to GuardDuty.
    // CI never assumes them (NeverActAsAnotherRole; they trust GuardDuty alone).
    statement('PassMalwareScanRolesToGuardDuty', ['iam:PassRole'], resources.malwareScanRoles, {
      StringEquals: { 'iam:PassedToService': AWS_MALWARE_SCAN_SERVICE },
    }),
    // The perimeter exempts a malware-scan role as it does a replication role: the same takeover is denied.
    deny('KeepMalwareScanRolesGuardDutyOnly', REPLICATION_ROLE_TAKEOVER, resources.malwareScanRoles),
    // CreateMalwareProtectionPlan supports no resource but `*` (the plan does not exist yet), so it is held to
    // the stack's tags, which every other plan statement matches.
    statement(
      'CreateStackMalwareProtectionPlans',
      ['guardduty:CreateMalwareProtectionPlan'],
      ['*'],
      stackTagCondition('aws:RequestTag', [environment]),
    ),
    statement(
      'TagNewStackMalwareProtectionPlans',
      ['guardduty:TagResource'],
      resources.malwareProtectionPlans,
      stackTagCondition('aws:RequestTag', [environment]),
    ),
    statement(
      'ManageStackMalwareProtectionPlans',
      [
        'guardduty:DeleteMalwareProtectionPlan',
        'guardduty:GetMalwareProtectionPlan',
        'guardduty:TagResource',
        'guardduty:UntagResource',
        'guardduty:UpdateMalwareProtectionPlan',
      ],
      resources.malwareProtectionPlans,
      stackTagCondition('aws:ResourceTag', [environment]),
    ),
  ];
}

/** The state objects of the AWS stacks as S3 object ARNs in `bucket`. */
function stateObjectArns(partition: string, bucket: string, stack: string) {
  const root = `arn:${partition}:s3:::${bucket}`;
  const keys = stateObjects('aws', stack);
  return Object.fromEntries(
    Object.entries(keys).map(([part, key]) => [part, `${root}/${key}`]),
  ) as typeof keys;
}

/**
 * The objects of a self-managed S3 state backend (`bootstrap:aws.stateBucket`) the preview role needs:
 * the AWS stacks' state, read only, and their lock files. `pulumi preview` takes no lock, but a refresh,
 * even `--preview-only` as the drift check runs it, does (diyBackend.Refresh calls Lock before it looks
 * at PreviewOnly), so the lock folder is writable; nothing else is.
 */
export function previewStatePolicy(account: AwsAccount, bucket: string): PolicyDocument {
  const any = stateObjectArns(account.partition, bucket, '*');
  return {
    Version: '2012-10-17',
    Statement: [
      statement('ListStateBucket', ['s3:ListBucket'], [`arn:${account.partition}:s3:::${bucket}`]),
      statement('ReadAwsStackState', ['s3:GetObject'], [any.meta, `${any.stack}.json*`, `${any.history}/*`]),
      statement('LockAwsStacks', ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'], [`${any.locks}/*`]),
    ],
  };
}

/**
 * The objects of a self-managed S3 state backend the deploy role of `environment` needs: that
 * environment's AWS stack's state, history, backups and lock, read and written; of the rest only the
 * backend's meta.yaml, read.
 */
export function deployStatePolicy(
  account: AwsAccount,
  bucket: string,
  environment: Environment,
): PolicyDocument {
  const own = stateObjectArns(account.partition, bucket, environment);
  return {
    Version: '2012-10-17',
    Statement: [
      statement('ListStateBucket', ['s3:ListBucket'], [`arn:${account.partition}:s3:::${bucket}`]),
      statement('ReadStateBackend', ['s3:GetObject'], [own.meta]),
      statement(
        'ManageOwnStackState',
        ['s3:GetObject', 's3:PutObject', 's3:DeleteObject'],
        [`${own.stack}.json*`, `${own.history}/*`, `${own.backups}/*`, `${own.locks}/*`],
      ),
    ],
  };
}
