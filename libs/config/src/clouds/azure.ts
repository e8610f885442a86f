import { AZURE_REGIONS, AZURE_REGIONS_WITH_ZONES, AZURE_ZONAL_REGIONS } from '../facts/azure';
import { nearestValues, type ConfigIssue } from '../issues';
import type { CloudRules, Report } from '../load';
import type { RawStore } from '../schema';
import type { RetentionSpec, StoreSpec, Tier } from '../spec';

/**
 * `<type>:<object ID>`. Role assignments must name the principal's type: ARM refuses a type that does not
 * match the directory, and the provider assumes 'User' when none is given, which breaks groups and apps.
 * Object IDs are GUIDs, compared by Azure without regard to case.
 */
const GUID = '[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}';
const PRINCIPAL = new RegExp(`^(user|group|servicePrincipal):(${GUID})$`);

const PRINCIPAL_FORMAT =
  "must be 'user:', 'group:' or 'servicePrincipal:' followed by the principal's Microsoft Entra object ID, " +
  'e.g. group:3f2504e0-4f89-41d3-9a0c-0305e82c3301 (a group: `az ad group show -g <name> --query id -o tsv`; ' +
  'an app or managed identity: its service principal, `az ad sp show --id <client-id> --query id -o tsv`; ' +
  'the application (client) ID is not an object ID)';

const NO_VERSIONING =
  'ADLS Gen2 accounts have a hierarchical namespace, which cannot have blob versioning, so there are no ' +
  'previous versions to keep; deleted files stay recoverable for retention.softDeleteDays instead. Remove';

const NO_UPLOAD_CLEANUP =
  'ADLS Gen2 has no rule for incomplete uploads: blocks that are never committed are discarded by the ' +
  'service after 7 days. Remove';

const NO_ACCESS_TIERS =
  "premium block blob accounts (tier 'high-throughput') have no access tiers, so nothing can move to cool " +
  'or archive; use tier: standard or remove';

// Standard stores are zone-redundant (ZRS) so the newest checkpoints survive a zone outage; Azure's archive
// tier exists only for LRS, GRS and RA-GRS accounts.
const NO_ARCHIVE_ON_ZRS =
  'the archive tier is not available on zone-redundant (ZRS) accounts, which standard stores use so ' +
  'checkpoints survive a zone outage; use retention.coolAfterDays and retention.expireAfterDays, or set 0 (never)';

/** The baseline's shortest soft delete; Azure itself accepts 1 to 365 days. */
const AZURE_MIN_SOFT_DELETE_DAYS = 7;

type NumericRetentionKey = Exclude<keyof RetentionSpec, 'keptPrefixes' | 'expirePrefixes'>;

/**
 * Azure limits checked at config time. Storage account and Key Vault names need no check here:
 * `names.storageAccount` and `names.keyVault` shorten every name to fit their 24-character limits.
 */
export const azureRules: CloudRules = {
  cloud: 'azure',
  stackKeys: ['resourceGroupName', 'logAnalyticsWorkspaceId'],
  storeKeys: ['network.subnets', 'network.privateEndpointSubnet', 'recovery.readableReplica'],
  retentionDefaults: azureRetentionDefaults,
  checkStore(store, raw, report) {
    checkRetention(store.tier, raw.retention ?? {}, report);
    checkLifecycleNotEmpty(store, report);
    checkPrincipals(store.access.writers, 'access.writers', report);
    checkPrincipals(store.access.readers, 'access.readers', report);
  },
};

/**
 * Problems with `azure-native:location`: required, a published region, and one with availability zones,
 * because both tiers' accounts are zone-redundant (Standard_ZRS, Premium_ZRS), which Azure creates only in
 * regions with availability zones.
 */
