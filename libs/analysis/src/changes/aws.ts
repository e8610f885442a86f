import type { CloudChangeRules, ReplacingInput } from './rules';

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

export const awsChangeRules: CloudChangeRules = {
  cloud: 'aws',
  types: {
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
  },
};
