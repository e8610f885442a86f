import { resourceRule } from '../define';
import { inputsOf, shown } from '../inputs';
import { listOf } from './support';

const ACL_RESOURCES = ['aws:s3/bucketAcl:BucketAcl', 'aws:s3/bucketAclV2:BucketAclV2'];
const WITH_ACL_INPUT = [
  'aws:s3/bucket:Bucket',
  'aws:s3/bucketV2:BucketV2',
  'aws:s3/bucketObject:BucketObject',
  'aws:s3/bucketObjectv2:BucketObjectv2',
  'aws:s3/objectCopy:ObjectCopy',
];
const WITH_GRANTS_INPUT = [
  'aws:s3/bucket:Bucket',
  'aws:s3/bucketV2:BucketV2',
  'aws:s3/objectCopy:ObjectCopy',
];
const INSTEAD = 'access is granted by IAM and bucket policies only (object ownership BucketOwnerEnforced)';

export const awsS3NoAcls = resourceRule({
  name: 'aws-s3-no-acls',
  description:
    'No S3 access control lists: no BucketAcl resource, no acl or grants input on buckets and objects',
  source:
    'AWS Foundational Security Best Practices S3.12 (ACLs should not be used to manage user access to S3 general purpose buckets); Amazon S3 User Guide: Controlling ownership of objects and disabling ACLs',
  types: [...ACL_RESOURCES, ...WITH_ACL_INPUT],
  validate: (_props, args, report) => {
    if (ACL_RESOURCES.includes(args.type)) {
      report(`${args.type} sets a legacy S3 ACL; expected no ACL resource: ${INSTEAD}`);
      return;
    }
    const inputs = inputsOf(args);
    if (inputs['acl'] !== undefined) report(`acl is ${shown(inputs['acl'])}; expected no acl: ${INSTEAD}`);
    if (WITH_GRANTS_INPUT.includes(args.type) && listOf(inputs['grants']).length > 0) {
      report(`grants sets ${listOf(inputs['grants']).length} ACL grant(s); expected none: ${INSTEAD}`);
    }
  },
});
