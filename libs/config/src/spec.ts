/** The cloud-neutral store spec, after validation and defaults (docs/config.md). */

export const ENVIRONMENTS = ['dev', 'staging', 'prod'] as const;
export const DATA_CLASSIFICATIONS = ['public', 'internal', 'confidential', 'restricted'] as const;
export const TIERS = ['standard', 'high-throughput'] as const;
export const ENCRYPTIONS = ['customer-managed', 'provider-managed'] as const;
export const CLOUDS = ['aws', 'gcp', 'azure'] as const;

export type Environment = (typeof ENVIRONMENTS)[number];
export type DataClassification = (typeof DATA_CLASSIFICATIONS)[number];
export type Tier = (typeof TIERS)[number];
export type Encryption = (typeof ENCRYPTIONS)[number];
export type Cloud = (typeof CLOUDS)[number];

export const CONFIG_NAMESPACE = 'checkpoints';
export const STORE_NAME_PATTERN = /^[a-z][a-z0-9-]{1,30}$/;

export interface RetentionSpec {
  /** Newest previous versions kept until noncurrentExpireDays; older ones go within about a day (0 = none beyond the age rule). */
  keepNoncurrentVersions: number;
  /**
   * Every previous version (and S3 delete marker) is purged this many days after it stopped being current;
   * at least 1 where the tier has object versions (0 only where it has none).
   */
  noncurrentExpireDays: number;
  /** Current objects move to the cool tier after N days (0 = never). */
  coolAfterDays: number;
  /** Current objects move to the archive tier after N days (0 = never). */
  archiveAfterDays: number;
  /** Current objects are deleted after N days (0 = never). */
  expireAfterDays: number;
  /** Incomplete multipart / resumable uploads are aborted after N days. */
  abortIncompleteUploadDays: number;
  /** Deleted objects stay recoverable for N days (GCS soft delete, Azure blob and container soft delete). */
  softDeleteDays: number;
  /** Prefixes whose objects never expire (released checkpoints), e.g. `releases/`. */
  keptPrefixes: string[];
  /** Prefixes `expireAfterDays` applies to; empty: the whole store. Never overlaps a kept prefix. */
  expirePrefixes: string[];
}

export interface AccessSpec {
  /** Principals that may act as the store's writer, in the cloud's own format. */
  writers: string[];
  /** Principals that may act as the store's reader, in the cloud's own format. */
  readers: string[];
  /** The writers and readers `externalPrincipals` lists, with why: the access table shows the reason. */
  external?: { principal: string; reason: string }[];
}

/** The training job's checkpoint workload the storage and cost projection replays. */
export interface WorkloadSpec {
  /** Size of one checkpoint, GiB. */
  checkpointSizeGiB: number;
  /** Hours between two checkpoints (each under a new key, e.g. `run-7/step-1000/model.pt`). */
  intervalHours: number;
  /** Checkpoints the job keeps: it deletes the oldest once a newer one makes more than this. */
  keepLast: number;
  /** Hours between two overwrites of `latest.pt` (a checkpoint-sized object); 0: the job writes none. */
  latestOverwriteHours: number;
  /** Whole checkpoints read back per day (evaluation, inspection), each a full read of one checkpoint. */
  readBacksPerDay: number;
  /** Job restarts per month, each listing the run's prefix and reading the newest checkpoint in full. */
  restartsPerMonth: number;
}

/** What the projection assumes for every workload key a store leaves out (shown as an assumption). */
export const WORKLOAD_DEFAULTS: WorkloadSpec = {
  checkpointSizeGiB: 10,
  intervalHours: 4,
  keepLast: 5,
  latestOverwriteHours: 1,
  readBacksPerDay: 1,
  restartsPerMonth: 4,
};

/**
 * Which networks may reach a store's data plane (the security baseline's perimeter). Requests from an allowed network still
 * need an identity with access; a network outside the list is refused even with one.
 */
export interface NetworkSpec {
  /** Every network may reach the store (authentication still required); never implied, always stated. */
  public: boolean;
  /** Public IPv4/IPv6 ranges allowed, e.g. an on-premises egress range. */
  cidrs: string[];
  /** AWS only: VPC endpoint IDs (`vpce-…`) whose traffic is allowed. */
  vpcEndpoints: string[];
  /** AWS only: VPC IDs (`vpc-…`) whose traffic through any of their endpoints is allowed. */
  vpcs: string[];
  /** GCP only: VPC networks (`projects/PROJECT/global/networks/NAME`) allowed by the bucket's IP filter. */
  networks: string[];
  /** Azure only: virtual-network subnet resource IDs allowed by the account's network rules. */
  subnets: string[];
  /** Azure only: subnet resource ID the store's `dfs` and `blob` private endpoints are placed in. */
  privateEndpointSubnet?: string;
  /**
   * Azure only: where the private endpoints' DNS records go. The zones' resource IDs (a DNS zone group per
   * endpoint), or `managed-by-policy` when the platform's Azure Policy creates the zone groups.
   */
  privateDnsZones?: PrivateDnsZones | 'managed-by-policy';
}

/** Resource IDs of the `privatelink.blob.core.windows.net` and `privatelink.dfs.core.windows.net` zones. */
export interface PrivateDnsZones {
  blob: string;
  dfs: string;
}

