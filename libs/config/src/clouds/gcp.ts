import {
  GCP_NETWORK_NAME,
  GCP_PROJECT_ID,
  GCP_REGIONS,
  GCP_VPC_NETWORK,
  GCP_ZONES_BY_REGION,
  GCS_DUAL_REGION_GROUPS,
  gcpZonesOf,
  gcsDualRegionCode,
} from '../facts/gcp';
import { nearestValues, type ConfigIssue } from '../issues';
import { rangeOf } from '../limits';
import type { CloudRules, Report } from '../load';
import type { RawStore } from '../schema';
import type { Environment, RetentionLockSpec, RetentionSpec, StoreSpec } from '../spec';

/** What the GCP rules need from outside the `checkpoints:` namespace. */
export interface GcpProviderSettings {
  /** `gcp:region`: where a store without its own `location` goes. */
  region?: string | undefined;
  /** `gcp:project`: the project whose own identities a prod store may name without listing them. */
  project?: string | undefined;
}

/** Problems with `gcp:project`, when it is set (the provider may also read it from the environment). */
export function gcpProjectIssues(project: string | undefined): ConfigIssue[] {
  if (project === undefined || GCP_PROJECT_ID.test(project)) return [];
  const hint = /^[0-9]+$/.test(project)
    ? ' (that is a project number; gcp:project takes the project ID)'
    : project !== project.toLowerCase()
      ? ` (project IDs are lowercase: ${project.toLowerCase()})`
      : '';
  return [
    {
      path: 'gcp:project',
      value: project,
      message: `allowed: a project ID: 6 to 30 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen${hint}`,
    },
  ];
}

/**
 * Google Cloud limits checked at config time, so they fail here and not minutes into `pulumi up`:
 * bucket location and Anywhere Cache zone, soft-delete bounds, what a hierarchical-namespace bucket
 * cannot do, expiry inside a storage class's minimum storage duration, and IAM member formats.
 */
export function gcpRules(provider: GcpProviderSettings = {}): CloudRules {
  return {
    cloud: 'gcp',
    limits: 'gcp',
    stackKeys: ['auditExemptMembers'],
    storeKeys: [
      'zone',
      'location',
      'network.networks',
      'recovery.turboReplication',
      'recovery.independentCopy',
    ],
    // Not by default behind an enabled IP filter, which refuses the transfer's service agent (asked for there,
    // the copy is refused, saying why).
    independentCopy: { byDefault: (spec) => spec.network === undefined || spec.network.public === true },
    retentionDefaults: (tier) =>
      // Hierarchical-namespace buckets have no object versioning: nothing noncurrent to keep or expire;
      // their data is hot by definition, so it is not moved to NEARLINE unless the spec asks.
      tier === 'high-throughput'
        ? { keepNoncurrentVersions: 0, noncurrentExpireDays: 0, coolAfterDays: 0 }
        : {},
    outsider: (member) => gcpOutsider(member, provider.project),
    checkStore: (store, raw, report) => {
      const region = checkLocation(store, provider, report);
      if (store.tier === 'high-throughput') {
        if (store.zone !== undefined) checkCacheZone(store.zone, region, report);
        checkNoVersioningOptions(
          raw,
          report,
          'tier high-throughput uses a hierarchical-namespace bucket, which does not support object versioning',
          'soft delete keeps deleted objects recoverable for retention.softDeleteDays instead',
        );
      } else if (store.retention.noncurrentExpireDays === 0 && store.recovery.retentionLock === undefined) {
        report(
          'retention.noncurrentExpireDays',
          0,
          `would keep every overwritten or deleted checkpoint, as a noncurrent version, forever, which the purge promise forbids (docs/config.md); use ${rangeOf('retention.noncurrentExpireDays', 'gcp')} days`,
        );
      }
      if (store.retention.abortIncompleteUploadDays === 0) {
        report(
          'retention.abortIncompleteUploadDays',
          0,
          `Cloud Storage keeps the parts of an incomplete multipart upload, and bills them, until a lifecycle rule aborts it; use ${rangeOf('retention.abortIncompleteUploadDays', 'gcp')} days`,
        );
      }
      checkExpiryAfterMinimumStorage(store.retention, report);
      store.access.writers.forEach((member, index) =>
        checkMember(member, `access.writers[${index}]`, report),
      );
      store.access.readers.forEach((member, index) =>
        checkMember(member, `access.readers[${index}]`, report),
      );
      store.network?.networks.forEach((network, index) =>
        checkNetworkName(network, `network.networks[${index}]`, report),
      );
      store.network?.cidrs.forEach((cidr, index) =>
        checkPublicRange(cidr, `network.cidrs[${index}]`, report),
      );
      checkRecovery(store, region, report);
      if (
        store.recovery.independentCopy !== undefined &&
        store.network !== undefined &&
        !store.network.public
      ) {
        // The bucket IP filter admits a service agent only with allowAllServiceAgentAccess ("allows all service
        // agents to access the bucket regardless of the IP filter configuration", @pulumi/gcp BucketIpFilter),
        // which would admit every Google service agent: the copy's transfer agent is not let through alone.
        report(
          'recovery.independentCopy',
          { enabled: true, retentionDays: store.recovery.independentCopy.retentionDays },
          'cannot be kept for a store behind an enabled IP filter (network without public: true): the filter refuses the Storage Transfer Service agent that reads the store into the copy, and letting it through (allowAllServiceAgentAccess) admits every Google service agent; remove recovery.independentCopy, or the store\'s network block (docs/gcp.md "Independent copy")',
        );
      }
      if (store.recovery.retentionLock !== undefined) {
        checkRetentionLock(store, store.recovery.retentionLock, raw, report);
      }
    },
  };
}

