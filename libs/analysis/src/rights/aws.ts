import { createAnalysisContext } from '../context';
import { memo } from '../memo';
import type { Render, RenderedResource } from '@checkpoints/render';
import { stringInput } from '../access/model';
import {
  allowed,
  awsAnswersOf,
  defaultKeyPolicy,
  inlinePolicies,
  policyDocument,
  type AwsAnswers,
  type AwsPrincipal,
  type AwsRequest,
  S3_EXPRESS_CONTEXT_KEY,
  s3ExpressViaService,
} from '../access/aws';
import { storeWordsOf } from '../access/aws-renaming';
import { neededOperations, type MissingRight, type ResourceRights, type RightsInput } from './model';

const S3 = 'https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html';
const S3_EXPRESS =
  'https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3express.html';
const IAM =
  'https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsidentityandaccessmanagementiam.html';
const KMS =
  'https://docs.aws.amazon.com/service-authorization/latest/reference/list_awskeymanagementservice.html';
const CLOUDTRAIL =
  'https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudtrail.html';
const GUARDDUTY =
  'https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazonguardduty.html';
const BACKUP = 'https://docs.aws.amazon.com/service-authorization/latest/reference/list_awsbackup.html';

/** A bucket sub-resource: one Put (deleting it is authorised as its Put too) and one Get. */
const bucketSetting = (put: string, get: string, source = S3): ResourceRights => ({
  create: [put],
  update: [put],
  delete: [put],
  read: [get],
  source,
});

/**
 * The IAM actions of the API calls the Pulumi AWS provider (the Terraform AWS provider) makes per resource,
 * per the Service Authorization Reference.
 */
