import type { RenderedResource, RenderedStore } from '@checkpoints/render';
import { accountNetworkOf } from '../access/azure-network';
import { stringInput } from '../access/model';
import type { StoreRetention } from '../retention';
import { AZURE_CONTROLS as C } from './controls';
import {
  fail,
  notApplicable,
  pass,
  type Check,
  type CloudCompliance,
  type ComplianceException,
  type Finding,
  OUTSIDE_PROD_THREAT_DETECTION,
  outsideProd,
} from './model';

/** What the Azure checks judge one store by. */
export interface AzureSubject {
  store: RenderedStore;
  component: RenderedResource;
  environment: string;
  account: RenderedResource | undefined;
  resources: readonly RenderedResource[];
  retention: StoreRetention | undefined;
  /** The bootstrap render (the write-once archive of the resource logs lives there); undefined when not given. */
  bootstrap: readonly RenderedResource[] | undefined;
}

const TYPES = {
  account: 'azure-native:storage:StorageAccount',
  vault: 'azure-native:keyvault:Vault',
  key: 'azure-native:keyvault:Key',
  diagnosticSetting: 'azure-native:monitor:DiagnosticSetting',
  privateEndpoint: 'azure-native:network:PrivateEndpoint',
  dnsZoneGroup: 'azure-native:network:PrivateDnsZoneGroup',
  defender: 'azure-native:security:DefenderForStorage',
  immutabilityPolicy: 'azure-native:storage:BlobContainerImmutabilityPolicy',
} as const;

/** Blob request categories of the storage account's resource logs (stacks/azure-adls/src/audit.ts). */
const BLOB_CATEGORIES = ['StorageRead', 'StorageWrite', 'StorageDelete'];

function accountName(subject: AzureSubject): string {
  return stringInput(subject.account ?? subject.component, 'accountName') ?? subject.store.name;
}

function onAccount(subject: AzureSubject, judge: (inputs: Record<string, unknown>) => Finding): Finding {
  if (!subject.account) return fail('the store has no storage account in the render');
  return judge(subject.account.inputs);
}

const isTrue = (value: unknown, on: string, off: string): Finding => (value === true ? pass(on) : fail(off));

/** The diagnostic settings of a resource (its `resourceUri`), with the categories each sends. */
function settingsOn(subject: AzureSubject, uriEnd: string): RenderedResource[] {
  return subject.resources.filter(
    (resource) =>
      resource.type === TYPES.diagnosticSetting &&
      String(resource.inputs['resourceUri'] ?? '')
        .toLowerCase()
        .endsWith(uriEnd.toLowerCase()),
  );
}

function categoriesOf(setting: RenderedResource): string[] {
  const logs = setting.inputs['logs'] as { category?: string; enabled?: boolean }[] | undefined;
  return (logs ?? []).filter((log) => log.enabled === true).map((log) => String(log.category));
}

function blobLogging(subject: AzureSubject): Finding {
  const settings = settingsOn(subject, `/storageAccounts/${accountName(subject)}/blobServices/default`);
  const sent = settings.flatMap(categoriesOf);
  const missing = BLOB_CATEGORIES.filter((category) => !sent.includes(category));
  return settings.length > 0 && missing.length === 0
    ? pass(`diagnostic setting sends ${BLOB_CATEGORIES.join(', ')} of the blob service`)
    : fail(
        settings.length === 0
          ? 'no diagnostic setting on the blob service'
          : `${missing.join(', ')} not sent`,
      );
}

/**
 * Whether the blob service's resource logs also go to a storage account that keeps them write-once: a destination
 * account, of the render or of the bootstrap render (the environment's audit archive), with a time-based
 * immutability policy on its account (version-level immutability, which the `insights-logs-*` containers Azure
 * Monitor creates inherit) that allows protected append writes, as Azure Monitor requires
 * (https://learn.microsoft.com/azure/azure-monitor/essentials/diagnostic-settings#destination-limitations), and a
 * CanNotDelete lock on it. A destination found in neither render is not judged: it counts as failed.
 */
