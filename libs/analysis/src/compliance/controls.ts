/**
 * The benchmark controls the compliance view judges a store against: those of the storage, logging, key and
 * network sections that apply to a checkpoint store. Ids and titles are the benchmarks' own, from their
 * published control lists (each benchmark's `url`); the project's own baseline controls say so in their id.
 */
export const BENCHMARKS = {
  cisAws: {
    name: 'CIS Amazon Web Services Foundations Benchmark v3.0.0',
    url: 'https://www.cisecurity.org/benchmark/amazon_web_services',
  },
  securityHub: {
    name: 'AWS Security Hub controls (AWS Foundational Security Best Practices and the CIS and NIST standards)',
    url: 'https://docs.aws.amazon.com/securityhub/latest/userguide/securityhub-controls-reference.html',
  },
  cisGcp: {
    name: 'CIS Google Cloud Platform Foundation Benchmark v3.0.0',
    url: 'https://www.cisecurity.org/benchmark/google_cloud_computing_platform',
  },
  cisAzure: {
    name: 'CIS Microsoft Azure Foundations Benchmark v3.0.0',
    url: 'https://www.cisecurity.org/benchmark/azure',
  },
  mcsb: {
    name: 'Microsoft cloud security benchmark v1',
    url: 'https://learn.microsoft.com/security/benchmark/azure/overview',
  },
  azurePolicy: {
    name: 'Azure Policy built-in definitions (Storage, Security Center)',
    url: 'https://learn.microsoft.com/azure/storage/common/policy-reference',
  },
  baseline: {
    name: "This project's own baseline (docs/compliance.md), where no benchmark above has a control",
    url: 'docs/compliance.md',
  },
} as const;

export type Benchmark = keyof typeof BENCHMARKS;

export interface Control {
  /** The benchmark's own id, prefixed with the benchmark: `CIS AWS 2.1.1`, `S3.9`, `Azure Policy b2982f36-…`. */
  id: string;
  benchmark: Benchmark;
  title: string;
  /** Where the control is published. */
  url: string;
}

const S3_CONTROLS = 'https://docs.aws.amazon.com/securityhub/latest/userguide/s3-controls.html';
const CLOUDTRAIL_CONTROLS =
  'https://docs.aws.amazon.com/securityhub/latest/userguide/cloudtrail-controls.html';
const KMS_CONTROLS = 'https://docs.aws.amazon.com/securityhub/latest/userguide/kms-controls.html';
const GUARDDUTY_CONTROLS = 'https://docs.aws.amazon.com/securityhub/latest/userguide/guardduty-controls.html';
const POLICY_DEFINITION =
  'https://portal.azure.com/#view/Microsoft_Azure_Policy/PolicyDetailBlade/definitionId/%2Fproviders%2FMicrosoft.Authorization%2FpolicyDefinitions%2F';
const MCSB = 'https://learn.microsoft.com/security/benchmark/azure';

const cisAws = (item: string, title: string): Control => ({
  id: `CIS AWS ${item}`,
  benchmark: 'cisAws',
  title,
  url: BENCHMARKS.cisAws.url,
});
const securityHub = (id: string, title: string, page: string): Control => ({
  id,
  benchmark: 'securityHub',
  title,
  url: `${page}#${id.toLowerCase().replace('.', '-')}`,
});
const cisGcp = (item: string, title: string): Control => ({
  id: `CIS GCP ${item}`,
  benchmark: 'cisGcp',
  title,
  url: BENCHMARKS.cisGcp.url,
});
const cisAzure = (item: string, title: string): Control => ({
  id: `CIS Azure ${item}`,
  benchmark: 'cisAzure',
  title,
  url: BENCHMARKS.cisAzure.url,
});
const mcsb = (id: string, title: string, page: string): Control => ({
  id: `MCSB ${id}`,
  benchmark: 'mcsb',
  title,
  url: `${MCSB}/${page}`,
});
const azurePolicy = (definition: string, title: string): Control => ({
  id: `Azure Policy ${definition}`,
  benchmark: 'azurePolicy',
  title,
  url: `${POLICY_DEFINITION}${definition}`,
});
const baseline = (id: string, title: string, url: string): Control => ({
  id: `checkpoints ${id}`,
  benchmark: 'baseline',
  title,
  url,
});