export const AWS_RIGHTS: Readonly<Record<string, ResourceRights>> = {
  // CreateBucket with tags is authorised as TagResource as well ("Creating general purpose buckets with tags":
  // https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-create-tag.html); the provider changes and lists
  // a bucket's tags through S3 Control (TagResource, UntagResource, ListTagsForResource: its calls in
  // https://github.com/getmoto/moto/pull/9504, https://github.com/localstack/localstack/pull/13435), PutBucketTagging
  // and GetBucketTagging being its fallback. Its Read (terraform-provider-aws internal/service/s3/bucket.go,
  // resourceBucketRead) fetches every sub-configuration the resource still exposes, each a Get that fails the
  // read on AccessDenied: policy, ACL, CORS, website, versioning, accelerate, request payment, logging,
  // lifecycle, replication, encryption, Object Lock, then the region (HeadBucket, as ListBucket) and the tags.
  'aws:s3/bucket:Bucket': {
    create: ['s3:CreateBucket', 's3:PutBucketTagging', 's3:TagResource'],
    update: ['s3:PutBucketTagging', 's3:TagResource', 's3:UntagResource'],
    delete: ['s3:DeleteBucket'],
    read: [
      's3:ListBucket',
      's3:GetBucketPolicy',
      's3:GetBucketAcl',
      's3:GetBucketCORS',
      's3:GetBucketWebsite',
      's3:GetBucketVersioning',
      's3:GetAccelerateConfiguration',
      's3:GetBucketRequestPayment',
      's3:GetBucketLogging',
      's3:GetLifecycleConfiguration',
      's3:GetReplicationConfiguration',
      's3:GetEncryptionConfiguration',
      's3:GetBucketObjectLockConfiguration',
      's3:ListTagsForResource',
      's3:GetBucketTagging',
    ],
    source: `${S3}; https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/s3_bucket`,
  },
  'aws:s3/bucketOwnershipControls:BucketOwnershipControls': bucketSetting(
    's3:PutBucketOwnershipControls',
    's3:GetBucketOwnershipControls',
  ),
  'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock': bucketSetting(
    's3:PutBucketPublicAccessBlock',
    's3:GetBucketPublicAccessBlock',
  ),
  'aws:s3/bucketVersioning:BucketVersioning': bucketSetting(
    's3:PutBucketVersioning',
    's3:GetBucketVersioning',
  ),
  'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration': bucketSetting(
    's3:PutEncryptionConfiguration',
    's3:GetEncryptionConfiguration',
  ),
  'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration': bucketSetting(
    's3:PutLifecycleConfiguration',
    's3:GetLifecycleConfiguration',
  ),
  // PutObjectLockConfiguration, GetObjectLockConfiguration; deleting the resource puts a configuration without
  // a default retention (Object Lock itself cannot be turned off:
  // https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-configure.html).
  'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration': bucketSetting(
    's3:PutBucketObjectLockConfiguration',
    's3:GetBucketObjectLockConfiguration',
  ),
  // Server access logging of a bucket (PutBucketLogging; deleting it puts an empty logging status).
  'aws:s3/bucketLogging:BucketLogging': bucketSetting('s3:PutBucketLogging', 's3:GetBucketLogging'),
  'aws:s3/bucketPolicy:BucketPolicy': {
    create: ['s3:PutBucketPolicy'],
    update: ['s3:PutBucketPolicy'],
    delete: ['s3:DeleteBucketPolicy'],
    read: ['s3:GetBucketPolicy'],
    source: S3,
  },
  // PutBucketReplication and DeleteBucketReplication are both authorised as s3:PutReplicationConfiguration;
  // naming the replication role in the configuration is passing it to S3: iam:PassRole on the role, with
  // iam:PassedToService s3.amazonaws.com ("Setting up permissions for live replication", Step 1:
  // https://docs.aws.amazon.com/AmazonS3/latest/userguide/setting-repl-config-perm-overview.html; the condition key:
  // https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_iam-condition-keys.html#ck_PassedToService).
  'aws:s3/bucketReplicationConfig:BucketReplicationConfig': {
    create: ['s3:PutReplicationConfiguration', 'iam:PassRole'],
    update: ['s3:PutReplicationConfiguration', 'iam:PassRole'],
    delete: ['s3:PutReplicationConfiguration'],
    read: ['s3:GetReplicationConfiguration'],
    source: `${S3}; ${IAM}`,
  },
  // A plan names the role GuardDuty assumes, which is passing it to GuardDuty: iam:PassRole with
  // iam:PassedToService malware-protection-plan.guardduty.amazonaws.com
  // (https://docs.aws.amazon.com/guardduty/latest/ug/malware-protection-s3-iam-policy-prerequisite.html). Its ID is
  // random, so the calls are judged on any plan of the account with the plan's tags.
  'aws:guardduty/malwareProtectionPlan:MalwareProtectionPlan': {
    create: ['guardduty:CreateMalwareProtectionPlan', 'guardduty:TagResource', 'iam:PassRole'],
    update: [
      'guardduty:UpdateMalwareProtectionPlan',
      'guardduty:TagResource',
      'guardduty:UntagResource',
      'iam:PassRole',
    ],
    delete: ['guardduty:DeleteMalwareProtectionPlan'],
    read: ['guardduty:GetMalwareProtectionPlan'],
    source: `${GUARDDUTY}; ${IAM}`,
  },
  // The provider's Read is HeadBucket (terraform-provider-aws internal/service/s3/directory_bucket.go Read ->
  // findBucket), a Zonal call S3 authorises only through a session ("Directory bucket permissions",
  // https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html), which the SDK opens itself (findBucket:
  // "it's the CreateSession call invoked by HeadBucket that returns NoSuchBucket"). No CI identity makes that
  // read: CI_UNREFRESHED_TYPES. CreateBucket carries the tags (Create: CreateBucketConfiguration.Tags), which S3
  // Express authorises as TagResource as well, as CloudFormation's handler lists; the resource's tags are
  // transparent (@Tags(identifierAttribute="arn")): changed and listed through S3 Control, on the bucket's ARN
  // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_control_ListTagsForResource.html).
  'aws:s3/directoryBucket:DirectoryBucket': {
    create: ['s3express:CreateBucket', 's3express:TagResource'],
    update: ['s3express:TagResource', 's3express:UntagResource'],
    delete: ['s3express:DeleteBucket'],
    read: ['s3express:CreateSession', 's3express:ListTagsForResource'],
    source: `${S3_EXPRESS}; https://docs.aws.amazon.com/AmazonS3/latest/API/API_HeadBucket.html`,
  },
  // terraform-provider-aws internal/service/iam/role.go: resourceRoleUpdate changes a description with
  // UpdateRoleDescription (UpdateRole is the session duration); resourceRoleRead reads the inline policies with
  // readRoleInlinePolicies (ListRolePolicies, then GetRolePolicy of each) and the attached ones.
  'aws:iam/role:Role': {
    create: ['iam:CreateRole', 'iam:TagRole'],
    update: [
      'iam:UpdateRole',
      'iam:UpdateRoleDescription',
      'iam:UpdateAssumeRolePolicy',
      'iam:TagRole',
      'iam:UntagRole',
    ],
    delete: ['iam:ListInstanceProfilesForRole', 'iam:DeleteRole'],
    // The provider's tagging layer reads a role's tags with ListRoleTags (`@Tags(identifierAttribute="id",
    // resourceType="Role")` on terraform-provider-aws internal/service/iam/role.go resourceRole).
    read: [
      'iam:GetRole',
      'iam:ListRolePolicies',
      'iam:GetRolePolicy',
      'iam:ListAttachedRolePolicies',
      'iam:ListRoleTags',
    ],
    source: IAM,
  },
  'aws:iam/rolePolicy:RolePolicy': {
    create: ['iam:PutRolePolicy'],
    update: ['iam:PutRolePolicy'],
    delete: ['iam:DeleteRolePolicy'],
    read: ['iam:GetRolePolicy'],
    source: IAM,
  },
  // AWS's CloudFormation handler (AWS::KMS::Key, https://github.com/aws-cloudformation/aws-cloudformation-resource-providers-kms
  // key/aws-kms-key.json "handlers", vendored in data/cfn-handlers.json) agrees but for what it does that this provider does not: DisableKey on create
  // and update (a key declared disabled; the stack never disables one), DescribeKey on delete, PutKeyPolicy on
  // every update (the Terraform provider calls it only when the policy changed: KEY_POLICY_DEMANDS).
  'aws:kms/key:Key': {
    create: ['kms:CreateKey', 'kms:TagResource', 'kms:EnableKeyRotation', 'kms:DescribeKey'],
    update: ['kms:UpdateKeyDescription', 'kms:TagResource', 'kms:UntagResource', 'kms:EnableKeyRotation'],
    delete: ['kms:ScheduleKeyDeletion'],
    read: ['kms:DescribeKey', 'kms:GetKeyPolicy', 'kms:GetKeyRotationStatus', 'kms:ListResourceTags'],
    source: `${KMS}; https://docs.aws.amazon.com/kms/latest/developerguide/tagging-permissions.html`,
  },
  // StopLogging is never needed: the trail always logs (and the prod deploy identity is denied it and
  // DeleteTrail, so no deploy can blind the audit).
  'aws:cloudtrail/trail:Trail': {
    create: [
      'cloudtrail:CreateTrail',
      'cloudtrail:AddTags',
      'cloudtrail:PutEventSelectors',
      'cloudtrail:StartLogging',
    ],
    update: [
      'cloudtrail:UpdateTrail',
      'cloudtrail:PutEventSelectors',
      'cloudtrail:AddTags',
      'cloudtrail:RemoveTags',
      'cloudtrail:StartLogging',
    ],
    delete: ['cloudtrail:DeleteTrail'],
    read: [
      'cloudtrail:DescribeTrails',
      'cloudtrail:GetTrailStatus',
      'cloudtrail:GetEventSelectors',
      'cloudtrail:GetInsightSelectors',
      'cloudtrail:ListTags',
    ],
    source: `${CLOUDTRAIL}; https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/cloudtrail`,
  },
  // A store's independent copy: CreateBackupPlan carries the plan's tags (authorised with aws:RequestTag);
  // a selection names the role AWS Backup assumes, which is passing it to AWS Backup, and every argument of it
  // replaces it (https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/backup_selection).
  // Not checked here: the plan's backup:TagResource, UntagResource and ListTags. The catalogue's recoveryPoint
  // ARN (`arn:${Partition}:${Vendor}:${Region}:*:${ResourceType}:${RecoveryPointId}`) matches every backup ARN,
  // so iam-simulate refuses any question of those actions on a plan (multiple.resource.types); the bootstrap
  // grants them with the plan's other calls (ManageStackBackupPlans), which a bootstrap test holds it to.
  'aws:backup/plan:Plan': {
    create: ['backup:CreateBackupPlan'],
    update: ['backup:UpdateBackupPlan'],
    delete: ['backup:DeleteBackupPlan'],
    read: ['backup:GetBackupPlan'],
    source: `${BACKUP}; https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources/backup_plan`,
  },
  'aws:backup/selection:Selection': {
    create: ['backup:CreateBackupSelection', 'iam:PassRole'],
    update: [],
    delete: ['backup:DeleteBackupSelection'],
    read: ['backup:GetBackupSelection'],
    source: `${BACKUP}; ${IAM}`,
  },
  'aws:kms/alias:Alias': {
    // Alias calls are authorised on the alias and on its key (the linked right below).
    create: ['kms:CreateAlias'],
    update: ['kms:UpdateAlias'],
    delete: ['kms:DeleteAlias'],
    read: ['kms:ListAliases'],
    source: `${KMS}; https://docs.aws.amazon.com/kms/latest/developerguide/alias-access.html`,
  },
};

