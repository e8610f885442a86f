import type { BucketArgs } from '@pulumi/gcp/storage/bucket';
import type * as pulumi from '@pulumi/pulumi';
import { gcsDualRegionCode, type CiRunnerSpec, type NetworkSpec, type StoreSpec } from '@checkpoints/config';
import { GCS_DEFAULT_STORAGE_CLASS, gcsLifecycleRules } from '@checkpoints/translate';

const SECONDS_PER_DAY = 86_400;

export interface CheckpointBucket {
  name: string;
  store: StoreSpec;
  location: string;
  labels: Record<string, string>;
  /** The customer-managed key's ID; absent for Google-managed encryption. */
  kmsKeyName?: pulumi.Input<string>;
  /** `checkpoints:ciRunners`: self-hosted runners' networks are admitted by the IP filter. */
  ciRunners?: CiRunnerSpec;
}

/**
 * The security baseline of every store's bucket, none of it optional: IAM only (no ACLs), public access
 * prevention enforced, soft delete always on, never force-destroyed with its objects inside. The standard
 * tier recovers overwritten checkpoints from object versions; the high-throughput tier gets a
 * hierarchical namespace (faster, atomic folder operations) which cannot be versioned, so soft delete alone
 * recovers what was deleted. A declared network becomes the bucket's IP filter; a replica region makes it a
 * configurable dual-region; a retention lock becomes the bucket's retention policy, without versioning.
 */
export function checkpointBucketArgs(bucket: CheckpointBucket): BucketArgs {
  const { store } = bucket;
  const hierarchical = store.tier === 'high-throughput';
  const ipFilter = bucketIpFilter(store.network, bucket.ciRunners);
  const locked = bucketRetentionPolicy(store);
  return {
    name: bucket.name,
    ...bucketPlacement(bucket.location, store),
    storageClass: GCS_DEFAULT_STORAGE_CLASS,
    uniformBucketLevelAccess: true,
    publicAccessPrevention: 'enforced',
    forceDestroy: false,
    versioning: { enabled: !hierarchical && locked === undefined },
    ...(locked === undefined ? {} : { retentionPolicy: locked }),
    ...(hierarchical ? { hierarchicalNamespace: { enabled: true } } : {}),
    softDeletePolicy: { retentionDurationSeconds: store.retention.softDeleteDays * SECONDS_PER_DAY },
    lifecycleRules: gcsLifecycleRules(store.retention),
    ...(bucket.kmsKeyName === undefined ? {} : { encryption: { defaultKmsKeyName: bucket.kmsKeyName } }),
    ...(ipFilter === undefined ? {} : { ipFilter }),
    labels: bucket.labels,
  };
}

/**
 * `recovery.retentionLock` as the bucket's retention policy: objects younger than the period "can only be
 * deleted or replaced once their age is greater than the retention period"
 * (https://cloud.google.com/storage/docs/bucket-lock). Never locked (`isLocked: false`): locking is
 * irreversible ("You cannot remove the retention policy ... You cannot decrease the retention period",
 * https://cloud.google.com/storage/docs/json_api/v1/buckets/lockRetentionPolicy), so a mistake could not be
 * undone. Object Versioning is off beside it: Cloud Storage does not allow both on one bucket (libs/config,
 * checkRetentionLock). The period is in seconds, a string (@pulumi/gcp 9.37 BucketRetentionPolicy).
 */
export function bucketRetentionPolicy(
  store: Pick<StoreSpec, 'recovery'>,
): { retentionPeriod: string; isLocked: false } | undefined {
  const lock = store.recovery.retentionLock;
  if (lock === undefined) return undefined;
  return { retentionPeriod: String(lock.days * SECONDS_PER_DAY), isLocked: false };
}

/**
 * A regional bucket, or with `recovery.replicaRegion` a configurable dual-region: the multi-region code as
 * `location` and the two regions as `customPlacementConfig.dataLocations`
 * (https://cloud.google.com/storage/docs/locations#configurable). `rpo: ASYNC_TURBO` is turbo replication,
 * "valid for dual-region buckets only" (@pulumi/gcp 9.37 BucketArgs.rpo;
 * https://cloud.google.com/storage/docs/managing-turbo-replication). libs/config has refused a pair that
 * is not a configurable dual-region.
 */
