/**
 * AWS facts the validator checks offline. Each table names its source and the date it was read; refresh
 * them as libs/config/src/facts/README.md describes.
 */

/** An AWS partition: a group of regions with its own ARN prefix and its own IAM (principals do not cross). */
export type AwsPartition =
  'aws' | 'aws-cn' | 'aws-us-gov' | 'aws-iso' | 'aws-iso-b' | 'aws-iso-e' | 'aws-iso-f' | 'aws-eusc';

/**
 * Regions per partition. Source: the AWS SDK for JavaScript v3 partition data,
 * https://github.com/aws/aws-sdk-js-v3/blob/main/packages/util-endpoints/src/lib/aws/partitions.json
 * (commit 685ff5d0, read 2026-12-01); the pseudo-regions `aws-global`, `aws-cn-global`, ... are left out
 * (they name a partition's global endpoint, not a place to put a bucket).
 */
export const AWS_REGIONS_BY_PARTITION: Readonly<Record<AwsPartition, readonly string[]>> = {
  aws: [
    'af-south-1',
    'ap-east-1',
    'ap-northeast-1',
    'ap-northeast-2',
    'ap-northeast-3',
    'ap-south-1',
    'ap-south-2',
    'ap-southeast-1',
    'ap-southeast-2',
    'ap-southeast-3',
    'ap-southeast-4',
    'ap-southeast-5',
    'ap-southeast-7',
    'ca-central-1',
    'ca-west-1',
    'eu-central-1',
    'eu-central-2',
    'eu-north-1',
    'eu-south-1',
    'eu-south-2',
    'eu-west-1',
    'eu-west-2',
    'eu-west-3',
    'il-central-1',
    'me-central-1',
    'me-south-1',
    'mx-central-1',
    'sa-east-1',
    'us-east-1',
    'us-east-2',
    'us-west-1',
    'us-west-2',
  ],
  'aws-cn': ['cn-north-1', 'cn-northwest-1'],
  'aws-us-gov': ['us-gov-east-1', 'us-gov-west-1'],
  'aws-iso': ['us-iso-east-1', 'us-iso-west-1'],
  'aws-iso-b': ['us-isob-east-1'],
  'aws-iso-e': ['eu-isoe-west-1'],
  'aws-iso-f': ['us-isof-east-1', 'us-isof-south-1'],
  'aws-eusc': ['eusc-de-east-1'],
};

export const AWS_REGIONS: readonly string[] = Object.values(AWS_REGIONS_BY_PARTITION).flat();

export function awsPartitionOf(region: string): AwsPartition | undefined {
  const entry = Object.entries(AWS_REGIONS_BY_PARTITION).find(([, regions]) => regions.includes(region));
  return entry?.[0] as AwsPartition | undefined;
}

/**
 * Availability Zone IDs per region (commercial and GovCloud partitions). Source: "AZ IDs", AWS Regions
 * and Availability Zones, https://docs.aws.amazon.com/global-infrastructure/latest/regions/az-ids.html,
 * read 2026-12-01 through a third-party copy of its table (the search corpus held the page's text but not
 * its table, so the list is not confirmed against AWS itself; its entries agree with every AZ ID the S3 Express
 * One Zone page names). It only chooses the message (an AZ of another region, or one without S3 Express One
 * Zone): whether a zone is accepted depends on S3_EXPRESS_ZONES alone. The China, ISO and EUSC partitions
 * are not listed.
 */
export const AWS_AZ_IDS: Readonly<Record<string, readonly string[]>> = {
  'us-east-1': ['use1-az1', 'use1-az2', 'use1-az3', 'use1-az4', 'use1-az5', 'use1-az6'],
  'us-east-2': ['use2-az1', 'use2-az2', 'use2-az3'],
  'us-west-1': ['usw1-az1', 'usw1-az2', 'usw1-az3'],
  'us-west-2': ['usw2-az1', 'usw2-az2', 'usw2-az3', 'usw2-az4'],
  'af-south-1': ['afs1-az1', 'afs1-az2', 'afs1-az3'],
  'ap-east-1': ['ape1-az1', 'ape1-az2', 'ape1-az3'],
  'ap-south-2': ['aps2-az1', 'aps2-az2', 'aps2-az3'],
  'ap-southeast-3': ['apse3-az1', 'apse3-az2', 'apse3-az3'],
  'ap-southeast-5': ['apse5-az1', 'apse5-az2', 'apse5-az3'],
  'ap-southeast-4': ['apse4-az1', 'apse4-az2', 'apse4-az3'],
  'ap-south-1': ['aps1-az1', 'aps1-az2', 'aps1-az3'],
  'ap-northeast-3': ['apne3-az1', 'apne3-az2', 'apne3-az3'],
  'ap-northeast-2': ['apne2-az1', 'apne2-az2', 'apne2-az3', 'apne2-az4'],
  'ap-southeast-1': ['apse1-az1', 'apse1-az2', 'apse1-az3'],
  'ap-southeast-2': ['apse2-az1', 'apse2-az2', 'apse2-az3'],
  'ap-northeast-1': ['apne1-az1', 'apne1-az2', 'apne1-az3', 'apne1-az4'],
  'ca-central-1': ['cac1-az1', 'cac1-az2', 'cac1-az4'],
  'ca-west-1': ['caw1-az1', 'caw1-az2', 'caw1-az3'],
  'eu-central-1': ['euc1-az1', 'euc1-az2', 'euc1-az3'],
  'eu-west-1': ['euw1-az1', 'euw1-az2', 'euw1-az3'],
  'eu-west-2': ['euw2-az1', 'euw2-az2', 'euw2-az3'],
  'eu-south-1': ['eus1-az1', 'eus1-az2', 'eus1-az3'],
  'eu-west-3': ['euw3-az1', 'euw3-az2', 'euw3-az3'],
  'eu-south-2': ['eus2-az1', 'eus2-az2', 'eus2-az3'],
  'eu-north-1': ['eun1-az1', 'eun1-az2', 'eun1-az3'],
  'eu-central-2': ['euc2-az1', 'euc2-az2', 'euc2-az3'],
  'il-central-1': ['ilc1-az1', 'ilc1-az2', 'ilc1-az3'],
  'me-south-1': ['mes1-az1', 'mes1-az2', 'mes1-az3'],
  'me-central-1': ['mec1-az1', 'mec1-az2', 'mec1-az3'],
  'sa-east-1': ['sae1-az1', 'sae1-az2', 'sae1-az3'],
  'us-gov-east-1': ['usge1-az1', 'usge1-az2', 'usge1-az3'],
  'us-gov-west-1': ['usgw1-az1', 'usgw1-az2', 'usgw1-az3'],
};

