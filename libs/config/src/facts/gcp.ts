/**
 * Google Cloud facts the validator checks offline. Each table names its source and the date it was read;
 * refresh them as libs/config/src/facts/README.md describes.
 */

/**
 * Zones per region. Source: "Regions and zones", Compute Engine documentation,
 * https://cloud.google.com/compute/docs/regions-zones (the table "Available regions and zones"), read
 * 2026-12-01 through a copy of that table generated from `gcloud compute regions list` (the search corpus
 * did not hold the page itself). Regions opened after that copy (for example any asia-southeast3) are not
 * known here and are refused until the table is refreshed.
 */
export const GCP_ZONES_BY_REGION: Readonly<Record<string, readonly string[]>> = {
  'africa-south1': ['a', 'b', 'c'],
  'asia-east1': ['a', 'b', 'c'],
  'asia-east2': ['a', 'b', 'c'],
  'asia-northeast1': ['a', 'b', 'c'],
  'asia-northeast2': ['a', 'b', 'c'],
  'asia-northeast3': ['a', 'b', 'c'],
  'asia-south1': ['a', 'b', 'c'],
  'asia-south2': ['a', 'b', 'c'],
  'asia-southeast1': ['a', 'b', 'c'],
  'asia-southeast2': ['a', 'b', 'c'],
  'australia-southeast1': ['a', 'b', 'c'],
  'australia-southeast2': ['a', 'b', 'c'],
  'europe-central2': ['a', 'b', 'c'],
  'europe-north1': ['a', 'b', 'c'],
  'europe-north2': ['a', 'b', 'c'],
  'europe-southwest1': ['a', 'b', 'c'],
  'europe-west1': ['b', 'c', 'd'],
  'europe-west10': ['a', 'b', 'c'],
  'europe-west12': ['a', 'b', 'c'],
  'europe-west2': ['a', 'b', 'c'],
  'europe-west3': ['a', 'b', 'c'],
  'europe-west4': ['a', 'b', 'c'],
  'europe-west6': ['a', 'b', 'c'],
  'europe-west8': ['a', 'b', 'c'],
  'europe-west9': ['a', 'b', 'c'],
  'me-central1': ['a', 'b', 'c'],
  'me-central2': ['a', 'b', 'c'],
  'me-west1': ['a', 'b', 'c'],
  'northamerica-northeast1': ['a', 'b', 'c'],
  'northamerica-northeast2': ['a', 'b', 'c'],
  'northamerica-south1': ['a', 'b', 'c'],
  'southamerica-east1': ['a', 'b', 'c'],
  'southamerica-west1': ['a', 'b', 'c'],
  'us-central1': ['a', 'b', 'c', 'f'],
  'us-east1': ['b', 'c', 'd'],
  'us-east4': ['a', 'b', 'c'],
  'us-east5': ['a', 'b', 'c'],
  'us-south1': ['a', 'b', 'c'],
  'us-west1': ['a', 'b', 'c'],
  'us-west2': ['a', 'b', 'c'],
  'us-west3': ['a', 'b', 'c'],
  'us-west4': ['a', 'b', 'c'],
};

export const GCP_REGIONS: readonly string[] = Object.keys(GCP_ZONES_BY_REGION);

export function gcpZonesOf(region: string): string[] {
  return (GCP_ZONES_BY_REGION[region] ?? []).map((letter) => `${region}-${letter}`);
}

export const GCP_ZONES: readonly string[] = GCP_REGIONS.flatMap(gcpZonesOf);

/**
 * IAM limits. Source: "Quotas and limits", IAM documentation, https://cloud.google.com/iam/quotas
 * (read 2026-12-01): "All members (including Google groups) in all bindings within a policy: 1,500",
 * "Google groups in all bindings within a policy: 250" (limits, which cannot be changed).
 */
export const GCP_IAM_LIMITS = {
  membersPerPolicy: 1_500,
  groupsPerPolicy: 250,
} as const;