/**
 * What an API demands of its caller beyond the IAM action of each call, per resource operation. A key with an
 * explicit policy: CreateKey runs the key policy lockout check, refusing a policy that would not let the
 * caller send a later PutKeyPolicy (MalformedPolicyDocumentException; CreateKey, Policy:
 * https://docs.aws.amazon.com/kms/latest/APIReference/API_CreateKey.html#KMS-CreateKey-request-Policy), which
 * KMS answers from the key policy and, through its account statement, the caller's IAM policies (the
 * maintainers' diagnosis in https://github.com/aws-samples/rds-snapshot-export-to-s3-pipeline/issues/8); and a
 * change of that policy is a PutKeyPolicy (Terraform provider, aws_kms_key `policy`). So both are checked as
 * kms:PutKeyPolicy on the key under its own policy. A key without one gets KMS's default policy and no check.
 * A key created with `bypassPolicyLockoutSafetyCheck` skips the check on purpose (CreateKey,
 * BypassPolicyLockoutSafetyCheck: "when you intend to prevent the principal that is making the request from
 * making a subsequent PutKeyPolicy request"): its policy is out of CI's reach, so a change of it is an
 * administrator's apply, not a right CI must hold.
 */
function keyPolicyDemands(
  resource: RenderedResource,
  operation: MissingRight['operation'],
): readonly string[] {
  if (resource.type !== 'aws:kms/key:Key' || resource.inputs['policy'] === undefined) return [];
  if (resource.inputs['bypassPolicyLockoutSafetyCheck'] === true) return [];
  return operation === 'create' || operation === 'update' ? KEY_POLICY_DEMANDS : [];
}

