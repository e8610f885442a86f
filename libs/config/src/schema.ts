import { z } from 'zod';
import { allowedRange, numericKey, schemaBounds, type NumericKey } from './limits';
import {
  DATA_CLASSIFICATIONS,
  ENCRYPTIONS,
  ENVIRONMENTS,
  STORE_NAME_PATTERN,
  TIERS,
  WORKLOAD_DEFAULTS,
  type Cloud,
  type Tier,
} from './spec';

/*
 * The store spec, declared once: each key's zod type, its limits (limits.ts) and, registered in KEY_DOCS, the
 * words every message and doc uses for it. `schemasFor` builds a cloud's validator; scripts/generate.ts
 * writes docs/config.md's key tables, the stacks' Pulumi.yaml declarations and the editor JSON Schemas
 * from the same schema.
 */

/** A store renamed more often than this is better migrated to a new store. */
export const MAX_FORMER_NAMES = 10;
/**
 * Most prefixes a store may keep or expire: Azure takes at most 10 prefixMatch entries per rule
 * (https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-overview#rule-filters).
 */
export const MAX_RETENTION_PREFIXES = 10;
/** Longest folder prefix: a platform bound, far inside every cloud's key length (S3 and GCS: 1,024 bytes). */
export const MAX_PREFIX_LENGTH = 256;
/** Most principals per list: a platform bound that keeps each cloud's policy documents inside their limits. */
export const MAX_PRINCIPALS = 100;
/** Most entries of one network allow-list; AWS bucket policies (20 KB) and Azure network rules (200) bound it. */
export const MAX_NETWORK_ENTRIES = 100;
/** Longest owner or cost center: a label value takes at most 63 characters (https://cloud.google.com/storage/docs/tags-and-labels). */
export const MAX_TAG_VALUE_LENGTH = 63;
/** Longest Azure resource group name (https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules). */
export const MAX_RESOURCE_GROUP_NAME_LENGTH = 90;
/** A folder-like key prefix every cloud's lifecycle filter takes as is, e.g. `releases/`. */
export const RETENTION_PREFIX_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]*(?:\/[A-Za-z0-9._-]+)*\/$/;
/** `network.privateDnsZones` when the platform's Azure Policy creates the endpoints' DNS zone groups. */
export const PRIVATE_DNS_MANAGED_BY_POLICY = 'managed-by-policy';

/** How a key is documented: each doc table row and each message takes its words from here. */
export interface KeyDoc {
  /** The type column, e.g. `list of strings`. */
  type: string;
  /** The default column (markdown); `required` for required keys. */
  default: string;
  /** What the key does (markdown). */
  meaning: string;
  /** What it allows, in the words of a message; numeric keys take theirs from limits.ts. */
  allowed?: string;
  /** What one entry of a list allows, where the list's own rule would not say it. */
  item?: string;
  /** The key's limits, for a numeric key. */
  numeric?: NumericKey;
}

/** Each key's words, on the key's own type (inside `.optional()`). */
export const KEY_DOCS = z.registry<KeyDoc>();

function doc<T extends z.ZodType>(type: T, words: KeyDoc): T {
  KEY_DOCS.add(type, words);
  return type;
}

/** Stack keys only some clouds honour, and where they apply. */
export const CLOUD_STACK_KEYS = {
  resourceGroupName: { clouds: ['azure'], words: 'azure' },
  organizationTrail: { clouds: ['aws'], words: 'aws' },
  ciDeployRole: { clouds: ['aws'], words: 'aws' },
  auditExemptMembers: { clouds: ['gcp'], words: 'gcp' },
  logAnalyticsWorkspaceId: { clouds: ['azure'], words: 'azure' },
} as const satisfies Record<string, { clouds: readonly Cloud[]; words: string }>;

/** Store keys (paths within a store) only some clouds honour, and where they apply. */
export const CLOUD_STORE_KEYS = {
  zone: { clouds: ['aws', 'gcp'], words: 'aws and gcp (high-throughput tier)' },
  location: { clouds: ['gcp'], words: 'gcp' },
  'network.vpcEndpoints': { clouds: ['aws'], words: 'aws' },
  'network.vpcs': { clouds: ['aws'], words: 'aws' },
  'network.networks': { clouds: ['gcp'], words: 'gcp' },
  'network.subnets': { clouds: ['azure'], words: 'azure' },
  'network.privateEndpointSubnet': { clouds: ['azure'], words: 'azure' },
  'network.privateDnsZones': { clouds: ['azure'], words: 'azure' },
  'recovery.turboReplication': { clouds: ['gcp'], words: 'gcp' },
  'recovery.readableReplica': { clouds: ['azure'], words: 'azure' },
  'recovery.independentCopy': {
    clouds: ['aws', 'gcp', 'azure'],
    words: 'aws, gcp and azure',
  },
} as const satisfies Record<string, { clouds: readonly Cloud[]; words: string }>;

export type CloudStackKey = keyof typeof CLOUD_STACK_KEYS;
export type CloudStoreKey = keyof typeof CLOUD_STORE_KEYS;

