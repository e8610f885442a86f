/**
 * GCP IAM resources the least-privilege rules read, and the grants each of them makes. Type tokens as
 * `__pulumiType` spells them in @pulumi/gcp 9.x (note the mixed `iAM`/`IAM`/`Iam` casing).
 *
 * Scope: everywhere a grant reaches a store's bucket, its key or the identities that use them: the resource
 * hierarchy a bucket inherits from (organization, folder, project), buckets and their managed folders,
 * service accounts, Cloud KMS keys and key rings, and workload identity pools.
 */
import { asJson } from '../define';
import { read, readList, UNKNOWN } from '../inputs';

/** One principal per resource: `member` and `role`. */
export const IAM_MEMBER_TYPES: readonly string[] = [
  'gcp:organizations/iAMMember:IAMMember',
  'gcp:folder/iAMMember:IAMMember',
  'gcp:projects/iAMMember:IAMMember',
  'gcp:storage/bucketIAMMember:BucketIAMMember',
  'gcp:storage/managedFolderIamMember:ManagedFolderIamMember',
  'gcp:serviceaccount/iAMMember:IAMMember',
  'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember',
  'gcp:kms/keyRingIAMMember:KeyRingIAMMember',
  'gcp:iam/workloadIdentityPoolIamMember:WorkloadIdentityPoolIamMember',
];

/** Every principal of one role: `members` and `role`. */
export const IAM_BINDING_TYPES: readonly string[] = [
  'gcp:organizations/iAMBinding:IAMBinding',
  'gcp:folder/iAMBinding:IAMBinding',
  'gcp:projects/iAMBinding:IAMBinding',
  'gcp:storage/bucketIAMBinding:BucketIAMBinding',
  'gcp:storage/managedFolderIamBinding:ManagedFolderIamBinding',
  'gcp:serviceaccount/iAMBinding:IAMBinding',
  'gcp:kms/cryptoKeyIAMBinding:CryptoKeyIAMBinding',
  'gcp:kms/keyRingIAMBinding:KeyRingIAMBinding',
  'gcp:iam/workloadIdentityPoolIamBinding:WorkloadIdentityPoolIamBinding',
];

/** The whole policy as a JSON document: `policyData` = `{ "bindings": [{ "role", "members" }] }`. */
export const IAM_POLICY_TYPES: readonly string[] = [
  'gcp:organizations/iAMPolicy:IAMPolicy',
  'gcp:folder/iAMPolicy:IAMPolicy',
  'gcp:projects/iAMPolicy:IAMPolicy',
  'gcp:storage/bucketIAMPolicy:BucketIAMPolicy',
  'gcp:storage/managedFolderIamPolicy:ManagedFolderIamPolicy',
  'gcp:serviceaccount/iAMPolicy:IAMPolicy',
  'gcp:kms/cryptoKeyIAMPolicy:CryptoKeyIAMPolicy',
  'gcp:kms/keyRingIAMPolicy:KeyRingIAMPolicy',
  'gcp:iam/workloadIdentityPoolIamPolicy:WorkloadIdentityPoolIamPolicy',
];

export const GCP_IAM_TYPES: readonly string[] = [
  ...IAM_MEMBER_TYPES,
  ...IAM_BINDING_TYPES,
  ...IAM_POLICY_TYPES,
];

/** IAM on a bucket or one of its managed folders: what reaches a store's objects and nothing else. */
export const GCS_BUCKET_IAM_TYPES: readonly string[] = GCP_IAM_TYPES.filter((type) =>
  /^gcp:storage\/(bucket|managedFolder)/.test(type),
);

/** One role and its principals; either may be UNKNOWN during preview (checked again at `pulumi up`). */
export interface Grant {
  role: unknown;
  members: unknown[] | typeof UNKNOWN;
}

/** The grants an IAM resource makes; none when its policy document is not known yet. */
export function grantsOf(type: string, props: Record<string, unknown>): Grant[] {
  if (IAM_MEMBER_TYPES.includes(type)) {
    return [{ role: read(props, 'role'), members: [read(props, 'member')] }];
  }
  if (IAM_BINDING_TYPES.includes(type)) {
    return [{ role: read(props, 'role'), members: readList(props, 'members') ?? [] }];
  }
  if (IAM_POLICY_TYPES.includes(type)) {
    const policyData = read(props, 'policyData');
    if (policyData === UNKNOWN) return [];
    const bindings = readList(asJson(policyData), 'bindings');
    if (bindings === UNKNOWN || bindings === undefined) return [];
    return bindings.map((binding) => ({
      role: read(binding, 'role'),
      members: readList(binding, 'members') ?? [],
    }));
  }
  return [];
}

/** Principals that stand for anyone: on the internet, or with any Google account. */
export const PUBLIC_MEMBERS: readonly string[] = [
  'allUsers',
  'allAuthenticatedUsers',
  'principalSet://goog/public:all',
];

export function isPublicMember(member: unknown): member is string {
  return (
    typeof member === 'string' &&
    PUBLIC_MEMBERS.some((publicMember) => publicMember.toLowerCase() === member.trim().toLowerCase())
  );
}