/** A Google Cloud region, e.g. us-central1 or northamerica-northeast1. */
const GCP_REGION = /^[a-z]+-[a-z]+[0-9]+$/;

/** A Google Cloud zone, e.g. us-central1-a. */
const GCP_ZONE = /^[a-z]+-[a-z]+[0-9]+-[a-z]$/;

/** Minimum storage durations of the classes stores use: the cool tier is NEARLINE, the archive tier ARCHIVE. */
const NEARLINE_MINIMUM_DAYS = 30;
const ARCHIVE_MINIMUM_DAYS = 365;

const REGIONAL_ONLY =
  'checkpoint stores are regional (next to the accelerators, with their KMS key and Anywhere Cache in the ' +
  'same region), so multi-region and dual-region locations are not offered (for a copy in a second region, set recovery.replicaRegion)';

/** Validates the bucket location (the store's own, else gcp:region); returns it when it is a region. */
function checkLocation(store: StoreSpec, provider: GcpProviderSettings, report: Report): string | undefined {
  if (store.location !== undefined) {
    const problem = regionProblem(store.location);
    if (problem === undefined) return store.location;
    report('location', store.location, problem);
    return undefined;
  }
  if (provider.region === undefined || provider.region === '') {
    report(
      'location',
      undefined,
      'is required when the stack sets no gcp:region: a Google Cloud region such as us-central1',
    );
    return undefined;
  }
  const problem = regionProblem(provider.region);
  if (problem === undefined) return provider.region;
  report(
    'location',
    undefined,
    `is not set, so the bucket would go to gcp:region '${provider.region}', which ${problem}`,
  );
  return undefined;
}

function regionProblem(location: string): string | undefined {
  if (GCP_REGIONS.includes(location)) return undefined;
  if (GCP_ZONE.test(location) && GCP_REGIONS.includes(location.slice(0, -2))) {
    return `is a zone, not a region: use its region ${location.slice(0, -2)} (a high-throughput store names the zone in 'zone', for its Anywhere Cache)`;
  }
  if (GCP_REGIONS.includes(location.toLowerCase())) {
    return `must be written in lowercase, e.g. ${location.toLowerCase()}`;
  }
  if (/^[A-Za-z]+[0-9]*$/.test(location)) {
    return `is not a region: ${REGIONAL_ONLY}; use a region such as us-central1`;
  }
  return `is not a Google Cloud region (the published list is in libs/config/src/facts/gcp.ts); did you mean ${nearestValues(location, GCP_REGIONS).join(', ')}?`;
}