/** The clouds a stack key or a store path applies on; undefined: every cloud. */
export function cloudsOf(scope: 'stack' | 'store', path: string): readonly Cloud[] | undefined {
  const table: Readonly<Record<string, { clouds: readonly Cloud[] }>> =
    scope === 'stack' ? CLOUD_STACK_KEYS : CLOUD_STORE_KEYS;
  return table[path]?.clouds;
}

/** A numeric key with its cloud's bounds from limits.ts. */
function numeric(path: string, cloud: Cloud | undefined, words: Omit<KeyDoc, 'allowed' | 'numeric'>) {
  const key = numericKey(path);
  if (!key) throw new Error(`no limit is declared for ${path} in limits.ts`);
  const bounds = schemaBounds(key, cloud);
  const base = key.integer ? z.number().int() : z.number();
  return doc((bounds.exclusiveMin ? base.gt(bounds.min) : base.min(bounds.min)).max(bounds.max), {
    ...words,
    numeric: key,
  });
}

const PREFIX_WORDS = "letters, digits, '.', '_', '-', separated and ended by '/'";
const folderPrefix = () => z.string().max(MAX_PREFIX_LENGTH).regex(RETENTION_PREFIX_PATTERN);
const prefixList = (example: string, words: Omit<KeyDoc, 'allowed' | 'type'>) =>
  doc(z.array(folderPrefix()).max(MAX_RETENTION_PREFIXES), {
    type: 'list of folder prefixes',
    ...words,
    allowed: `a list of at most ${MAX_RETENTION_PREFIXES} folder prefixes such as ${example} (${PREFIX_WORDS})`,
  });

const principals = () => z.array(z.string().min(1)).max(MAX_PRINCIPALS);
const networkList = () => z.array(z.string().min(1)).max(MAX_NETWORK_ENTRIES);
const oneOf = (values: readonly string[]) => `one of ${values.join(' | ')}`;
const code = (values: readonly string[]) => values.map((value) => `\`${value}\``).join(' \\| ');
const blockOf = (name: string, keys: readonly string[], example: string) =>
  `a block of ${name} keys (${keys.join(', ')}), e.g. ${example}`;

function retentionSchema(cloud: Cloud | undefined) {
  const days = 'whole number of days';
  const keys = z.strictObject({
    keepNoncurrentVersions: numeric('retention.keepNoncurrentVersions', cloud, {
      type: 'whole number',
      default: '3',
      meaning:
        'Newest previous versions kept until `noncurrentExpireDays`; older ones are deleted about a day after they are replaced (bounded copies).',
    }).optional(),
    noncurrentExpireDays: numeric('retention.noncurrentExpireDays', cloud, {
      type: days,
      default: '7',
      meaning:
        'Every previous version (and S3 delete marker) is purged this many days after it stopped being current: the purge bound and the recovery window of versioned tiers.',
    }).optional(),
    coolAfterDays: numeric('retention.coolAfterDays', cloud, {
      type: days,
      default: '30',
      meaning:
        'Current objects move to the cool class (S3 Standard-IA, GCS Nearline, Azure Cool); 0 = never.',
    }).optional(),
    archiveAfterDays: numeric('retention.archiveAfterDays', cloud, {
      type: days,
      default: '0',
      meaning: 'Current objects move to the archive class; must be later than `coolAfterDays`; 0 = never.',
    }).optional(),
    expireAfterDays: numeric('retention.expireAfterDays', cloud, {
      type: days,
      default: '0',
      meaning:
        'Current objects (below `expirePrefixes`, if set) are deleted at this age; must be later than every transition; 0 = never.',
    }).optional(),
    abortIncompleteUploadDays: numeric('retention.abortIncompleteUploadDays', cloud, {
      type: days,
      default: '1',
      meaning:
        'Incomplete multipart / resumable uploads are aborted. Azure has no such rule (uncommitted blocks expire after 7 days).',
    }).optional(),
    softDeleteDays: numeric('retention.softDeleteDays', cloud, {
      type: days,
      default: '7',
      meaning:
        '**GCS and Azure:** deleted (GCS: also overwritten) objects stay recoverable this long, and count in the purge bound. AWS has no soft delete: a non-zero value is refused.',
    }).optional(),
    keptPrefixes: prefixList('releases/', {
      default: '`[]`',
      meaning: 'Prefixes whose objects never expire (released checkpoints, e.g. `releases/`).',
    }).optional(),
    expirePrefixes: prefixList('runs/', {
      default: '`[]` (the whole store)',
      meaning:
        'Prefixes `expireAfterDays` applies to; required with `keptPrefixes` and an expiry; none may overlap a kept prefix.',
    }).optional(),
  });
  return doc(keys, {
    type: 'block',
    default: 'see below',
    meaning: 'Lifecycle of checkpoints.',
    allowed: blockOf('retention', Object.keys(keys.shape), 'retention: { coolAfterDays: 30 }'),
  });
}

