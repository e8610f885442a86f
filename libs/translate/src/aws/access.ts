import type { Tier } from '@checkpoints/config';
import { awsPolicyDocument, type AwsPolicyDocument, type AwsPolicyStatement } from './types';

export type AwsStorePurpose = 'writer' | 'reader';

/** The one store an identity policy is scoped to. */
export interface AwsStoreTarget {
  tier: Tier;
  /** `arn:aws:s3:::bucket` (standard) or `arn:aws:s3express:region:account:bucket/name--azid--x-s3`. */
  bucketArn: string;
  /** The store's KMS key, when customer-managed; absent when S3 manages the key. */
  keyArn?: string;
  /**
   * Aliases of the store's keys of earlier generations (`keyGeneration`), which stay in the account with
   * their keys: objects written before a rotation are still encrypted under those keys.
   */
  earlierKeyAliases?: readonly string[];
  region: string;
}

/**
 * Everything a store's writer may do, by what it acts on; a reader gets a subset. The permissions boundary
 * bootstrap puts on every store role allows exactly these, so the two can never drift apart.
 */
export const AWS_STORE_WRITER_ACTIONS = {
  bucket: ['s3:ListBucket', 's3:ListBucketMultipartUploads'],
  objects: [
    's3:GetObject',
    's3:PutObject',
    's3:DeleteObject',
    's3:AbortMultipartUpload',
    's3:ListMultipartUploadParts',
  ],
  // A directory bucket authorises one call; the session mode decides what the session may do.
  directoryBucket: ['s3express:CreateSession'],
  // S3 asks KMS for a data key to encrypt an upload and decrypts it for reads and multipart uploads.
  key: ['kms:GenerateDataKey', 'kms:Decrypt'],
} as const;

/**
 * What the store's writer or reader role may do, on that store alone: named actions only, on the
 * bucket's ARN, its objects and its key. Writers cannot delete object versions, so a bad write or
 * delete leaves the previous checkpoint recoverable as a noncurrent version.
 */
export function awsStoreAccessPolicy(purpose: AwsStorePurpose, target: AwsStoreTarget): AwsPolicyDocument {
  const storage =
    target.tier === 'high-throughput'
      ? directoryBucketStatements(purpose, target)
      : bucketStatements(purpose, target);
  return awsPolicyDocument([...storage, ...keyStatements(purpose, target)]);
}

function bucketStatements(purpose: AwsStorePurpose, { bucketArn }: AwsStoreTarget): AwsPolicyStatement[] {
  if (purpose === 'reader') {
    return [
      allow('ListBucket', ['s3:ListBucket'], [bucketArn]),
      allow('ReadObjects', ['s3:GetObject'], [`${bucketArn}/*`]),
    ];
  }
  return [
    allow('ListBucketAndUploads', [...AWS_STORE_WRITER_ACTIONS.bucket], [bucketArn]),
    allow('ReadWriteObjects', [...AWS_STORE_WRITER_ACTIONS.objects], [`${bucketArn}/*`]),
  ];
}

function directoryBucketStatements(
  purpose: AwsStorePurpose,
  { bucketArn }: AwsStoreTarget,
): AwsPolicyStatement[] {
  if (purpose === 'reader') {
    return [
      {
        ...allow('CreateReadOnlySession', ['s3express:CreateSession'], [bucketArn]),
        Condition: { StringEquals: { 's3express:SessionMode': 'ReadOnly' } },
      },
    ];
  }
  return [allow('CreateReadWriteSession', [...AWS_STORE_WRITER_ACTIONS.directoryBucket], [bucketArn])];
}

function keyStatements(purpose: AwsStorePurpose, target: AwsStoreTarget): AwsPolicyStatement[] {
  if (target.keyArn === undefined) return [];
  const actions = purpose === 'writer' ? [...AWS_STORE_WRITER_ACTIONS.key] : ['kms:Decrypt'];
  const viaS3: Record<string, Record<string, string>> = target.tier === 'high-throughput'
    ? {}
    : { StringEquals: { 'kms:ViaService': s3Endpoint(target.region) } };
  const current = { ...allow('UseStoreKey', actions, [target.keyArn]), ...conditionOf(viaS3) };
  const earlier = target.earlierKeyAliases ?? [];
  if (earlier.length === 0) return [current];
  // A released key's ID is not in the program any more; its alias, retained with it, still names it.
  // kms:ResourceAliases matches a key by the aliases it has: https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-resource-aliases
  const anyKeyOfAccount = target.keyArn.replace(/:key\/.*$/, ':key/*');
  return [
    current,
    {
      ...allow('DecryptEarlierKeyGenerations', ['kms:Decrypt'], [anyKeyOfAccount]),
      Condition: {
        ...viaS3,
        'ForAnyValue:StringEquals': { 'kms:ResourceAliases': [...earlier] },
      },
    },
  ];
}