export function azureLocationIssues(location: string | undefined): ConfigIssue[] {
  const path = 'azure-native:location';
  if (!location) {
    return [
      {
        path,
        value: undefined,
        message: 'is required: the Azure region of every store and identity, e.g. eastus2',
      },
    ];
  }
  const name = location.toLowerCase().replace(/\s+/g, '');
  const zones = AZURE_REGIONS_WITH_ZONES[name];
  if (zones === undefined) {
    return [
      {
        path,
        value: location,
        message: `is not an Azure public-cloud region (the published list is in libs/config/src/facts/azure.ts); did you mean ${nearestValues(name, AZURE_REGIONS).join(', ')}?`,
      },
    ];
  }
  if (!zones) {
    return [
      {
        path,
        value: location,
        message: `has no availability zones, and every store's account is zone-redundant (ZRS) so checkpoints survive a zone outage; use a region with zones, e.g. ${nearestValues(name, AZURE_ZONAL_REGIONS).join(', ')}`,
      },
    ];
  }
  return [];
}

/** Options an ADLS Gen2 account of the tier cannot honour are 0 (not applicable) by default. */
function azureRetentionDefaults(tier: Tier): Partial<RetentionSpec> {
  const everyTier = { keepNoncurrentVersions: 0, noncurrentExpireDays: 0, abortIncompleteUploadDays: 0 };
  return tier === 'high-throughput' ? { ...everyTier, coolAfterDays: 0, archiveAfterDays: 0 } : everyTier;
}

function checkRetention(tier: Tier, retention: NonNullable<RawStore['retention']>, report: Report): void {
  // A value meaning "never" (0) is accepted for what the account does not have, so one spec fits every cloud.
  const refuse = (key: NumericRetentionKey, why: string) => {
    if (retention[key] !== undefined && retention[key] !== 0) {
      report(`retention.${key}`, retention[key], `${why} retention.${key} or set it to 0`);
    }
  };

  refuse('keepNoncurrentVersions', NO_VERSIONING);
  refuse('noncurrentExpireDays', NO_VERSIONING);
  refuse('abortIncompleteUploadDays', NO_UPLOAD_CLEANUP);
  if ((retention.softDeleteDays ?? AZURE_MIN_SOFT_DELETE_DAYS) < AZURE_MIN_SOFT_DELETE_DAYS) {
    report(
      'retention.softDeleteDays',
      retention.softDeleteDays,
      `blob and container soft delete are the only way back from a delete on ADLS Gen2 (no versions), so a store keeps deleted files at least ${AZURE_MIN_SOFT_DELETE_DAYS} days; use ${AZURE_MIN_SOFT_DELETE_DAYS} to 365`,
    );
  }
  if (tier === 'high-throughput') {
    refuse('coolAfterDays', NO_ACCESS_TIERS);
    refuse('archiveAfterDays', NO_ACCESS_TIERS);
  } else if ((retention.archiveAfterDays ?? 0) > 0) {
    report('retention.archiveAfterDays', retention.archiveAfterDays, NO_ARCHIVE_ON_ZRS);
  }
}

/**
 * The baseline requires a lifecycle management policy on every account, and Azure has no rule for
 * incomplete uploads (uncommitted blocks expire on their own), so a store must tier or expire something.
 * Deleting checkpoints by default would be worse than asking.
 */
function checkLifecycleNotEmpty(store: StoreSpec, report: Report): void {
  const { coolAfterDays, archiveAfterDays, expireAfterDays } = store.retention;
  if (coolAfterDays > 0 || archiveAfterDays > 0 || expireAfterDays > 0) return;
  const options =
    store.tier === 'standard'
      ? 'retention.coolAfterDays or retention.expireAfterDays'
      : 'retention.expireAfterDays';
  report(
    'retention.expireAfterDays',
    expireAfterDays,
    `leaves the account without a lifecycle management policy, which the baseline requires (DESIGN section 4); set ${options} above 0`,
  );
}

function checkPrincipals(principals: StoreSpec['access']['writers'], path: string, report: Report): void {
  const objectIds = principals.map((principal) => PRINCIPAL.exec(principal)?.[2]?.toLowerCase());
  principals.forEach((principal, index) => {
    const objectId = objectIds[index];
    if (objectId === undefined) {
      report(`${path}[${index}]`, principal, PRINCIPAL_FORMAT);
    } else if (objectIds.indexOf(objectId) !== index && principals.indexOf(principal) === index) {
      // Exact repeats are reported by the common rules; these name one object ID differently.
      report(`${path}[${index}]`, principal, `names object ID ${objectId} a second time`);
    }
  });
}