function workloadSchema(cloud: Cloud | undefined) {
  const keys = z.strictObject({
    checkpointSizeGiB: numeric('workload.checkpointSizeGiB', cloud, {
      type: 'number of GiB',
      default: String(WORKLOAD_DEFAULTS.checkpointSizeGiB),
      meaning: 'Size of one checkpoint (and of `latest.pt`), GiB.',
    }).optional(),
    intervalHours: numeric('workload.intervalHours', cloud, {
      type: 'whole number of hours',
      default: String(WORKLOAD_DEFAULTS.intervalHours),
      meaning: 'Hours between two checkpoints, each under a new key (`run-7/step-1000/model.pt`).',
    }).optional(),
    keepLast: numeric('workload.keepLast', cloud, {
      type: 'whole number',
      default: String(WORKLOAD_DEFAULTS.keepLast),
      meaning: 'Checkpoints the job keeps: it deletes the oldest once a newer one makes more than this.',
    }).optional(),
    latestOverwriteHours: numeric('workload.latestOverwriteHours', cloud, {
      type: 'whole number of hours',
      default: String(WORKLOAD_DEFAULTS.latestOverwriteHours),
      meaning: 'Hours between two overwrites of `latest.pt`; 0: the job writes none.',
    }).optional(),
    readBacksPerDay: numeric('workload.readBacksPerDay', cloud, {
      type: 'number',
      default: String(WORKLOAD_DEFAULTS.readBacksPerDay),
      meaning:
        'Whole checkpoints read back per day (evaluation, inspection); priced as reads, retrieval and cache ingest.',
    }).optional(),
    restartsPerMonth: numeric('workload.restartsPerMonth', cloud, {
      type: 'whole number',
      default: String(WORKLOAD_DEFAULTS.restartsPerMonth),
      meaning:
        'Job restarts per month, each listing the run prefix and reading the newest checkpoint in full.',
    }).optional(),
  });
  return doc(keys, {
    type: 'block',
    default: 'see below (each key optional)',
    meaning:
      "The training job's checkpoint workload, read only by the storage and cost projection (`synth`, the PR report); nothing is deployed from it.",
    allowed: blockOf(
      'workload',
      Object.keys(keys.shape),
      'workload: { checkpointSizeGiB: 140, intervalHours: 2 }',
    ),
  });
}

function accessSchema() {
  const principal = "a principal in the cloud's own format (a non-empty string)";
  const keys = z.strictObject({
    writers: doc(principals(), {
      type: 'list of strings',
      default: '`[]`',
      meaning:
        'Who else may write. **AWS:** principal ARNs (`arn:aws:iam::111122223333:role/trainer`) or service principals (`sagemaker.amazonaws.com`) allowed to assume the writer role. **GCP:** IAM members (`serviceAccount:...`, `group:...`, `principal://...`) granted the writer role on the bucket. **Azure:** Entra object IDs with their type, `user:<guid>`, `group:<guid>` or `servicePrincipal:<guid>`, granted the writer role on the filesystem.',
      allowed: `a list of principal strings (at most ${MAX_PRINCIPALS})`,
      item: principal,
    }).optional(),
    readers: doc(principals(), {
      type: 'list of strings',
      default: '`[]`',
      meaning: 'Who else may read: the same formats as `writers`, for the reader role.',
      allowed: `a list of principal strings (at most ${MAX_PRINCIPALS})`,
      item: principal,
    }).optional(),
  });
  return doc(keys, {
    type: 'block',
    default: 'see below',
    meaning: 'Who else may act as writer or reader.',
    allowed: `a block with the lists ${Object.keys(keys.shape).join(' and ')}, e.g. access: { readers: [PRINCIPAL] }`,
  });
}

const SUBNET_ID = '/subscriptions/…/virtualNetworks/VNET/subnets/SUBNET';
const ZONE_IDS =
  '/subscriptions/…/providers/Microsoft.Network/privateDnsZones/privatelink.blob.core.windows.net and …/privatelink.dfs.core.windows.net';

