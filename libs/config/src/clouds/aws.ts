import type { ConfigIssue } from '../issues';
import type { CloudRules, Report } from '../load';
import type { RawStore } from '../schema';
import type { RetentionSpec, StoreSpec, Tier } from '../spec';

/** S3 refuses a lifecycle transition to STANDARD_IA earlier than 30 days after creation. */
export const S3_MIN_DAYS_BEFORE_INFREQUENT_ACCESS = 30;
/** S3 refuses a transition out of STANDARD_IA (to the archive class) less than 30 days after the one into it. */
export const S3_MIN_DAYS_IN_INFREQUENT_ACCESS = 30;

/** An availability zone ID such as `use1-az4` (Local Zones, e.g. `usw2-lax1-az1`, are not supported). */
export const AWS_AZ_ID = /^[a-z]{2,4}[0-9]-az[0-9]+$/;
const AWS_REGION = /^[a-z]{2}(?:-gov|-iso[a-z]?)?-[a-z]+-[0-9]+$/;

/** AZ IDs start with a short form of their region; regions missing here skip that part of the check. */
const AZ_ID_PREFIX_BY_REGION: Readonly<Record<string, string>> = {
  'us-east-1': 'use1',
  'us-east-2': 'use2',
  'us-west-1': 'usw1',
  'us-west-2': 'usw2',
  'ca-central-1': 'cac1',
  'eu-west-1': 'euw1',
  'eu-west-2': 'euw2',
  'eu-west-3': 'euw3',
  'eu-central-1': 'euc1',
  'eu-north-1': 'eun1',
  'ap-south-1': 'aps1',
  'ap-northeast-1': 'apne1',
  'ap-northeast-2': 'apne2',
  'ap-southeast-1': 'apse1',
  'ap-southeast-2': 'apse2',
  'sa-east-1': 'sae1',
};

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
  /** The same rules, with each store's zone also checked against the region's AZ ID prefix. */
  forRegion(region: string): CloudRules;
  /** Problems with `aws:region` itself: required, because every output and AZ check depends on it. */
  regionIssues(region: string | undefined): ConfigIssue[];
}

/** S3 and S3 Express One Zone limits, checked at config time so they do not fail minutes into `up`. */
export const awsRules: AwsCloudRules = {
  ...storeRules(undefined),
  forRegion: storeRules,
  regionIssues,
};

function storeRules(region: string | undefined): CloudRules {
  return {
    cloud: 'aws',
    storeKeys: ['zone'],
    retentionDefaults,
    checkStore: (store, raw, report) => checkAwsStore(store, raw, report, region),
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
  if (!AWS_REGION.test(region)) {
    return [{ path: 'aws:region', value: region, message: 'allowed: an AWS region code such as us-east-1' }];
  }
  return [];
}

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
  if (raw.retention?.softDeleteDays !== undefined && raw.retention.softDeleteDays !== 0) {
    report(
      'retention.softDeleteDays',
      raw.retention.softDeleteDays,
      store.tier === 'standard'
        ? 'S3 has no soft delete; deleted objects stay recoverable as noncurrent versions: use retention.noncurrentExpireDays and keepNoncurrentVersions instead, and remove retention.softDeleteDays or set it to 0'
        : 'S3 has no soft delete, and S3 directory buckets have no versioning either; remove retention.softDeleteDays or set it to 0',
    );
  }
  store.access.writers.forEach((principal, index) =>
    checkPrincipal(principal, `access.writers[${index}]`, report),
  );
  store.access.readers.forEach((principal, index) =>
    checkPrincipal(principal, `access.readers[${index}]`, report),
  );
}

function checkZone(store: StoreSpec, report: Report, region: string | undefined): void {
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
  const prefix = region === undefined ? undefined : AZ_ID_PREFIX_BY_REGION[region];
  if (prefix !== undefined && !store.zone.startsWith(`${prefix}-`)) {
    report(
      'zone',
      store.zone,
      `is not in aws:region ${region}: its AZ IDs start with '${prefix}-', e.g. ${prefix}-az4`,
    );
  }
}

/** 0 would leave incomplete multipart uploads stored, and billed, forever. */
const NEVER_ABORT =
  'S3 keeps the parts of an incomplete multipart upload, and bills them, until a lifecycle rule aborts it; use 1 to 365 days';

/** 0 (never) would keep every previous version and delete marker forever: the purge promise forbids it. */
const NEVER_PURGE =
  'would keep every overwritten or deleted checkpoint, as a previous version, forever, which the purge promise forbids (docs/config.md); use 1 to 365 days';

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

function checkPrincipal(principal: string, path: string, report: Report): void {
  if (AWS_PRINCIPAL_ARN.test(principal) || AWS_SERVICE_PRINCIPAL.test(principal)) return;
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