function immutableDestination(subject: AzureSubject): Finding {
  const settings = settingsOn(subject, `/storageAccounts/${accountName(subject)}/blobServices/default`);
  const destinations = settings.map((setting) => stringInput(setting, 'storageAccountId')).filter(Boolean);
  if (destinations.length === 0) return fail('the resource logs go to no storage account (a workspace only)');
  const everything = [...subject.resources, ...(subject.bootstrap ?? [])];
  const findings = destinations.map((destination): Finding => {
    const name = String(destination).split('/').pop()?.toLowerCase();
    const archive = everything.find(
      (resource) =>
        resource.type === TYPES.account && String(resource.inputs['accountName']).toLowerCase() === name,
    );
    if (!archive)
      return fail(
        subject.bootstrap
          ? `the destination ${String(destination)} is in neither the render nor the bootstrap render`
          : `the destination ${String(destination)} is not in the render and the bootstrap render was not given (synth --bootstrap): not judged, counted as failed`,
      );
    const policy = archive.inputs['immutableStorageWithVersioning'] as
      | {
          enabled?: boolean;
          immutabilityPolicy?: {
            immutabilityPeriodSinceCreationInDays?: number;
            allowProtectedAppendWrites?: boolean;
          };
        }
      | undefined;
    const days = policy?.immutabilityPolicy?.immutabilityPeriodSinceCreationInDays ?? 0;
    if (policy?.enabled !== true || days <= 0)
      return fail(`${String(name)} has no account-level immutability policy`);
    if (policy.immutabilityPolicy?.allowProtectedAppendWrites !== true)
      return fail(
        `${String(name)} is immutable but refuses protected append writes, which Azure Monitor needs`,
      );
    const locked = everything.some(
      (resource) =>
        resource.type === 'azure-native:authorization:ManagementLockByScope' &&
        resource.inputs['level'] === 'CanNotDelete' &&
        (resource.propertyDependencies?.['scope'] ?? []).includes(archive.urn),
    );
    if (!locked) return fail(`${String(name)} is immutable but has no CanNotDelete lock`);
    return pass(
      `resource logs also go to ${String(name)}, immutable for ${days} d after each write, locked against deletion`,
    );
  });
  return findings.find((finding) => finding.verdict === 'pass') ?? findings[0]!;
}

function privateEndpoints(subject: AzureSubject): Finding {
  const name = accountName(subject);
  const endpoints = subject.resources.filter(
    (resource) =>
      resource.type === TYPES.privateEndpoint &&
      JSON.stringify(resource.inputs['privateLinkServiceConnections'] ?? []).includes(
        `/storageAccounts/${name}"`,
      ),
  );
  const groups = (endpoint: RenderedResource) =>
    (
      (endpoint.inputs['privateLinkServiceConnections'] as { groupIds?: string[] }[] | undefined) ?? []
    ).flatMap((connection) => connection.groupIds ?? []);
  const services = new Set(endpoints.flatMap(groups));
  const missing = ['blob', 'dfs'].filter((service) => !services.has(service));
  if (missing.length > 0) return fail(`no private endpoint for ${missing.join(' and ')}`);
  const named = endpoints.filter((endpoint) =>
    subject.resources.some(
      (resource) =>
        resource.type === TYPES.dnsZoneGroup &&
        resource.inputs['privateEndpointName'] === endpoint.inputs['privateEndpointName'],
    ),
  );
  const byPolicy =
    (subject.component.inputs['network'] as { privateDnsZones?: unknown } | undefined)?.privateDnsZones ===
    'managed-by-policy';
  return named.length === endpoints.length || byPolicy
    ? pass(
        `private endpoints for blob and dfs, ${byPolicy ? 'DNS zone groups by Azure Policy' : 'each in its private DNS zone'}`,
      )
    : fail('a private endpoint has no DNS zone group');
}

function vaultOf(subject: AzureSubject): RenderedResource | undefined {
  return subject.store.resources.find((resource) => resource.type === TYPES.vault);
}

const publicByDeclaration = (subject: AzureSubject) =>
  (subject.component.inputs['network'] as { public?: unknown } | undefined)?.public === true;

