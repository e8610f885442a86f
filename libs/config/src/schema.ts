import { z } from 'zod';
import { DATA_CLASSIFICATIONS, ENCRYPTIONS, ENVIRONMENTS, STORE_NAME_PATTERN, TIERS } from './spec';

/** A store renamed more often than this is better migrated to a new store. */
export const MAX_FORMER_NAMES = 10;

/** Upper bound for any age in days: 100 years, far beyond any checkpoint's useful life. */
export const MAX_DAYS = 36_500;

const days = (min: number, max = MAX_DAYS) => z.number().int().min(min).max(max);

/** Longest purge bound a spec may state for previous versions: a year, so every promise stays checkable. */
export const MAX_NONCURRENT_DAYS = 365;
/** Most prefixes a store may keep or expire: Azure takes at most 10 prefixMatch entries per rule. */
export const MAX_RETENTION_PREFIXES = 10;
/** A folder-like key prefix every cloud's lifecycle filter takes as is, e.g. `releases/`. */
export const RETENTION_PREFIX_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9._-]+)*\/$/;
const prefixes = z.array(z.string().max(256).regex(RETENTION_PREFIX_PATTERN)).max(MAX_RETENTION_PREFIXES);
const principals = z.array(z.string().min(1)).max(100);

/** Every key of the retention block; each is optional in the file and defaulted after validation. */
export const retentionSchema = z.strictObject({
  keepNoncurrentVersions: z.number().int().min(0).max(100).optional(),
  noncurrentExpireDays: days(0, MAX_NONCURRENT_DAYS).optional(),
  coolAfterDays: days(0).optional(),
  archiveAfterDays: days(0).optional(),
  expireAfterDays: days(0).optional(),
  abortIncompleteUploadDays: days(0, 365).optional(),
  softDeleteDays: days(0, 365).optional(),
  keptPrefixes: prefixes.optional(),
  expirePrefixes: prefixes.optional(),
});

/** Most GiB one checkpoint may state: a pebibyte, far beyond any model's checkpoint. */
export const MAX_CHECKPOINT_GIB = 1_048_576;
/** Longest interval or overwrite period in hours: a year. */
export const MAX_WORKLOAD_HOURS = 8_760;
/** Most checkpoints a job may keep before deleting the oldest. */
export const MAX_KEEP_LAST = 10_000;

/** The training job's checkpoint workload, for the storage and cost projection; each key optional. */
export const workloadSchema = z.strictObject({
  checkpointSizeGiB: z.number().positive().max(MAX_CHECKPOINT_GIB).optional(),
  intervalHours: z.number().int().min(1).max(MAX_WORKLOAD_HOURS).optional(),
  keepLast: z.number().int().min(1).max(MAX_KEEP_LAST).optional(),
  latestOverwriteHours: z.number().int().min(0).max(MAX_WORKLOAD_HOURS).optional(),
});

export const accessSchema = z.strictObject({
  writers: principals.optional(),
  readers: principals.optional(),
});

/** `network.privateDnsZones` when the platform's Azure Policy creates the endpoints' DNS zone groups. */
export const PRIVATE_DNS_MANAGED_BY_POLICY = 'managed-by-policy';

/** Most entries of one network allow-list; AWS bucket policies (20 KB) and Azure network rules (200) bound it. */
export const MAX_NETWORK_ENTRIES = 100;
const networkList = z.array(z.string().min(1)).max(MAX_NETWORK_ENTRIES);

export const networkSchema = z.strictObject({
  public: z.boolean().optional(),
  cidrs: z
    .array(z.union([z.cidrv4(), z.cidrv6()]))
    .max(MAX_NETWORK_ENTRIES)
    .optional(),
  vpcEndpoints: networkList.optional(),
  vpcs: networkList.optional(),
  networks: networkList.optional(),
  subnets: networkList.optional(),
  privateEndpointSubnet: z.string().min(1).optional(),
  privateDnsZones: z
    .union([
      z.literal(PRIVATE_DNS_MANAGED_BY_POLICY),
      z.strictObject({ blob: z.string().min(1), dfs: z.string().min(1) }),
    ])
    .optional(),
});

/** Longest retention lock: 10 years, beyond which a lock is a legal hold, not a checkpoint policy. */
export const MAX_RETENTION_LOCK_DAYS = 3_650;

export const retentionLockSchema = z.strictObject({
  prefix: z.string().max(256).regex(RETENTION_PREFIX_PATTERN).optional(),
  days: days(1, MAX_RETENTION_LOCK_DAYS),
});

export const recoverySchema = z.strictObject({
  replicaRegion: z.string().min(1).optional(),
  turboReplication: z.boolean().optional(),
  readableReplica: z.boolean().optional(),
  retentionLock: retentionLockSchema.optional(),
});

/** Highest key generation: a store re-keyed this often is better migrated to a new store. */
export const MAX_KEY_GENERATION = 99;

