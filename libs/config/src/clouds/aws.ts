import {
  AWS_AZ_IDS,
  AWS_REGIONS,
  AWS_TRAIL_ARN,
  AWS_VPC_ENDPOINT_ID,
  AWS_VPC_ID,
  awsPartitionOf,
  PRIVATE_IPV4_RANGES,
  S3_EXPRESS_ZONES,
  type AwsPartition,
} from '../facts/aws';
import { nearestValues, type ConfigIssue } from '../issues';
import { rangeOf } from '../limits';
import type { CloudRules, Report } from '../load';
import type { RawStore } from '../schema';
import type { RetentionLockSpec, RetentionSpec, StackSpec, StoreSpec, Tier } from '../spec';

/** S3 refuses a lifecycle transition to STANDARD_IA earlier than 30 days after creation. */
export const S3_MIN_DAYS_BEFORE_INFREQUENT_ACCESS = 30;
/** S3 refuses a transition out of STANDARD_IA (to the archive class) less than 30 days after the one into it. */
export const S3_MIN_DAYS_IN_INFREQUENT_ACCESS = 30;

/** An availability zone ID such as `use1-az4` (Local Zones, e.g. `usw2-lax1-az1`, are not supported). */
export const AWS_AZ_ID = /^[a-z]{2,4}[0-9]-az[0-9]+$/;
/** Account root, role or user ARN, in the commercial, GovCloud or China partition; roles and users may have a path. */
export const AWS_PRINCIPAL_ARN =
  /^arn:(?:aws|aws-us-gov|aws-cn):iam::[0-9]{12}:(?:root|(?:role|user)\/(?:[\w+=,.@-]+\/)*[\w+=,.@-]{1,64})$/;
/** An AWS service principal such as `sagemaker.amazonaws.com`. */
export const AWS_SERVICE_PRINCIPAL = /^[a-z0-9.-]+\.amazonaws\.com$/;

const PRINCIPAL_FORMATS =
  'expected an IAM principal ARN (arn:aws:iam::123456789012:root, arn:aws:iam::123456789012:role/NAME or ' +
  'arn:aws:iam::123456789012:user/NAME; partition aws, aws-us-gov or aws-cn) or an AWS service principal ' +
  'such as sagemaker.amazonaws.com';

/** The AWS rules, plus what needs the stack's `aws:region`, which the store rules cannot see. */
export interface AwsCloudRules extends CloudRules {
  /**
   * The same rules, with each store's zone and principals also checked against the region and its partition,
   * and, given the stack's `aws:allowedAccountIds`, a prod store's principals against those accounts.
   */
  forRegion(region: string, accounts?: readonly string[]): CloudRules;
  /** Problems with `aws:region` itself: required and a published region, because every output and AZ check depends on it. */
  regionIssues(region: string | undefined): ConfigIssue[];
}

/** S3 and S3 Express One Zone limits, checked at config time so they do not fail minutes into `up`. */
export const awsRules: AwsCloudRules = {
  ...storeRules(undefined),
  forRegion: storeRules,
  regionIssues,
};

function storeRules(region: string | undefined, accounts?: readonly string[]): CloudRules {
  return {
    cloud: 'aws',
    limits: 'aws',
    stackKeys: ['organizationTrail', 'ciDeployRole'],
    storeKeys: ['zone', 'network.vpcEndpoints', 'network.vpcs', 'recovery.independentCopy'],
    retentionDefaults,
    checkStore: (store, raw, report) => checkAwsStore(store, raw, report, region),
    outsider: (principal) => awsOutsider(principal, accounts),
  };
}

// Neither tier has soft delete; directory buckets also have no versioning and one storage class.
function retentionDefaults(tier: Tier): Partial<RetentionSpec> {
  if (tier === 'standard') return { softDeleteDays: 0 };
  return {
    keepNoncurrentVersions: 0,
    noncurrentExpireDays: 0,
    coolAfterDays: 0,
    archiveAfterDays: 0,
    softDeleteDays: 0,
  };
}

/**
 * The stack's `aws:allowedAccountIds` (the provider's list of the accounts it may run in, set in the stack
 * file as a YAML list), or the issue with it; undefined when unset.
 */