const CHECKS: readonly Check<AzureSubject>[] = [
  {
    controls: [C.cis41, C.dp3, C.policySecureTransfer],
    field: `${TYPES.account} enableHttpsTrafficOnly`,
    rule: 'azure-storage-secure-transport',
    judge: (subject) =>
      onAccount(subject, (inputs) =>
        isTrue(inputs['enableHttpsTrafficOnly'], 'HTTPS only', 'HTTP requests accepted'),
      ),
  },
  {
    controls: [C.cis415],
    field: `${TYPES.account} minimumTlsVersion`,
    rule: 'azure-storage-secure-transport',
    judge: (subject) =>
      onAccount(subject, (inputs) =>
        inputs['minimumTlsVersion'] === 'TLS1_2'
          ? pass('minimum TLS 1.2')
          : fail(`minimum TLS ${String(inputs['minimumTlsVersion'] ?? 'not set')}`),
      ),
  },
  {
    controls: [C.cis42],
    field: `${TYPES.account} encryption.requireInfrastructureEncryption`,
    rule: 'azure-storage-infrastructure-encryption',
    judge: (subject) =>
      onAccount(subject, (inputs) =>
        isTrue(
          (inputs['encryption'] as { requireInfrastructureEncryption?: unknown } | undefined)
            ?.requireInfrastructureEncryption,
          'infrastructure encryption on',
          'infrastructure encryption off',
        ),
      ),
  },
  {
    controls: [C.cis44, C.im1, C.policySharedKey],
    field: `${TYPES.account} allowSharedKeyAccess`,
    rule: 'azure-storage-no-shared-key',
    judge: (subject) =>
      onAccount(subject, (inputs) =>
        inputs['allowSharedKeyAccess'] === false
          ? pass('shared key access off: the account keys authorize nothing, only Entra ID tokens do')
          : fail('shared key access on'),
      ),
  },
  {
    controls: [C.cis46, C.policyPublicNetwork],
    field: `${TYPES.account} publicNetworkAccess`,
    rule: 'azure-storage-private-only',
    judge: (subject) =>
      onAccount(subject, () => {
        const network = accountNetworkOf(subject.account!, subject.resources);
        return network.publicNetworkAccess === 'Disabled'
          ? pass('public network access Disabled: private endpoints only')
          : fail('public network access Enabled');
      }),
  },
  {
    controls: [C.cis47, C.ns2],
    field: `${TYPES.account} networkRuleSet.defaultAction (network analysis)`,
    rule: 'azure-storage-network-perimeter',
    judge: (subject) =>
      onAccount(subject, () => {
        const network = accountNetworkOf(subject.account!, subject.resources);
        return network.defaultAction === 'Deny' || network.publicNetworkAccess === 'Disabled'
          ? pass(
              `default action ${network.defaultAction}, public network access ${network.publicNetworkAccess}`,
            )
          : fail('every network reaches the account (default action Allow)');
      }),
  },
  {
    controls: [C.cis48],
    field: `${TYPES.account} networkRuleSet.bypass`,
    judge: (subject) =>
      onAccount(subject, () => {
        const network = accountNetworkOf(subject.account!, subject.resources);
        return network.bypass.includes('AzureServices')
          ? pass('trusted Azure services bypass the firewall')
          : fail(`bypass ${network.bypass.join(', ') || 'None'}`);
      }),
  },
  {
    controls: [C.cis49, C.policyPrivateLink],
    field: `${TYPES.privateEndpoint} privateLinkServiceConnections[].groupIds and ${TYPES.dnsZoneGroup}`,
    rule: 'azure-storage-private-only',
    judge: privateEndpoints,
  },
  {
    controls: [C.cis410],
    field: 'retention analysis: delete recovery window (blob and container soft delete)',
    rule: 'azure-storage-soft-delete',
    judge: (subject) => {
      const days = subject.retention?.deleteRecoveryDays;
      if (subject.retention?.lock)
        return pass('deletes are refused by the retention lock, soft delete on after it');
      return typeof days === 'number' && days > 0
        ? pass(`a deleted checkpoint is restorable for ${days} d`)
        : fail('a deleted checkpoint cannot be restored');
    },
  },
  {
    controls: [C.cis411, C.dp5, C.policyCmk],
    field: `${TYPES.account} encryption.keySource`,
    rule: 'azure-keyvault-key-rotation',
    judge: (subject) =>
      onAccount(subject, (inputs) =>
        (inputs['encryption'] as { keySource?: string } | undefined)?.keySource === 'Microsoft.Keyvault'
          ? pass('encrypted with the store key in its Key Vault')
          : fail('Microsoft-managed keys'),
      ),
  },
  {
    controls: [C.cis413, C.lt3],
    field: `${TYPES.diagnosticSetting} logs (blob service)`,
    rule: 'azure-storage-audit',
    judge: blobLogging,
  },
  {
    controls: [C.cis416],
    field: `${TYPES.account} allowCrossTenantReplication`,
    rule: 'azure-storage-no-cross-tenant-replication',
    judge: (subject) =>
      onAccount(subject, (inputs) =>
        inputs['allowCrossTenantReplication'] === false
          ? pass('cross-tenant replication off')
          : fail('cross-tenant replication allowed'),
      ),
  },
  {
    controls: [C.cis417],
    field: `${TYPES.account} allowBlobPublicAccess`,
    rule: 'azure-storage-no-public-access',
    judge: (subject) =>
      onAccount(subject, (inputs) =>
        inputs['allowBlobPublicAccess'] === false
          ? pass('anonymous blob access off')
          : fail('anonymous blob access allowed'),
      ),
  },
  {
    controls: [C.cis335],
    field: `${TYPES.vault} properties.enablePurgeProtection, enableSoftDelete`,
    rule: 'azure-keyvault-recoverable',
    judge: (subject) => {
      const vault = vaultOf(subject);
      if (!vault) return notApplicable('the store has no Key Vault (Microsoft-managed keys)');
      const properties = vault.inputs['properties'] as Record<string, unknown> | undefined;
      return properties?.['enablePurgeProtection'] === true && properties['enableSoftDelete'] !== false
        ? pass('soft delete and purge protection on')
        : fail('the vault can be purged');
    },
  },
  {
    controls: [C.cis338],
    field: `${TYPES.key} properties.rotationPolicy.lifetimeActions`,
    rule: 'azure-keyvault-key-rotation',
    judge: (subject) => {
      const key = subject.store.resources.find((resource) => resource.type === TYPES.key);
      if (!key) return notApplicable('the store has no customer managed key');
      const actions = (
        (
          key.inputs['properties'] as {
            rotationPolicy?: { lifetimeActions?: { action?: { type?: string } }[] };
          }
        )?.rotationPolicy?.lifetimeActions ?? []
      ).map((action) => action.action?.type);
      return actions.includes('rotate') ? pass('automatic rotation') : fail('no rotate action');
    },
  },
  {
    controls: [C.cis614],
    field: `${TYPES.diagnosticSetting} logs (Key Vault AuditEvent)`,
    rule: 'azure-storage-audit',
    judge: (subject) => {
      const vault = vaultOf(subject);
      if (!vault) return notApplicable('the store has no Key Vault (Microsoft-managed keys)');
      const sent = settingsOn(subject, `/vaults/${String(stringInput(vault, 'vaultName'))}`).flatMap(
        categoriesOf,
      );
      return sent.includes('AuditEvent') ? pass('AuditEvent sent') : fail('the vault sends no AuditEvent');
    },
  },
  {
    controls: [C.cis3151, C.lt1, C.policyDefender],
    field: `${TYPES.defender} properties.isEnabled, malwareScanning.onUpload.isEnabled`,
    rule: 'azure-storage-defender',
    judge: (subject) => {
      const name = accountName(subject);
      const defender = subject.resources.find(
        (resource) =>
          resource.type === TYPES.defender &&
          String(resource.inputs['resourceId'] ?? '')
            .toLowerCase()
            .endsWith(`/storageaccounts/${name.toLowerCase()}`),
      );
      const properties = defender?.inputs['properties'] as
        { isEnabled?: boolean; malwareScanning?: { onUpload?: { isEnabled?: boolean } } } | undefined;
      if (properties?.isEnabled !== true) return fail('Defender for Storage is not enabled on the account');
      return properties.malwareScanning?.onUpload?.isEnabled === true
        ? pass('Defender for Storage on, every upload scanned for malware')
        : fail('Defender for Storage on, but uploads are not scanned for malware');
    },
  },
  {
    controls: [C.auditImmutable],
    field: `${TYPES.diagnosticSetting} storageAccountId, its account's immutableStorageWithVersioning (in the render or the bootstrap render) and CanNotDelete lock`,
    rule: 'azure-storage-audit-immutable',
    judge: immutableDestination,
  },
  {
    controls: [C.releasesReplicated],
    field: `${TYPES.account} sku.name (geo-redundant)`,
    rule: 'releases-replicated-in-prod',
    judge: (subject) => {
      const locked = subject.store.resources.some((resource) => resource.type === TYPES.immutabilityPolicy);
      if (!locked) return notApplicable('not a store of released checkpoints (no retention lock)');
      if (outsideProd(subject.environment)) return notApplicable('not a prod store');
      const sku = String((subject.account?.inputs['sku'] as { name?: string } | undefined)?.name ?? '');
      return /GRS|GZRS/.test(sku)
        ? pass(`${sku}: a copy in the region's pair`)
        : fail(`${sku || 'no SKU'}: one region`);
    },
  },
];