/** What a key with an explicit policy demands on create and update (keyPolicyDemands). */
export const KEY_POLICY_DEMANDS: readonly string[] = ['kms:PutKeyPolicy'];

/**
 * Resource types whose provider Read no CI identity makes: `pulumi up` and `pulumi preview` never refresh
 * (no `--refresh`, no `refresh: always`), and the drift check (`checkpoints-pulumi drift`, tools/pulumi/run.cjs)
 * excludes them from its `pulumi refresh --preview-only`. A directory bucket's Read opens a data session
 * (AWS_RIGHTS), which no CI role may: a session on the bucket is what S3 Express turns the key's use into object
 * reads with. A bucket that is gone still shows as drift: its encryption, policy and lifecycle resources read it
 * through the Regional (s3express-control) endpoint, which answers NoSuchBucket. Its tags are not compared
 * (docs/aws.md says so).
 */
export const CI_UNREFRESHED_TYPES: ReadonlySet<string> = new Set(['aws:s3/directoryBucket:DirectoryBucket']);

/**
 * What an API demands of its caller beyond the IAM action of each call. A directory bucket's default
 * encryption with SSE-KMS (PutBucketEncryption, on create and on every update) needs the caller to hold
 * kms:GenerateDataKey and kms:Decrypt on the key "in IAM identity-based policies and KMS key policies"
 * (PutBucketEncryption, "Directory bucket permissions":
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutBucketEncryption.html). S3 Express makes those KMS
 * calls for the caller, through its endpoint and with the bucket's encryption context, which the requests
 * carry. Deleting the resource (DeleteBucketEncryption) names no key.
 */
function apiDemands(resource: RenderedResource, operation: MissingRight['operation']): readonly string[] {
  if (operation !== 'create' && operation !== 'update') return [];
  return directoryBucketKeyOf(resource) === undefined ? [] : DIRECTORY_BUCKET_KEY_DEMANDS;
}

/**
 * What a directory bucket's SSE-KMS default encryption demands of its caller on create and update (apiDemands).
 * AWS's CloudFormation handler for the same API agrees: AWS::S3Express::DirectoryBucket lists exactly
 * kms:GenerateDataKey and kms:Decrypt among the permissions of its create and update handlers, and no other KMS
 * action (data/cfn-handlers.json; tests/rights/cloudformation.spec.ts holds the two equal). Handler permissions
 * carry no conditions, and no AWS page documents the kms:ViaService value of S3 Express: the KMS list of
 * `kms:ViaService` values does not name it
 * (https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-via-service), and the
 * S3 Express SSE-KMS pages give the actions and the encryption context (`aws:s3express:arn` = the bucket's ARN,
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-UsingKMSEncryption.html#s3-express-encryption-context)
 * but no ViaService. So the check asks with the endpoint name KMS gives every service
 * (`s3express.<region>.amazonaws.com`, s3ExpressViaService) and the documented context; a different name fails
 * the bootstrap's pinned grant closed (AccessDenied on PutBucketEncryption), never open.
 */