function networkSchema() {
  const listOf = (what: string, example: string) =>
    `a list of at most ${MAX_NETWORK_ENTRIES} ${what}, e.g. [${example}]`;
  const keys = z.strictObject({
    public: doc(z.boolean(), {
      type: 'boolean',
      default: '`false`',
      meaning:
        'Every network may reach the store (the explicit way to relax the prod default). **Azure:** without it a prod account is private-only (public network access Disabled, reached through its `privateEndpointSubnet` endpoints; `subnets` and `cidrs` are refused there); with it, no private endpoint.',
      allowed:
        'true or false (true: every network may reach the store; requests still need an identity with access)',
    }).optional(),
    cidrs: doc(z.array(z.union([z.cidrv4(), z.cidrv6()])).max(MAX_NETWORK_ENTRIES), {
      type: 'list of IPv4/IPv6 CIDR ranges',
      default: '`[]`',
      meaning: 'Public source ranges allowed (e.g. an on-premises egress range).',
      allowed: listOf('IPv4 or IPv6 CIDR ranges', '203.0.113.0/24'),
      item: 'an IPv4 or IPv6 CIDR range such as 203.0.113.0/24 or 2001:db8::/32',
    }).optional(),
    vpcEndpoints: doc(networkList(), {
      type: 'list of `vpce-…` IDs',
      default: '`[]`',
      meaning: 'Gateway or interface VPC endpoints whose traffic is allowed.',
      allowed: listOf('VPC endpoint IDs', 'vpce-0a1b2c3d4e5f60718'),
      item: 'a VPC endpoint ID such as vpce-0a1b2c3d4e5f60718',
    }).optional(),
    vpcs: doc(networkList(), {
      type: 'list of `vpc-…` IDs',
      default: '`[]`',
      meaning: 'VPCs whose traffic (through any of their endpoints) is allowed.',
      allowed: listOf('VPC IDs', 'vpc-0a1b2c3d4e5f60718'),
      item: 'a VPC ID such as vpc-0a1b2c3d4e5f60718',
    }).optional(),
    networks: doc(networkList(), {
      type: 'list of `projects/P/global/networks/N`',
      default: '`[]`',
      meaning: "VPC networks allowed by the bucket's IP filter.",
      allowed: listOf('VPC networks', 'projects/my-project/global/networks/training'),
      item: 'a VPC network such as projects/my-project/global/networks/training',
    }).optional(),
    subnets: doc(networkList(), {
      type: 'list of subnet resource IDs',
      default: '`[]`',
      meaning: 'Virtual-network subnets (with the `Microsoft.Storage` service endpoint) allowed.',
      allowed: `a list of at most ${MAX_NETWORK_ENTRIES} subnet resource IDs (${SUBNET_ID})`,
      item: `a subnet resource ID (${SUBNET_ID})`,
    }).optional(),
    privateEndpointSubnet: doc(z.string().min(1), {
      type: 'subnet resource ID',
      default: 'unset',
      meaning: "Subnet for the store's `dfs` and `blob` private endpoints.",
      allowed: `a subnet resource ID (${SUBNET_ID})`,
    }).optional(),
    privateDnsZones: doc(
      z.union([
        z.literal(PRIVATE_DNS_MANAGED_BY_POLICY),
        z.strictObject({ blob: z.string().min(1), dfs: z.string().min(1) }),
      ]),
      {
        type: `\`{ blob, dfs }\` or \`${PRIVATE_DNS_MANAGED_BY_POLICY}\``,
        default: 'unset; **required in prod beside `privateEndpointSubnet`**',
        meaning:
          'Where the private endpoints\' DNS records go: the resource IDs of the `privatelink.blob.core.windows.net` and `privatelink.dfs.core.windows.net` zones (a DNS zone group per endpoint; each zone name checked against its sub-resource), or `managed-by-policy` when the platform\'s Azure Policy creates the zone groups. Refused without `privateEndpointSubnet`. Outside prod unset means no records (name resolution is yours). docs/azure.md, "Private endpoints and DNS".',
        allowed: `a block { blob, dfs } of private DNS zone resource IDs (${ZONE_IDS}), or ${PRIVATE_DNS_MANAGED_BY_POLICY} when Azure Policy creates the zone groups`,
      },
    ).optional(),
  });
  return doc(keys, {
    type: 'block',
    default: 'unset (every network) outside prod; **required in prod**',
    meaning: "Which networks may reach the store's data plane (below).",
    allowed: blockOf(
      'network',
      Object.keys(keys.shape),
      'network: { vpcEndpoints: [vpce-0a1b2c3d4e5f60718] } or network: { public: true }',
    ),
  });
}

/** Where CI's runners run: GitHub's hosted runners, or the platform's own runners with known networks. */
export const CI_RUNNER_KINDS = ['github-hosted', 'self-hosted'] as const;

function ciRunnersSchema() {
  const keys = z.strictObject({
    kind: doc(z.enum(CI_RUNNER_KINDS), {
      type: code(CI_RUNNER_KINDS),
      default: '`github-hosted`',
      meaning:
        "Where the preview, deploy and drift jobs run. GitHub-hosted runners reach the clouds from GitHub's changing address ranges (https://docs.github.com/en/actions/using-github-hosted-runners/about-github-hosted-runners/about-github-hosted-runners#ip-addresses), which no store perimeter lists.",
      allowed: oneOf(CI_RUNNER_KINDS),
    }),
    egressCidrs: doc(z.array(z.union([z.cidrv4(), z.cidrv6()])).max(MAX_NETWORK_ENTRIES), {
      type: 'list of IPv4/IPv6 CIDR ranges',
      default: '`[]`',
      meaning: "Self-hosted: the public addresses the runners' requests leave from (their NAT).",
      allowed: `a list of at most ${MAX_NETWORK_ENTRIES} IPv4 or IPv6 CIDR ranges, e.g. [203.0.113.0/28]`,
      item: 'an IPv4 or IPv6 CIDR range such as 203.0.113.0/28',
    }).optional(),
    networks: doc(networkList(), {
      type: 'list of `projects/P/global/networks/N`',
      default: '`[]`',
      meaning:
        "Self-hosted on GCP: the VPC networks the runners run in (with Private Google Access); every IP-filtered bucket of the stack admits them, for CI's control-plane calls (CI holds no data permission).",
      allowed: `a list of at most ${MAX_NETWORK_ENTRIES} VPC networks, e.g. [projects/my-project/global/networks/ci-runners]`,
      item: 'a VPC network such as projects/my-project/global/networks/ci-runners',
    }).optional(),
  });
  return doc(keys, {
    type: 'block',
    default: '`{ kind: github-hosted }`',
    meaning:
      'Where CI runs, which the rights check holds every control-plane call of a deploy, preview or drift to: each must reach its API through the store\'s perimeter from there (docs/deploy.md, "Where CI runs").',
    allowed: blockOf(
      'ciRunners',
      Object.keys(keys.shape),
      'ciRunners: { kind: self-hosted, networks: [projects/my-project/global/networks/ci-runners] }',
    ),
  });
}