/**
 * CIS AWS v3.0.0 sections 2.1 (S3) and 3 (Logging), as published (e.g. the control list of
 * https://github.com/turbot/steampipe-mod-aws-compliance/blob/main/cis_v300/section_2.pp and section_3.pp);
 * Security Hub's S3, CloudTrail, KMS and GuardDuty controls, https://docs.aws.amazon.com/securityhub/latest/userguide/s3-controls.html
 * and its siblings.
 */
export const AWS_CONTROLS = {
  cis211: cisAws('2.1.1', 'Ensure S3 Bucket Policy is set to deny HTTP requests'),
  cis212: cisAws('2.1.2', 'Ensure MFA Delete is enabled on S3 buckets'),
  cis213: cisAws(
    '2.1.3',
    'Ensure all data in Amazon S3 has been discovered, classified and secured when required',
  ),
  cis214: cisAws(
    '2.1.4',
    "Ensure that S3 Buckets are configured with 'Block public access (bucket settings)'",
  ),
  cis31: cisAws('3.1', 'Ensure CloudTrail is enabled in all regions'),
  cis32: cisAws('3.2', 'Ensure CloudTrail log file validation is enabled'),
  cis34: cisAws('3.4', 'Ensure S3 bucket access logging is enabled on the CloudTrail S3 bucket'),
  cis35: cisAws('3.5', 'Ensure CloudTrail logs are encrypted at rest using KMS CMKs'),
  cis36: cisAws('3.6', 'Ensure rotation for customer-created symmetric CMKs is enabled'),
  cis38: cisAws('3.8', 'Ensure that Object-level logging for write events is enabled for S3 bucket'),
  cis39: cisAws('3.9', 'Ensure that Object-level logging for read events is enabled for S3 bucket'),
  s3_1: securityHub(
    'S3.1',
    'S3 general purpose buckets should have block public access settings enabled',
    S3_CONTROLS,
  ),
  s3_2: securityHub('S3.2', 'S3 general purpose buckets should block public read access', S3_CONTROLS),
  s3_3: securityHub('S3.3', 'S3 general purpose buckets should block public write access', S3_CONTROLS),
  s3_5: securityHub('S3.5', 'S3 general purpose buckets should require requests to use SSL', S3_CONTROLS),
  s3_6: securityHub(
    'S3.6',
    'S3 general purpose bucket policies should restrict access to other AWS accounts',
    S3_CONTROLS,
  ),
  s3_8: securityHub('S3.8', 'S3 general purpose buckets should block public access', S3_CONTROLS),
  s3_9: securityHub(
    'S3.9',
    'S3 general purpose buckets should have server access logging enabled',
    S3_CONTROLS,
  ),
  s3_12: securityHub(
    'S3.12',
    'ACLs should not be used to manage user access to S3 general purpose buckets',
    S3_CONTROLS,
  ),
  s3_13: securityHub('S3.13', 'S3 general purpose buckets should have Lifecycle configurations', S3_CONTROLS),
  s3_14: securityHub('S3.14', 'S3 general purpose buckets should have versioning enabled', S3_CONTROLS),
  s3_15: securityHub('S3.15', 'S3 general purpose buckets should have Object Lock enabled', S3_CONTROLS),
  s3_17: securityHub(
    'S3.17',
    'S3 general purpose buckets should be encrypted at rest with AWS KMS keys',
    S3_CONTROLS,
  ),
  s3_20: securityHub('S3.20', 'S3 general purpose buckets should have MFA delete enabled', S3_CONTROLS),
  s3_22: securityHub('S3.22', 'S3 general purpose buckets should log object-level write events', S3_CONTROLS),
  s3_23: securityHub('S3.23', 'S3 general purpose buckets should log object-level read events', S3_CONTROLS),
  s3_25: securityHub('S3.25', 'S3 directory buckets should have lifecycle configurations', S3_CONTROLS),
  cloudTrail1: securityHub(
    'CloudTrail.1',
    'CloudTrail should be enabled and configured with at least one multi-Region trail that includes read and write management events',
    CLOUDTRAIL_CONTROLS,
  ),
  cloudTrail2: securityHub(
    'CloudTrail.2',
    'CloudTrail should have encryption at-rest enabled',
    CLOUDTRAIL_CONTROLS,
  ),
  cloudTrail4: securityHub(
    'CloudTrail.4',
    'CloudTrail log file validation should be enabled',
    CLOUDTRAIL_CONTROLS,
  ),
  cloudTrail7: securityHub(
    'CloudTrail.7',
    'Ensure S3 bucket access logging is enabled on the CloudTrail S3 bucket',
    CLOUDTRAIL_CONTROLS,
  ),
  kms3: securityHub('KMS.3', 'AWS KMS keys should not be deleted unintentionally', KMS_CONTROLS),
  kms4: securityHub('KMS.4', 'AWS KMS key rotation should be enabled', KMS_CONTROLS),
  guardDuty1: securityHub('GuardDuty.1', 'GuardDuty should be enabled', GUARDDUTY_CONTROLS),
  malwareScan: baseline(
    'malware-scan (AWS)',
    'Every object written to the store is scanned for malware (GuardDuty Malware Protection for S3); checkpoints are pickles that run code when loaded',
    'https://docs.aws.amazon.com/guardduty/latest/ug/gdu-malware-protection-s3.html',
  ),
  auditImmutable: baseline(
    'audit-immutable (AWS)',
    'The audit-log bucket keeps every log file write-once (Object Lock) and refuses deletes except to break-glass',
    'https://docs.aws.amazon.com/awscloudtrail/latest/userguide/best-practices-security.html',
  ),
  releasesReplicated: baseline(
    'releases-replicated (AWS)',
    'A prod store of released checkpoints (retention lock) has a copy in a second region',
    'https://docs.aws.amazon.com/AmazonS3/latest/userguide/replication.html',
  ),
} as const satisfies Record<string, Control>;

