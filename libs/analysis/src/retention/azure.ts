import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import {
  HOURS_PER_DAY,
  liveVersion,
  matchesPrefixes,
  permanentlyDelete,
  type LifecycleModel,
  type StoreLifecycle,
} from './replay';
import { list, numberOr, record } from './values';
import type { TierRecovery } from './model';

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
  /** Days of the filesystem's time-based immutability policy (the retention lock); 0 when it has none. */
  lockDays: number;
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
 *
 * A container time-based immutability policy (the retention lock, `lockDays`), locked or not ("Both locked and
 * unlocked policies protect against deletes and overwrites", WORM:
 * https://learn.microsoft.com/azure/storage/blobs/immutable-time-based-retention-policy-overview):
 * - "clients can create and read blobs, but cannot modify or delete them. After the retention interval has
 *   expired, blobs can be deleted but not overwritten" (WORM): an overwrite of a live file is refused for
 *   good, a delete until `lockDays` after the file's creation ("The effective retention period for objects is
 *   equal to the difference between the blob's creation time and the user-specified retention interval").
 * - "The delete action of a lifecycle management policy won't work with any blob in an immutable container"
 *   (https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-overview#known-issues-and-limitations).
 * - With a hierarchical namespace "blobs cannot be renamed or moved to a different directory" (WORM), and "a
 *   directory must be empty before it can be deleted"
 *   (https://learn.microsoft.com/azure/storage/blobs/immutable-container-level-worm-policies#deletion): the
 *   replay writes and deletes files under their final names, so these only show in the notes.
 * - Soft delete still applies: a blob "can't be soft deleted until after the time-based retention policy is
 *   expired" (https://learn.microsoft.com/azure/storage/blobs/immutable-storage-overview#immutable-storage-with-blob-soft-delete),
 *   and a delete after that goes into soft delete as on any account.
 */
export function adlsModel(account: AdlsAccount): LifecycleModel {
  const rules = account.rules.filter((rule) => rule.enabled);
  const protectsOverwrites = !account.hierarchicalNamespace;
  const lockHours = account.lockDays * HOURS_PER_DAY;
  return {
    write(object, version) {
      const live = liveVersion(object);
      if (live && lockHours > 0) return 'refused';
      if (live)
        permanentlyDelete(object, live, version.writtenAt, protectsOverwrites ? account.softDeleteDays : 0);
      object.versions.unshift(version);
      return undefined;
    },
    remove(object, at) {
      const live = liveVersion(object);
      if (live && at - live.writtenAt < lockHours) return 'refused';
      if (live) permanentlyDelete(object, live, at, account.softDeleteDays);
      return undefined;
    },
    lifecycle(object, at) {
      const live = liveVersion(object);
      if (!live || lockHours > 0) return;
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
  // A policy of another container locks nothing in this one.
  const lock = resourcesOfType(resources, 'azure-native:storage:BlobContainerImmutabilityPolicy').find(
    (policy) => String(policy.inputs['containerName'] ?? '') === container,
  );
  const retention = record(service?.inputs['deleteRetentionPolicy']);
  const rules = resourcesOfType(resources, 'azure-native:storage:ManagementPolicy').flatMap((policy) =>
    list(record(policy.inputs['policy'])['rules']).flatMap((rule) => deleteRule(rule, container)),
  );
  return {
    hierarchicalNamespace: account?.inputs['isHnsEnabled'] === true,
    softDeleteDays: retention['enabled'] === true ? numberOr(retention['days'], 0) : 0,
    rules,
    lockDays: numberOr(lock?.inputs['immutabilityPeriodSinceCreationInDays'], 0),
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
  if (account.lockDays > 0) {
    notes.push(
      `retention lock (container immutability policy, ${account.lockDays} days): a file is never overwritten, renamed or moved (write under a final name: a job that writes x.tmp and renames it fails), a directory is deleted only once empty, and lifecycle deletes do not act`,
    );
  }
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
    ...(account.lockDays > 0 ? { lockDays: account.lockDays } : {}),
  };
}