function conditionOf(
  condition: Record<string, Record<string, string>>,
): Pick<AwsPolicyStatement, 'Condition'> {
  return Object.keys(condition).length === 0 ? {} : { Condition: condition };
}

/** The S3 service name KMS sees in `kms:ViaService` for requests S3 makes on a caller's behalf. */
export function s3Endpoint(region: string): string {
  return `s3.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`;
}

function allow(sid: string, actions: string[], resources: string[]): AwsPolicyStatement {
  return { Sid: sid, Effect: 'Allow', Action: actions, Resource: resources };
}

/**
 * What S3, acting as a store's replication role, needs to copy the store's new object versions into its
 * replica bucket: "Setting up permissions for live replication", Step 2
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/setting-repl-config-perm-overview.html): on the source
 * bucket s3:GetReplicationConfiguration and s3:ListBucket; on its objects s3:GetObjectVersionForReplication,
 * s3:GetObjectVersionAcl and s3:GetObjectVersionTagging; on the destination's objects s3:ReplicateObject,
 * s3:ReplicateDelete and s3:ReplicateTags. For SSE-KMS objects ("Replicating encrypted objects",
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/replication-config-for-kms-objects.html): kms:Decrypt on
 * the source key and kms:Encrypt on the replica key, each through S3 in its own region (kms:ViaService).
 * The store roles' permissions boundary allows exactly these, so a role with it can never do more.
 */
export const AWS_REPLICATION_ACTIONS = {
  sourceBucket: ['s3:GetReplicationConfiguration', 's3:ListBucket'],
  // A locked version is replicated with its retention, which S3 reads as the replication role
  // (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-replication).
  sourceObjects: [
    's3:GetObjectVersionForReplication',
    's3:GetObjectVersionAcl',
    's3:GetObjectVersionTagging',
    's3:GetObjectRetention',
    's3:GetObjectLegalHold',
  ],
  replicaObjects: ['s3:ReplicateObject', 's3:ReplicateDelete', 's3:ReplicateTags'],
  sourceKey: ['kms:Decrypt'],
  replicaKey: ['kms:Encrypt'],
} as const;

/** A store's bucket and the replica S3 copies it into (`recovery.replicaRegion`). */
export interface AwsReplicationTarget {
  sourceBucketArn: string;
  /** The store's key; absent when S3 manages the key (the replica then uses SSE-S3 as well). */
  sourceKeyArn?: string;
  sourceRegion: string;
  replicaBucketArn: string;
  replicaKeyArn?: string;
  replicaRegion: string;
}

/** The replication role's identity policy: the documented actions, on this store's bucket and replica alone. */
export function awsReplicationPolicy(target: AwsReplicationTarget): AwsPolicyDocument {
  const viaS3 = (region: string) => ({ StringEquals: { 'kms:ViaService': s3Endpoint(region) } });
  return awsPolicyDocument([
    allow(
      'ReadReplicationConfiguration',
      [...AWS_REPLICATION_ACTIONS.sourceBucket],
      [target.sourceBucketArn],
    ),
    allow('ReadSourceVersions', [...AWS_REPLICATION_ACTIONS.sourceObjects], [`${target.sourceBucketArn}/*`]),
    allow(
      'ReplicateIntoReplica',
      [...AWS_REPLICATION_ACTIONS.replicaObjects],
      [`${target.replicaBucketArn}/*`],
    ),
    ...(target.sourceKeyArn === undefined
      ? []
      : [
          {
            ...allow('DecryptSourceObjects', [...AWS_REPLICATION_ACTIONS.sourceKey], [target.sourceKeyArn]),
            Condition: viaS3(target.sourceRegion),
          },
        ]),
    ...(target.replicaKeyArn === undefined
      ? []
      : [
          {
            ...allow('EncryptReplicas', [...AWS_REPLICATION_ACTIONS.replicaKey], [target.replicaKeyArn]),
            Condition: viaS3(target.replicaRegion),
          },
        ]),
  ]);
}

/**
 * The replication role trusts S3 alone, and only on behalf of this account's store bucket: aws:SourceAccount and
 * aws:SourceArn keep another account's bucket from making S3 act as this role (the confused deputy problem,
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html).
 */