/**
 * CIS GCP v3.0.0 sections 1 (keys), 2 (logging) and 5 (storage), as published (e.g.
 * https://github.com/turbot/steampipe-mod-gcp-compliance/blob/main/cis_v300/section_2.pp).
 */
export const GCP_CONTROLS = {
  cis19: cisGcp('1.9', 'Ensure That Cloud KMS Cryptokeys Are Not Anonymously or Publicly Accessible'),
  cis110: cisGcp('1.10', 'Ensure KMS Encryption Keys Are Rotated Within a Period of 90 Days'),
  cis21: cisGcp('2.1', 'Ensure That Cloud Audit Logging Is Configured Properly'),
  cis22: cisGcp('2.2', 'Ensure That Sinks Are Configured for All Log Entries'),
  cis23: cisGcp(
    '2.3',
    'Ensure That Retention Policies on Cloud Storage Buckets Used for Exporting Logs Are Configured Using Bucket Lock',
  ),
  cis51: cisGcp('5.1', 'Ensure That Cloud Storage Bucket Is Not Anonymously or Publicly Accessible'),
  cis52: cisGcp('5.2', 'Ensure That Cloud Storage Buckets Have Uniform Bucket-Level Access Enabled'),
  malwareScan: baseline(
    'malware-scan (GCP)',
    'Threats to the store are detected (Security Command Center); checkpoints are pickles that run code when loaded',
    'https://cloud.google.com/security-command-center/docs/security-command-center-overview',
  ),
  releasesReplicated: baseline(
    'releases-replicated (GCP)',
    'A prod store of released checkpoints (retention lock) has a copy in a second region',
    'https://cloud.google.com/storage/docs/locations#location-dr',
  ),
} as const satisfies Record<string, Control>;

/**
 * CIS Azure v3.0.0 sections 3 (Defender for Cloud, Key Vault), 4 (Storage Accounts) and 6 (Logging), as
 * published (e.g. the CIS Azure v3.0.0 item list of https://github.com/turbot/steampipe-mod-azure-compliance);
 * the Microsoft cloud security benchmark controls of the Azure Storage security baseline
 * (https://learn.microsoft.com/security/benchmark/azure/baselines/storage-security-baseline); and the
 * built-in Storage policies by definition id (https://learn.microsoft.com/azure/storage/common/policy-reference).
 */
