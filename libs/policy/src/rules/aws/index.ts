import type { SourcedPolicy } from '../define';
import { awsIamNoAwsManagedPolicies } from './aws-iam-no-aws-managed-policies';
import { awsIamNoLongLivedCredentials } from './aws-iam-no-long-lived-credentials';
import { awsIamNoPublicPrincipals } from './aws-iam-no-public-principals';
import { awsIamNoWildcardActions } from './aws-iam-no-wildcard-actions';
import { awsIamNoWildcardResources } from './aws-iam-no-wildcard-resources';
import { awsKmsKeyRotation } from './aws-kms-key-rotation';
import { awsS3AccessLogging } from './aws-s3-access-logging';
import { awsS3AuditLogProtected } from './aws-s3-audit-log-protected';
import { awsS3AbortIncompleteUploads } from './aws-s3-abort-incomplete-uploads';
import { awsS3BucketOwnerEnforced } from './aws-s3-bucket-owner-enforced';
import { awsS3DataEventsAudited } from './aws-s3-data-events-audited';
import { awsS3DefaultEncryption } from './aws-s3-default-encryption';
import { awsS3MalwareProtection } from './aws-s3-malware-protection';
import { awsS3NoAcls } from './aws-s3-no-acls';
import { awsS3NetworkPerimeter } from './aws-s3-network-perimeter';
import { awsS3NoForceDestroy } from './aws-s3-no-force-destroy';
import { awsS3ObjectLockGovernance } from './aws-s3-object-lock-governance';
import { awsS3PublicAccessBlock } from './aws-s3-public-access-block';
import { awsS3ReplicaHardened } from './aws-s3-replica-hardened';
import { awsS3StoreKeyOnly } from './aws-s3-store-key-only';
import { awsS3TlsOnly } from './aws-s3-tls-only';
import { awsS3Versioning } from './aws-s3-versioning';

/** The AWS rules, in the order docs/policies-aws.md lists them. */
export const awsPolicies: SourcedPolicy[] = [
  awsS3PublicAccessBlock,
  awsS3BucketOwnerEnforced,
  awsS3NoAcls,
  awsS3TlsOnly,
  awsS3DefaultEncryption,
  awsS3StoreKeyOnly,
  awsKmsKeyRotation,
  awsS3Versioning,
  awsS3AbortIncompleteUploads,
  awsS3NoForceDestroy,
  awsS3NetworkPerimeter,
  awsS3DataEventsAudited,
  awsS3AccessLogging,
  awsS3AuditLogProtected,
  awsS3ReplicaHardened,
  awsS3MalwareProtection,
  awsS3ObjectLockGovernance,
  awsIamNoLongLivedCredentials,
  awsIamNoWildcardActions,
  awsIamNoWildcardResources,
  awsIamNoPublicPrincipals,
  awsIamNoAwsManagedPolicies,
];