export const DIRECTORY_BUCKET_KEY_DEMANDS: readonly string[] = ['kms:GenerateDataKey', 'kms:Decrypt'];

/** The key a directory bucket's default encryption names (SSE-KMS), if the resource is one. */
function directoryBucketKeyOf(resource: RenderedResource): string | undefined {
  const encryption = 'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration';
  if (resource.type !== encryption || !(stringInput(resource, 'bucket') ?? '').endsWith('--x-s3'))
    return undefined;
  const rules = resource.inputs['rules'];
  for (const rule of Array.isArray(rules) ? (rules as Record<string, unknown>[]) : []) {
    const byDefault = rule['applyServerSideEncryptionByDefault'] as Record<string, unknown> | undefined;
    if (byDefault?.['sseAlgorithm'] !== 'aws:kms') continue;
    // A key the render cannot name (an unknown output) is still a key: the demand stands, on any key.
    const key = byDefault['kmsMasterKeyId'];
    return typeof key === 'string' && key.startsWith('arn:') ? key : 'unknown';
  }
  return undefined;
}

/**
 * Rights a deploy does not need of CI because the bootstrap keeps them from it on purpose. A service role
 * (one only AWS services may assume, such as a store's replication role, which perimeters exempt) gets its
 * trust when it is created (CreateRole's AssumeRolePolicyDocument,
 * https://docs.aws.amazon.com/IAM/latest/APIReference/API_CreateRole.html), and a deploy never changes it:
 * a new trust, or the role deleted and re-created under its name with another, would let another principal
 * act as the exempt role, so both are an administrator's apply (the stack releases such a role instead of
 * deleting it, which the pack cannot see: CrossGuard hands rules no retainOnDelete).
 */
function administratorOnly(resource: RenderedResource, permission: string): boolean {
  return (
    resource.type === 'aws:iam/role:Role' &&
    (permission === 'iam:UpdateAssumeRolePolicy' || permission === 'iam:DeleteRole') &&
    servicesOnly(resource.inputs['assumeRolePolicy'])
  );
}

/** Whether a trust policy's every statement names AWS services as its only principals. */
function servicesOnly(trust: unknown): boolean {
  let document: unknown = trust;
  if (typeof trust === 'string') {
    try {
      document = JSON.parse(trust) as unknown;
    } catch {
      return false;
    }
  }
  const statements = [(document as { Statement?: unknown } | undefined)?.Statement ?? []].flat();
  return (
    statements.length > 0 &&
    statements.every((statement) => {
      const principal = (statement as { Principal?: unknown }).Principal;
      return (
        typeof principal === 'object' &&
        principal !== null &&
        Object.keys(principal).length > 0 &&
        Object.keys(principal).every((key) => key === 'Service')
      );
    })
  );
}

/** Account, region and partition, as the render's ARNs spell them. */
function accountOf(resources: readonly RenderedResource[]) {
  const arn = /arn:(aws[a-z-]*):[a-z0-9-]+:([a-z0-9-]*):(\d{12}):/.exec(
    JSON.stringify(resources.map((r) => r.inputs)),
  );
  return {
    partition: arn?.[1] ?? 'aws',
    region: arn?.[2] || 'us-east-1',
    accountId: arn?.[3] ?? '000000000000',
  };
}

/** A resource's tags as request context, made once per tags object and prefix (so its text is made once too). */
function tagContext(prefix: string, tags: unknown): Record<string, string | string[]> {
  const source = (tags as Record<string, string> | undefined) ?? NO_TAGS;
  const byPrefix = memo(tagContexts, source, () => new Map());
  return memo(byPrefix, prefix, () => {
    const entries = Object.entries(source);
    return {
      ...Object.fromEntries(entries.map(([key, value]) => [`${prefix}/${key}`, value])),
      ...(prefix === 'aws:RequestTag' ? { 'aws:TagKeys': entries.map(([key]) => key) } : {}),
    };
  });
}
const NO_TAGS: Record<string, string> = {};
const tagContexts = new WeakMap<object, Map<string, Record<string, string | string[]>>>();

