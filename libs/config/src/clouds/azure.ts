import {
  AZURE_ADLS_VAULTED_BACKUP_REGIONS,
  AZURE_GZRS_REGIONS,
  AZURE_IP_RULE_PRIVATE_RANGES,
  AZURE_REGION_PAIRS,
  AZURE_REGIONS,
  AZURE_REGIONS_WITH_ZONES,
  AZURE_STORAGE_PRIVATE_DNS_ZONES,
  AZURE_ZONAL_REGIONS,
} from '../facts/azure';
import { PRIVATE_DNS_MANAGED_BY_POLICY } from '../schema';
import { ADLS_NO_ACCESS_TIERS, AZURE_VAULTED_BACKUP_DAYS } from '../limits';
import { nearestValues, type ConfigIssue } from '../issues';
import type { CloudRules, Report } from '../load';
import type { RawStore } from '../schema';
import type { Environment, RetentionSpec, StoreSpec, Tier } from '../spec';

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

/**
 * Azure limits checked at config time. Storage account and Key Vault names need no check here:
 * `names.storageAccount` and `names.keyVault` shorten every name to fit their 24-character limits.
 */
export const azureRules: CloudRules = {
  cloud: 'azure',
  limits: 'azure',
  stackKeys: ['resourceGroupName', 'logAnalyticsWorkspaceId'],
  storeKeys: [
    'network.subnets',
    'network.privateEndpointSubnet',
    'network.privateDnsZones',
    'recovery.readableReplica',
    'recovery.independentCopy',
  ],
  retentionDefaults: azureRetentionDefaults,
  // Opt-in: ADLS vaulted backup is a limited preview a subscription enrols in, offered in a few regions only
  // (AZURE_ADLS_VAULTED_BACKUP_REGIONS). Its days default to the store's own window, soft delete's.
  independentCopy: {
    byDefault: () => false,
    defaultDays: (spec) =>
      Math.min(
        Math.max(AZURE_VAULTED_BACKUP_DAYS.min, spec.retention.softDeleteDays),
        AZURE_VAULTED_BACKUP_DAYS.max,
      ),
  },
  checkStore(store, raw, report) {
    checkRetention(store.tier, raw.retention ?? {}, report);
    checkLifecycleNotEmpty(store, report);
    checkPrincipals(store.access.writers, 'access.writers', report);
    checkPrincipals(store.access.readers, 'access.readers', report);
    checkNetwork(store, report);
    checkRecovery(store, report);
  },
};

/** `/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>`, any case. */
const SUBNET_ID = new RegExp(
  `^/subscriptions/${GUID}/resourceGroups/[-\\w.()]{1,90}/providers/Microsoft\\.Network/virtualNetworks/[-\\w.]{2,64}/subnets/[-\\w.]{1,80}$`,
  'i',
);

const SUBNET_FORMAT =
  'must be a subnet resource ID, /subscriptions/<subscription-id>/resourceGroups/<group>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet> ' +
  '(`az network vnet subnet show -g <group> --vnet-name <vnet> -n <subnet> --query id -o tsv`)';

/** `/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.OperationalInsights/workspaces/<name>`, any case. */
const WORKSPACE_ID = new RegExp(
  `^/subscriptions/${GUID}/resourceGroups/[-\\w.()]{1,90}/providers/Microsoft\\.OperationalInsights/workspaces/[A-Za-z0-9][-A-Za-z0-9]{2,61}[A-Za-z0-9]$`,
  'i',
);

/**
 * Problems with `checkpoints:logAnalyticsWorkspaceId`: a Log Analytics workspace resource ID (the
 * destination a diagnostic setting's `workspaceId` takes; workspace names are 4 to 63 letters, digits
 * and hyphens, https://learn.microsoft.com/azure/azure-resource-manager/management/resource-name-rules#microsoftoperationalinsights).
 */
export function azureWorkspaceIdIssues(workspaceId: string | undefined): ConfigIssue[] {
  if (workspaceId === undefined || WORKSPACE_ID.test(workspaceId)) return [];
  return [
    {
      path: 'checkpoints:logAnalyticsWorkspaceId',
      value: workspaceId,
      message:
        'must be a Log Analytics workspace resource ID, /subscriptions/<subscription-id>/resourceGroups/<group>/providers/Microsoft.OperationalInsights/workspaces/<name> ' +
        '(`az monitor log-analytics workspace show -g <group> -n <name> --query id -o tsv`), or be left out for a workspace the stack creates',
    },
  ];
}