export function allowedAccountsOf(raw: unknown): { accounts?: string[]; issues: ConfigIssue[] } {
  if (raw === undefined) return { issues: [] };
  let value: unknown = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw) as unknown;
    } catch {
      value = raw;
    }
  }
  if (Array.isArray(value) && value.length > 0 && value.every((id) => /^[0-9]{12}$/.test(String(id)))) {
    return { accounts: value.map(String), issues: [] };
  }
  return {
    issues: [
      {
        path: 'aws:allowedAccountIds',
        value: raw,
        message: 'must be a list of 12-digit AWS account IDs, e.g. ["123456789012"]',
      },
    ],
  };
}

/**
 * In prod the stack's accounts must be known when a store names IAM principals, so that one of another account
 * is refused rather than passed unjudged (awsOutsider): `aws:allowedAccountIds` is then required.
 */
export function allowedAccountsRequired(
  spec: Pick<StackSpec, 'environment' | 'stores'>,
  accounts: readonly string[] | undefined,
): ConfigIssue[] {
  if (spec.environment !== 'prod' || accounts !== undefined) return [];
  const named = spec.stores.some((store) =>
    [...store.access.writers, ...store.access.readers].some((principal) => AWS_PRINCIPAL_ARN.test(principal)),
  );
  if (!named) return [];
  return [
    {
      path: 'aws:allowedAccountIds',
      value: undefined,
      message:
        'is required in prod when a store names IAM principals in access.writers or access.readers: the account this stack deploys to, e.g. ["123456789012"] (the provider refuses any other); a prod store then refuses principals of another account unless checkpoints:externalPrincipals lists them',
    },
  ];
}

function regionIssues(region: string | undefined): ConfigIssue[] {
  if (region === undefined) {
    return [
      {
        path: 'aws:region',
        value: undefined,
        message: 'is required: the region of every store, e.g. us-east-1 (set it in the stack config file)',
      },
    ];
  }
  if (AWS_REGIONS.includes(region)) return [];
  if (AWS_REGIONS.includes(region.toLowerCase())) {
    return [
      {
        path: 'aws:region',
        value: region,
        message: `region codes are lowercase: use ${region.toLowerCase()}`,
      },
    ];
  }
  const zoneName = /^([a-z]{2}(?:-[a-z]+)+-[0-9]+)[a-z]$/.exec(region)?.[1];
  if (zoneName !== undefined && AWS_REGIONS.includes(zoneName)) {
    return [
      {
        path: 'aws:region',
        value: region,
        message: `is an availability zone name, not a region; use its region ${zoneName}`,
      },
    ];
  }
  return [
    {
      path: 'aws:region',
      value: region,
      message: `is not an AWS region (${PUBLISHED_REGIONS}); did you mean ${nearestValues(region, AWS_REGIONS).join(', ')}?`,
    },
  ];
}

const PUBLISHED_REGIONS = 'the published list is in libs/config/src/facts/aws.ts';

function checkAwsStore(store: StoreSpec, raw: RawStore, report: Report, region: string | undefined): void {
  if (store.tier === 'high-throughput') {
    checkZone(store, report, region);
    checkDirectoryBucketRetention(raw, report);
  } else {
    checkStandardRetention(store, report);
  }
  if (store.retention.abortIncompleteUploadDays === 0) {
    report('retention.abortIncompleteUploadDays', 0, NEVER_ABORT);
  }
  checkNetwork(store, report);
  checkRecovery(store, report, region);
  if ([store.name, ...store.formerNames].includes(AWS_AUDIT_LOG_NAME)) {
    report(
      store.name === AWS_AUDIT_LOG_NAME ? 'name' : 'formerNames',
      AWS_AUDIT_LOG_NAME,
      `is the name the stack's audit log bucket is derived from (its CloudTrail trail writes there); choose another store name`,
    );
  }
  const accessLogName = [store.name, ...store.formerNames].find((name) =>
    name.startsWith(AWS_ACCESS_LOG_NAME),
  );
  if (accessLogName !== undefined) {
    report(
      store.name === accessLogName ? 'name' : 'formerNames',
      accessLogName,
      `starts with ${AWS_ACCESS_LOG_NAME}, the name the stack's server access log buckets are derived from (${AWS_ACCESS_LOG_NAME}, ${AWS_ACCESS_LOG_NAME}-<region>); choose another store name`,
    );
  }
  const partition = region === undefined ? undefined : awsPartitionOf(region);
  store.access.writers.forEach((principal, index) =>
    checkPrincipal(principal, `access.writers[${index}]`, report, partition && { region, partition }),
  );
  store.access.readers.forEach((principal, index) =>
    checkPrincipal(principal, `access.readers[${index}]`, report, partition && { region, partition }),
  );
}