/** What a request looks up in the rest of the render, indexed once per rights check instead of per request. */
interface RenderIndex {
  /** The first role of each name. */
  rolesByName: ReadonlyMap<string, RenderedResource>;
  /** The first key under each parent. */
  keysByParent: ReadonlyMap<string | null, RenderedResource>;
}

function indexRender(resources: readonly RenderedResource[]): RenderIndex {
  const rolesByName = new Map<string, RenderedResource>();
  const keysByParent = new Map<string | null, RenderedResource>();
  for (const resource of resources) {
    const name = resource.type === 'aws:iam/role:Role' ? stringInput(resource, 'name') : undefined;
    if (name !== undefined && !rolesByName.has(name)) rolesByName.set(name, resource);
    if (resource.type === 'aws:kms/key:Key' && !keysByParent.has(resource.parent))
      keysByParent.set(resource.parent, resource);
  }
  return { rolesByName, keysByParent };
}

/** The service a resource's role is passed to (iam:PassedToService), by the resource that names the role. */
const PASSED_TO: Readonly<Record<string, string>> = {
  'aws:s3/bucketReplicationConfig:BucketReplicationConfig': 's3.amazonaws.com',
  'aws:guardduty/malwareProtectionPlan:MalwareProtectionPlan':
    'malware-protection-plan.guardduty.amazonaws.com',
  'aws:backup/selection:Selection': 'backup.amazonaws.com',
};