export const storeSchema = z.strictObject({
  name: z.string().regex(STORE_NAME_PATTERN),
  formerNames: z.array(z.string().regex(STORE_NAME_PATTERN)).max(MAX_FORMER_NAMES).optional(),
  dataClassification: z.enum(DATA_CLASSIFICATIONS),
  tier: z.enum(TIERS).optional(),
  zone: z.string().min(1).optional(),
  location: z.string().min(1).optional(),
  encryption: z.enum(ENCRYPTIONS).optional(),
  protect: z.boolean().optional(),
  retention: retentionSchema.optional(),
  access: accessSchema.optional(),
  workload: workloadSchema.optional(),
  audit: z.boolean().optional(),
  network: networkSchema.optional(),
  recovery: recoverySchema.optional(),
  keyGeneration: z.number().int().min(1).max(MAX_KEY_GENERATION).optional(),
});

/** The `checkpoints:` namespace, keys without the prefix. */
export const stackSchema = z.strictObject({
  environment: z.enum(ENVIRONMENTS),
  owner: z.string().min(1).max(63),
  costCenter: z.string().min(1).max(63),
  resourceGroupName: z.string().min(1).max(90).optional(),
  organizationTrail: z.string().min(1).optional(),
  auditExemptMembers: principals.optional(),
  logAnalyticsWorkspaceId: z.string().min(1).optional(),
  stores: z.array(storeSchema).min(1),
});

/** The stack keys with the stores left unchecked, so each store can be validated on its own. */
export const stackShellSchema = stackSchema.extend({ stores: z.array(z.unknown()).min(1) });

export type RawStackShell = z.infer<typeof stackShellSchema>;
export type RawStore = z.infer<typeof storeSchema>;

/** Known keys per object path shape, for "did you mean" hints. */
export const KNOWN_KEYS = {
  stack: Object.keys(stackSchema.shape),
  store: Object.keys(storeSchema.shape),
  retention: Object.keys(retentionSchema.shape),
  access: Object.keys(accessSchema.shape),
  workload: Object.keys(workloadSchema.shape),
  network: Object.keys(networkSchema.shape),
  recovery: Object.keys(recoverySchema.shape),
  retentionLock: Object.keys(retentionLockSchema.shape),
} as const;

