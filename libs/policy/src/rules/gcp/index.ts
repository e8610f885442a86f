import type { SourcedPolicy } from '../define';
import { gcpGcsBucketObjectRoles } from './gcp-gcs-bucket-object-roles';
import { gcpGcsDataAccessAudit } from './gcp-gcs-data-access-audit';
import { gcpGcsAuditLogLocked } from './gcp-gcs-audit-log-locked';
import { gcpGcsEncryptionKey } from './gcp-gcs-encryption-key';
import { gcpGcsHierarchicalNamespace } from './gcp-gcs-hierarchical-namespace';
import { gcpGcsIpFilter } from './gcp-gcs-ip-filter';
import { gcpGcsLifecycleAbortIncompleteUploads } from './gcp-gcs-lifecycle-abort-incomplete-uploads';
import { gcpGcsNoBucketObjects } from './gcp-gcs-no-bucket-objects';
import { gcpGcsNoConvenienceAccess } from './gcp-gcs-no-convenience-access';
import { gcpGcsNoForceDestroy } from './gcp-gcs-no-force-destroy';
import { gcpGcsNoHmacKeys } from './gcp-gcs-no-hmac-keys';
import { gcpGcsNoLegacyAcls } from './gcp-gcs-no-legacy-acls';
import { gcpGcsPublicAccessPrevention } from './gcp-gcs-public-access-prevention';
import { gcpGcsRetentionLock } from './gcp-gcs-retention-lock';
import { gcpGcsSoftDelete } from './gcp-gcs-soft-delete';
import { gcpGcsUniformBucketLevelAccess } from './gcp-gcs-uniform-bucket-level-access';
import { gcpGcsVersioning } from './gcp-gcs-versioning';
import { gcpIamNoPrimitiveRoles } from './gcp-iam-no-primitive-roles';
import { gcpIamNoPublicMembers } from './gcp-iam-no-public-members';
import { gcpIamNoServiceAccountKeys } from './gcp-iam-no-service-account-keys';
import { gcpKmsKeyProtection } from './gcp-kms-key-protection';
import { gcpKmsKeyRotation } from './gcp-kms-key-rotation';
import { gcpCiNoCiChanges } from './gcp-ci-no-ci-changes';

/** The GCP rules, in the order docs/policies-gcp.md lists them (the security baseline's rows, then least privilege). */
export const gcpPolicies: SourcedPolicy[] = [
  gcpGcsPublicAccessPrevention,
  gcpGcsUniformBucketLevelAccess,
  gcpGcsEncryptionKey,
  gcpKmsKeyRotation,
  gcpGcsNoHmacKeys,
  gcpIamNoServiceAccountKeys,
  gcpGcsNoLegacyAcls,
  gcpGcsVersioning,
  gcpGcsSoftDelete,
  gcpGcsHierarchicalNamespace,
  gcpGcsLifecycleAbortIncompleteUploads,
  gcpGcsNoForceDestroy,
  gcpGcsNoBucketObjects,
  gcpIamNoPublicMembers,
  gcpIamNoPrimitiveRoles,
  gcpGcsBucketObjectRoles,
  gcpGcsNoConvenienceAccess,
  gcpGcsIpFilter,
  gcpGcsDataAccessAudit,
  gcpGcsAuditLogLocked,
  gcpGcsRetentionLock,
  gcpKmsKeyProtection,
  gcpCiNoCiChanges,
];
