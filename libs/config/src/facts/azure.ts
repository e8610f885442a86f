/**
 * Azure facts the validator checks offline. Each table names its source and the date it was read;
 * refresh them as libs/config/src/facts/README.md describes.
 */

/**
 * Regions of the Azure public cloud (programmatic names) and whether each has availability zones.
 * Source: "Azure regions list", https://learn.microsoft.com/azure/reliability/regions-list (ms.date
 * 2025-09-23; MicrosoftDocs/reliability-docs, articles/reliability/regions-list.md, commit 01021ab8),
 * read 2026-12-01. Regions the page marks as access-restricted are included (a subscription may be granted
 * them); `denmarkeast` was marked "coming soon" and is included so the table does not block it once open.
 * Azure Government and Azure China regions are not listed and are refused.
 */
export const AZURE_REGIONS_WITH_ZONES: Readonly<Record<string, boolean>> = {
  australiacentral: false,
  australiacentral2: false,
  australiaeast: true,
  australiasoutheast: false,
  austriaeast: true,
  belgiumcentral: true,
  brazilsouth: true,
  brazilsoutheast: false,
  canadacentral: true,
  canadaeast: false,
  centralindia: true,
  centralus: true,
  chilecentral: true,
  denmarkeast: true,
  eastasia: true,
  eastus: true,
  eastus2: true,
  francecentral: true,
  francesouth: false,
  germanynorth: false,
  germanywestcentral: true,
  indonesiacentral: true,
  israelcentral: true,
  italynorth: true,
  japaneast: true,
  japanwest: true,
  koreacentral: true,
  koreasouth: false,
  malaysiawest: true,
  mexicocentral: true,
  newzealandnorth: true,
  northcentralus: false,
  northeurope: true,
  norwayeast: true,
  norwaywest: false,
  polandcentral: true,
  qatarcentral: true,
  southafricanorth: true,
  southafricawest: false,
  southcentralus: true,
  southindia: false,
  southeastasia: true,
  spaincentral: true,
  swedencentral: true,
  switzerlandnorth: true,
  switzerlandwest: false,
  uaecentral: false,
  uaenorth: true,
  uksouth: true,
  ukwest: false,
  westcentralus: false,
  westeurope: true,
  westindia: false,
  westus: false,
  westus2: true,
  westus3: true,
};

export const AZURE_REGIONS: readonly string[] = Object.keys(AZURE_REGIONS_WITH_ZONES);

export const AZURE_ZONAL_REGIONS: readonly string[] = AZURE_REGIONS.filter(
  (region) => AZURE_REGIONS_WITH_ZONES[region],
);

/**
 * Azure RBAC limits. Source: "Azure subscription and service limits, quotas, and constraints", Azure RBAC
 * limits, https://learn.microsoft.com/azure/azure-resource-manager/management/azure-subscription-service-limits#azure-rbac-limits
 * (read 2026-12-01): "Azure role assignments per Azure subscription: 4,000" (a limit, not raisable). One
 * later copy of the page gives 5,000; not confirmed, so the lower figure is used for the warning.
 */
export const AZURE_RBAC_LIMITS = {
  roleAssignmentsPerSubscription: 4_000,
} as const;

/**
 * Default subscription quotas a stack can reach on its own. Source: "Scalability and performance targets
 * for standard storage accounts", https://learn.microsoft.com/azure/storage/common/scalability-targets-standard-account
 * and "Storage account overview" (read 2026-12-01): 250 storage accounts with standard endpoints per region
 * per subscription by default, 500 with a quota increase (Azure portal, Quotas, Storage).
 */
export const AZURE_DEFAULT_QUOTAS = {
  storageAccountsPerRegionPerSubscription: 250,
} as const;

/**
 * The secondary region of each paired region: where GRS/GZRS put the geo copy; an account cannot choose
 * another. Source: "Azure region pairs and nonpaired regions",
 * https://learn.microsoft.com/azure/reliability/regions-paired ("Azure geo-redundant storage (GRS) can
 * automatically replicate data to a paired region"; the table of pairs), read 2026-12-01. Most pairs are
 * symmetric; Brazil South -> South Central US, West US 3 -> East US, West India -> South India and Brazil
 * Southeast -> Brazil South are one-way. Regions absent here are nonpaired (Austria East, Belgium Central,
 * Chile Central, Denmark East, Indonesia Central, Israel Central, Italy North, Malaysia West, Mexico Central,
 * New Zealand North, Poland Central, Qatar Central, Spain Central): no geo-redundant storage there.
 */