function recoverySchema(cloud: Cloud | undefined) {
  const retentionLock = z.strictObject({
    prefix: doc(folderPrefix(), {
      type: 'folder prefix ending in `/`',
      default: 'unset',
      meaning:
        "**Refused on every cloud**, with the reason: each cloud's lock covers a whole bucket or container, never a prefix of it. Keep released checkpoints in a store of their own and lock that store whole.",
      allowed: `a folder prefix such as releases/ (${PREFIX_WORDS})`,
    }).optional(),
    days: numeric('recovery.retentionLock.days', cloud, {
      type: 'whole number of days',
      default: 'required',
      meaning: "Length of the lock, counted from each object's write.",
    }),
  });
  const independentCopy = z.strictObject({
    enabled: doc(z.boolean(), {
      type: 'boolean',
      default:
        '`true` (without the block: on for `restricted` stores in prod, AWS standard tier; off on Azure)',
      meaning: 'Keep the independent copy; `false` turns the default copy of a restricted prod store off.',
      allowed: 'true or false',
    }).optional(),
    retentionDays: numeric('recovery.independentCopy.retentionDays', cloud, {
      type: 'whole number of days',
      default:
        "the store's recovery window, within the cloud's range: AWS `retention.noncurrentExpireDays` within 7 to 35; GCP `retention.noncurrentExpireDays` within 7 to 90; Azure `retention.softDeleteDays` within 7 to 3650",
      meaning:
        "Days the copy keeps every checkpoint after it changed or was deleted in the store. AWS: the continuous backup's retention and the vault lock's minimum retention. GCP: the copy bucket's locked retention, its lifecycle age and its soft delete (bootstrap `gcp.independentCopy`). Azure: the least retention the bootstrap's vaulted backup policy must keep (bootstrap `azure.independentCopies`); a checkpoint younger than the last daily backup is not in the copy yet.",
    }).optional(),
  });
  const keys = z.strictObject({
    replicaRegion: doc(z.string().min(1), {
      type: 'region of the same cloud',
      default: 'unset; **required in prod beside `retentionLock`**',
      meaning:
        'A copy of every checkpoint in this second region: S3 Cross-Region Replication (standard tier; another region of the same partition; delete markers not replicated: docs/aws.md "Recovery"), a GCS dual-region, Azure geo-zone-redundancy (the region\'s pair).',
      allowed:
        "a region of the same cloud other than the store's own, where the copy of every checkpoint lives",
    }).optional(),
    turboReplication: doc(z.boolean(), {
      type: 'boolean',
      default: '`false`',
      meaning: 'Turbo replication of the dual-region (target RPO 15 minutes).',
      allowed: 'true or false (turbo replication of a dual-region bucket)',
    }).optional(),
    readableReplica: doc(z.boolean(), {
      type: 'boolean',
      default: '`false`',
      meaning: 'The geo copy is readable before a failover (RA-GZRS).',
      allowed: 'true or false (RA-GZRS: the geo-replicated copy can be read before a failover)',
    }).optional(),
    retentionLock: doc(retentionLock, {
      type: '`{ days }`',
      default: 'unset',
      meaning:
        'A store of released checkpoints, written once (in prod it needs `replicaRegion`: a release keeps a copy in a second region): every object of the store is locked for `retentionLock.days` after it is written, in the mode an administrator can still lift (break glass: docs/<cloud>.md, "Retention lock"); irreversible modes are not offered. No job, CI identity or lifecycle rule can permanently delete a locked object before then; the `lock` retention promise checks it on the replay. **AWS:** S3 Object Lock, GOVERNANCE default retention, standard tier only; the replica (`replicaRegion`) takes the same lock; a job\'s delete adds a delete marker and an overwrite a new version, the locked versions stay; Object Lock cannot be turned off again. **GCP:** the bucket\'s retention policy (not locked) on an unversioned bucket, standard tier only; deletes and overwrites of younger objects are refused; `keepNoncurrentVersions`/`noncurrentExpireDays` above 0, `expireAfterDays` up to `days` and `workload.latestOverwriteHours` above 0 are refused beside it. **Azure:** a container time-based immutability policy (not locked), standard tier only, `expireAfterDays` 0 (a lifecycle delete never acts on a locked file); a locked file is never overwritten or renamed, also after the lock ends; deletes wait for the lock.',
      allowed:
        'a block { days }, e.g. retentionLock: { days: 365 } (every checkpoint of the store is locked for that long after it is written)',
    }).optional(),
    independentCopy: doc(independentCopy, {
      type: '`{ enabled, retentionDays? }`',
      default:
        'on for `restricted` stores in prod on AWS and GCP (standard tier; on GCP without an enabled IP filter), else off (always off by default on Azure)',
      meaning:
        "A copy of every checkpoint outside the reach of the stack's CI identities (docs/aws.md, \"Independent copy\"). **AWS:** AWS Backup continuous backup of the store's bucket, kept `retentionDays`, into the environment's backup vault, which the admin-run bootstrap creates with a vault lock in compliance mode (minimum retention 7 days): CI may neither delete a recovery point nor change the vault, its lock or its access policy, and once the lock's 3-day cooling-off has passed nobody can, the account root included. The stack must deploy in the bootstrap's `aws.region`. Standard tier only: AWS Backup needs S3 Versioning, which directory buckets do not have. **GCP:** an hourly Storage Transfer Service job of the bootstrap's copy project (`gcp.independentCopy` in docs/bootstrap.md) copies the store's bucket into that project's copy bucket, whose retention policy of `retentionDays` is locked (nobody can shorten or remove it, nor delete a copied checkpoint younger than that); the copy bucket's lifecycle deletes a copied checkpoint once it is that old and its soft delete keeps it as long again, so every checkpoint a run copied (each run copies what is new since the last, hourly) is kept at least `retentionDays` after it is gone from the store. No CI identity holds a right in the copy project. Refused beside an enabled IP filter (`network` without `public: true`): the filter refuses the transfer's service agent. **Azure:** Azure Backup vaulted backup (preview) of the store's account, once a day, into the environment's Backup vault, which the admin-run bootstrap creates in a resource group of its own, immutable, with soft delete always on, and protects the listed stores in (bootstrap `azure.independentCopies`; deploy the stack first, then the bootstrap); CI holds no role there. Standard tier only, no `replicaRegion` (vaulted backup takes LRS, ZRS and GRS accounts), in a region vaulted backup of ADLS is offered in; opt-in, since the preview needs enrolment (docs/azure.md, \"Independent copy\").",
      allowed:
        'a block { enabled, retentionDays? }, e.g. independentCopy: { enabled: true, retentionDays: 14 }',
    }).optional(),
  });
  return doc(keys, {
    type: 'block',
    default: 'no copy, no lock',
    meaning: 'Opt-in cross-region copy and retention lock (below).',
    allowed: blockOf('recovery', Object.keys(keys.shape), 'recovery: { replicaRegion: us-west-2 }'),
  });
}