/**
 * The AZ IDs where S3 Express One Zone directory buckets can be created. Source: "S3 Express One Zone
 * Availability Zones and Regions", https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-Endpoints.html
 * (read 2026-12-01; the same seven regions appear in the zh_cn and ja_jp editions of the page). No other
 * partition is listed, so S3 Express One Zone is taken to be unavailable in aws-cn, aws-us-gov and the ISO
 * partitions.
 */
export const S3_EXPRESS_ZONES: Readonly<Record<string, readonly string[]>> = {
  'us-east-1': ['use1-az4', 'use1-az5', 'use1-az6'],
  'us-east-2': ['use2-az1', 'use2-az2'],
  'us-west-2': ['usw2-az1', 'usw2-az3', 'usw2-az4'],
  'ap-south-1': ['aps1-az1', 'aps1-az3'],
  'ap-northeast-1': ['apne1-az1', 'apne1-az4'],
  'eu-west-1': ['euw1-az1', 'euw1-az3'],
  'eu-north-1': ['eun1-az1', 'eun1-az2', 'eun1-az3'],
};

/**
 * IAM size limits. Source: "IAM and AWS STS quotas", https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_iam-quotas.html
 * (read 2026-12-01): "Role trust policy length" 2,048 characters by default (Service Quotas code
 * L-C07B4B0D, adjustable; the page's table of auto-approved increases gave 4,096 in one edition and 8,192
 * in a later one, so the raisable maximum is not asserted here); aggregate inline policies per role
 * 10,240 characters; a managed policy 6,144 characters; "IAM doesn't count white space when calculating
 * the size of a policy against these limits".
 */
export const AWS_IAM_LIMITS = {
  trustPolicyCharacters: 2_048,
  trustPolicyQuotaCode: 'L-C07B4B0D',
  inlinePoliciesPerRoleCharacters: 10_240,
  managedPolicyCharacters: 6_144,
} as const;

/**
 * Default account quotas a stack can reach on its own. Source: the IAM quotas page above, "Roles per
 * account" 1,000 by default (Service Quotas code L-FE177D64, adjustable), read 2026-12-01.
 */
export const AWS_DEFAULT_QUOTAS = {
  rolesPerAccount: 1_000,
  rolesPerAccountQuotaCode: 'L-FE177D64',
} as const;

/** A policy document's size as IAM counts it: its JSON text without white space outside strings. */
export function iamPolicySize(document: unknown): number {
  return JSON.stringify(document).length;
}

/**
 * EC2 resource IDs (VPC endpoints `vpce-…`, VPCs `vpc-…`): the prefix, a hyphen and 8 hexadecimal characters
 * (IDs created before 2018) or 17 (the long ID format every new resource gets). Source: "Resource IDs",
 * https://docs.aws.amazon.com/AWSEC2/latest/UserGuide/resource-ids.html (read 2026-12-01).
 */
export const AWS_VPC_ENDPOINT_ID = /^vpce-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;
export const AWS_VPC_ID = /^vpc-(?:[0-9a-f]{8}|[0-9a-f]{17})$/;

/**
 * Private (RFC 1918) and shared (RFC 6598) IPv4 ranges. `aws:SourceIp` never holds such an address: "If the
 * request comes from a host that uses an Amazon VPC endpoint, then the aws:SourceIp key is not available",
 * and a private address only ever reaches S3 through an endpoint. Source: "AWS global condition context keys",
 * aws:SourceIp, https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-sourceip
 * (read 2026-12-01).
 */
export const PRIVATE_IPV4_RANGES = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
] as const;

/**
 * A trail's ARN, `arn:PARTITION:cloudtrail:REGION:ACCOUNT:trail/NAME`; a trail name has 3-128 ASCII letters,
 * digits, '.', '_' or '-', starts and ends with a letter or digit. Source: CloudTrail API Reference, CreateTrail,
 * `Name`, https://docs.aws.amazon.com/awscloudtrail/latest/APIReference/API_CreateTrail.html (read 2026-12-01).
 */
export const AWS_TRAIL_ARN =
  /^arn:(aws|aws-cn|aws-us-gov):cloudtrail:([a-z]{2}(?:-[a-z]+)+-[0-9]+):([0-9]{12}):trail\/([A-Za-z0-9][A-Za-z0-9._-]{1,126}[A-Za-z0-9])$/;
