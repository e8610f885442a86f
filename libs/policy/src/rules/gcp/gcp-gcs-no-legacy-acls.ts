import { resourceRule } from '../define';
import { read, state } from '../inputs';
import { GCS_ACL_TYPES } from './tokens';

export const gcpGcsNoLegacyAcls = resourceRule({
  name: 'gcp-gcs-no-legacy-acls',
  description:
    'No legacy Cloud Storage ACLs: no bucket, default object or object ACL or access-control resources and no predefinedAcl; access is granted with IAM on the bucket only',
  source:
    'CIS Google Cloud Platform Foundation Benchmark v3.0.0 5.2; Google Cloud: Cloud Storage uniform bucket-level access (ACLs disabled)',
  types: GCS_ACL_TYPES,
  validate: (props, args, report) => {
    report(
      `${args.type} manages legacy ACLs; must not be used: grant access with IAM on the bucket (BucketIAMMember with a roles/storage.object* role)`,
    );
    const predefinedAcl = read(props, 'predefinedAcl');
    if (predefinedAcl !== undefined && predefinedAcl !== null) {
      report(`predefinedAcl ${state(predefinedAcl)}, a canned legacy ACL; must not be set`);
    }
  },
});