function storeSchemaOf(cloud: Cloud | undefined) {
  return z.strictObject({
    name: doc(z.string().regex(STORE_NAME_PATTERN), {
      type: `\`${STORE_NAME_PATTERN.source.slice(1, -1)}\`, unique in the stack`,
      default: 'required',
      meaning:
        'Logical store name; physical names are derived from its first name (see `formerNames`, `libs/naming`).',
      allowed: `a store name matching ${STORE_NAME_PATTERN.source} (lowercase letter first, 2-31 characters), unique in the stack`,
    }),
    formerNames: doc(z.array(z.string().regex(STORE_NAME_PATTERN)).max(MAX_FORMER_NAMES), {
      type: 'list of store names, oldest first',
      default: '`[]`',
      meaning: 'Earlier names of this store: a rename with them changes nothing in the cloud (see below).',
      allowed: `a list of at most ${MAX_FORMER_NAMES} earlier names of this store, oldest first, each matching ${STORE_NAME_PATTERN.source}`,
    }).optional(),
    dataClassification: doc(z.enum(DATA_CLASSIFICATIONS), {
      type: code(DATA_CLASSIFICATIONS),
      default: 'required',
      meaning: 'Tag `data-classification`. It never makes data public: every store is private.',
      allowed: oneOf(DATA_CLASSIFICATIONS),
    }),
    tier: doc(z.enum(TIERS), {
      type: code(TIERS),
      default: '`standard`',
      meaning:
        '`high-throughput`: S3 Express One Zone directory bucket, GCS hierarchical namespace (+ optional Anywhere Cache), ADLS premium block blob account.',
      allowed: oneOf(TIERS),
    }).optional(),
    zone: doc(z.string().min(1), {
      type: 'string',
      default: 'unset',
      meaning:
        '**AWS:** AZ ID of the directory bucket (`use1-az4`), required for high-throughput. **GCP:** Anywhere Cache zone (`us-central1-a`), optional. High-throughput only.',
      allowed: 'a non-empty zone identifier',
    }).optional(),
    location: doc(z.string().min(1), {
      type: 'region',
      default: '`gcp:region`',
      meaning: 'Bucket location.',
      allowed: 'a non-empty location',
    }).optional(),
    encryption: doc(z.enum(ENCRYPTIONS), {
      type: code(ENCRYPTIONS),
      default: '`customer-managed` in prod, else `provider-managed`',
      meaning: 'Customer-managed: a per-store KMS key / Cloud KMS key / Key Vault key.',
      allowed: oneOf(ENCRYPTIONS),
    }).optional(),
    protect: doc(z.boolean(), {
      type: 'boolean',
      default: '`true` in prod, else `false`',
      meaning:
        'Pulumi `protect` on the data holders and keys: a deploy that would replace or release them stops. `retainOnDelete` is on in every environment regardless (below).',
      allowed: 'true or false',
    }).optional(),
    retention: retentionSchema(cloud).optional(),
    access: accessSchema().optional(),
    workload: workloadSchema(cloud).optional(),
    audit: doc(z.boolean(), {
      type: 'boolean',
      default: '`true` in prod and for `confidential` and `restricted` stores, else `false`',
      meaning:
        "Record every read and write of the store's data (CloudTrail data events, GCS Data Access logs, Azure diagnostic settings). `false` is refused in prod.",
      allowed: 'true or false (default: true in prod and for confidential and restricted stores)',
    }).optional(),
    network: networkSchema().optional(),
    recovery: recoverySchema(cloud).optional(),
    acknowledge: doc(
      z.strictObject({
        weakening: doc(z.string().trim().min(10).max(500), {
          type: 'string, 10-500 characters',
          default: 'unset',
          meaning:
            'Why this change may weaken the store: `synth --base` then reports the weakening with this reason and passes. It counts for the change that adds it or changes its text: a reason already deployed acknowledges nothing more.',
          allowed:
            'a reason of 10 to 500 characters, e.g. "retention shortened to cut cost, approved by the data owner"',
        }),
      }),
      {
        type: 'block',
        default: 'unset',
        meaning:
          'Acknowledges, with a reason, a change that weakens the store (a shorter recovery window, purge bound or lock, earlier expiry, audit or perimeter removed; docs/operations.md, "Weakening changes"). Without it `synth --base` exits 5 for such a change, in every environment.',
        allowed: 'a block { weakening: "<reason>" }',
      },
    ).optional(),
    keyGeneration: numeric('keyGeneration', cloud, {
      type: 'whole number',
      default: '1',
      meaning:
        'Generation of the store\'s customer-managed key. Raise it by one to create the key under new names, when the earlier names are still taken in the cloud (a store added again after removal or `destroy`; see docs/operations.md, "Add it again"). Refused with `provider-managed`.',
    }).optional(),
  });
}