function checkCacheZone(zone: string, region: string | undefined, report: Report): void {
  if (!GCP_ZONE.test(zone)) {
    const hint = GCP_REGION.test(zone) ? ` (that is a region; add the zone letter, e.g. ${zone}-a)` : '';
    report('zone', zone, `must be a Google Cloud zone such as us-central1-a for the Anywhere Cache${hint}`);
    return;
  }
  const zoneRegion = zone.slice(0, -2);
  if (region !== undefined && zoneRegion !== region) {
    report(
      'zone',
      zone,
      `is in region ${zoneRegion}, but the bucket is in ${region}: an Anywhere Cache must be in a zone of the bucket's region, e.g. ${gcpZonesOf(region)[0] ?? `${region}-a`}`,
    );
    return;
  }
  const letters = GCP_ZONES_BY_REGION[zoneRegion];
  if (letters !== undefined && !letters.includes(zone.slice(-1))) {
    report(
      'zone',
      zone,
      `does not exist: the zones of ${zoneRegion} are ${gcpZonesOf(zoneRegion).join(', ')}`,
    );
  }
}

/** The previous-version keys of a store whose bucket cannot have versions, `why` (a clause) and what keeps data instead. */
function checkNoVersioningOptions(raw: RawStore, report: Report, why: string, instead: string): void {
  for (const key of ['keepNoncurrentVersions', 'noncurrentExpireDays'] as const) {
    const value = raw.retention?.[key];
    if (value !== undefined && value !== 0) {
      report(
        `retention.${key}`,
        value,
        `${why}, so there are no previous versions to keep or expire; remove retention.${key} or set it to 0 (${instead})`,
      );
    }
  }
}

/**
 * Lifecycle ages count from an object's creation, and so do minimum storage durations: an expiry younger
 * than the minimum of the class the object is in by then bills every object for days it was never kept.
 * Other early deletions (a job deleting an old checkpoint, a previous version expiring) depend on when
 * they happen; libs/policy warns about those instead.
 */
function checkExpiryAfterMinimumStorage(retention: RetentionSpec, report: Report): void {
  const { coolAfterDays, archiveAfterDays, expireAfterDays } = retention;
  const classAtExpiry =
    archiveAfterDays > 0
      ? { name: 'ARCHIVE', key: 'archiveAfterDays', after: archiveAfterDays, minimum: ARCHIVE_MINIMUM_DAYS }
      : coolAfterDays > 0
        ? { name: 'NEARLINE', key: 'coolAfterDays', after: coolAfterDays, minimum: NEARLINE_MINIMUM_DAYS }
        : undefined;
  if (expireAfterDays === 0 || classAtExpiry === undefined || expireAfterDays >= classAtExpiry.minimum)
    return;
  const { name, key, after, minimum } = classAtExpiry;
  report(
    'retention.expireAfterDays',
    expireAfterDays,
    `objects move to ${name} at day ${after} (retention.${key}), which has a ${minimum}-day minimum storage ` +
      `duration: deleting them at day ${expireAfterDays} is billed as if each were kept ${minimum} days; set ` +
      `expireAfterDays to 0 (never) or at least ${minimum}, or retention.${key} to 0`,
  );
}

const EMAIL = String.raw`[A-Za-z0-9._%+'-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z]{2,63}`;
const DOMAIN = String.raw`(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}`;
// Google service accounts, service agents included, all live under gserviceaccount.com.
const SERVICE_ACCOUNT = String.raw`[a-z0-9][a-z0-9._-]*@(?:[a-z0-9-]+\.)*gserviceaccount\.com`;
const WORKLOAD_POOL = String.raw`projects/[0-9]{1,19}/locations/global/workloadIdentityPools/(?:[a-z0-9-]{4,32}|[a-z][a-z0-9-]{4,28}[a-z0-9]\.svc\.id\.goog)`;
const WORKFORCE_POOL = String.raw`locations/global/workforcePools/[a-z][a-z0-9-]{4,61}[a-z0-9]`;
const SUBJECT = String.raw`subject/\S{1,127}`;
const SET = String.raw`(?:group/\S+|attribute\.[a-z_][a-z0-9_]{0,99}/\S+|\*)`;
const IAM = 'iam\\.googleapis\\.com';

