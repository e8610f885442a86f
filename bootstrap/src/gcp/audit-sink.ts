import * as pulumi from '@pulumi/pulumi';
import { ProjectSink } from '@pulumi/gcp/logging/projectSink';
import { Bucket } from '@pulumi/gcp/storage/bucket';
import { BucketIAMMember } from '@pulumi/gcp/storage/bucketIAMMember';
import type { Environment } from '@checkpoints/config';

/** Days the Data Access records of a stack project are kept write-once: a year. */
export const AUDIT_LOG_RETENTION_DAYS = 365;

const DAY_SECONDS = 24 * 3600;

/**
 * The Cloud Storage Data Access log of a stack project (the one its IAMAuditConfig turns on), exported by a
 * log sink into a bucket of that project whose retention policy keeps every record for a year: no object
 * younger than that can be deleted or overwritten. In prod the policy is locked (Bucket Lock), so it can never
 * be shortened or removed, and the bucket never deleted before its records age out
 * (https://cloud.google.com/storage/docs/bucket-lock; CIS GCP Foundations 2.3). Outside prod it stays unlocked,
 * so a dev project remains removable. The sink writes as its own identity (uniqueWriterIdentity), granted object
 * creation on that bucket alone (https://cloud.google.com/logging/docs/export/configure_export_v2#dest-auth).
 * The stacks' CI identities get no right on either (logging.sinks.* and the bucket are the bootstrap's).
 */
export function exportDataAccessLog(
  parent: pulumi.Resource,
  project: string,
  environments: readonly Environment[],
  labels: Record<string, string>,
): void {
  const locked = environments.includes('prod');
  const name = `${project}-data-access-audit`;
  const bucket = new Bucket(
    `audit-log-${project}`,
    {
      project,
      name,
      location: 'US',
      uniformBucketLevelAccess: true,
      publicAccessPrevention: 'enforced',
      retentionPolicy: { retentionPeriod: String(AUDIT_LOG_RETENTION_DAYS * DAY_SECONDS), isLocked: locked },
      // A deleted record (after its retention) stays restorable a week; the sink writes whole objects only.
      softDeletePolicy: { retentionDurationSeconds: 7 * DAY_SECONDS },
      lifecycleRules: [{ action: { type: 'AbortIncompleteMultipartUpload' }, condition: { age: 1 } }],
      labels,
    },
    { parent, protect: true, retainOnDelete: true },
  );
  const sink = new ProjectSink(
    `data-access-audit-${project}`,
    {
      project,
      name: 'checkpoints-data-access-audit',
      destination: pulumi.interpolate`storage.googleapis.com/${bucket.name}`,
      filter: `logName="projects/${project}/logs/cloudaudit.googleapis.com%2Fdata_access" AND protoPayload.serviceName="storage.googleapis.com"`,
      uniqueWriterIdentity: true,
    },
    { parent, protect: true },
  );
  new BucketIAMMember(
    `data-access-audit-writer-${project}`,
    { bucket: bucket.name, role: 'roles/storage.objectCreator', member: sink.writerIdentity },
    { parent },
  );
}