export function awsReplicationTrustPolicy(sourceBucketArn: string, accountId: string): AwsPolicyDocument {
  return awsPolicyDocument([
    {
      Sid: 'S3ReplicatesThisStore',
      Effect: 'Allow',
      Principal: { Service: ['s3.amazonaws.com'] },
      Action: ['sts:AssumeRole'],
      Condition: {
        StringEquals: { 'aws:SourceAccount': accountId },
        ArnEquals: { 'aws:SourceArn': sourceBucketArn },
      },
    },
  ]);
}

/**
 * The service principal GuardDuty Malware Protection for S3 assumes a store's malware-scan role as
 * (https://docs.aws.amazon.com/guardduty/latest/ug/malware-protection-s3-iam-policy-prerequisite.html, "Add trust
 * relationship policy").
 */
export const AWS_MALWARE_SCAN_SERVICE = 'malware-protection-plan.guardduty.amazonaws.com';

/**
 * What GuardDuty does as a store's malware-scan role, per "Create or update IAM role policy"
 * (https://docs.aws.amazon.com/guardduty/latest/ug/malware-protection-s3-iam-policy-prerequisite.html): the
 * EventBridge managed rule that hears the bucket's object events, the bucket's EventBridge notification, the
 * bucket ownership check (s3:ListBucket), the validation object it writes once, reading each new object version
 * and decrypting it. The plan adds no tags (tagging off), so the role has no s3:PutObjectTagging.
 */
export const AWS_MALWARE_SCAN_ACTIONS = {
  managedRule: ['events:PutRule', 'events:DeleteRule', 'events:PutTargets', 'events:RemoveTargets'],
  watchRule: ['events:DescribeRule', 'events:ListTargetsByRule'],
  bucketNotification: ['s3:PutBucketNotification', 's3:GetBucketNotification'],
  bucketOwnership: ['s3:ListBucket'],
  validationObject: ['s3:PutObject'],
  scanObjects: ['s3:GetObject', 's3:GetObjectVersion'],
  key: ['kms:GenerateDataKey', 'kms:Decrypt'],
} as const;

/** The one object key GuardDuty writes when it validates a protected bucket (the same page). */
export const AWS_MALWARE_SCAN_VALIDATION_OBJECT = 'malware-protection-resource-validation-object';

/** The EventBridge managed rules GuardDuty creates for a protected bucket start with this (the same page). */
const MALWARE_SCAN_RULE_PREFIX = 'DO-NOT-DELETE-AmazonGuardDutyMalwareProtectionS3';

export interface AwsMalwareScanTarget {
  bucketArn: string;
  /** The store's key; absent when S3 manages the key. */
  keyArn?: string;
  region: string;
  accountId: string;
  partition: string;
}

/** The identity policy of a store's malware-scan role: one bucket, its key, GuardDuty's own managed rules. */
export function awsMalwareScanPolicy(target: AwsMalwareScanTarget): AwsPolicyDocument {
  const rules = `arn:${target.partition}:events:${target.region}:${target.accountId}:rule/${MALWARE_SCAN_RULE_PREFIX}*`;
  const A = AWS_MALWARE_SCAN_ACTIONS;
  return awsPolicyDocument([
    {
      ...allow('ManageGuardDutyManagedRule', [...A.managedRule], [rules]),
      Condition: { StringLike: { 'events:ManagedBy': AWS_MALWARE_SCAN_SERVICE } },
    },
    allow('WatchGuardDutyManagedRule', [...A.watchRule], [rules]),
    allow(
      'SendBucketEventsToEventBridge',
      [...A.bucketNotification, ...A.bucketOwnership],
      [target.bucketArn],
    ),
    allow(
      'PutValidationObject',
      [...A.validationObject],
      [`${target.bucketArn}/${AWS_MALWARE_SCAN_VALIDATION_OBJECT}`],
    ),
    allow('ScanNewObjects', [...A.scanObjects], [`${target.bucketArn}/*`]),
    ...(target.keyArn === undefined
      ? []
      : [
          {
            ...allow('DecryptForScan', [...A.key], [target.keyArn]),
            Condition: { StringLike: { 'kms:ViaService': s3Endpoint(target.region) } },
          },
        ]),
  ]);
}

/**
 * The malware-scan role trusts GuardDuty Malware Protection for S3 alone, as the documented trust policy does
 * (the page above, "Add trust relationship policy"). Only a plan naming the role makes GuardDuty assume it, and
 * naming it is passing it (iam:PassRole in this account): the deploy identity may pass it to this service only,
 * and no identity of another account can pass a role of this one.
 */