export const AZURE_REGION_PAIRS: Readonly<Record<string, string>> = {
  australiacentral: 'australiacentral2',
  australiacentral2: 'australiacentral',
  australiaeast: 'australiasoutheast',
  australiasoutheast: 'australiaeast',
  brazilsouth: 'southcentralus',
  brazilsoutheast: 'brazilsouth',
  canadacentral: 'canadaeast',
  canadaeast: 'canadacentral',
  centralindia: 'southindia',
  centralus: 'eastus2',
  eastasia: 'southeastasia',
  eastus: 'westus',
  eastus2: 'centralus',
  francecentral: 'francesouth',
  francesouth: 'francecentral',
  germanynorth: 'germanywestcentral',
  germanywestcentral: 'germanynorth',
  japaneast: 'japanwest',
  japanwest: 'japaneast',
  koreacentral: 'koreasouth',
  koreasouth: 'koreacentral',
  northcentralus: 'southcentralus',
  northeurope: 'westeurope',
  norwayeast: 'norwaywest',
  norwaywest: 'norwayeast',
  southafricanorth: 'southafricawest',
  southafricawest: 'southafricanorth',
  southcentralus: 'northcentralus',
  southindia: 'centralindia',
  southeastasia: 'eastasia',
  swedencentral: 'swedensouth',
  switzerlandnorth: 'switzerlandwest',
  switzerlandwest: 'switzerlandnorth',
  uaecentral: 'uaenorth',
  uaenorth: 'uaecentral',
  uksouth: 'ukwest',
  ukwest: 'uksouth',
  westcentralus: 'westus2',
  westeurope: 'northeurope',
  westindia: 'southindia',
  westus: 'eastus',
  westus2: 'westcentralus',
  westus3: 'eastus',
};

/**
 * Regions where Azure Backup offers vaulted backup of ADLS Gen2 accounts, a limited preview. Source: "Support
 * matrix for Azure Data Lake Storage vaulted backup (preview)", "Supported regions: France South, India West, West
 * Central US, East Asia, India Central" and "This feature is currently in limited preview ... To enroll in this
 * preview feature, fill this form", https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-support-matrix
 * (ms.date 06/04/2025), as ARM location names.
 */
export const AZURE_ADLS_VAULTED_BACKUP_REGIONS: readonly string[] = [
  'francesouth',
  'westindia',
  'westcentralus',
  'eastasia',
  'centralindia',
];

/**
 * Regions where a standard general-purpose v2 account can be geo-zone-redundant (GZRS, RA-GZRS). Source:
 * "Azure regions that support geo-zone-redundant storage (GZRS)",
 * https://learn.microsoft.com/azure/storage/common/redundancy-regions-gzrs ("GZRS is available for a
 * subset of Azure regions"; public-cloud entries), read 2026-12-01.
 */
export const AZURE_GZRS_REGIONS: readonly string[] = [
  'southafricanorth',
  'australiaeast',
  'eastasia',
  'japaneast',
  'koreacentral',
  'southeastasia',
  'centralindia',
  'francecentral',
  'germanywestcentral',
  'northeurope',
  'norwayeast',
  'swedencentral',
  'switzerlandnorth',
  'uksouth',
  'westeurope',
  'uaenorth',
  'canadacentral',
  'centralus',
  'eastus',
  'eastus2',
  'southcentralus',
  'westus2',
  'westus3',
  'brazilsouth',
];

/**
 * Address ranges a storage account IP network rule refuses. Source: "Azure Storage firewall rules",
 * https://learn.microsoft.com/azure/storage/common/storage-network-security-limitations (read 2026-12-01):
 * "IP network rules have no effect on requests that originate from the same Azure region as the storage
 * account"; "Only IPv4 addresses are supported"; "Small address ranges using /31 or /32 prefix sizes
 * aren't supported. Configure these ranges by using individual IP address rules"; and "You can't use IP
 * network rules for private address ranges (as defined in RFC 1918)", nor 100.64.0.0/10 (RFC 6598) —
 * the storage REST schema says the same: "Specifies the IP or IP range in CIDR format. Only IPV4 address
 * is allowed." (https://learn.microsoft.com/rest/api/storagerp/storage-accounts/create#iprule).
 */
export const AZURE_IP_RULE_PRIVATE_RANGES: readonly string[] = [
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  '100.64.0.0/10',
];

/**
 * The private DNS zone of each storage sub-resource a store's private endpoints connect to (group ID ->
 * zone name). Source: "Azure Private Endpoint private DNS zone values",
 * https://learn.microsoft.com/azure/private-link/private-endpoint-dns, table "Storage", row Storage account
 * (Microsoft.Storage/storageAccounts): sub-resource blob -> privatelink.blob.core.windows.net, dfs ->
 * privatelink.dfs.core.windows.net (public cloud), read 2026-12-01. The same page warns against putting records of
 * several services in one zone: each sub-resource has a zone of its own.
 */
export const AZURE_STORAGE_PRIVATE_DNS_ZONES = {
  blob: 'privatelink.blob.core.windows.net',
  dfs: 'privatelink.dfs.core.windows.net',
} as const;
