import { complianceRule } from '../compliance';

/**
 * The trail's log bucket protects the records it holds: its requests are logged, every log file is write-once
 * (Object Lock default retention) and its policy refuses deleting a version or the bucket, or bypassing the lock,
 * to every principal (break-glass: an administrator removes the statement first).
 */
export const awsS3AuditLogProtected = complianceRule({
  name: 'aws-s3-audit-log-protected',
  description:
    "The stack trail's log bucket has server access logging, Object Lock with a default retention, and a bucket policy denying s3:DeleteObjectVersion, s3:DeleteBucket and s3:BypassGovernanceRetention to every principal",
  source:
    'CIS AWS Foundations Benchmark v3.0.0 3.4; AWS Security Hub CloudTrail.7 and S3.15; AWS CloudTrail User Guide: Security best practices (S3 Object Lock on the log bucket)',
});