function stackSchemaOf(cloud: Cloud | undefined) {
  const tagValue = (meaning: string, what: string) =>
    doc(z.string().min(1).max(MAX_TAG_VALUE_LENGTH), {
      type: `string, 1-${MAX_TAG_VALUE_LENGTH} characters`,
      default: 'required',
      meaning,
      allowed: `a non-empty string of at most ${MAX_TAG_VALUE_LENGTH} characters (${what})`,
    });
  return z.strictObject({
    environment: doc(z.enum(ENVIRONMENTS), {
      type: code(ENVIRONMENTS),
      default: 'required',
      meaning: 'Environment tag; drives the defaults of `encryption` and `protect`.',
      allowed: oneOf(ENVIRONMENTS),
    }),
    owner: tagValue('Team that owns the stores (tag `owner`).', 'the owning team, used as a tag'),
    costCenter: tagValue('Cost center (tag `cost-center`).', 'used as a tag'),
    resourceGroupName: doc(z.string().min(1).max(MAX_RESOURCE_GROUP_NAME_LENGTH), {
      type: `string, 1-${MAX_RESOURCE_GROUP_NAME_LENGTH} characters`,
      default: 'unset: one resource group per stack',
      meaning:
        'An existing resource group to place the stores in. Unset: a resource group per stack, named from the project and stack, created and (when any store is protected) protected.',
      allowed: `an existing Azure resource group name (1-${MAX_RESOURCE_GROUP_NAME_LENGTH} characters)`,
    }).optional(),
    organizationTrail: doc(z.string().min(1), {
      type: 'trail ARN',
      default: 'unset: the stack creates its own trail',
      meaning:
        "An existing (organization) trail that already records S3 data events for the audited stores' buckets (it must select them: docs/aws.md); the stack then creates no trail of its own.",
      allowed: 'the ARN of an existing trail, arn:aws:cloudtrail:REGION:ACCOUNT:trail/NAME',
    }).optional(),
    ciDeployRole: doc(z.string().regex(/^[\w+=,.@-]{1,64}$/), {
      type: 'IAM role name',
      default: '`checkpoints-ci-deploy-<environment>` (the bootstrap stack `ci`)',
      meaning:
        "The bootstrap's deploy role of this environment, `checkpoints-<bootstrap stack>-deploy-<environment>`: the preflight (`nx run aws-s3:preflight`) checks that it exists, i.e. that the bootstrap was applied, and the buckets' perimeters exempt it and the preview role of the same bootstrap stack (`checkpoints-<bootstrap stack>-preview`) from their listing deny by exact ARN, so it must end in `-deploy-<environment>`. Set it when the bootstrap stack is not named `ci`.",
      allowed: "an IAM role name (1-64 letters, digits and '+=,.@_-'), e.g. checkpoints-ci-deploy-prod",
    }).optional(),
    auditExemptMembers: doc(principals(), {
      type: 'list of IAM members',
      default: '`[]`',
      meaning:
        "Members whose own data access is left out of the Data Access audit logs (e.g. the writer's service account, for log volume); never an exemption in prod for the reader, a group or a domain. The bootstrap sets the project's audit config from `bootstrap:gcp.auditExemptMembers`; the `gcp-gcs-data-access-audit` rule checks the two agree.",
      allowed: 'a list of IAM members, e.g. [serviceAccount:trainer@my-project.iam.gserviceaccount.com]',
      item: 'an IAM member such as serviceAccount:NAME@PROJECT.iam.gserviceaccount.com',
    }).optional(),
    logAnalyticsWorkspaceId: doc(z.string().min(1), {
      type: 'workspace resource ID',
      default: 'unset: the stack creates a workspace',
      meaning:
        'An existing Log Analytics workspace the audited stores send their diagnostics to. Unset: a workspace per stack (365 days retention), created when any store is audited, none otherwise. CI needs read and `sharedKeys/action` on a workspace it did not create.',
      allowed:
        'the resource ID of a Log Analytics workspace, /subscriptions/…/providers/Microsoft.OperationalInsights/workspaces/NAME',
    }).optional(),
    externalPrincipals: doc(
      z
        .array(
          z.strictObject({
            principal: z.string().min(1),
            reason: z.string().min(10).max(300),
          }),
        )
        .max(MAX_PRINCIPALS),
      {
        type: 'list of { principal, reason }',
        default: '`[]`',
        meaning:
          "Principals outside this stack's own account, project or subscription (another account's or project's identities, another environment's, a CI identity or workload identity pool, a consumer-domain user or group) that a prod store's `access` may still name, each with why. A prod store refuses such a principal unless it is listed here.",
        allowed: `a list of at most ${MAX_PRINCIPALS} blocks { principal: PRINCIPAL, reason: "why (10-300 characters)" }, the principal exactly as written in access.writers or access.readers`,
        item: 'a block { principal, reason }',
      },
    ).optional(),
    ciRunners: ciRunnersSchema().optional(),
    stores: doc(z.array(storeSchemaOf(cloud)).min(1), {
      type: 'list of stores, at least one',
      default: 'required',
      meaning: 'The stores of this stack (below).',
      allowed: 'a list of at least one store, each a block with at least name and dataClassification',
      item: 'a store: a block with at least name and dataClassification',
    }),
  });
}