/**
 * Every object of the store cannot be deleted or overwritten for `days` after it is written: a store of
 * released checkpoints, written once. `prefix` (a lock on part of a store) is refused on every cloud with
 * the reason (docs/<cloud>.md): each cloud's lock covers a whole bucket or container.
 */
export interface RetentionLockSpec {
  prefix?: string;
  days: number;
}

/** Opt-in copies and locks beyond the store's own versions and soft delete. */
export interface RecoverySpec {
  /** A copy of every checkpoint in this second region (AWS replication, GCS dual-region, Azure geo pair). */
  replicaRegion?: string;
  /** GCP only: turbo replication (RPO 15 minutes) for the dual-region. */
  turboReplication: boolean;
  /** Azure only: the geo-replicated copy is readable (RA-GZRS) before a failover. */
  readableReplica: boolean;
  retentionLock?: RetentionLockSpec;
  /** Present when the store keeps a copy outside the reach of the stack's CI identities. */
  independentCopy?: IndependentCopySpec;
}

/** A copy of every checkpoint kept `retentionDays` after it changed or was deleted in the store. */
export interface IndependentCopySpec {
  retentionDays: number;
}

export interface StoreSpec {
  name: string;
  /**
   * Earlier names of the store, oldest first: its resources answer to them (Pulumi aliases) and its physical
   * names keep deriving from the first name it had, so a rename changes nothing in the cloud.
   */
  formerNames: string[];
  dataClassification: DataClassification;
  tier: Tier;
  /** AWS: AZ ID of the directory bucket (high-throughput, required). GCP: Anywhere Cache zone (optional). */
  zone?: string;
  /** GCP only: bucket location; defaults to gcp:region. */
  location?: string;
  encryption: Encryption;
  protect: boolean;
  retention: RetentionSpec;
  access: AccessSpec;
  /** The workload keys the store states; absent keys take WORKLOAD_DEFAULTS in the projection. */
  workload?: Partial<WorkloadSpec>;
  /** Record every read and write of the store's data (CloudTrail data events, Data Access logs, diagnostics). */
  audit: boolean;
  /** Absent: every network may reach the store (refused in prod; see NetworkSpec). */
  network?: NetworkSpec;
  recovery: RecoverySpec;
  /**
   * Generation of the store's customer-managed key, from 1: raising it creates a key under new names, for
   * a store whose earlier key names are still taken in the cloud (destroyed-then-re-added, rotated away).
   */
  keyGeneration: number;
  /** A reason that acknowledges a change weakening the store (`synth --base` reports it and passes). */
  acknowledge?: { weakening: string };
}

/** Where CI's jobs run (`checkpoints:ciRunners`). */
export interface CiRunnerSpec {
  kind: 'github-hosted' | 'self-hosted';
  egressCidrs?: string[];
  networks?: string[];
}

export interface StackSpec {
  environment: Environment;
  owner: string;
  costCenter: string;
  /** Azure only: an existing resource group to place the stores in instead of one per stack. */
  resourceGroupName?: string;
  /** AWS only: an existing (organization) trail that records the stores' data events instead of a stack trail. */
  organizationTrail?: string;
  /** AWS only: the name of the bootstrap's deploy role of this environment (the preflight looks it up). */
  ciDeployRole?: string;
  /** GCP only: members whose own data access is not written to the Data Access audit logs. */
  auditExemptMembers?: string[];
  /** Azure only: an existing Log Analytics workspace (resource ID) for the diagnostics instead of one per stack. */
  logAnalyticsWorkspaceId?: string;
  /** Principals from outside the stack's own account, project or subscription a prod store may name, with why. */
  externalPrincipals?: { principal: string; reason: string }[];
  /** Where CI runs; absent: GitHub-hosted runners. */
  ciRunners?: CiRunnerSpec;
  stores: StoreSpec[];
}

/** The spec's defaults (docs/config.md); a cloud may lower a default a tier cannot honour (see CloudRules). */
export const RETENTION_DEFAULTS: RetentionSpec = {
  keepNoncurrentVersions: 3,
  noncurrentExpireDays: 7,
  coolAfterDays: 30,
  archiveAfterDays: 0,
  expireAfterDays: 0,
  abortIncompleteUploadDays: 1,
  softDeleteDays: 7,
  keptPrefixes: [],
  expirePrefixes: [],
};

export function defaultEncryption(environment: Environment): Encryption {
  return environment === 'prod' ? 'customer-managed' : 'provider-managed';
}

/** Classifications whose stores are audited in every environment. */
export const AUDITED_CLASSIFICATIONS: readonly DataClassification[] = ['confidential', 'restricted'];

export function defaultAudit(environment: Environment, classification: DataClassification): boolean {
  return environment === 'prod' || AUDITED_CLASSIFICATIONS.includes(classification);
}

export function defaultProtect(environment: Environment): boolean {
  return environment === 'prod';
}

/** The name a store was created with: every physical name of the store derives from it, across renames. */
export function firstName(store: Pick<StoreSpec, 'name' | 'formerNames'>): string {
  return store.formerNames[0] ?? store.name;
}

/**
 * The aliases a store's component takes (`{ name }` each, Pulumi's alias shape): with them its URN and,
 * through Pulumi's inherited child aliases, every child's URN stays what it was under the former names.
 */
export function formerNameAliases(store: Pick<StoreSpec, 'formerNames'>): { name: string }[] {
  return store.formerNames.map((name) => ({ name }));
}
