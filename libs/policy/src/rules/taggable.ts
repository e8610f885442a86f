/** Resource types that take tags or labels, and the input that holds them. */
export const TAGGABLE: Readonly<Record<string, 'tags' | 'labels'>> = {
  'aws:s3/bucket:Bucket': 'tags',
  'aws:s3/directoryBucket:DirectoryBucket': 'tags',
  'aws:kms/key:Key': 'tags',
  'aws:iam/role:Role': 'tags',
  'aws:iam/policy:Policy': 'tags',
  'aws:iam/openIdConnectProvider:OpenIdConnectProvider': 'tags',
  'gcp:storage/bucket:Bucket': 'labels',
  'gcp:kms/cryptoKey:CryptoKey': 'labels',
  'azure-native:resources:ResourceGroup': 'tags',
  'azure-native:storage:StorageAccount': 'tags',
  'azure-native:keyvault:Vault': 'tags',
  'azure-native:keyvault:Key': 'tags',
  'azure-native:managedidentity:UserAssignedIdentity': 'tags',
};

/** Resources that hold checkpoints or the keys to read them: never lost to a deploy in prod. */
export const DATA_RESOURCES: readonly string[] = [
  'aws:s3/bucket:Bucket',
  'aws:s3/directoryBucket:DirectoryBucket',
  'aws:kms/key:Key',
  'gcp:storage/bucket:Bucket',
  'gcp:kms/cryptoKey:CryptoKey',
  'gcp:kms/keyRing:KeyRing',
  'azure-native:storage:StorageAccount',
  'azure-native:keyvault:Vault',
  'azure-native:keyvault:Key',
];

/** The tags every taggable resource carries (README, Security baseline); `checkpoint-store` only on a store's resources. */
export const REQUIRED_TAGS: readonly string[] = [
  'owner',
  'cost-center',
  'environment',
  'data-classification',
  'managed-by',
  'pulumi-project',
  'pulumi-stack',
];
