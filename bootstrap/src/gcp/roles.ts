import type { Repository } from '../config';

/**
 * Project roles of the preview service account: what a refresh of the GCP stack reads, no object data and
 * no write. Each is the narrowest predefined role that holds its reads.
 */
export const GCP_PREVIEW_ROLES = [
  // Bucket metadata (location, versioning, lifecycle, encryption), without objects or IAM policies.
  'roles/storage.bucketViewer',
  // Key ring and crypto key metadata, without any encrypt or decrypt permission.
  'roles/cloudkms.viewer',
  // The stack's writer and reader service accounts.
  'roles/iam.serviceAccountViewer',
  // The IAM policies the stack sets on its buckets, keys and service accounts: no predefined role
  // narrower than this one reads them without being able to change them.
  'roles/iam.securityReviewer',
] as const;

/**
 * Project roles of a deploy service account. Granted on the stack's project because creating a bucket,
 * a key ring or a service account is authorised on the project (the resource does not exist yet), and
 * IAM Conditions cannot narrow service accounts by name. None of them can read checkpoints through KMS.
 */
export const GCP_DEPLOY_ROLES = [
  // Buckets and their IAM policies (the stack grants its writer and reader on the bucket).
  'roles/storage.admin',
  // Key rings, keys and their IAM policies (the stack lets the storage service agent use its key);
  // no encrypt or decrypt.
  'roles/cloudkms.admin',
  // The stack's writer and reader service accounts and who may act as them.
  'roles/iam.serviceAccountAdmin',
] as const;

/** What lets a federated GitHub token act as a service account. */
export const WORKLOAD_IDENTITY_USER = 'roles/iam.workloadIdentityUser';

/** Keeps the token's `sub` and `repository` claims; `google.subject` is what principal:// identifiers match. */
export const GITHUB_ATTRIBUTE_MAPPING = {
  'google.subject': 'assertion.sub',
  'attribute.repository': 'assertion.repository',
};

/** Tokens of any other repository are refused by the provider itself, before any binding is looked at. */
export function repositoryCondition(repository: Repository): string {
  return `assertion.repository == '${repository.fullName}'`;
}

/**
 * One federated subject of the pool, e.g. `repo:acme/checkpoint-storage:pull_request`: narrower than a
 * principalSet on the repository attribute, which would let any workflow of the repository in.
 */
export function federatedPrincipal(poolName: string, subject: string): string {
  return `principal://iam.googleapis.com/${poolName}/subject/${subject}`;
}

/**
 * The audience `google-github-actions/auth` requests by default: the provider's full resource URL, which
 * is the default of a provider without allowed audiences too; stated so that it shows and is tested.
 */
export function providerAudience(poolName: string, providerId: string): string {
  return `https://iam.googleapis.com/${poolName}/providers/${providerId}`;
}