export function awsMalwareScanTrustPolicy(): AwsPolicyDocument {
  return awsPolicyDocument([
    {
      Sid: 'GuardDutyScansThisStore',
      Effect: 'Allow',
      Principal: { Service: [AWS_MALWARE_SCAN_SERVICE] },
      Action: ['sts:AssumeRole'],
    },
  ]);
}

/**
 * What AWS Backup, acting as a store's backup role, needs to back up the store's bucket: the S3 actions of the
 * AWS managed policy AWSBackupServiceRolePolicyForS3Backup, which "Amazon S3 backups" names as the role's
 * prerequisite (https://docs.aws.amazon.com/aws-backup/latest/devguide/s3-backups.html, "Permissions and
 * policies"; the policy, https://docs.aws.amazon.com/aws-managed-policy/latest/reference/AWSBackupServiceRolePolicyForS3Backup.html),
 * narrowed to the store's bucket and key: continuous backup follows the bucket through S3 event notifications
 * and the EventBridge rules AWS Backup manages (`AwsBackupManagedRule*`), and the first backup walks it with an
 * inventory. Read only on the objects: restoring is an administrator's action with a role of their own
 * (AWSBackupServiceRolePolicyForS3Restore writes and deletes objects, which no role of the stack may).
 * The store roles' permissions boundary allows exactly these.
 */
export const AWS_BACKUP_ACTIONS = {
  bucket: [
    's3:GetBucketAcl',
    's3:GetBucketLocation',
    's3:GetBucketNotification',
    's3:GetBucketTagging',
    's3:GetBucketVersioning',
    's3:GetInventoryConfiguration',
    's3:ListBucket',
    's3:ListBucketVersions',
    's3:PutBucketNotification',
    's3:PutInventoryConfiguration',
  ],
  objects: [
    's3:GetObject',
    's3:GetObjectAcl',
    's3:GetObjectTagging',
    's3:GetObjectVersion',
    's3:GetObjectVersionAcl',
    's3:GetObjectVersionTagging',
  ],
  key: ['kms:Decrypt', 'kms:DescribeKey'],
  rules: [
    'events:DeleteRule',
    'events:DescribeRule',
    'events:DisableRule',
    'events:EnableRule',
    'events:ListTargetsByRule',
    'events:PutRule',
    'events:PutTargets',
    'events:RemoveTargets',
  ],
  // These support no resource but `*` (Service Authorization Reference). Not the managed policy's
  // cloudwatch:GetMetricData: it supports a resource type (dataset) the backup's requests do not name, and the
  // pack's aws-iam-no-wildcard-resources refuses it on `*` (docs/aws.md, "Independent copy").
  anyResource: ['events:ListRules', 's3:ListAllMyBuckets'],
} as const;

/** A store's bucket AWS Backup copies into the store's vault (`recovery.independentCopy`). */
export interface AwsBackupTarget {
  partition: string;
  accountId: string;
  region: string;
  bucketArn: string;
  /** The store's key; absent when S3 manages it. */
  keyArn?: string;
}

/** The backup role's identity policy: the documented actions, on this store's bucket, key and rules alone. */
export function awsBackupPolicy(target: AwsBackupTarget): AwsPolicyDocument {
  const rules = `arn:${target.partition}:events:${target.region}:${target.accountId}:rule/AwsBackupManagedRule*`;
  return awsPolicyDocument([
    allow('ReadAndFollowBucket', [...AWS_BACKUP_ACTIONS.bucket], [target.bucketArn]),
    allow('ReadVersions', [...AWS_BACKUP_ACTIONS.objects], [`${target.bucketArn}/*`]),
    allow('ManageBackupRules', [...AWS_BACKUP_ACTIONS.rules], [rules]),
    allow('AccountWideReads', [...AWS_BACKUP_ACTIONS.anyResource], ['*']),
    ...(target.keyArn === undefined
      ? []
      : [
          {
            ...allow('DecryptThroughS3', [...AWS_BACKUP_ACTIONS.key], [target.keyArn]),
            Condition: { StringEquals: { 'kms:ViaService': s3Endpoint(target.region) } },
          },
        ]),
  ]);
}

/**
 * The backup role trusts AWS Backup alone, for this account only (aws:SourceAccount against the confused deputy,
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html): no CI identity, store identity or
 * person can assume it.
 */
export function awsBackupTrustPolicy(accountId: string): AwsPolicyDocument {
  return awsPolicyDocument([
    {
      Sid: 'AwsBackupCopiesThisStore',
      Effect: 'Allow',
      Principal: { Service: ['backup.amazonaws.com'] },
      Action: ['sts:AssumeRole'],
      Condition: { StringEquals: { 'aws:SourceAccount': accountId } },
    },
  ]);
}