/** The member forms stores accept, each with a strict pattern. */
const MEMBER_FORMS: readonly RegExp[] = [
  new RegExp(`^user:${EMAIL}$`),
  new RegExp(`^group:${EMAIL}$`),
  new RegExp(`^serviceAccount:${SERVICE_ACCOUNT}$`),
  new RegExp(`^domain:${DOMAIN}$`, 'i'),
  new RegExp(`^principal://${IAM}/${WORKLOAD_POOL}/${SUBJECT}$`),
  new RegExp(`^principal://${IAM}/${WORKFORCE_POOL}/${SUBJECT}$`),
  new RegExp(
    `^principalSet://${IAM}/${WORKLOAD_POOL}/(?:${SET}|namespace/[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)$`,
  ),
  new RegExp(`^principalSet://${IAM}/${WORKFORCE_POOL}/${SET}$`),
];

const EXPECTED_MEMBERS =
  'expected user:EMAIL, group:EMAIL, serviceAccount:NAME@PROJECT.iam.gserviceaccount.com, domain:DOMAIN, ' +
  'principal://iam.googleapis.com/projects/PROJECT_NUMBER/locations/global/workloadIdentityPools/POOL/subject/SUBJECT, ' +
  'principalSet://iam.googleapis.com/projects/PROJECT_NUMBER/locations/global/workloadIdentityPools/POOL/(group/GROUP | attribute.NAME/VALUE | namespace/NAMESPACE | *), ' +
  'or the same two forms for locations/global/workforcePools/POOL';

const PUBLIC_MEMBERS = new Set(['allusers', 'allauthenticatedusers', 'principalset://goog/public:all']);
const BASIC_ROLE_MEMBERS = /^project(Owner|Editor|Viewer):/;
const PREFIXES = ['user:', 'group:', 'serviceAccount:', 'domain:', 'principal://', 'principalSet://'];

/**
 * Consumer email domains: an account there belongs to a person, not to the organization, and nothing the
 * organization controls (offboarding, 2-step policy) applies to it.
 * https://cloud.google.com/resource-manager/docs/organization-policy/restricting-domains (domain restricted
 * sharing exists to keep such members out).
 */
const CONSUMER_DOMAINS = new Set([
  'gmail.com',
  'googlemail.com',
  'googlegroups.com',
  'yahoo.com',
  'hotmail.com',
  'outlook.com',
  'live.com',
  'icloud.com',
  'aol.com',
  'proton.me',
  'protonmail.com',
  'gmx.com',
  'yandex.com',
]);

/**
 * The bootstrap's CI identities: service accounts `checkpoints-<stack>-preview` / `-deploy-<env>` and the
 * workload identity pool `checkpoints-<stack>` (bootstrap/src/names.ts).
 */
const CI_ACCOUNT = /^serviceAccount:checkpoints-[a-z0-9-]+-(?:preview|deploy-[a-z]+)@/;
const CI_POOL = /\/workloadIdentityPools\/checkpoints-[a-z0-9-]+\//;

/** Why a member is from outside the stack's project, or undefined (gcpRules' `outsider`). */
export function gcpOutsider(member: string, project: string | undefined): string | undefined {
  if (CI_ACCOUNT.test(member) || CI_POOL.test(member))
    return "is a CI identity or a member of CI's workload identity pool: CI never reads or writes checkpoint data";
  const email = /^(?:user|group):[^@]+@(.+)$/.exec(member)?.[1] ?? /^domain:(.+)$/.exec(member)?.[1];
  if (email !== undefined && CONSUMER_DOMAINS.has(email.toLowerCase()))
    return `is of the consumer domain ${email.toLowerCase()}, outside the organization`;
  const accountProject =
    /^serviceAccount:[^@]+@([a-z][a-z0-9-]{4,28}[a-z0-9])\.iam\.gserviceaccount\.com$/.exec(member)?.[1];
  const poolProject = /\/workloadIdentityPools\/([a-z][a-z0-9-]{4,28}[a-z0-9])\.svc\.id\.goog\//.exec(
    member,
  )?.[1];
  const other = accountProject ?? poolProject;
  if (project !== undefined && other !== undefined && other !== project)
    return `is an identity of project ${other} (another project or environment), not of gcp:project ${project}`;
  return undefined;
}

function checkMember(member: string, path: string, report: Report): void {
  const problem = memberProblem(member);
  if (problem !== undefined) report(path, member, problem);
}

