import { complianceRule } from '../compliance';

/**
 * The Data Access log of every audited store's project is exported by a log sink of the bootstrap render into a
 * Cloud Storage bucket whose retention policy is locked (in prod): the record of who read and wrote checkpoints
 * outlives any attempt, by CI or anyone, to delete it.
 */
export const gcpGcsAuditLogLocked = complianceRule({
  name: 'gcp-gcs-audit-log-locked',
  description:
    'In prod, the project of every store has a log sink (bootstrap render) routing its Cloud Storage Data Access log into a bucket with a locked retention policy; checked with the bootstrap render, like the CI rules',
  source:
    'CIS Google Cloud Platform Foundation Benchmark v3.0.0 2.3 (retention policies on log export buckets configured using Bucket Lock); Google Cloud: Bucket Lock, Route logs to supported destinations',
});