function checkZone(store: StoreSpec, report: Report, region: string | undefined): void {
  if (region !== undefined && S3_EXPRESS_ZONES[region] === undefined) {
    report('tier', store.tier, expressUnavailable(region));
    return;
  }
  if (store.zone === undefined) {
    report(
      'zone',
      undefined,
      "is required for tier 'high-throughput' on AWS: the availability zone ID of the S3 Express One Zone directory bucket, e.g. use1-az4",
    );
    return;
  }
  if (!AWS_AZ_ID.test(store.zone)) {
    report(
      'zone',
      store.zone,
      'allowed: an availability zone ID such as use1-az4 (an AZ ID, not an AZ name such as us-east-1a; run `aws ec2 describe-availability-zones` to map them)',
    );
    return;
  }
  if (region !== undefined) checkExpressZone(store.zone, region, report);
}

function expressUnavailable(region: string): string {
  const partition = awsPartitionOf(region);
  const regions = Object.keys(S3_EXPRESS_ZONES).filter((offered) => awsPartitionOf(offered) === partition);
  return regions.length === 0
    ? `S3 Express One Zone (tier high-throughput) is not offered in partition ${String(partition)} (aws:region ${region}); use tier: standard`
    : `S3 Express One Zone (tier high-throughput) is not offered in aws:region ${region}; it is offered in ${regions.join(', ')}; or use tier: standard`;
}

/** The zone must be one of the region's S3 Express One Zone AZ IDs (the published table). */
function checkExpressZone(zone: string, region: string, report: Report): void {
  const offered = S3_EXPRESS_ZONES[region] ?? [];
  if (offered.includes(zone)) return;
  const allowed = `S3 Express One Zone AZ IDs in ${region}: ${offered.join(', ')}`;
  const home = Object.entries(AWS_AZ_IDS).find(([, zones]) => zones.includes(zone))?.[0];
  if (home === region) {
    report('zone', zone, `is an AZ of ${region} without S3 Express One Zone; ${allowed}`);
  } else if (home !== undefined) {
    report('zone', zone, `is an AZ of ${home}, not of aws:region ${region}; ${allowed}`);
  } else {
    report(
      'zone',
      zone,
      `is not an AZ ID of ${region}; did you mean ${nearestValues(zone, offered).join(', ')}? (${allowed})`,
    );
  }
}

/** 0 would leave incomplete multipart uploads stored, and billed, forever. */
const NEVER_ABORT = `S3 keeps the parts of an incomplete multipart upload, and bills them, until a lifecycle rule aborts it; use ${rangeOf('retention.abortIncompleteUploadDays', 'aws')} days`;

/** 0 (never) would keep every previous version and delete marker forever: the purge promise forbids it. */
const NEVER_PURGE = `would keep every overwritten or deleted checkpoint, as a previous version, forever, which the purge promise forbids (docs/config.md); use ${rangeOf('retention.noncurrentExpireDays', 'aws')} days`;

// A value meaning "never" (0) is accepted for what a directory bucket does not have, so one spec fits every tier.
function checkDirectoryBucketRetention(raw: RawStore, report: Report): void {
  const noVersioning = 'S3 directory buckets have no versioning';
  const oneStorageClass =
    'S3 directory buckets have one storage class (S3 Express One Zone) and no lifecycle transitions';
  const refused = [
    ['keepNoncurrentVersions', noVersioning],
    ['noncurrentExpireDays', noVersioning],
    ['coolAfterDays', oneStorageClass],
    ['archiveAfterDays', oneStorageClass],
  ] as const;
  for (const [key, reason] of refused) {
    const value = raw.retention?.[key];
    if (value !== undefined && value !== 0) {
      report(`retention.${key}`, value, `${reason}; remove retention.${key} or set it to 0`);
    }
  }
}

