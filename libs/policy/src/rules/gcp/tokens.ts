import { COMPONENT_TYPES } from '@checkpoints/render';
/** Type tokens of the GCP resources the rules read (as `__pulumiType` spells them in @pulumi/gcp 9.x). */
export const GCS_BUCKET = 'gcp:storage/bucket:Bucket';
export const GCS_BUCKET_OBJECT = 'gcp:storage/bucketObject:BucketObject';
export const GCS_HMAC_KEY = 'gcp:storage/hmacKey:HmacKey';
export const SERVICE_ACCOUNT_KEY = 'gcp:serviceaccount/key:Key';
export const KMS_CRYPTO_KEY = 'gcp:kms/cryptoKey:CryptoKey';

/** Legacy (fine-grained) access control lists on buckets and objects. */
export const GCS_ACL_TYPES: readonly string[] = [
  'gcp:storage/bucketACL:BucketACL',
  'gcp:storage/bucketAccessControl:BucketAccessControl',
  'gcp:storage/defaultObjectACL:DefaultObjectACL',
  'gcp:storage/defaultObjectAccessControl:DefaultObjectAccessControl',
  'gcp:storage/objectACL:ObjectACL',
  'gcp:storage/objectAccessControl:ObjectAccessControl',
];

export const SECONDS_PER_DAY = 86_400;

export const KMS_KEY_RING = 'gcp:kms/keyRing:KeyRing';
export const KMS_CRYPTO_KEY_IAM_MEMBER = 'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember';
export const PROJECT_AUDIT_CONFIG = 'gcp:projects/iAMAuditConfig:IAMAuditConfig';
/** The store component of stacks/gcp-gcs: its inputs carry the spec the stack rules judge against. */
export const GCP_STORE_COMPONENT = COMPONENT_TYPES.store.gcp;
