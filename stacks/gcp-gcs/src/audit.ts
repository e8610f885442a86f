import type { StackSpec } from '@checkpoints/config';

/** Where the stores' Data Access audit logs are written, and who configures them (a stack output). */
export interface AuditOutputs {
  /** The project whose audit config records the stores' data access. */
  project: string;
  service: 'storage.googleapis.com';
  logTypes: readonly string[];
  /** The log the entries land in; route it with a Logging sink to keep it longer than the _Default bucket does. */
  logName: string;
  /** Who owns the audit config: the admin-run bootstrap, never this stack (docs/gcp.md, "Audit"). */
  configuredBy: string;
  exemptMembers: readonly string[];
  /** The stores whose reads and writes are recorded. */
  auditedStores: readonly string[];
}

/**
 * Data Access audit logs for Cloud Storage: DATA_READ (object reads and lists) and DATA_WRITE (object
 * creates, overwrites, deletes), written to the project's `cloudaudit.googleapis.com%2Fdata_access` log.
 * https://cloud.google.com/logging/docs/audit/configure-data-access and
 * https://cloud.google.com/storage/docs/audit-logging ("Data Access audit logs ... DATA_READ ... DATA_WRITE").
 */
export const STORAGE_DATA_ACCESS_LOG_TYPES = ['DATA_READ', 'DATA_WRITE'] as const;

export function auditOutputs(spec: StackSpec, project: string): AuditOutputs {
  return {
    project,
    service: 'storage.googleapis.com',
    logTypes: STORAGE_DATA_ACCESS_LOG_TYPES,
    logName: `projects/${project}/logs/cloudaudit.googleapis.com%2Fdata_access`,
    configuredBy: 'bootstrap (IAMAuditConfig of the stack project; see docs/gcp.md, "Audit")',
    exemptMembers: spec.auditExemptMembers ?? [],
    auditedStores: spec.stores.filter((store) => store.audit).map((store) => store.name),
  };
}