function checkStandardRetention(store: StoreSpec, report: Report): void {
  const { coolAfterDays, archiveAfterDays, noncurrentExpireDays } = store.retention;
  if (coolAfterDays > 0 && coolAfterDays < S3_MIN_DAYS_BEFORE_INFREQUENT_ACCESS) {
    report(
      'retention.coolAfterDays',
      coolAfterDays,
      `S3 moves objects to STANDARD_IA no earlier than ${S3_MIN_DAYS_BEFORE_INFREQUENT_ACCESS} days after creation; use 0 (never) or at least ${S3_MIN_DAYS_BEFORE_INFREQUENT_ACCESS}`,
    );
  }
  const earliestArchive = coolAfterDays + S3_MIN_DAYS_IN_INFREQUENT_ACCESS;
  // Archive ages at or below coolAfterDays are already reported by the common rules.
  if (coolAfterDays > 0 && archiveAfterDays > coolAfterDays && archiveAfterDays < earliestArchive) {
    report(
      'retention.archiveAfterDays',
      archiveAfterDays,
      `S3 keeps objects at least ${S3_MIN_DAYS_IN_INFREQUENT_ACCESS} days in STANDARD_IA before archiving them (GLACIER_IR); use at least ${earliestArchive} (coolAfterDays + ${S3_MIN_DAYS_IN_INFREQUENT_ACCESS}) or 0 (never)`,
    );
  }
  if (noncurrentExpireDays === 0) report('retention.noncurrentExpireDays', 0, NEVER_PURGE);
}

/**
 * The bootstrap's CI roles, `checkpoints-<stack>-preview` / `-deploy-<env>` (bootstrap/src/names.ts): a
 * prod store never names one. The stack does not know its own account before a deploy, so a principal of
 * another account is not told apart here (the access table shows every principal's account).
 */
const CI_ROLE =
  /^arn:aws[\w-]*:iam::\d{12}:role\/(?:[\w+=,.@-]+\/)*checkpoints-[a-z0-9-]+-(?:preview|deploy-[a-z]+)$/;

/**
 * Why a principal is from outside the stack, or undefined (the rules' `outsider`). The stack's account is
 * known from `aws:allowedAccountIds` (the provider refuses to run in any other,
 * https://www.pulumi.com/registry/packages/aws/api-docs/provider/#allowedaccountids); without it only CI
 * roles are judged.
 */
export function awsOutsider(principal: string, accounts?: readonly string[]): string | undefined {
  if (CI_ROLE.test(principal)) return 'is a CI role: CI never reads or writes checkpoint data';
  const account = AWS_PRINCIPAL_ARN.test(principal) ? principal.split(':')[4] : undefined;
  if (accounts === undefined || account === undefined || accounts.includes(account)) return undefined;
  return `is of account ${account}, not of this stack's aws:allowedAccountIds ${JSON.stringify(accounts)}`;
}

function checkPrincipal(
  principal: string,
  path: string,
  report: Report,
  home: { region: string | undefined; partition: AwsPartition } | undefined,
): void {
  if (AWS_PRINCIPAL_ARN.test(principal)) {
    const partition = principal.split(':')[1];
    if (home !== undefined && partition !== home.partition) {
      report(
        path,
        principal,
        `is in partition ${partition}, but aws:region ${home.region} is in partition ${home.partition}: a role can only trust principals of its own partition; write arn:${home.partition}:${principal.split(':').slice(2).join(':')} if that principal exists there`,
      );
    }
    return;
  }
  if (AWS_SERVICE_PRINCIPAL.test(principal)) return;
  report(path, principal, principalProblem(principal));
}

function principalProblem(principal: string): string {
  if (principal.includes('*')) return `wildcards are not allowed: name each principal; ${PRINCIPAL_FORMATS}`;
  if (/^[0-9]{12}$/.test(principal)) {
    return `is an account ID; write the account root ARN instead: arn:aws:iam::${principal}:root`;
  }
  const session = /^arn:([\w-]+):sts::([0-9]{12}):assumed-role\/([\w+=,.@-]+)\//.exec(principal);
  if (session) {
    return `is a role session, which cannot be trusted by name; use the role ARN: arn:${session[1]}:iam::${session[2]}:role/${session[3]}`;
  }
  return PRINCIPAL_FORMATS;
}

