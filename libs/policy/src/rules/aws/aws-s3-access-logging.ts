import { complianceRule } from '../compliance';

/**
 * Every general purpose bucket holding an audited store's data (its bucket and its replica) logs its requests
 * with S3 server access logging into a log bucket of the render, judged by the compliance check of S3.9.
 */
export const awsS3AccessLogging = complianceRule({
  name: 'aws-s3-access-logging',
  description:
    "Every general purpose bucket of an audited store, its replica included, has S3 server access logging into another bucket of the render (the stack's access log bucket of its region)",
  source:
    'AWS Security Hub S3.9 (S3 general purpose buckets should have server access logging enabled); Amazon S3 User Guide: Logging requests with server access logging',
});