export const AZURE_CONTROLS = {
  cis3151: cisAzure('3.1.5.1', "Ensure That Microsoft Defender for Storage Is Set To 'On'"),
  cis335: cisAzure('3.3.5', 'Ensure the Key Vault is Recoverable'),
  cis338: cisAzure(
    '3.3.8',
    'Ensure Automatic Key Rotation is Enabled Within Azure Key Vault for the Supported Services',
  ),
  cis41: cisAzure('4.1', "Ensure that 'Secure transfer required' is set to 'Enabled'"),
  cis42: cisAzure(
    '4.2',
    "Ensure that 'Enable Infrastructure Encryption' for Each Storage Account in Azure Storage is Set to 'enabled'",
  ),
  cis44: cisAzure('4.4', 'Ensure that Storage Account Access Keys are Periodically Regenerated'),
  cis46: cisAzure('4.6', "Ensure that 'Public Network Access' is 'Disabled' for storage accounts"),
  cis47: cisAzure('4.7', 'Ensure Default Network Access Rule for Storage Accounts is Set to Deny'),
  cis48: cisAzure(
    '4.8',
    "Ensure 'Allow Azure services on the trusted services list to access this storage account' is Enabled for Storage Account Access",
  ),
  cis49: cisAzure('4.9', 'Ensure Private Endpoints are used to access Storage Accounts'),
  cis410: cisAzure('4.10', 'Ensure Soft Delete is Enabled for Azure Containers and Blob Storage'),
  cis411: cisAzure('4.11', 'Ensure Storage for Critical Data are Encrypted with Customer Managed Keys (CMK)'),
  cis413: cisAzure(
    '4.13',
    "Ensure Storage logging is Enabled for Blob Service for 'Read', 'Write', and 'Delete' requests",
  ),
  cis415: cisAzure('4.15', "Ensure the 'Minimum TLS version' for storage accounts is set to 'Version 1.2'"),
  cis416: cisAzure('4.16', "Ensure 'Cross Tenant Replication' is not enabled"),
  cis417: cisAzure('4.17', "Ensure that 'Allow Blob Anonymous Access' is set to 'Disabled'"),
  cis614: cisAzure('6.1.4', "Ensure that logging for Azure Key Vault is 'Enabled'"),
  ns2: mcsb('NS-2', 'Secure cloud services with network controls', 'mcsb-network-security'),
  dp3: mcsb('DP-3', 'Encrypt sensitive data in transit', 'mcsb-data-protection'),
  dp5: mcsb(
    'DP-5',
    'Use customer-managed key option in data at rest encryption when required',
    'mcsb-data-protection',
  ),
  im1: mcsb('IM-1', 'Use centralized identity and authentication system', 'mcsb-identity-management'),
  lt1: mcsb('LT-1', 'Enable threat detection capabilities', 'mcsb-logging-threat-detection'),
  lt3: mcsb('LT-3', 'Enable logging for security investigation', 'mcsb-logging-threat-detection'),
  policyPublicNetwork: azurePolicy(
    'b2982f36-99f2-4db5-8eff-283140c09693',
    'Storage accounts should disable public network access',
  ),
  policyPrivateLink: azurePolicy(
    '6edd7eda-6dd8-40f7-810d-67160c639cd9',
    'Storage accounts should use private link',
  ),
  policySecureTransfer: azurePolicy(
    '404c3081-a854-4457-ae30-26a93ef643f9',
    'Secure transfer to storage accounts should be enabled',
  ),
  policySharedKey: azurePolicy(
    '8c6a50c6-9ffd-4ae7-986f-5fa6111f9a54',
    'Storage accounts should prevent shared key access',
  ),
  policyCmk: azurePolicy(
    '6fac406b-40ca-413b-bf8e-0bf964659c25',
    'Storage accounts should use customer-managed key for encryption',
  ),
  policyDefender: azurePolicy(
    '640d2586-54d2-465f-877f-9ffc1d2109f4',
    'Microsoft Defender for Storage should be enabled',
  ),
  auditImmutable: baseline(
    'audit-immutable (Azure)',
    "The store's resource logs also go to a destination that keeps them write-once (a storage account with a time-based immutability policy)",
    'https://learn.microsoft.com/azure/azure-monitor/essentials/diagnostic-settings#destinations',
  ),
  releasesReplicated: baseline(
    'releases-replicated (Azure)',
    'A prod store of released checkpoints (retention lock) has a copy in a second region',
    'https://learn.microsoft.com/azure/storage/common/storage-redundancy',
  ),
} as const satisfies Record<string, Control>;