const IPV4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?:\/(\d{1,2}))?$/;

/** An IPv4 address or CIDR range as [address as a number, prefix length]; undefined when malformed. */
export function parseIpv4Range(value: string): [number, number] | undefined {
  const match = IPV4.exec(value);
  if (!match) return undefined;
  const octets = match.slice(1, 5).map(Number);
  const prefix = match[5] === undefined ? 32 : Number(match[5]);
  if (octets.some((octet) => octet > 255) || prefix > 32) return undefined;
  const address = octets.reduce((sum, octet) => sum * 256 + octet, 0);
  return [address, prefix];
}

/** Whether two IPv4 ranges share an address. */
export function ipv4RangesOverlap(a: [number, number], b: [number, number]): boolean {
  const prefix = Math.min(a[1], b[1]);
  const block = 2 ** (32 - prefix);
  return Math.floor(a[0] / block) === Math.floor(b[0] / block);
}

const PRIVATE_RANGES = AZURE_IP_RULE_PRIVATE_RANGES.map((range) => parseIpv4Range(range)!);

/**
 * Azure's network rules take subnets by resource ID and public IPv4 ranges only (facts/azure.ts); a
 * private endpoint subnet is a subnet like the others.
 */
function checkNetwork(store: StoreSpec, report: Report): void {
  const network = store.network;
  if (!network) return;
  if (network.public && network.privateEndpointSubnet !== undefined) {
    report(
      'network.privateEndpointSubnet',
      network.privateEndpointSubnet,
      'cannot be combined with network.public: true: a store open to every network gets no private endpoint; remove public (the store is then reachable through its private endpoints only) or remove privateEndpointSubnet and privateDnsZones',
    );
  }
  network.subnets.forEach((subnet, index) => {
    if (!SUBNET_ID.test(subnet)) report(`network.subnets[${index}]`, subnet, SUBNET_FORMAT);
  });
  if (network.privateEndpointSubnet !== undefined && !SUBNET_ID.test(network.privateEndpointSubnet)) {
    report('network.privateEndpointSubnet', network.privateEndpointSubnet, SUBNET_FORMAT);
  }
  checkPrivateDnsZones(network, report);
  network.cidrs.forEach((cidr, index) => {
    const range = parseIpv4Range(cidr);
    if (range === undefined) {
      report(
        `network.cidrs[${index}]`,
        cidr,
        'must be a public IPv4 address or range in CIDR form, e.g. 203.0.113.0/24: Azure storage IP rules take IPv4 only (reach the store from IPv6 or Azure networks through network.subnets or a private endpoint)',
      );
    } else if (PRIVATE_RANGES.some((reserved) => ipv4RangesOverlap(range, reserved))) {
      report(
        `network.cidrs[${index}]`,
        cidr,
        `is a private range (${AZURE_IP_RULE_PRIVATE_RANGES.join(', ')}), which Azure storage IP rules do not take: traffic from Azure virtual networks is allowed by network.subnets (service endpoint) or a private endpoint (network.privateEndpointSubnet)`,
      );
    }
  });
}

/** `/subscriptions/<id>/resourceGroups/<group>/providers/Microsoft.Network/privateDnsZones/<zone>`, any case. */
const PRIVATE_DNS_ZONE_ID = new RegExp(
  `^/subscriptions/${GUID}/resourceGroups/[-\\w.()]{1,90}/providers/Microsoft\\.Network/privateDnsZones/([^/]+)$`,
  'i',
);

/**
 * Each endpoint's DNS zone group names the zone of its own sub-resource (facts/azure.ts): a blob record in
 * the dfs zone would never be asked for, and the job's `<account>.dfs.core.windows.net` would resolve to the
 * public endpoint. The zones are DNS records for the endpoints, so they need the endpoints.
 */
