import { resourceRule } from '../define';
import { UNKNOWN } from '../inputs';
import { GCS_BUCKET_IAM_TYPES, grantsOf } from './iam';

/**
 * What a store's principals need on its bucket: read (objectViewer), write-only (objectCreator), read,
 * write, delete and multipart uploads (objectUser). Not objectAdmin, which also sets IAM on managed folders
 * and objects, nor any bucket, legacy or custom role: those reach the bucket's settings or IAM.
 */
export const GCS_OBJECT_ROLES: readonly string[] = [
  'roles/storage.objectViewer',
  'roles/storage.objectCreator',
  'roles/storage.objectUser',
];

export const gcpGcsBucketObjectRoles = resourceRule({
  name: 'gcp-gcs-bucket-object-roles',
  description: `IAM on a bucket or managed folder grants object roles only (${GCS_OBJECT_ROLES.join(', ')}): object data, never the bucket's settings or IAM. A role bound to no member (a binding that clears it) grants nothing. Project-level roles are out of scope`,
  source:
    'Google Cloud: IAM roles for Cloud Storage; Google Cloud IAM: Use IAM securely — least privilege, predefined roles at the smallest scope',
  types: GCS_BUCKET_IAM_TYPES,
  validate: (props, args, report) => {
    for (const { role, members } of grantsOf(args.type, props)) {
      // A role bound to no one grants nothing: an authoritative binding that clears a legacy role.
      if (members !== UNKNOWN && members.length === 0) continue;
      if (typeof role === 'string' && !GCS_OBJECT_ROLES.includes(role)) {
        report(`role "${role}" on a bucket; must be one of ${GCS_OBJECT_ROLES.join(', ')}`);
      }
    }
  },
});
