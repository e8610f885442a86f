import type { RetentionSpec, Tier } from '@checkpoints/config';

/** A lifecycle condition on a file's age, as ARM's `DateAfterModification` spells it. */
export interface AdlsAgeCondition {
  daysAfterModificationGreaterThan: number;
}

/** What happens to current files (base blobs) once they are old enough. */
export interface AdlsBaseBlobActions {
  tierToCool?: AdlsAgeCondition;
  tierToArchive?: AdlsAgeCondition;
  delete?: AdlsAgeCondition;
}

export interface AdlsLifecycleRule {
  name: string;
  enabled: true;
  type: 'Lifecycle';
  definition: {
    filters: { blobTypes: ['blockBlob']; prefixMatch?: string[] };
    actions: { baseBlob: AdlsBaseBlobActions };
  };
}

/** The `policy` input of `azure-native:storage:ManagementPolicy`. */
export interface AdlsManagementPolicy {
  rules: AdlsLifecycleRule[];
}

export const ADLS_LIFECYCLE_RULE_NAME = 'checkpoint-retention';
/** The expiry's own rule when it is scoped to prefixes, so tiering still covers every file. */
export const ADLS_EXPIRY_RULE_NAME = 'checkpoint-expiry';

/**
 * The storage account's lifecycle management policy for a store's retention, or undefined when the
 * retention asks for nothing (ARM refuses a policy without rules).
 *
 * Only current files have rules: a hierarchical namespace rules out blob versions, and blocks never
 * committed are discarded by the service after 7 days, so there is nothing else to clean up.
 * @throws Error when a high-throughput (premium block blob) store asks for access tiers it does not have;
 *   `azureRules` refuses that config before this runs.
 */
export function adlsManagementPolicy(
  retention: RetentionSpec,
  tier: Tier,
  filesystem: string,
): AdlsManagementPolicy | undefined {
  const { coolAfterDays, archiveAfterDays, expireAfterDays, expirePrefixes } = retention;
  if (tier === 'high-throughput' && (coolAfterDays > 0 || archiveAfterDays > 0)) {
    throw new Error(
      'premium block blob accounts have no access tiers: coolAfterDays and archiveAfterDays must be 0 on tier high-throughput',
    );
  }
  const actions: AdlsBaseBlobActions = {};
  if (coolAfterDays > 0) actions.tierToCool = olderThan(coolAfterDays);
  if (archiveAfterDays > 0) actions.tierToArchive = olderThan(archiveAfterDays);
  const scoped = expirePrefixes.length > 0;
  if (expireAfterDays > 0 && !scoped) actions.delete = olderThan(expireAfterDays);
  const rules: AdlsLifecycleRule[] = [];
  if (Object.keys(actions).length > 0) rules.push(rule(ADLS_LIFECYCLE_RULE_NAME, actions));
  if (expireAfterDays > 0 && scoped) {
    // prefixMatch entries start with the container name (the filesystem).
    const prefixMatch = expirePrefixes.map((prefix) => `${filesystem}/${prefix}`);
    rules.push(rule(ADLS_EXPIRY_RULE_NAME, { delete: olderThan(expireAfterDays) }, prefixMatch));
  }
  return rules.length === 0 ? undefined : { rules };
}

function rule(name: string, baseBlob: AdlsBaseBlobActions, prefixMatch?: string[]): AdlsLifecycleRule {
  return {
    name,
    enabled: true,
    type: 'Lifecycle',
    definition: {
      filters: { blobTypes: ['blockBlob'], ...(prefixMatch ? { prefixMatch } : {}) },
      actions: { baseBlob },
    },
  };
}

function olderThan(days: number): AdlsAgeCondition {
  return { daysAfterModificationGreaterThan: days };
}