/** The request each permission of `resource` is checked as: on its ARN, with the condition keys IAM sets. */
function requests(
  resource: RenderedResource,
  permission: string,
  { rolesByName, keysByParent }: RenderIndex,
  { partition, region, accountId }: ReturnType<typeof accountOf>,
  answers: AwsAnswers,
): AwsRequest[] {
  const bucket = stringInput(resource, 'bucket');
  // A resource's own `region` input (provider 7.x) places it outside the provider's region: a replica's key.
  const resourceRegion = stringInput(resource, 'region') ?? region;
  const kmsArn = (id: string) => `arn:${partition}:kms:${resourceRegion}:${accountId}:key/${id}`;
  if (permission === 'iam:PassRole') {
    const backup = resource.type === 'aws:backup/selection:Selection';
    return [
      {
        action: permission,
        resource: stringInput(resource, backup ? 'iamRoleArn' : 'role') ?? '',
        context: { 'iam:PassedToService': PASSED_TO[resource.type] ?? 's3.amazonaws.com' },
      },
    ];
  }
  if (resource.type === 'aws:guardduty/malwareProtectionPlan:MalwareProtectionPlan') {
    const tagged =
      permission === 'guardduty:CreateMalwareProtectionPlan' ? 'aws:RequestTag' : 'aws:ResourceTag';
    return [
      {
        action: permission,
        // CreateMalwareProtectionPlan supports no resource but `*` (the plan does not exist yet).
        resource:
          tagged === 'aws:RequestTag'
            ? '*'
            : `arn:${partition}:guardduty:${region}:${accountId}:malware-protection-plan/new-plan`,
        context: {
          ...tagContext(tagged, resource.inputs['tags']),
          ...(permission === 'guardduty:TagResource'
            ? tagContext('aws:RequestTag', resource.inputs['tags'])
            : {}),
        },
      },
    ];
  }
  if (resource.type === 'aws:backup/plan:Plan' || resource.type === 'aws:backup/selection:Selection') {
    // A plan's ARN ends in its ID, known once it exists; a selection's calls are authorised on its plan.
    const tagged = permission === 'backup:CreateBackupPlan';
    return [
      {
        action: permission,
        resource: `arn:${partition}:backup:${resourceRegion}:${accountId}:backup-plan:new-plan`,
        context: tagged ? tagContext('aws:RequestTag', resource.inputs['tags']) : {},
      },
    ];
  }
  // KMS authorises nothing without the key policy: the key's own, or AWS's default.
  const keyPolicyOf = (key: RenderedResource) =>
    policyDocument(key.inputs['policy'], answers) ?? defaultKeyPolicy(partition, accountId);
  const directoryKey = permission.startsWith('kms:') ? directoryBucketKeyOf(resource) : undefined;
  if (directoryKey !== undefined && bucket !== undefined) {
    const key = keysByParent.get(resource.parent);
    return [
      {
        action: permission,
        resource: directoryKey.startsWith('arn:') ? directoryKey : kmsArn(directoryKey),
        context: {
          ...tagContext('aws:ResourceTag', key?.inputs['tags']),
          'kms:ViaService': s3ExpressViaService(region),
          [S3_EXPRESS_CONTEXT_KEY]: `arn:${partition}:s3express:${region}:${accountId}:bucket/${bucket}`,
        },
        resourcePolicy: key ? keyPolicyOf(key) : defaultKeyPolicy(partition, accountId),
      },
    ];
  }
  if (bucket !== undefined) {
    const directory = bucket.endsWith('--x-s3');
    const action = directory ? permission.replace(/^s3:/, 's3express:') : permission;
    const arn = directory
      ? `arn:${partition}:s3express:${region}:${accountId}:bucket/${bucket}`
      : `arn:${partition}:s3:::${bucket}`;
    const context: Record<string, string> =
      action === 's3express:CreateSession' ? { 's3express:SessionMode': 'ReadOnly' } : {};
    return [{ action, resource: arn, context }];
  }
  if (resource.type === 'aws:cloudtrail/trail:Trail') {
    // DescribeTrails supports no resource but `*` (an account-wide listing).
    if (permission === 'cloudtrail:DescribeTrails') return [{ action: permission, resource: '*' }];
    const context =
      permission === 'cloudtrail:CreateTrail' || permission === 'cloudtrail:AddTags'
        ? tagContext('aws:RequestTag', resource.inputs['tags'])
        : {};
    const name = stringInput(resource, 'name') ?? resource.name;
    return [
      {
        action: permission,
        resource: `arn:${partition}:cloudtrail:${region}:${accountId}:trail/${name}`,
        context,
      },
    ];
  }
  if (resource.type === 'aws:iam/role:Role' || resource.type === 'aws:iam/rolePolicy:RolePolicy') {
    const name = stringInput(resource, resource.type === 'aws:iam/role:Role' ? 'name' : 'role') ?? '';
    const role = rolesByName.get(name);
    const boundary = role && stringInput(role, 'permissionsBoundary');
    return [
      {
        action: permission,
        resource: `arn:${partition}:iam::${accountId}:role/${name}`,
        context: boundary ? { 'iam:PermissionsBoundary': boundary } : {},
      },
    ];
  }
  if (resource.type === 'aws:kms/key:Key') {
    // A key's ARN is known once it exists: every later call is on it, with its tags.
    if (permission === 'kms:CreateKey')
      return [
        { action: permission, resource: '*', context: tagContext('aws:RequestTag', resource.inputs['tags']) },
      ];
    const context = {
      ...tagContext('aws:ResourceTag', resource.inputs['tags']),
      ...(permission === 'kms:TagResource' ? tagContext('aws:RequestTag', resource.inputs['tags']) : {}),
    };
    return [
      { action: permission, resource: kmsArn('new-key'), context, resourcePolicy: keyPolicyOf(resource) },
    ];
  }
  if (resource.type === 'aws:kms/alias:Alias') {
    if (permission === 'kms:ListAliases') return [{ action: permission, resource: '*' }];
    const key = keysByParent.get(resource.parent);
    return [
      {
        action: permission,
        resource: `arn:${partition}:kms:${resourceRegion}:${accountId}:${stringInput(resource, 'name') ?? ''}`,
      },
      {
        action: permission,
        resource: kmsArn(stringInput(resource, 'targetKeyId') ?? 'key'),
        context: tagContext('aws:ResourceTag', key?.inputs['tags']),
        ...(key ? { resourcePolicy: keyPolicyOf(key) } : {}),
      },
    ];
  }
  return [];
}

/** One permission a CI identity needs for one operation on one rendered resource. */
interface CiDemand {
  who: 'deploy' | 'preview';
  resource: RenderedResource;
  operation: MissingRight['operation'];
  permission: string;
}

/**
 * What a deploy of `resources` demands of the deploy identity (every operation it may run, with what the APIs
 * demand besides), and what the drift check's refresh demands of the preview identity (a pull request's
 * preview reads less).
 */
function* ciDemands(resources: readonly RenderedResource[]): Generator<CiDemand> {
  for (const resource of resources) {
    const rights = AWS_RIGHTS[resource.type];
    if (!rights) continue;
    const refreshed = !CI_UNREFRESHED_TYPES.has(resource.type);
    for (const operation of neededOperations(resource)) {
      if (operation === 'read' && !refreshed) continue;
      const demands = [
        ...rights[operation],
        ...keyPolicyDemands(resource, operation),
        ...apiDemands(resource, operation),
      ];
      for (const permission of demands) {
        if (!administratorOnly(resource, permission))
          yield { who: 'deploy', resource, operation, permission };
      }
    }
    if (refreshed)
      for (const permission of rights.read) yield { who: 'preview', resource, operation: 'read', permission };
  }
}

