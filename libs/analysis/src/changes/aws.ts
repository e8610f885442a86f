import type { CloudChangeRules, RefusedUpdate, ReplacingInput, ResourceTypeRules } from './rules';

// @pulumi/aws bridges the Terraform AWS provider: an argument the provider documents as "Forces new resource"
// (or whose schema has ForceNew / RequiresReplace) is replaced, not updated, when it changes.
const TF = 'https://registry.terraform.io/providers/hashicorp/aws/latest/docs/resources';

/** Every S3 bucket sub-resource is keyed by its bucket: pointing it at another bucket replaces it. */
function bucketKeyed(page: string): ReplacingInput[] {
  return [
    { input: 'bucket', source: `${TF}/${page}: bucket - (Required, Forces new resource)` },
    {
      input: 'expectedBucketOwner',
      source: `${TF}/${page}: expected_bucket_owner - (Optional, Forces new resource)`,
    },
  ];
}

const ENHANCED_REGION =
  'https://registry.terraform.io/providers/hashicorp/aws/latest/docs/guides/enhanced-region-support';

/**
 * A resource's own `region` (provider 7.x bridges Terraform AWS provider 6, whose "Enhanced Region Support"
 * says "Changing the value of `region` will force resource replacement"). A store's replica
 * bucket keeps its name in the new region, and S3 bucket names are unique across all regions of a partition, so
 * the create of the new one collides with the old one (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html).
 */
const REGION: ReplacingInput = {
  input: 'region',
  source: `${ENHANCED_REGION}: "Changing the value of region will force resource replacement"`,
  advice:
    'The new bucket takes the old one\'s name, which S3 keeps while the old bucket exists: the create collides with it (BucketAlreadyExists; protected, `pulumi up` stops first). To move a replica: remove recovery.replicaRegion and deploy (the old replica is released, and stays as a copy), empty and delete the released replica bucket once the new region is agreed, then set the new replicaRegion and deploy; copy the existing checkpoints into the new replica with S3 Batch Replication (docs/operations.md, "Move a replica to another region").',
};

/** Whether an encryption configuration belongs to a directory bucket (its name ends `--x-s3`). */
function onDirectoryBucket(inputs: Readonly<Record<string, unknown>>): boolean {
  return String(inputs['bucket'] ?? '').endsWith('--x-s3');
}

function kmsKeyOf(inputs: Readonly<Record<string, unknown>>): string | undefined {
  const [rule] = Array.isArray(inputs['rules']) ? (inputs['rules'] as Record<string, unknown>[]) : [];
  const byDefault = rule?.['applyServerSideEncryptionByDefault'] as Record<string, unknown> | undefined;
  const key = byDefault?.['kmsMasterKeyId'];
  return typeof key === 'string' ? key : undefined;
}

const DIRECTORY_BUCKET_KEY: RefusedUpdate = {
  inputs: ['rules'],
  outcome: 'refused',
  applies: (before, after) =>
    onDirectoryBucket(after) && kmsKeyOf(before) !== undefined && kmsKeyOf(before) !== kmsKeyOf(after),
  message:
    'a directory bucket keeps the customer-managed key it was given for its lifetime: S3 refuses PutBucketEncryption with another key, after the new key was already created. Keep keyGeneration (and encryption) as deployed; to encrypt under a new key, add a new high-throughput store, copy the checkpoints into it, then retire this one (docs/operations.md, "Migrate a store to another tier or location")',
  source:
    'https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-UsingKMSEncryption.html: "Your SSE-KMS configuration can only support 1 customer managed key per directory bucket for the lifetime of the bucket ... you can\'t override the customer managed key for the bucket\'s SSE-KMS configuration"',
};

/** Every regional type also replaces on its own `region` (IAM is global: it has none). */
function regional(types: Record<string, ResourceTypeRules>): Record<string, ResourceTypeRules> {
  return Object.fromEntries(
    Object.entries(types).map(([type, rules]) => [
      type,
      type.startsWith('aws:iam/') ? rules : { ...rules, replacedBy: [...rules.replacedBy, REGION] },
    ]),
  );
}

