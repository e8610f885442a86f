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
 * What a refresh of the stack reads that no predefined role holds without object data: its Anywhere Caches
 * (https://cloud.google.com/storage/docs/anywhere-cache#permissions) and its buckets' IP filters, read from
 * CI's runners outside the stores' networks: storage.buckets.getIpFilter reads a filter
 * (https://cloud.google.com/storage/docs/access-control/iam-permissions), storage.buckets.exemptFromIpFilter
 * lets bucket metadata calls through it and never object calls
 * (https://cloud.google.com/storage/docs/bypass-ip-filter: it exists in custom roles only). The role ID stays
 * the one the role was created with, so the grant is updated in place.
 */
export const GCP_PREVIEW_CUSTOM_ROLE: GcpCustomRole = {
  roleId: 'checkpointsCacheViewer',
  title: 'Checkpoint store caches and network filters viewer',
  description:
    'Read the Anywhere Caches and bucket IP filters of the checkpoint stores (refresh and drift), from outside their networks',
  permissions: [
    'storage.anywhereCaches.get',
    'storage.anywhereCaches.list',
    'storage.buckets.exemptFromIpFilter',
    'storage.buckets.getIpFilter',
  ],
};

/**
 * Predefined project roles of a deploy service account: buckets and their IAM policies (the stack grants
 * its writer and reader on the bucket). Granted on the stack's project because creating a bucket is
 * authorised on the project. Its object permissions and, in prod, bucket deletion are taken away again by
 * the deny policy of `gcpCiDenyRules`.
 */
export const GCP_DEPLOY_ROLES = ['roles/storage.admin'] as const;

export interface GcpCustomRole {
  roleId: string;
  title: string;
  description: string;
  permissions: readonly string[];
}

/**
 * Custom project roles of a deploy service account, in place of roles/iam.serviceAccountAdmin and
 * roles/cloudkms.admin: serviceAccountAdmin holds iam.serviceAccounts.setIamPolicy on every service
 * account of the project (a deploy account could make itself a token creator on the store's writer),
 * cloudkms.admin holds cryptoKeyVersions.destroy. Permissions from
 * https://cloud.google.com/iam/docs/service-account-permissions and
 * https://cloud.google.com/kms/docs/reference/permissions-and-roles; the stack sets no IAM policy on a
 * service account, so none is needed.
 */
export function gcpDeployCustomRoles(environment: string): GcpCustomRole[] {
  return [
    {
      // roles/storage.admin holds storage.buckets.setIpFilter; the exemption is in no predefined role.
      roleId: 'checkpointsBucketPerimeter',
      title: 'Checkpoint store bucket perimeter',
      description:
        "Configure the checkpoint stores' buckets from outside their IP filters (bucket metadata only, never objects)",
      permissions: ['storage.buckets.exemptFromIpFilter'],
    },
    {
      roleId: 'checkpointsStoreIdentities',
      title: 'Checkpoint store identities',
      description:
        'Create, update and delete the writer and reader service accounts of the checkpoint stores; never act as them or change who may',
      permissions: [
        'iam.serviceAccounts.create',
        'iam.serviceAccounts.delete',
        'iam.serviceAccounts.get',
        'iam.serviceAccounts.list',
        'iam.serviceAccounts.update',
      ],
    },
    {
      roleId: 'checkpointsStoreKeys',
      title: 'Checkpoint store keys',
      description: `Key rings and keys of the checkpoint stores and who may use them; never encrypt or decrypt${environment === 'prod' ? ', never destroy a key version (break-glass)' : ''}`,
      permissions: [
        'cloudkms.cryptoKeys.create',
        'cloudkms.cryptoKeys.get',
        'cloudkms.cryptoKeys.getIamPolicy',
        'cloudkms.cryptoKeys.list',
        'cloudkms.cryptoKeys.setIamPolicy',
        'cloudkms.cryptoKeys.update',
        'cloudkms.cryptoKeyVersions.get',
        'cloudkms.cryptoKeyVersions.list',
        ...(environment === 'prod' ? [] : ['cloudkms.cryptoKeyVersions.destroy']),
        'cloudkms.keyRings.create',
        'cloudkms.keyRings.get',
        'cloudkms.keyRings.getIamPolicy',
        'cloudkms.keyRings.list',
        'cloudkms.locations.get',
        'cloudkms.locations.list',
      ],
    },
  ];
}

/** Checkpoint data: what no CI identity may do, whatever it is granted (it can grant bucket roles). */
const DATA_PERMISSIONS = [
  'storage.googleapis.com/objects.get',
  'storage.googleapis.com/objects.create',
  'storage.googleapis.com/objects.delete',
  'storage.googleapis.com/objects.update',
  'storage.googleapis.com/objects.restore',
  // HMAC keys sign requests as a service account outside IAM's per-request checks.
  'storage.googleapis.com/hmacKeys.create',
];

/**
 * The deploy account sets the IAM policy of the keys it creates (the Cloud Storage service agent's grant),
 * so it could bind itself, or anyone, cloudkms.admin on them. What that role would add is taken away from
 * every principal by the deny policy: disabling a key version (cryptoKeyVersions.update) everywhere, and
 * in prod destroying one, which is break-glass. Deny overrides every allow, a binding made later included.
 * https://cloud.google.com/iam/docs/deny-overview, https://cloud.google.com/iam/docs/deny-permissions-support,
 * https://cloud.google.com/kms/docs/reference/permissions-and-roles
 */
const EVERYONE = 'principalSet://goog/public:all';
const KEY_VERSION_GUARDS = ['cloudkms.googleapis.com/cryptoKeyVersions.update'];
const KEY_VERSION_DESTROY = 'cloudkms.googleapis.com/cryptoKeyVersions.destroy';

/**
 * The deny rules of a stack project's deny policy (IAM v2 permission and principal formats): they
 * override every allow, the bucket bindings a deploy account could add included, and no CI account can
 * lift them (deny policies need roles/iam.denyAdmin). https://cloud.google.com/iam/docs/deny-overview
 */
export function gcpCiDenyRules(
  ciPrincipals: readonly string[],
  deployPrincipal: string,
  environment: string,
): { description: string; deniedPrincipals: string[]; deniedPermissions: string[] }[] {
  return [
    {
      description: 'CI never touches checkpoint data',
      deniedPrincipals: [...ciPrincipals],
      deniedPermissions: DATA_PERMISSIONS,
    },
    ...(environment === 'prod'
      ? [
          {
            description: 'In prod, deleting a bucket is break-glass, for an administrator',
            deniedPrincipals: [deployPrincipal],
            deniedPermissions: ['storage.googleapis.com/buckets.delete'],
          },
        ]
      : []),
    {
      description: `Nobody disables${environment === 'prod' ? ' or destroys' : ''} a store key version: break-glass lifts this deny (roles/iam.denyAdmin)`,
      deniedPrincipals: [EVERYONE],
      deniedPermissions:
        environment === 'prod' ? [...KEY_VERSION_GUARDS, KEY_VERSION_DESTROY] : [...KEY_VERSION_GUARDS],
    },
  ];
}

/** A service account as deny policies name it. */
export function denyPrincipal(email: string): string {
  return `principal://iam.googleapis.com/projects/-/serviceAccounts/${email}`;
}

/** What lets a federated GitHub token act as a service account. */
export const WORKLOAD_IDENTITY_USER = 'roles/iam.workloadIdentityUser';

/** Keeps the token's `sub` and `repository` claims; `google.subject` is what principal:// identifiers match. */
export const GITHUB_ATTRIBUTE_MAPPING = {
  'google.subject': 'assertion.sub',
  'attribute.repository': 'assertion.repository',
};

/**
 * Tokens of any other repository are refused by the provider itself, before any binding is looked at; with
 * the repository's and its owner's immutable IDs, so is a repository that takes the name after a rename
 * or a transfer (https://cloud.google.com/iam/docs/workload-identity-federation-with-deployment-pipelines#github-actions:
 * "assertion.repository_owner_id" in attribute conditions; the claims: https://docs.github.com/en/actions/reference/security/oidc).
 */
export function repositoryCondition(
  repository: Repository,
  ids?: { repository: string; owner: string },
): string {
  const name = `assertion.repository == '${repository.fullName}'`;
  return ids
    ? `${name} && assertion.repository_id == '${ids.repository}' && assertion.repository_owner_id == '${ids.owner}'`
    : name;
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

/**
 * Data Access audit logs for Cloud Storage in a stack project: reads (DATA_READ) and writes (DATA_WRITE)
 * of objects; Admin Activity is always on. Set by the bootstrap, never by a stack: an audit config is part
 * of the project's IAM policy, and changing it takes resourcemanager.projects.setIamPolicy, with which a
 * deploy account could grant itself any role on the project.
 * https://cloud.google.com/logging/docs/audit/configure-data-access, https://cloud.google.com/storage/docs/audit-logging
 */
export const GCP_AUDITED_SERVICE = 'storage.googleapis.com';
export const GCP_AUDIT_LOG_TYPES = ['DATA_READ', 'DATA_WRITE'] as const;

export function gcpAuditLogConfigs(
  exemptedMembers: readonly string[],
): { logType: string; exemptedMembers?: string[] }[] {
  return GCP_AUDIT_LOG_TYPES.map((logType) => ({
    logType,
    ...(exemptedMembers.length > 0 ? { exemptedMembers: [...exemptedMembers] } : {}),
  }));
}