/**
 * The IAM requests (action and resource) a deploy of `render` makes as the deploy identity: what
 * awsMissingRights asks IAM about, without asking. The measure of least privilege: a right the deploy role
 * holds that no such request uses is a right no deploy of that render needs.
 */
export function awsDeployRequests(render: Pick<Render, 'resources'>): { action: string; resource: string }[] {
  const renderAccount = accountOf(render.resources);
  const renderIndex = indexRender(render.resources);
  const answers = awsAnswersOf(createAnalysisContext(render, { resources: [] }));
  const asked: { action: string; resource: string }[] = [];
  for (const { who, resource, permission } of ciDemands(render.resources)) {
    if (who !== 'deploy') continue;
    for (const request of requests(resource, permission, renderIndex, renderAccount, answers)) {
      asked.push({ action: request.action, resource: request.resource });
    }
  }
  return asked;
}

export async function awsMissingRights({
  render,
  bootstrap,
  environment,
  context = createAnalysisContext(render, bootstrap),
}: RightsInput): Promise<MissingRight[]> {
  const { partition, accountId } = accountOf([...render.resources, ...bootstrap.resources]);
  const answers = awsAnswersOf(context);
  const identity = (name: string): AwsPrincipal | undefined => {
    const role = bootstrap.resources.find((r) => r.type === 'aws:iam/role:Role' && r.name === name);
    const roleName = role && stringInput(role, 'name');
    if (!roleName) return undefined;
    return {
      principal: { id: roleName, label: `ci ${name}`, kind: name === 'preview' ? 'ci-preview' : 'ci-deploy' },
      arn: `arn:${partition}:iam::${accountId}:role/${roleName}`,
      policies: [
        ...inlinePolicies(bootstrap.resources, roleName, answers),
        ...attachedPolicies(bootstrap.resources, roleName, partition, accountId, answers),
      ],
    };
  };
  // Read once: the account is in every ARN, and searching the whole render per request is quadratic.
  const renderAccount = accountOf(render.resources);
  const renderIndex = indexRender(render.resources);
  const words = storeWordsOf(render, awsAnswersOf(context).renaming);
  const missing: MissingRight[] = [];
  const check = async (
    who: string,
    principal: AwsPrincipal | undefined,
    resource: RenderedResource,
    operation: MissingRight['operation'],
    permission: string,
  ) => {
    for (const request of requests(resource, permission, renderIndex, renderAccount, awsAnswersOf(context))) {
      if (principal && (await allowed(principal, request, words.byResource.get(resource.urn), context)))
        continue;
      missing.push({
        resource: `${resource.type} ${resource.name}`,
        operation,
        permission: request.action,
        on: request.resource,
        identity: `ci ${who}`,
      });
    }
  };
  const deploy = identity(`deploy-${environment}`);
  const preview = identity('preview');
  for (const { who, resource, operation, permission } of ciDemands(render.resources)) {
    if (who === 'deploy') await check(`deploy-${environment}`, deploy, resource, operation, permission);
    else await check('preview', preview, resource, operation, permission);
  }
  return missing;
}

/**
 * The render's managed policies a role has attached (RolePolicyAttachment by role name, policy by ARN), as the
 * rights it holds: a right is only counted where the policy is in the render and readable (the access model
 * takes the opposite view of what it cannot read, for who may reach data).
 */
function attachedPolicies(
  resources: readonly RenderedResource[],
  roleName: string,
  partition: string,
  accountId: string,
  answers: AwsAnswers,
): AwsPrincipal['policies'] {
  const managed = new Map(
    resources
      .filter((r) => r.type === 'aws:iam/policy:Policy')
      .map((r) => [
        `arn:${partition}:iam::${accountId}:policy/${stringInput(r, 'name') ?? r.name}`,
        policyDocument(r.inputs['policy'], answers),
      ]),
  );
  return resources.flatMap((resource) => {
    if (resource.type !== 'aws:iam/rolePolicyAttachment:RolePolicyAttachment') return [];
    if (stringInput(resource, 'role') !== roleName) return [];
    const arn = stringInput(resource, 'policyArn');
    const policy = arn === undefined ? undefined : managed.get(arn);
    return policy ? [{ name: `attachment ${resource.name} ${arn}`, policy }] : [];
  });
}