/**
 * Default project quotas a stack can reach on its own. Source: the IAM quotas page above, "Service
 * accounts: Number of service accounts 100" per project (a quota; raise it in the console's Quotas page,
 * IAM API, "Service Account Count"), read 2026-12-01.
 */
export const GCP_DEFAULT_QUOTAS = {
  serviceAccountsPerProject: 100,
} as const;

/**
 * A project ID: 6 to 30 characters, lowercase letters, digits and hyphens, starting with a letter and not
 * ending with a hyphen. Source: "Creating and managing projects", https://cloud.google.com/resource-manager/docs/creating-managing-projects
 * (the project ID requirements), read 2026-12-01. Legacy domain-scoped IDs (`example.com:project`) are
 * accepted as the same rule after the domain.
 */
export const GCP_PROJECT_ID = /^(?:[a-z][a-z0-9.-]*[a-z0-9]:)?[a-z][a-z0-9-]{4,28}[a-z0-9]$/;

/**
 * Regions a configurable (custom) dual-region may pair, by the multi-region code the bucket's `location`
 * takes: both regions must come from the same group. Source: "Bucket locations", Cloud Storage
 * documentation, https://cloud.google.com/storage/docs/locations#configurable ("A dual-region is a specific
 * pair of regions ... Dual-region pairings can be predefined or configurable"; the table "Configurable
 * dual-regions" lists the regions per continent), and the API reference of `customPlacementConfig`,
 * https://cloud.google.com/python/docs/reference/google-cloud-storage-control/latest/google.cloud.storage_control_v2.types.StorageLayout.CustomPlacementConfig
 * ("It should specify precisely two eligible regions within the same Multiregion"), read 2026-12-01. The
 * search corpus held the page's introduction but not the table itself: the groups below are the table as
 * published before that date; a region missing here is refused until the table is refreshed.
 */
export const GCS_DUAL_REGION_GROUPS: Readonly<Record<'ASIA' | 'EU' | 'US', readonly string[]>> = {
  ASIA: [
    'asia-east1',
    'asia-east2',
    'asia-northeast1',
    'asia-northeast2',
    'asia-northeast3',
    'asia-southeast1',
  ],
  EU: [
    'europe-central2',
    'europe-north1',
    'europe-southwest1',
    'europe-west1',
    'europe-west3',
    'europe-west4',
    'europe-west8',
    'europe-west9',
  ],
  US: [
    'us-central1',
    'us-east1',
    'us-east4',
    'us-east5',
    'us-south1',
    'us-west1',
    'us-west2',
    'us-west3',
    'us-west4',
  ],
};

/** The multi-region code a configurable dual-region of these two regions takes, if they may pair. */
export function gcsDualRegionCode(region: string, replicaRegion: string): 'ASIA' | 'EU' | 'US' | undefined {
  if (region === replicaRegion) return undefined;
  return (Object.keys(GCS_DUAL_REGION_GROUPS) as ('ASIA' | 'EU' | 'US')[]).find(
    (code) =>
      GCS_DUAL_REGION_GROUPS[code].includes(region) && GCS_DUAL_REGION_GROUPS[code].includes(replicaRegion),
  );
}

/**
 * A VPC network as bucket IP filtering names it: `projects/PROJECT_ID/global/networks/NETWORK_NAME`
 * (@pulumi/gcp 9.37 `BucketIpFilterVpcNetworkSource.network`; https://cloud.google.com/storage/docs/create-ip-filter).
 * Network names follow RFC 1035: 1-63 lowercase letters, digits and hyphens, starting with a letter and
 * not ending with a hyphen (https://cloud.google.com/compute/docs/naming-resources).
 */
export const GCP_VPC_NETWORK = /^projects\/([^/]+)\/global\/networks\/([^/]+)$/;
export const GCP_NETWORK_NAME = /^[a-z](?:[-a-z0-9]{0,61}[a-z0-9])?$/;
