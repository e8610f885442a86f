import type { AccessSpec } from '@checkpoints/config';

/**
 * Bucket roles by purpose: predefined object roles on the store's bucket only, never basic roles.
 * objectUser reads, writes, lists and deletes objects and manages multipart uploads, without any say over
 * the bucket's settings or IAM; objectViewer reads and lists.
 */
export const GCS_BUCKET_ROLES = {
  writer: 'roles/storage.objectUser',
  reader: 'roles/storage.objectViewer',
} as const;

export type GcsStorePurpose = keyof typeof GCS_BUCKET_ROLES;

/** One member's role on the store's bucket. */
export interface GcsBucketGrant {
  purpose: GcsStorePurpose;
  role: (typeof GCS_BUCKET_ROLES)[GcsStorePurpose];
  member: string;
}

/** The bucket roles of the members named in `access` (validated by gcpRules): writers, then readers. */
export function gcsBucketGrants(access: AccessSpec): GcsBucketGrant[] {
  return [
    ...access.writers.map((member) => grant('writer', member)),
    ...access.readers.map((member) => grant('reader', member)),
  ];
}

function grant(purpose: GcsStorePurpose, member: string): GcsBucketGrant {
  return { purpose, role: GCS_BUCKET_ROLES[purpose], member };
}