export const awsChangeRules: CloudChangeRules = {
  cloud: 'aws',
  // The default provider's settings (https://www.pulumi.com/registry/packages/aws/installation-configuration/):
  // its region places every resource without a region of its own; the account follows from the credentials,
  // which the stack config pins through these keys.
  placement: [
    {
      key: 'aws:region',
      scope: 'region',
      source: 'aws:region places every regional resource without its own region',
    },
    ...['aws:allowedAccountIds', 'aws:profile', 'aws:assumeRoles'].map((key) => ({
      key,
      scope: 'account' as const,
      source: `${key} decides the account the provider deploys to; no AWS resource moves between accounts`,
    })),
  ],
  global: ['aws:iam/'],
  types: regional({
    'aws:s3/bucket:Bucket': {
      holds: 'data',
      replacedBy: [
        {
          input: 'bucket',
          source: `${TF}/s3_bucket: bucket - (Optional, Forces new resource) Name of the bucket`,
        },
        { input: 'bucketPrefix', source: `${TF}/s3_bucket: bucket_prefix - (Optional, Forces new resource)` },
        {
          input: 'objectLockEnabled',
          source: `${TF}/s3_bucket: object_lock_enabled - (Optional, Forces new resource)`,
        },
      ],
    },
    'aws:s3/directoryBucket:DirectoryBucket': {
      holds: 'data',
      // The directory bucket resource marks every identifying attribute RequiresReplace: a bucket's name
      // carries its zone (bucket-base--zone-id--x-s3), and S3 Express One Zone cannot move a bucket.
      replacedBy: ['bucket', 'location', 'dataRedundancy', 'type'].map((input) => ({
        input,
        source: `${TF}/s3_directory_bucket: ${input} is RequiresReplace in the provider schema (internal/service/s3/directory_bucket.go); https://docs.aws.amazon.com/AmazonS3/latest/userguide/directory-bucket-naming-rules.html: the name includes the zone ID`,
      })),
    },
    'aws:s3/bucketVersioning:BucketVersioning': {
      holds: 'safety',
      replacedBy: bucketKeyed('s3_bucket_versioning'),
    },
    'aws:s3/bucketPolicy:BucketPolicy': {
      holds: 'safety',
      replacedBy: [
        { input: 'bucket', source: `${TF}/s3_bucket_policy: bucket - (Required) ForceNew in the schema` },
      ],
    },
    'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock': {
      holds: 'safety',
      replacedBy: bucketKeyed('s3_bucket_public_access_block'),
    },
    'aws:s3/bucketOwnershipControls:BucketOwnershipControls': {
      holds: 'safety',
      replacedBy: [
        {
          input: 'bucket',
          source: `${TF}/s3_bucket_ownership_controls: bucket - (Required) ForceNew in the schema`,
        },
      ],
    },
    'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration': {
      holds: 'safety',
      replacedBy: bucketKeyed('s3_bucket_server_side_encryption_configuration'),
      refusedUpdates: [DIRECTORY_BUCKET_KEY],
    },
    'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration': {
      holds: 'safety',
      replacedBy: bucketKeyed('s3_bucket_lifecycle_configuration'),
    },
    'aws:kms/key:Key': {
      holds: 'key',
      holdsSource:
        'https://docs.aws.amazon.com/kms/latest/developerguide/deleting-keys.html: after a KMS key is deleted, data encrypted under it cannot be decrypted',
      replacedBy: ['keyUsage', 'customerMasterKeySpec', 'multiRegion', 'customKeyStoreId', 'xksKeyId'].map(
        (input) => ({
          input,
          source: `${TF}/kms_key: ${input} is ForceNew in the provider schema (internal/service/kms/key.go); a KMS key's usage, spec and key store are fixed at creation (https://docs.aws.amazon.com/kms/latest/developerguide/create-keys.html)`,
        }),
      ),
    },
    'aws:kms/alias:Alias': {
      replacedBy: [
        { input: 'name', source: `${TF}/kms_alias: name is ForceNew in the provider schema` },
        { input: 'namePrefix', source: `${TF}/kms_alias: name_prefix is ForceNew in the provider schema` },
      ],
    },
    // The stack trail: replacing it (a new name) leaves the stores unrecorded between the delete and the create.
    'aws:cloudtrail/trail:Trail': {
      replacedBy: [{ input: 'name', source: `${TF}/cloudtrail: name - (Required, Forces new resource)` }],
    },
    'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration': {
      holds: 'safety',
      // Enables Object Lock on an existing bucket in place, where the bucket's objectLockEnabled replaces it.
      replacedBy: bucketKeyed('s3_bucket_object_lock_configuration'),
    },
    'aws:iam/role:Role': {
      replacedBy: [
        { input: 'name', source: `${TF}/iam_role: name - (Optional, Forces new resource)` },
        { input: 'namePrefix', source: `${TF}/iam_role: name_prefix - (Optional, Forces new resource)` },
        { input: 'path', source: `${TF}/iam_role: path is ForceNew in the provider schema` },
      ],
    },
    'aws:iam/rolePolicy:RolePolicy': {
      replacedBy: [
        { input: 'name', source: `${TF}/iam_role_policy: name is ForceNew in the provider schema` },
        { input: 'role', source: `${TF}/iam_role_policy: role is ForceNew in the provider schema` },
      ],
    },
  }),
};