function memberProblem(member: string): string | undefined {
  if (PUBLIC_MEMBERS.has(member.toLowerCase())) {
    return 'grants access to anyone: public access is never allowed on a checkpoint store; name the users, groups or service accounts that need it';
  }
  if (BASIC_ROLE_MEMBERS.test(member)) {
    return 'grants access to every holder of a basic (owner/editor/viewer) role on a project; name a group or service account instead';
  }
  if (member.startsWith('deleted:')) return 'is a deleted principal; remove it';
  if (/^user:.*@([a-z0-9-]+\.)*gserviceaccount\.com$/.test(member)) {
    return `is a service account, not a user: write 'serviceAccount:${member.slice('user:'.length)}'`;
  }
  if (MEMBER_FORMS.some((form) => form.test(member))) return undefined;
  return `${specificHint(member)}${EXPECTED_MEMBERS}`;
}

function specificHint(member: string): string {
  const miscased = PREFIXES.find(
    (prefix) => member.toLowerCase().startsWith(prefix.toLowerCase()) && !member.startsWith(prefix),
  );
  if (miscased) return `member types are case-sensitive: write '${miscased}'; `;
  if (!member.includes(':') && member.includes('@')) {
    return `has no member type: write e.g. 'user:${member}' or 'group:${member}'; `;
  }
  if (/^principal(Set)?:\/\/iam\.googleapis\.com\/projects\/[^/]*[^0-9/][^/]*\//.test(member)) {
    return 'names the project by ID: workload identity pools are addressed by project number; ';
  }
  return 'is not a GCP IAM member; ';
}

function checkNetworkName(network: string, path: string, report: Report): void {
  const match = GCP_VPC_NETWORK.exec(network);
  if (!match) {
    const hint = network.includes('/')
      ? ''
      : ` (a bare name; write projects/PROJECT_ID/global/networks/${network})`;
    report(path, network, `must be a VPC network as projects/PROJECT_ID/global/networks/NETWORK_NAME${hint}`);
    return;
  }
  const [, project = '', name = ''] = match;
  if (!GCP_PROJECT_ID.test(project)) {
    report(
      path,
      network,
      `names project '${project}', which is not a project ID (6 to 30 lowercase letters, digits and hyphens, starting with a letter${/^[0-9]+$/.test(project) ? '; that is a project number' : ''})`,
    );
  }
  if (!GCP_NETWORK_NAME.test(name)) {
    report(
      path,
      network,
      `names network '${name}', which is not a VPC network name (1 to 63 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen)`,
    );
  }
}

/**
 * Private and link-local ranges (RFC 1918, RFC 6598 shared space, loopback, link-local; IPv6 unique-local
 * and link-local): no request from the internet comes from them, so in `publicNetworkSource` they admit
 * nothing; a VPC's own addresses are admitted by listing the network in `networks`
 * (https://cloud.google.com/storage/docs/ip-filtering-overview: public network sources and VPC network sources).
 */
const PRIVATE_V4 = [
  { base: [10], bits: 8 },
  { base: [172, 16], bits: 12 },
  { base: [192, 168], bits: 16 },
  { base: [100, 64], bits: 10 },
  { base: [127], bits: 8 },
  { base: [169, 254], bits: 16 },
];

function isPrivateRange(cidr: string): boolean {
  const [address = ''] = cidr.split('/');
  if (address.includes(':')) return /^(f[cd][0-9a-f]{0,2}:|fe[89ab][0-9a-f]?:|::1$)/i.test(address);
  const value = address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0);
  return PRIVATE_V4.some(({ base, bits }) => {
    const start = [...base, 0, 0, 0].slice(0, 4).reduce((sum, part) => sum * 256 + part, 0);
    return Math.floor(value / 2 ** (32 - bits)) === Math.floor(start / 2 ** (32 - bits));
  });
}

function checkPublicRange(cidr: string, path: string, report: Report): void {
  if (!isPrivateRange(cidr)) return;
  report(
    path,
    cidr,
    'is a private range: the IP filter matches cidrs against requests from the internet, which never come from it; list the VPC network in network.networks instead (projects/PROJECT_ID/global/networks/NAME)',
  );
}