function checkPrivateDnsZones(network: NonNullable<StoreSpec['network']>, report: Report): void {
  const zones = network.privateDnsZones;
  if (zones === undefined) return;
  if (network.privateEndpointSubnet === undefined) {
    report(
      'network.privateDnsZones',
      zones,
      'needs network.privateEndpointSubnet: the zone groups hold the DNS records of the private endpoints, which are only created in that subnet; set privateEndpointSubnet or remove privateDnsZones',
    );
  }
  if (zones === PRIVATE_DNS_MANAGED_BY_POLICY) return;
  for (const service of ['blob', 'dfs'] as const) {
    const zone = AZURE_STORAGE_PRIVATE_DNS_ZONES[service];
    const name = PRIVATE_DNS_ZONE_ID.exec(zones[service])?.[1];
    if (name === undefined || name.toLowerCase() !== zone) {
      report(
        `network.privateDnsZones.${service}`,
        zones[service],
        `must be the resource ID of the ${zone} private DNS zone, /subscriptions/<subscription-id>/resourceGroups/<group>/providers/Microsoft.Network/privateDnsZones/${zone} ` +
          `(the zone of the ${service} sub-resource, https://learn.microsoft.com/azure/private-link/private-endpoint-dns; \`az network private-dns zone show -g <group> -n ${zone} --query id -o tsv\`)`,
      );
    }
  }
}

/**
 * A private endpoint without DNS records is unreachable by name: `<account>.dfs.core.windows.net` keeps
 * resolving to the public endpoint, which a private-only account refuses. In prod the config says where
 * the records come from: the zones (the stack creates the zone groups), or `managed-by-policy` (the
 * platform's Azure Policy creates them, https://learn.microsoft.com/azure/cloud-adoption-framework/ready/azure-best-practices/private-link-and-dns-integration-at-scale).
 */
export function azurePrivateDnsIssues(stores: readonly StoreSpec[], environment: Environment): ConfigIssue[] {
  if (environment !== 'prod') return [];
  return stores.flatMap((store, index) => {
    const network = store.network;
    if (network?.privateEndpointSubnet === undefined || network.public || network.privateDnsZones) return [];
    return [
      {
        path: `checkpoints:stores[${index}].network.privateDnsZones`,
        value: undefined,
        message: `is required in prod beside network.privateEndpointSubnet: give the resource IDs of the zones, privateDnsZones: { blob: <id of ${AZURE_STORAGE_PRIVATE_DNS_ZONES.blob}>, dfs: <id of ${AZURE_STORAGE_PRIVATE_DNS_ZONES.dfs}> }, or privateDnsZones: ${PRIVATE_DNS_MANAGED_BY_POLICY} when Azure Policy creates the zone groups (docs/azure.md, "Private endpoints and DNS")`,
      },
    ];
  });
}

/**
 * A prod account is private-only unless its store declares `network.public: true`: public network access
 * Disabled, so only its private endpoints (blob and dfs) reach it. Disabled "denies all logins that match IP or
 * virtual network-based firewall rules" (built-in policy b2982f36-99f2-4db5-8eff-283140c09693,
 * https://learn.microsoft.com/azure/storage/common/storage-network-security#change-the-default-network-access-rule),
 * so subnets (service endpoints) and IP ranges would admit nothing there and are refused.
 */
export function azurePrivateOnlyIssues(
  stores: readonly StoreSpec[],
  environment: Environment,
): ConfigIssue[] {
  if (environment !== 'prod') return [];
  return stores.flatMap((store, index): ConfigIssue[] => {
    const network = store.network;
    if (network === undefined || network.public) return [];
    const path = `checkpoints:stores[${index}].network`;
    const lists = (['subnets', 'cidrs'] as const).filter((key) => network[key].length > 0);
    return [
      ...lists.map((key) => ({
        path: `${path}.${key}`,
        value: network[key],
        message: `cannot reach a prod account, which is private-only (public network access Disabled, which also refuses service-endpoint and IP rules): reach the store through its private endpoints (network.privateEndpointSubnet), or declare network: { public: true }`,
      })),
      ...(network.privateEndpointSubnet === undefined
        ? [
            {
              path: `${path}.privateEndpointSubnet`,
              value: undefined,
              message:
                'is required in prod: a prod account is private-only, reached through its blob and dfs private endpoints in this subnet (with network.privateDnsZones); or declare network: { public: true }',
            },
          ]
        : []),
    ];
  });
}

/**
 * Geo-redundancy on Azure is the account's SKU: GZRS copies to the primary region's pair, the only
 * secondary Azure offers (facts/azure.ts), and premium block blob accounts have no geo-redundant SKU.
 */