/** The name the stack trail's log bucket and trail names derive from, as a store's would: no store may take it. */
export const AWS_AUDIT_LOG_NAME = 'audit-log';

/** What the names of the stack's server access log buckets derive from (`access-log`, `access-log-<region>`). */
export const AWS_ACCESS_LOG_NAME = 'access-log';

function checkNetwork({ network }: StoreSpec, report: Report): void {
  if (network === undefined) return;
  network.vpcEndpoints.forEach((id, index) => {
    if (!AWS_VPC_ENDPOINT_ID.test(id)) {
      report(
        `network.vpcEndpoints[${index}]`,
        id,
        'allowed: a VPC endpoint ID, vpce- and 8 or 17 lowercase hexadecimal characters, e.g. vpce-0a1b2c3d4e5f60718 (aws ec2 describe-vpc-endpoints)',
      );
    }
  });
  network.vpcs.forEach((id, index) => {
    if (!AWS_VPC_ID.test(id)) {
      report(
        `network.vpcs[${index}]`,
        id,
        'allowed: a VPC ID, vpc- and 8 or 17 lowercase hexadecimal characters, e.g. vpc-0a1b2c3d4e5f60718 (aws ec2 describe-vpcs)',
      );
    }
  });
  network.cidrs.forEach((cidr, index) => {
    const range = PRIVATE_IPV4_RANGES.find((privateRange) => ipv4Within(cidr, privateRange));
    if (range !== undefined) {
      report(
        `network.cidrs[${index}]`,
        cidr,
        `is a private range (within ${range}): S3 never sees a private source address in aws:SourceIp, since private traffic reaches it through a VPC endpoint; list that endpoint in network.vpcEndpoints or its VPC in network.vpcs instead`,
      );
    }
  });
}

/** Whether an IPv4 CIDR lies within another; false for IPv6 (none of the private ranges is IPv6). */
function ipv4Within(cidr: string, outer: string): boolean {
  const parse = (text: string) => {
    const [address = '', bits = '32'] = text.split('/');
    const octets = address.split('.').map(Number);
    if (octets.length !== 4 || octets.some((octet) => !Number.isInteger(octet))) return undefined;
    return { value: octets.reduce((sum, octet) => sum * 256 + octet, 0), bits: Number(bits) };
  };
  const inner = parse(cidr);
  const range = parse(outer);
  if (inner === undefined || range === undefined || inner.bits < range.bits) return false;
  const size = 2 ** (32 - range.bits);
  return Math.floor(inner.value / size) === Math.floor(range.value / size);
}

function checkRecovery(store: StoreSpec, report: Report, region: string | undefined): void {
  const { replicaRegion, retentionLock, independentCopy } = store.recovery;
  if (store.tier === 'high-throughput') {
    // AWS Backup backs up an S3 bucket only with S3 Versioning enabled
    // (https://docs.aws.amazon.com/aws-backup/latest/devguide/s3-backups.html, "Backups and versioning"), which
    // directory buckets do not support (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-differences.html).
    if (independentCopy !== undefined) {
      report(
        'recovery.independentCopy',
        { enabled: true, retentionDays: independentCopy.retentionDays },
        'cannot be kept for an S3 directory bucket (tier high-throughput): AWS Backup backs up only buckets with S3 Versioning, which directory buckets do not have; remove recovery.independentCopy, or keep the checkpoints to be copied in a standard store (docs/aws.md "Independent copy")',
      );
    }
    if (replicaRegion !== undefined) {
      report(
        'recovery.replicaRegion',
        replicaRegion,
        'S3 directory buckets (tier high-throughput) have no replication; remove recovery.replicaRegion, or copy released checkpoints to a standard store that has one',
      );
    }
    if (retentionLock !== undefined) {
      report(
        'recovery.retentionLock',
        retentionLock,
        'S3 directory buckets (tier high-throughput) have no Object Lock; remove recovery.retentionLock, or keep released checkpoints in a standard store that has one',
      );
    }
    return;
  }
  if (retentionLock !== undefined) checkRetentionLock(retentionLock, report);
  if (replicaRegion === undefined) return;
  if (!AWS_REGIONS.includes(replicaRegion)) {
    report(
      'recovery.replicaRegion',
      replicaRegion,
      `is not an AWS region (${PUBLISHED_REGIONS}); did you mean ${nearestValues(replicaRegion, AWS_REGIONS).join(', ')}?`,
    );
    return;
  }
  if (region === undefined) return;
  if (replicaRegion === region) {
    report(
      'recovery.replicaRegion',
      replicaRegion,
      `is the store's own region (aws:region ${region}): a replica there survives no regional outage; name another region`,
    );
    return;
  }
  const home = awsPartitionOf(region);
  if (awsPartitionOf(replicaRegion) !== home) {
    report(
      'recovery.replicaRegion',
      replicaRegion,
      `is in partition ${String(awsPartitionOf(replicaRegion))}, but aws:region ${region} is in ${String(home)}: S3 replicates within a partition only; name a region of ${String(home)}`,
    );
  }
}

