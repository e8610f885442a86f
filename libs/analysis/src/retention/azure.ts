import { resourcesOfType, type RenderedResource } from '../render';
import {
  HOURS_PER_DAY,
  liveVersion,
  matchesPrefixes,
  permanentlyDelete,
  type LifecycleModel,
  type StoreLifecycle,
} from './replay';
import { list, numberOr, record } from './values';
import type { TierRecovery } from './index';

/** Every ADLS Gen2 account has a hierarchical namespace: soft delete restores deletes, nothing restores an overwrite. */
export const ADLS_RECOVERY: Record<'standard' | 'high-throughput', TierRecovery> = {
  standard: { delete: true, overwrite: false, versions: false },
  'high-throughput': { delete: true, overwrite: false, versions: false },
};

/** A base-blob delete action of a lifecycle management rule, as the simulator reads it. */
export interface AdlsDeleteRule {
  name: string;
  enabled: boolean;
  /** Prefixes below the filesystem (the `<container>/` part of prefixMatch removed); none: every blob. */
  prefixes: string[];
  daysAfterModificationGreaterThan?: number;
  daysAfterCreationGreaterThan?: number;
}

export interface AdlsAccount {
  hierarchicalNamespace: boolean;
  /** Blob soft delete retention; 0 when off. */
  softDeleteDays: number;
  rules: AdlsDeleteRule[];
}

/**
 * Azure Blob Storage's documented semantics on an ADLS Gen2 (hierarchical namespace) account.
 *
 * - Blob versioning is not available with a hierarchical namespace, and there blob soft delete protects
 *   deletes only: an overwrite keeps no copy. https://learn.microsoft.com/azure/storage/blobs/soft-delete-vs-versioning-options
 *   ("Soft delete only protects delete operations for HNS-enabled accounts"; "Versioning is not available
 *   for HNS-enabled accounts")
 * - A lifecycle delete on an account with soft delete puts the blob in the soft-deleted state for the
 *   retention period. https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-policy-delete
 * - `daysAfterModificationGreaterThan` / `daysAfterCreationGreaterThan` act once the blob is older than the
 *   given days (strictly greater), and `prefixMatch` entries start with the container name; the policy runs
 *   once a day. https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-overview
 */
export function adlsModel(account: AdlsAccount): LifecycleModel {
  const rules = account.rules.filter((rule) => rule.enabled);
  const protectsOverwrites = !account.hierarchicalNamespace;
  return {
    write(object, version) {
      const live = liveVersion(object);
      if (live)
        permanentlyDelete(object, live, version.writtenAt, protectsOverwrites ? account.softDeleteDays : 0);
      object.versions.unshift(version);
    },
    remove(object, at) {
      const live = liveVersion(object);
      if (live) permanentlyDelete(object, live, at, account.softDeleteDays);
    },
    lifecycle(object, at) {
      const live = liveVersion(object);
      if (!live) return;
      const age = at - live.writtenAt;
      const expired = rules.some(
        (rule) =>
          matchesPrefixes(object.key, rule.prefixes) &&
          [rule.daysAfterModificationGreaterThan, rule.daysAfterCreationGreaterThan].some(
            (days) => days !== undefined && age > days * HOURS_PER_DAY,
          ),
      );
      if (expired) permanentlyDelete(object, live, at, account.softDeleteDays);
    },
  };
}

/** The account of an ADLS store as its render describes it. */
export function adlsAccountOf(resources: readonly RenderedResource[]): AdlsAccount {
  const [account] = resourcesOfType(resources, 'azure-native:storage:StorageAccount');
  const [service] = resourcesOfType(resources, 'azure-native:storage:BlobServiceProperties');
  const [filesystem] = resourcesOfType(resources, 'azure-native:storage:BlobContainer');
  const container = String(filesystem?.inputs['containerName'] ?? '');
  const retention = record(service?.inputs['deleteRetentionPolicy']);
  const rules = resourcesOfType(resources, 'azure-native:storage:ManagementPolicy').flatMap((policy) =>
    list(record(policy.inputs['policy'])['rules']).flatMap((rule) => deleteRule(rule, container)),
  );
  return {
    hierarchicalNamespace: account?.inputs['isHnsEnabled'] === true,
    softDeleteDays: retention['enabled'] === true ? numberOr(retention['days'], 0) : 0,
    rules,
  };
}

function deleteRule(value: unknown, container: string): AdlsDeleteRule[] {
  const rule = record(value);
  const definition = record(rule['definition']);
  const remove = record(record(record(definition['actions'])['baseBlob'])['delete']);
  if (Object.keys(remove).length === 0) return [];
  const prefixMatch = list(record(definition['filters'])['prefixMatch']).map(String);
  const parsed: AdlsDeleteRule = {
    name: String(rule['name'] ?? ''),
    enabled: rule['enabled'] !== false,
    // A prefix naming another container matches nothing in this one.
    prefixes: prefixMatch.map((prefix) =>
      prefix.startsWith(`${container}/`)
        ? prefix.slice(container.length + 1)
        : prefix === container
          ? ''
          : '\u0000',
    ),
  };
  if (typeof remove['daysAfterModificationGreaterThan'] === 'number') {
    parsed.daysAfterModificationGreaterThan = remove['daysAfterModificationGreaterThan'];
  }
  if (typeof remove['daysAfterCreationGreaterThan'] === 'number') {
    parsed.daysAfterCreationGreaterThan = remove['daysAfterCreationGreaterThan'];
  }
  return [parsed];
}

export function adlsLifecycle(resources: readonly RenderedResource[]): StoreLifecycle {
  const account = adlsAccountOf(resources);
  const notes: string[] = [];
  if (account.hierarchicalNamespace) {
    notes.push(
      'hierarchical namespace (ADLS Gen2): no blob versions, so an overwritten file cannot be recovered',
    );
  }
  if (account.softDeleteDays === 0) notes.push('blob soft delete is off: a deleted file cannot be recovered');
  const days = account.rules.flatMap((rule) => [
    rule.daysAfterModificationGreaterThan ?? 0,
    rule.daysAfterCreationGreaterThan ?? 0,
  ]);
  return {
    model: adlsModel(account),
    settings: JSON.stringify(['azure', account]),
    notes,
    days: [...days, account.softDeleteDays],
    copyDays: [account.softDeleteDays],
  };
}