function checkRecovery(store: StoreSpec, report: Report): void {
  const { replicaRegion, readableReplica } = store.recovery;
  if (replicaRegion !== undefined && store.tier === 'high-throughput') {
    report(
      'recovery.replicaRegion',
      replicaRegion,
      "cannot apply to tier 'high-throughput': premium block blob accounts are LRS or ZRS only, with no geo-redundant copy " +
        '(https://learn.microsoft.com/azure/storage/common/storage-redundancy#supported-azure-storage-services); use tier: standard, or copy with object replication to a standard store',
    );
  }
  if (readableReplica && replicaRegion === undefined) {
    report(
      'recovery.readableReplica',
      readableReplica,
      'needs recovery.replicaRegion: a readable copy (RA-GZRS) is the geo-redundant copy; set replicaRegion to the pair of azure-native:location or remove readableReplica',
    );
  }
  checkRetentionLock(store, report);
  checkIndependentCopy(store, report);
}

const ADLS_BACKUP_MATRIX =
  'https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-support-matrix';

/**
 * Azure Backup's vaulted backup of ADLS takes "Only block blobs in a standard general-purpose v2 HNS-enabled
 * storage account" with "Locally redundant storage (LRS), Zone-redundant storage (ZRS), Geo-redundant storage (GRS)"
 * (ADLS_BACKUP_MATRIX, "Supported storage accounts"): not a premium block blob account, nor the geo-zone-redundant
 * account a `replicaRegion` makes.
 */
function checkIndependentCopy(store: StoreSpec, report: Report): void {
  const copy = store.recovery.independentCopy;
  if (copy === undefined) return;
  if (store.tier === 'high-throughput') {
    report(
      'recovery.independentCopy',
      copy,
      `cannot apply to tier 'high-throughput': Azure Backup's vaulted backup of ADLS takes standard general-purpose v2 accounts only, not premium block blob accounts (${ADLS_BACKUP_MATRIX}); remove recovery.independentCopy, or keep the checkpoints to be copied in a standard store`,
    );
  } else if (store.recovery.replicaRegion !== undefined) {
    report(
      'recovery.independentCopy',
      copy,
      `cannot apply beside recovery.replicaRegion: the replica makes the account geo-zone-redundant (GZRS), and Azure Backup's vaulted backup of ADLS takes LRS, ZRS and GRS accounts only (${ADLS_BACKUP_MATRIX}); remove one of the two`,
    );
  }
}

/**
 * Problems of the stores' independent copies against the stack's location: the Backup vault must be in the
 * account's region ("ensure you have a Backup Vault in the same region",
 * https://learn.microsoft.com/azure/backup/azure-data-lake-storage-configure-backup), and vaulted backup of ADLS
 * is offered in AZURE_ADLS_VAULTED_BACKUP_REGIONS only. Run once the location itself is known to be valid.
 */
export function azureIndependentCopyIssues(stores: readonly StoreSpec[], location: string): ConfigIssue[] {
  const region = location.toLowerCase().replace(/\s+/g, '');
  if (AZURE_ADLS_VAULTED_BACKUP_REGIONS.includes(region)) return [];
  return stores.flatMap((store, index) =>
    store.recovery.independentCopy === undefined
      ? []
      : [
          {
            path: `checkpoints:stores[${index}].recovery.independentCopy`,
            value: store.recovery.independentCopy,
            message: `cannot be honoured in ${location}: Azure Backup offers vaulted backup of ADLS (a limited preview) in ${AZURE_ADLS_VAULTED_BACKUP_REGIONS.join(', ')} only (${ADLS_BACKUP_MATRIX}); deploy the stack in one of them or remove recovery.independentCopy`,
          },
        ],
  );
}

const CONTAINER_WORM =
  'https://learn.microsoft.com/azure/storage/blobs/immutable-container-level-worm-policies';
const LIFECYCLE_LIMITS =
  'https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-overview#known-issues-and-limitations';

/**
 * `recovery.retentionLock: { days }` is a time-based immutability policy on the store's filesystem, left
 * unlocked (stacks/azure-adls/src/immutability.ts). What Azure allows, and where the spec cannot be honoured:
 * - Container-level WORM is "supported for general-purpose v2, premium block blob" accounts and "for
 *   hierarchical namespace accounts" (CONTAINER_WORM), but only for a whole container: version-level
 *   policies, the only ones below a container, "are not yet supported in accounts that have a hierarchical
 *   namespace" (https://learn.microsoft.com/azure/storage/blobs/immutable-storage-overview). So no prefix.
 * - "The delete action of a lifecycle management policy won't work with any blob in an immutable
 *   container" (LIFECYCLE_LIMITS): an expiry rule would never expire a locked checkpoint, and premium block
 *   blob accounts have no access tiers to move them to either, so a locked high-throughput store would have
 *   no lifecycle rule that does anything, which the baseline requires (checkLifecycleNotEmpty).
 */