export type StackSchema = ReturnType<typeof stackSchemaOf>;
export type StoreSchema = ReturnType<typeof storeSchemaOf>;
export type RawStore = z.infer<StoreSchema>;
export type RawStackShell = Omit<z.infer<StackSchema>, 'stores'> & { stores: unknown[] };

export interface Schemas {
  stack: StackSchema;
  store: StoreSchema;
  /** The stack keys with the stores left unchecked, so each store can be validated on its own. */
  stackShell: z.ZodType<RawStackShell>;
}

const SCHEMAS = new Map<Cloud | undefined, Schemas>();

/** The validator of a cloud's spec, with its limits; undefined: the limits every cloud shares. */
export function schemasFor(cloud: Cloud | undefined): Schemas {
  const cached = SCHEMAS.get(cloud);
  if (cached) return cached;
  const stack = stackSchemaOf(cloud);
  const schemas: Schemas = {
    stack,
    store: stack.shape.stores.element,
    stackShell: stack.extend({ stores: z.array(z.unknown()).min(1) }),
  };
  SCHEMAS.set(cloud, schemas);
  return schemas;
}

/** A schema inside its optional and list wrappers, where its words are registered. */
export function unwrap(type: z.ZodType): z.ZodType {
  if (type instanceof z.ZodOptional) return unwrap(type.unwrap() as z.ZodType);
  return type;
}

/** The schema of the key at `segments` (zod's path: list indexes step into a list's entries). */
export function schemaAt(root: z.ZodType, segments: readonly (string | number)[]): z.ZodType | undefined {
  let type: z.ZodType = unwrap(root);
  for (const segment of segments) {
    if (typeof segment === 'number') {
      if (!(type instanceof z.ZodArray)) return undefined;
      type = unwrap(type.element as z.ZodType);
    } else {
      if (!(type instanceof z.ZodObject)) return undefined;
      const next = (type.shape as Record<string, z.ZodType>)[segment];
      if (next === undefined) return undefined;
      type = unwrap(next);
    }
  }
  return type;
}

/** The keys of the block at `segments` (its innermost block), for "did you mean" hints. */
export function keysAt(root: z.ZodType, segments: readonly (string | number)[]): string[] {
  const type = schemaAt(root, segments);
  const block = type instanceof z.ZodArray ? unwrap(type.element as z.ZodType) : type;
  return block instanceof z.ZodObject ? Object.keys(block.shape) : [];
}

/** What a key allows on `cloud`, in the words of a message. */
export function allowedWords(type: z.ZodType, cloud: Cloud | undefined, tier?: Tier): string | undefined {
  const words = KEY_DOCS.get(type);
  if (words?.numeric) return allowedRange(words.numeric, cloud, tier);
  return words?.allowed;
}