export function bucketPlacement(
  region: string,
  store: Pick<StoreSpec, 'recovery'>,
): Pick<BucketArgs, 'location' | 'customPlacementConfig' | 'rpo'> {
  const { replicaRegion, turboReplication } = store.recovery;
  const code = replicaRegion === undefined ? undefined : gcsDualRegionCode(region, replicaRegion);
  if (replicaRegion === undefined || code === undefined) return { location: region };
  return {
    location: code,
    customPlacementConfig: { dataLocations: [region.toUpperCase(), replicaRegion.toUpperCase()] },
    rpo: turboReplication ? 'ASYNC_TURBO' : 'DEFAULT',
  };
}

/** The Cloud KMS multi-region of each dual-region continent code (https://cloud.google.com/kms/docs/locations). */
const KMS_MULTI_REGION = { US: 'us', EU: 'europe', ASIA: 'asia' } as const;

/**
 * Where the store's key lives: a Cloud KMS key must be in the location of the data it encrypts
 * (https://cloud.google.com/storage/docs/encryption/customer-managed-keys, key location restrictions): the
 * bucket's region, or for a configurable dual-region, which has no KMS location of its own, the KMS
 * multi-region of its continent. The dual-region rule was not found in the documentation available here:
 * check it before the first `pulumi up` of a store with a replica.
 */
export function keyLocation(region: string, store: Pick<StoreSpec, 'recovery'>): string {
  const { replicaRegion } = store.recovery;
  const code = replicaRegion === undefined ? undefined : gcsDualRegionCode(region, replicaRegion);
  return code === undefined ? region : KMS_MULTI_REGION[code];
}

/** Every address of a listed VPC network: the network is the boundary, its subnets are the platform's own. */
export const WHOLE_NETWORK = ['0.0.0.0/0', '::/0'] as const;

/**
 * The bucket IP filter of a declared network (https://cloud.google.com/storage/docs/ip-filtering-overview):
 * mode Enabled admits only `cidrs` from the internet and the listed VPC networks. Google services acting
 * as their own service agents are refused (allowAllServiceAgentAccess false: a store names who may reach
 * it) and so are networks of other organizations (allowCrossOrgVpcs false). `public: true` keeps a filter
 * that was set, Disabled: once set, the provider can switch an IP filter off but not remove it
 * (@pulumi/gcp 9.37 BucketIpFilter.mode). No network block: no filter.
 *
 * Self-hosted CI runners' networks and egress ranges are admitted too: the filter governs every call on the
 * bucket but getting, updating and deleting it, which storage.buckets.exemptFromIpFilter alone lets through
 * (https://cloud.google.com/storage/docs/bypass-ip-filter, "Supported operations"), so CI's bucket IAM and
 * Anywhere Cache calls must come from an admitted network. CI's identities hold no object permission
 * (the ci-no-data-access rule), so admitting their network opens no data path to them.
 */
export function bucketIpFilter(
  network: NetworkSpec | undefined,
  ciRunners?: CiRunnerSpec,
): BucketArgs['ipFilter'] {
  if (network === undefined) return undefined;
  if (network.public) return { mode: 'Disabled' };
  const selfHosted = ciRunners?.kind === 'self-hosted';
  const cidrs = unique([...network.cidrs, ...(selfHosted ? (ciRunners.egressCidrs ?? []) : [])]);
  const networks = unique([...network.networks, ...(selfHosted ? (ciRunners.networks ?? []) : [])]);
  return {
    mode: 'Enabled',
    allowAllServiceAgentAccess: false,
    allowCrossOrgVpcs: false,
    ...(cidrs.length > 0 ? { publicNetworkSource: { allowedIpCidrRanges: cidrs } } : {}),
    ...(networks.length > 0
      ? {
          vpcNetworkSources: networks.map((name) => ({
            network: name,
            allowedIpCidrRanges: [...WHOLE_NETWORK],
          })),
        }
      : {}),
  };
}

function unique(values: readonly string[]): string[] {
  return [...new Set(values)];
}
