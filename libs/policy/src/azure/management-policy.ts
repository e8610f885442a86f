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
    filters: { blobTypes: ['blockBlob'] };
    actions: { baseBlob: AdlsBaseBlobActions };
  };
}

/** The `policy` input of `azure-native:storage:ManagementPolicy`. */
export interface AdlsManagementPolicy {
  rules: AdlsLifecycleRule[];
}

export const ADLS_LIFECYCLE_RULE_NAME = 'checkpoint-retention';

/**
 * The storage account's lifecycle management policy for a store's retention, or undefined when the
 * retention asks for nothing (ARM refuses a policy without rules).
 *
 * Only current files have rules: a hierarchical namespace rules out blob versions, and blocks never
 * committed are discarded by the service after 7 days, so there is nothing else to clean up.
 * @throws Error when a high-throughput (premium block blob) store asks for access tiers it does not have;
 *   `azureRules` refuses that config before this runs.
 */
export function adlsManagementPolicy(retention: RetentionSpec, tier: Tier): AdlsManagementPolicy | undefined {
  const { coolAfterDays, archiveAfterDays, expireAfterDays } = retention;
  if (tier === 'high-throughput' && (coolAfterDays > 0 || archiveAfterDays > 0)) {
    throw new Error(
      'premium block blob accounts have no access tiers: coolAfterDays and archiveAfterDays must be 0 on tier high-throughput',
    );
  }
  const actions: AdlsBaseBlobActions = {};
  if (coolAfterDays > 0) actions.tierToCool = olderThan(coolAfterDays);
  if (archiveAfterDays > 0) actions.tierToArchive = olderThan(archiveAfterDays);
  if (expireAfterDays > 0) actions.delete = olderThan(expireAfterDays);
  if (Object.keys(actions).length === 0) return undefined;
  return {
    rules: [
      {
        name: ADLS_LIFECYCLE_RULE_NAME,
        enabled: true,
        type: 'Lifecycle',
        definition: { filters: { blobTypes: ['blockBlob'] }, actions: { baseBlob: actions } },
      },
    ],
  };
}

function olderThan(days: number): AdlsAgeCondition {
  return { daysAfterModificationGreaterThan: days };
}
