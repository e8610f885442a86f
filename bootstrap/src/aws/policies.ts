import type { Environment } from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import { AWS_STS_AUDIENCE, GITHUB_OIDC_HOST } from '../github';
import { STACK_PROJECTS, stackNamePrefixes } from '../names';

export interface PolicyStatement {
  Sid: string;
  Effect: 'Allow';
  Action: string[];
  Resource: string[];
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

/** ARN patterns of what the AWS stacks of these environments manage. */
function stackResources(account: AwsAccount, environments: readonly Environment[]) {
  const { partition, accountId } = account;
  const prefixes = environments.map(awsStackNamePrefixes);
  return {
    // Bucket ARNs, never `bucket/*`: object-level actions (GetObject and the like) match object ARNs only.
    buckets: prefixes.flatMap((p) => p.buckets).map((prefix) => `arn:${partition}:s3:::${prefix}*`),
    // The stacks choose the region; the account and the names pin the buckets down.
    directoryBuckets: prefixes
      .flatMap((p) => p.directoryBuckets)
      .map((prefix) => `arn:${partition}:s3express:*:${accountId}:bucket/${prefix}*--x-s3`),
    roles: prefixes
      .flatMap((p) => p.roles)
      .map((prefix) => `arn:${partition}:iam::${accountId}:role/${prefix}*`),
    keyAliases: prefixes
      .flatMap((p) => p.keyAliases)
      .map((prefix) => `arn:${partition}:kms:*:${accountId}:${prefix}*`),
    keys: [`arn:${partition}:kms:*:${accountId}:key/*`],
  };
}

/** Bucket-level reads a refresh of the stack's buckets makes; no object is ever read. */
const BUCKET_READS = [
  's3:GetAccelerateConfiguration',
  's3:GetBucket*',
  's3:GetEncryptionConfiguration',
  's3:GetLifecycleConfiguration',
  's3:GetReplicationConfiguration',
  // HeadBucket, which finds a bucket, is authorised as ListBucket: it lists object keys, never contents.
  's3:ListBucket',
];

const DIRECTORY_BUCKET_READS = [
  's3express:GetBucketPolicy',
  's3express:GetEncryptionConfiguration',
  's3express:GetLifecycleConfiguration',
  's3express:ListTagsForResource',
];

const ROLE_READS = [
  'iam:GetRole',
  'iam:GetRolePolicy',
  'iam:ListAttachedRolePolicies',
  'iam:ListRolePolicies',
  'iam:ListRoleTags',
];

const KEY_READS = ['kms:DescribeKey', 'kms:GetKeyPolicy', 'kms:GetKeyRotationStatus', 'kms:ListResourceTags'];

function statement(
  Sid: string,
  Action: string[],
  Resource: string[],
  Condition?: PolicyStatement['Condition'],
): PolicyStatement {
  return { Sid, Effect: 'Allow', Action: [...Action].sort(), Resource, ...(Condition ? { Condition } : {}) };
}

/** Statements both roles need for the directory buckets and the key aliases of their stacks. */
function sharedStatements(resources: ReturnType<typeof stackResources>): PolicyStatement[] {
  return [
    // HeadBucket on a directory bucket is authorised through a session, and a read-only session is the
    // least there is; it could read objects, which no API finds a directory bucket without.
    statement(
      'OpenReadOnlyDirectoryBucketSessions',
      ['s3express:CreateSession'],
      resources.directoryBuckets,
      {
        StringEquals: { 's3express:SessionMode': 'ReadOnly' },
      },
    ),
    // ListAllMyDirectoryBuckets supports no resource but `*` (an account-wide listing).
    statement('ListDirectoryBuckets', ['s3express:ListAllMyDirectoryBuckets'], ['*']),
    // ListAliases supports no resource but `*`; reading an alias means listing the account's aliases.
    statement('ListKeyAliases', ['kms:ListAliases'], ['*']),
  ];
}

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
export function previewPolicy(account: AwsAccount, environments: readonly Environment[]): PolicyDocument {
  const resources = stackResources(account, environments);
  return {
    Version: '2012-10-17',
    Statement: [
      statement('ReadStackBuckets', BUCKET_READS, resources.buckets),
      statement('ReadStackDirectoryBuckets', DIRECTORY_BUCKET_READS, resources.directoryBuckets),
      statement('ReadStackRoles', ROLE_READS, resources.roles),
      statement(
        'ReadStackKeys',
        KEY_READS,
        resources.keys,
        stackTagCondition('aws:ResourceTag', environments),
      ),
      ...sharedStatements(resources),
    ],
  };
}

/**
 * What `pulumi up` of the AWS stack of one environment needs: create, change and delete that stack's
 * buckets, directory buckets, roles (with their inline policies), keys and aliases, and nothing else.
 */
export function deployPolicy(account: AwsAccount, environment: Environment): PolicyDocument {
  const resources = stackResources(account, [environment]);
  return {
    Version: '2012-10-17',
    Statement: [
      statement(
        'ManageStackBuckets',
        [
          ...BUCKET_READS,
          's3:CreateBucket',
          's3:DeleteBucket',
          's3:DeleteBucketPolicy',
          's3:PutBucket*',
          's3:PutEncryptionConfiguration',
          's3:PutLifecycleConfiguration',
        ],
        resources.buckets,
      ),
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
          'iam:CreateRole',
          'iam:DeleteRole',
          'iam:DeleteRolePolicy',
          // Deleting a role first takes it out of its instance profiles: this finds them.
          'iam:ListInstanceProfilesForRole',
          'iam:PutRolePolicy',
          'iam:TagRole',
          'iam:UntagRole',
          'iam:UpdateAssumeRolePolicy',
          'iam:UpdateRole',
          'iam:UpdateRoleDescription',
        ],
        resources.roles,
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
      // tags requested must still be the stack's own.
      statement(
        'TagNewStackKeys',
        ['kms:TagResource'],
        resources.keys,
        stackTagCondition('aws:RequestTag', [environment]),
      ),
      statement(
        'ManageStackKeys',
        [
          ...KEY_READS,
          'kms:CancelKeyDeletion',
          'kms:CreateAlias',
          'kms:DeleteAlias',
          'kms:DisableKeyRotation',
          'kms:EnableKeyRotation',
          'kms:PutKeyPolicy',
          'kms:ScheduleKeyDeletion',
          'kms:TagResource',
          'kms:UntagResource',
          'kms:UpdateAlias',
          'kms:UpdateKeyDescription',
        ],
        resources.keys,
        stackTagCondition('aws:ResourceTag', [environment]),
      ),
      // Alias operations are authorised on the alias and on its key: the key side is ManageStackKeys.
      statement(
        'ManageStackKeyAliases',
        ['kms:CreateAlias', 'kms:DeleteAlias', 'kms:UpdateAlias'],
        resources.keyAliases,
      ),
      ...sharedStatements(resources),
    ],
  };
}