/**
 * `recovery.retentionLock: { days }` on a standard store: S3 Object Lock, GOVERNANCE default retention of that
 * many days on the store's bucket (docs/aws.md "Retention lock"). Refused, each with its reason:
 * - `prefix`: a bucket's default retention locks every new object version of the bucket
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_PutObjectLockConfiguration.html: "applied by default
 *   to every new object placed in the specified bucket"); a lock under a prefix alone would have to be asked for
 *   per upload and required by a bucket policy, but UploadPart, which every multipart upload (each checkpoint
 *   over 5 GB) makes, is authorised as s3:PutObject and carries no Object Lock headers
 *   (https://docs.aws.amazon.com/AmazonS3/latest/API/API_UploadPart.html), so such a policy would refuse them.
 *
 * With `replicaRegion`, the replica bucket takes the same lock (stacks/aws-s3 retention-lock.ts), as S3
 * replicates Object Lock objects only into a bucket with Object Lock, and the replication role reads each
 * version's retention (s3:GetObjectRetention, s3:GetObjectLegalHold)
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock-managing.html#object-lock-managing-replication).
 */
function checkRetentionLock(lock: RetentionLockSpec, report: Report): void {
  if (lock.prefix !== undefined) {
    report(
      'recovery.retentionLock.prefix',
      lock.prefix,
      `cannot be locked alone on AWS: S3 Object Lock's default retention locks every object of a bucket, and a lock asked for per upload cannot be required under a prefix, since the parts of a multipart upload (every checkpoint over 5 GB) carry no Object Lock headers (docs/aws.md "Retention lock"). Omit prefix and lock a store of its own that holds the released checkpoints: recovery.retentionLock: { days: ${lock.days} }`,
    );
  }
}

/**
 * `checkpoints:organizationTrail`: the ARN of the existing (organization) trail that records the stores' data
 * events instead of a stack trail, in the stack's partition. The stack cannot read the trail's selectors, so
 * the docs say what it must record.
 */
export function organizationTrailIssues(
  trail: string | undefined,
  region: string | undefined,
): ConfigIssue[] {
  if (trail === undefined) return [];
  const path = 'checkpoints:organizationTrail';
  const match = AWS_TRAIL_ARN.exec(trail);
  if (match === null) {
    return [
      {
        path,
        value: trail,
        message:
          'allowed: a trail ARN, arn:aws:cloudtrail:REGION:ACCOUNT:trail/NAME (NAME: 3-128 letters, digits, ".", "_" or "-", a letter or digit at both ends); aws cloudtrail describe-trails prints it as TrailARN',
      },
    ];
  }
  const home = region === undefined ? undefined : awsPartitionOf(region);
  if (home !== undefined && match[1] !== home) {
    return [
      {
        path,
        value: trail,
        message: `is in partition ${String(match[1])}, but aws:region ${String(region)} is in ${home}: a trail records the events of its own partition only`,
      },
    ];
  }
  return [];
}
