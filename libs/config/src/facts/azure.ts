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