/** What each constrained key allows, in the words a user needs to fix it. */
export const ALLOWED: Record<string, string> = {
  environment: `one of ${ENVIRONMENTS.join(' | ')}`,
  owner: 'a non-empty string of at most 63 characters (the owning team, used as a tag)',
  costCenter: 'a non-empty string of at most 63 characters (used as a tag)',
  resourceGroupName: 'an existing Azure resource group name (1-90 characters)',
  stores: 'a list of at least one store, each a block with at least name and dataClassification',
  retention: `a block of retention keys (${KNOWN_KEYS.retention.join(', ')}), e.g. retention: { coolAfterDays: 30 }`,
  access: `a block with the lists ${KNOWN_KEYS.access.join(' and ')}, e.g. access: { readers: [PRINCIPAL] }`,
  name: `a store name matching ${STORE_NAME_PATTERN.source} (lowercase letter first, 2-31 characters), unique in the stack`,
  formerNames: `a list of at most ${MAX_FORMER_NAMES} earlier names of this store, oldest first, each matching ${STORE_NAME_PATTERN.source}`,
  dataClassification: `one of ${DATA_CLASSIFICATIONS.join(' | ')}`,
  tier: `one of ${TIERS.join(' | ')}`,
  zone: 'a non-empty zone identifier',
  location: 'a non-empty location',
  encryption: `one of ${ENCRYPTIONS.join(' | ')}`,
  protect: 'true or false',
  keepNoncurrentVersions: 'a whole number from 0 to 100',
  noncurrentExpireDays: `a whole number of days from 1 to ${MAX_NONCURRENT_DAYS} (0 only on a tier without object versions)`,
  coolAfterDays: `a whole number of days from 0 (never) to ${MAX_DAYS}`,
  archiveAfterDays: `a whole number of days from 0 (never) to ${MAX_DAYS}`,
  expireAfterDays: `a whole number of days from 0 (never) to ${MAX_DAYS}`,
  abortIncompleteUploadDays:
    'a whole number of days from 1 to 365 (0 only where the cloud has no such rule: Azure)',
  softDeleteDays: 'a whole number of days from 7 to 365 (0 only where the cloud has no soft delete: AWS)',
  keptPrefixes: `a list of at most ${MAX_RETENTION_PREFIXES} folder prefixes such as releases/ (letters, digits, '.', '_', '-', separated and ended by '/')`,
  expirePrefixes: `a list of at most ${MAX_RETENTION_PREFIXES} folder prefixes such as runs/ (letters, digits, '.', '_', '-', separated and ended by '/')`,
  workload: `a block of workload keys (${KNOWN_KEYS.workload.join(', ')}), e.g. workload: { checkpointSizeGiB: 140, intervalHours: 2 }`,
  checkpointSizeGiB: `a number of GiB above 0 and at most ${MAX_CHECKPOINT_GIB} (the size of one checkpoint)`,
  intervalHours: `a whole number of hours from 1 to ${MAX_WORKLOAD_HOURS} (how often the job writes a checkpoint)`,
  keepLast: `a whole number from 1 to ${MAX_KEEP_LAST} (checkpoints the job keeps before it deletes the oldest)`,
  latestOverwriteHours: `a whole number of hours from 0 (no latest.pt) to ${MAX_WORKLOAD_HOURS} (how often the job overwrites latest.pt)`,
  writers: 'a list of principal strings (at most 100)',
  readers: 'a list of principal strings (at most 100)',
  audit: 'true or false (default: true in prod and for confidential and restricted stores)',
  network: `a block of network keys (${KNOWN_KEYS.network.join(', ')}), e.g. network: { vpcEndpoints: [vpce-0a1b2c3d4e5f60718] } or network: { public: true }`,
  public:
    'true or false (true: every network may reach the store; requests still need an identity with access)',
  cidrs: `a list of at most ${MAX_NETWORK_ENTRIES} IPv4 or IPv6 CIDR ranges, e.g. [203.0.113.0/24]`,
  vpcEndpoints: `a list of at most ${MAX_NETWORK_ENTRIES} VPC endpoint IDs, e.g. [vpce-0a1b2c3d4e5f60718]`,
  vpcs: `a list of at most ${MAX_NETWORK_ENTRIES} VPC IDs, e.g. [vpc-0a1b2c3d4e5f60718]`,
  networks: `a list of at most ${MAX_NETWORK_ENTRIES} VPC networks, e.g. [projects/my-project/global/networks/training]`,
  subnets: `a list of at most ${MAX_NETWORK_ENTRIES} subnet resource IDs (/subscriptions/…/virtualNetworks/VNET/subnets/SUBNET)`,
  privateEndpointSubnet: 'a subnet resource ID (/subscriptions/…/virtualNetworks/VNET/subnets/SUBNET)',
  privateDnsZones: `a block { blob, dfs } of private DNS zone resource IDs (/subscriptions/…/providers/Microsoft.Network/privateDnsZones/privatelink.blob.core.windows.net and …/privatelink.dfs.core.windows.net), or ${PRIVATE_DNS_MANAGED_BY_POLICY} when Azure Policy creates the zone groups`,
  recovery: `a block of recovery keys (${KNOWN_KEYS.recovery.join(', ')}), e.g. recovery: { replicaRegion: us-west-2 }`,
  replicaRegion:
    "a region of the same cloud other than the store's own, where the copy of every checkpoint lives",
  turboReplication: 'true or false (turbo replication of a dual-region bucket)',
  readableReplica: 'true or false (RA-GZRS: the geo-replicated copy can be read before a failover)',
  retentionLock: `a block { days }, e.g. retentionLock: { days: 365 } (every checkpoint of the store is locked for that long after it is written)`,
  prefix: "a folder prefix such as releases/ (letters, digits, '.', '_', '-', separated and ended by '/')",
  days: `a whole number of days from 1 to ${MAX_RETENTION_LOCK_DAYS}`,
  keyGeneration: `a whole number from 1 to ${MAX_KEY_GENERATION} (raise it by one to create the store's key under new names)`,
  organizationTrail: 'the ARN of an existing trail, arn:aws:cloudtrail:REGION:ACCOUNT:trail/NAME',
  auditExemptMembers:
    'a list of IAM members, e.g. [serviceAccount:trainer@my-project.iam.gserviceaccount.com]',
  logAnalyticsWorkspaceId:
    'the resource ID of a Log Analytics workspace, /subscriptions/…/providers/Microsoft.OperationalInsights/workspaces/NAME',
};

/** What one entry of a list key allows, where the list's own rule would not say it. */
export const ALLOWED_ITEM: Record<string, string> = {
  stores: 'a store: a block with at least name and dataClassification',
  writers: "a principal in the cloud's own format (a non-empty string)",
  readers: "a principal in the cloud's own format (a non-empty string)",
  cidrs: 'an IPv4 or IPv6 CIDR range such as 203.0.113.0/24 or 2001:db8::/32',
  vpcEndpoints: 'a VPC endpoint ID such as vpce-0a1b2c3d4e5f60718',
  vpcs: 'a VPC ID such as vpc-0a1b2c3d4e5f60718',
  networks: 'a VPC network such as projects/my-project/global/networks/training',
  subnets: 'a subnet resource ID (/subscriptions/…/virtualNetworks/VNET/subnets/SUBNET)',
  auditExemptMembers: 'an IAM member such as serviceAccount:NAME@PROJECT.iam.gserviceaccount.com',
};