function checkRetentionLock(store: StoreSpec, report: Report): void {
  const lock = store.recovery.retentionLock;
  if (lock === undefined) return;
  if (lock.prefix !== undefined) {
    report(
      'recovery.retentionLock.prefix',
      lock.prefix,
      `is not available on Azure: immutability policies of ADLS Gen2 (hierarchical namespace) accounts are container-level only (${CONTAINER_WORM}; ` +
        'version-level policies, the only ones scoped below a container, are not supported with a hierarchical namespace), so a lock covers the whole filesystem. ' +
        `Omit prefix and lock a store of its own that holds the released checkpoints: recovery.retentionLock: { days: ${lock.days} } (docs/azure.md, "Retention lock")`,
    );
  }
  if (store.tier === 'high-throughput') {
    report(
      'recovery.retentionLock',
      lock,
      "cannot apply to tier 'high-throughput': premium block blob accounts take container immutability policies, but they have no access tiers, " +
        `and a lifecycle delete does not act on blobs in an immutable container (${LIFECYCLE_LIMITS}), so the account could have no lifecycle rule that does anything (the baseline requires one). ` +
        'Keep released checkpoints, written once and read rarely, in a store of tier standard with retention.coolAfterDays',
    );
  } else if (store.retention.expireAfterDays > 0) {
    report(
      'retention.expireAfterDays',
      store.retention.expireAfterDays,
      `cannot apply beside recovery.retentionLock: a lifecycle delete does not act on blobs in an immutable container (${LIFECYCLE_LIMITS}), so the rule would never expire a checkpoint. ` +
        'Set 0 (never) and tier with retention.coolAfterDays; delete released checkpoints deliberately once their lock has ended',
    );
  }
}

/**
 * Problems of a store's replica region against the stack's location: the pair of the location, which
 * must offer GZRS (facts/azure.ts). Run once the location itself is known to be valid.
 */
export function azureReplicaIssues(stores: readonly StoreSpec[], location: string): ConfigIssue[] {
  const primary = location.toLowerCase().replace(/\s+/g, '');
  const pair = AZURE_REGION_PAIRS[primary];
  return stores.flatMap((store, index) => {
    const replica = store.recovery.replicaRegion;
    if (replica === undefined || store.tier !== 'standard') return [];
    const path = `checkpoints:stores[${index}].recovery.replicaRegion`;
    const given = replica.toLowerCase().replace(/\s+/g, '');
    if (pair === undefined) {
      return [
        {
          path,
          value: replica,
          message: `cannot be honoured: ${location} has no region pair, and Azure geo-redundant storage copies only to the pair (https://learn.microsoft.com/azure/reliability/regions-paired); remove replicaRegion or use a paired region`,
        },
      ];
    }
    if (given !== pair) {
      return [
        {
          path,
          value: replica,
          message: `must be ${pair}, the pair of azure-native:location ${location}: Azure geo-redundant storage copies only to the primary region's pair (https://learn.microsoft.com/azure/reliability/regions-paired)`,
        },
      ];
    }
    if (!AZURE_GZRS_REGIONS.includes(primary)) {
      return [
        {
          path,
          value: replica,
          message: `cannot be honoured: ${location} does not offer geo-zone-redundant storage (GZRS), which keeps the zone redundancy of standard stores (https://learn.microsoft.com/azure/storage/common/redundancy-regions-gzrs); remove replicaRegion`,
        },
      ];
    }
    return [];
  });
}

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

/** A value meaning "never" (0) is accepted for what the account does not have, so one spec fits every tier. */
function checkRetention(tier: Tier, retention: NonNullable<RawStore['retention']>, report: Report): void {
  if (tier === 'high-throughput' && retention.coolAfterDays !== undefined && retention.coolAfterDays !== 0) {
    report(
      'retention.coolAfterDays',
      retention.coolAfterDays,
      `${ADLS_NO_ACCESS_TIERS} retention.coolAfterDays or set it to 0`,
    );
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
    `leaves the account without a lifecycle management policy, which the baseline requires of every account; set ${options} above 0`,
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