const EXCEPTIONS: readonly ComplianceException<AzureSubject>[] = [
  {
    controls: [C.cis48],
    when: 'every account',
    reason:
      'no Microsoft service needs to reach the data: resource logs leave through diagnostic settings, which need no bypass, and the account key is fetched by Key Vault, whose own firewall carries the trusted-services exception; bypass None is the stricter setting',
    applies: () => true,
  },
  {
    controls: [C.cis46, C.policyPublicNetwork, C.cis49, C.policyPrivateLink],
    when: 'a store with network.public: true, or any store outside prod',
    reason:
      'the store declares it is reachable from every network (network.public: true), or it is not a prod store: private endpoints are required in prod only',
    applies: (subject) => publicByDeclaration(subject) || outsideProd(subject.environment),
  },
  {
    controls: [C.cis411, C.dp5, C.policyCmk, C.cis335, C.cis338],
    when: 'a store with encryption: provider-managed',
    reason:
      'the store spec chooses Microsoft-managed keys (encryption: provider-managed, allowed outside prod by default)',
    applies: (subject) => subject.component.inputs['encryption'] === 'provider-managed',
  },
  {
    controls: [C.cis47, C.ns2],
    when: 'a store outside prod without a network block',
    reason:
      'outside prod the spec may leave network unset: every network reaches the account, and every request still needs an Entra ID identity with a data role',
    applies: (subject) => outsideProd(subject.environment),
  },
  {
    controls: [C.cis3151, C.lt1, C.policyDefender],
    when: 'a store outside prod',
    reason: OUTSIDE_PROD_THREAT_DETECTION,
    applies: (subject) => outsideProd(subject.environment),
  },
  {
    controls: [C.cis413, C.lt3, C.cis614, C.auditImmutable],
    when: 'a store with audit: false',
    reason:
      'the store spec turns audit off (audit: false, allowed only outside prod for public and internal data)',
    applies: (subject) => subject.component.inputs['audit'] === false,
  },
];

export const AZURE_COMPLIANCE: CloudCompliance<AzureSubject> = { checks: CHECKS, exceptions: EXCEPTIONS };

export function azureSubjectOf(
  store: RenderedStore,
  resources: readonly RenderedResource[],
  environment: string,
  retention: StoreRetention | undefined,
  bootstrap: readonly RenderedResource[] | undefined,
): AzureSubject {
  return {
    store,
    component: resources.find((resource) => resource.urn === store.urn)!,
    environment,
    account: store.resources.find((resource) => resource.type === TYPES.account),
    resources,
    retention,
    bootstrap,
  };
}