/**
 * A replica region makes the bucket a configurable dual-region (both regions of one continent group);
 * turbo replication exists only on dual-regions. The high-throughput tier stays regional, next to the
 * accelerators and its Anywhere Cache.
 */
function checkRecovery(store: StoreSpec, region: string | undefined, report: Report): void {
  const { replicaRegion, turboReplication } = store.recovery;
  if (replicaRegion !== undefined) {
    if (store.tier === 'high-throughput') {
      report(
        'recovery.replicaRegion',
        replicaRegion,
        'is not offered on tier high-throughput: its hierarchical-namespace bucket stays in one region, next to the accelerators and its Anywhere Cache; keep the copy in a standard store instead',
      );
    } else if (!GCP_REGIONS.includes(replicaRegion)) {
      report(
        'recovery.replicaRegion',
        replicaRegion,
        `is not a Google Cloud region (libs/config/src/facts/gcp.ts); did you mean ${nearestValues(replicaRegion, GCP_REGIONS).join(', ')}?`,
      );
    } else if (region !== undefined && gcsDualRegionCode(region, replicaRegion) === undefined) {
      report(
        'recovery.replicaRegion',
        replicaRegion,
        replicaRegion === region
          ? `is the bucket's own region; a replica goes to a second region of the same continent`
          : `cannot pair with the bucket's region ${region} in a configurable dual-region: both must be in one group, ${dualRegionChoices(region)}`,
      );
    }
  }
  if (turboReplication && replicaRegion === undefined) {
    report(
      'recovery.turboReplication',
      true,
      'applies to a dual-region bucket only: set recovery.replicaRegion as well, or remove turboReplication',
    );
  }
}

/**
 * A whole-store retention lock is the bucket's retention policy, never locked
 * (https://cloud.google.com/storage/docs/bucket-lock: "objects in the bucket can only be deleted or replaced
 * once their age is greater than the retention period"; the Storage JSON API's Bucket.retentionPolicy: "Any
 * attempt to overwrite or delete objects younger than the retention period will result in a
 * PERMISSION_DENIED error"). What it cannot be combined with is refused, with the reason:
 * - a prefix: the policy covers every object of the bucket, and Object Retention Lock is set object by
 *   object by the request that writes it (https://cloud.google.com/storage/docs/object-lock), so no bucket
 *   setting locks one prefix;
 * - the high-throughput tier: its hierarchical namespace exists for the renames and overwrites of a
 *   running job, which a retention policy refuses, and Bucket Lock is not among the features the
 *   documentation available here confirms for hierarchical-namespace buckets (docs/gcp.md, "Retention lock");
 * - previous versions: Cloud Storage does not allow Object Versioning on a bucket with a retention policy
 *   (https://cloud.google.com/storage/docs/bucket-lock; google/exposure-notifications-verification-server#877
 *   "Retention policy and versioning are mutually exclusive"), so a locked bucket is unversioned and there
 *   is nothing noncurrent to keep;
 * - an expiry or a job's overwrites inside the lock, which the policy would refuse.
 */
function checkRetentionLock(store: StoreSpec, lock: RetentionLockSpec, raw: RawStore, report: Report): void {
  const lockDays = `recovery.retentionLock: { days: ${lock.days} } (docs/gcp.md, "Retention lock")`;
  if (lock.prefix !== undefined) {
    report(
      'recovery.retentionLock.prefix',
      lock.prefix,
      'is refused on Cloud Storage: a bucket retention policy locks every object of the bucket (latest.pt and the runs a job deletes included), ' +
        'and Object Retention Lock is set object by object by the request that writes it, so no bucket setting can lock one prefix; ' +
        `omit prefix and lock a store of its own that holds the released checkpoints: ${lockDays}`,
    );
  }
  if (store.tier === 'high-throughput') {
    report(
      'recovery.retentionLock',
      lock,
      'is not offered on tier high-throughput: its hierarchical-namespace bucket is for the folder renames and overwrites of a running job, ' +
        'which a retention policy refuses, and the documentation available here does not confirm a retention policy on such a bucket; ' +
        `keep the released checkpoints in a standard store with ${lockDays}`,
    );
    return;
  }
  checkNoVersioningOptions(
    raw,
    report,
    'a store with recovery.retentionLock gets a bucket retention policy, and Cloud Storage does not allow Object Versioning on a bucket with one',
    `the lock keeps every checkpoint ${lock.days} days; after that soft delete keeps a deleted one retention.softDeleteDays`,
  );
  const { expireAfterDays } = store.retention;
  if (expireAfterDays > 0 && expireAfterDays <= lock.days) {
    report(
      'retention.expireAfterDays',
      expireAfterDays,
      `expires checkpoints inside the ${lock.days}-day retention lock, which refuses the lifecycle delete until the lock ends; ` +
        `set expireAfterDays to 0 (never) or above ${lock.days}`,
    );
  }
  const overwrites = raw.workload?.latestOverwriteHours;
  if (overwrites !== undefined && overwrites > 0) {
    report(
      'workload.latestOverwriteHours',
      overwrites,
      `a job cannot overwrite latest.pt in a locked store: the retention policy refuses every overwrite of an object younger than ${lock.days} days; ` +
        'set latestOverwriteHours to 0 (released checkpoints are written once, each under a new key) and keep latest.pt in an unlocked store',
    );
  }
}

function dualRegionChoices(region: string): string {
  const code = (Object.keys(GCS_DUAL_REGION_GROUPS) as (keyof typeof GCS_DUAL_REGION_GROUPS)[]).find(
    (candidate) => GCS_DUAL_REGION_GROUPS[candidate].includes(region),
  );
  if (code === undefined)
    return `and ${region} is in none of them (configurable dual-regions exist in ASIA, EU and US only)`;
  const others = GCS_DUAL_REGION_GROUPS[code].filter((candidate) => candidate !== region);
  return `for ${region} one of ${others.join(', ')}`;
}

/**
 * The member forms an audit config exempts: @pulumi/gcp 9.37 IAMAuditConfigAuditLogConfig.exemptedMembers
 * ("Each entry can have one of the following values: user:{emailid}, serviceAccount:{emailid},
 * group:{emailid}, domain:{domain}"), as https://cloud.google.com/logging/docs/audit/configure-data-access#exempt describes.
 */
const AUDIT_EXEMPTION_FORMS = /^(user|serviceAccount|group|domain):/;

/** What `gcpAuditExemptionIssues` needs to know of the stack. */
export interface AuditExemptionContext {
  environment: Environment;
  /** Members that read a store's checkpoints (its reader identity, `access.readers`), with the store's name. */
  readers: readonly { member: string; store: string }[];
}

/**
 * `checkpoints:auditExemptMembers`: each a member an audit config can exempt. In prod an exemption is never
 * a reader of a store, nor a member that stands for people the stack does not know (a domain, a group),
 * since those could include readers: who read the checkpoints is what an audit is asked first.
 */
export function gcpAuditExemptionIssues(
  members: readonly string[] | undefined,
  context: AuditExemptionContext,
): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  (members ?? []).forEach((member, index) => {
    const path = `checkpoints:auditExemptMembers[${index}]`;
    const problem = memberProblem(member);
    if (problem !== undefined) {
      issues.push({ path, value: member, message: problem });
      return;
    }
    if (!AUDIT_EXEMPTION_FORMS.test(member)) {
      issues.push({
        path,
        value: member,
        message:
          'is not a member an audit config can exempt: exemptedMembers takes user:EMAIL, serviceAccount:EMAIL, group:EMAIL or domain:DOMAIN (for a workload identity, exempt the service account it acts as)',
      });
      return;
    }
    if (members?.indexOf(member) !== index) {
      issues.push({ path, value: member, message: 'is listed twice' });
      return;
    }
    if (context.environment !== 'prod') return;
    const reader = context.readers.find((candidate) => candidate.member === member);
    if (reader) {
      issues.push({
        path,
        value: member,
        message: `reads the checkpoints of store ${reader.store}: in prod every read is recorded; exempt a writer (for log volume) and never a reader`,
      });
    } else if (/^(domain|group):/.test(member)) {
      issues.push({
        path,
        value: member,
        message:
          'stands for every member of a domain or group, which can include readers: in prod exempt individual writer identities only (serviceAccount:… or user:…)',
      });
    }
  });
  return issues;
}
