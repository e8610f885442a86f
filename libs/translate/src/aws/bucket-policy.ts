import { ENVIRONMENTS } from '@checkpoints/config';
import { awsPolicyDocument, type AwsPolicyDocument, type AwsPolicyStatement } from './types';

export interface S3BucketPolicyTarget {
  bucketArn: string;
  /** The store's customer-managed key; absent when S3 manages the key. */
  keyArn?: string;
  /** The networks that may reach the bucket's data; absent: every network (`network: { public: true }`). */
  perimeter?: S3Perimeter;
}

/**
 * A store's network perimeter: data requests must come through one of these VPC endpoints, from one of these
 * VPCs (through any of their endpoints) or from one of these public ranges.
 */
export interface S3Perimeter {
  vpcEndpoints: readonly string[];
  vpcs: readonly string[];
  cidrs: readonly string[];
  /** Roles AWS services act as, from their own network: the store's replication and malware-scan roles. */
  serviceRoleArns: readonly string[];
  /**
   * The exact ARNs of the CI roles that refresh the stack (`awsCiRoleArns`: the preview role and this
   * environment's deploy role): they list general purpose buckets from GitHub's runners to refresh them
   * (HeadBucket is authorised as ListBucket), outside any perimeter, and never read an object (their own
   * policies deny it). A directory bucket's perimeter exempts them from nothing: no CI role opens a session
   * (their own policies deny CreateSession).
   */
  ciRoleArns: readonly string[];
}

/**
 * ARN patterns of the bootstrap project's CI roles, `checkpoints-<bootstrap stack>-preview` and
 * `checkpoints-<bootstrap stack>-deploy-<environment>` (bootstrap/src/names.ts `ciNames.awsRole`; a
 * bootstrap test checks both agree), which no deploy role may create a role under. A store role's name
 * ends in its hash, so matches none.
 */
export function awsCiRoleArnPatterns(partition: string, accountId: string): string[] {
  const role = (name: string) => `arn:${partition}:iam::${accountId}:role/${name}`;
  return [
    role('checkpoints-*-preview'),
    ...ENVIRONMENTS.map((environment) => role(`checkpoints-*-deploy-${environment}`)),
  ];
}

/** The suffix of an environment's deploy role name, `checkpoints-<bootstrap stack>-deploy-<environment>`. */
export function awsDeployRoleSuffix(environment: string): string {
  return `-deploy-${environment}`;
}

/**
 * The exact ARNs of the CI roles a stack of `environment` exempts from its perimeters' listing deny: this
 * environment's deploy role (`deployRoleName`, `checkpoints:ciDeployRole`) and the preview role of the same
 * bootstrap stack, `checkpoints-<bootstrap stack>-preview`. Exact, not a name pattern: a role someone
 * creates later under a matching name is not exempt. Undefined when the name does not end in the
 * environment's deploy suffix (the stack reports it as a config error).
 */
export function awsCiRoleArns(
  partition: string,
  accountId: string,
  environment: string,
  deployRoleName: string,
): string[] | undefined {
  const suffix = awsDeployRoleSuffix(environment);
  if (!deployRoleName.endsWith(suffix)) return undefined;
  const role = (name: string) => `arn:${partition}:iam::${accountId}:role/${name}`;
  return [role(`${deployRoleName.slice(0, -suffix.length)}-preview`), role(deployRoleName)];
}

/**
 * Object reads, writes and deletes, and the listings of a general purpose bucket: what the perimeter guards.
 * Bucket configuration (the deploy's calls) is not in it. Per the S3 actions of the Service Authorization
 * Reference, https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html.
 */
export const S3_OBJECT_ACTIONS = [
  's3:GetObject*',
  's3:PutObject*',
  's3:DeleteObject*',
  's3:RestoreObject',
  's3:AbortMultipartUpload',
  's3:ListMultipartUploadParts',
  's3:ReplicateObject',
  's3:ReplicateDelete',
  's3:ReplicateTags',
] as const;
export const S3_LISTING_ACTIONS = [
  's3:ListBucket',
  's3:ListBucketVersions',
  's3:ListBucketMultipartUploads',
] as const;

export const MIN_TLS_VERSION = 1.2;

/**
 * The resource policy of a general purpose bucket: no plain HTTP, no TLS before 1.2 and, with a
 * customer-managed key, no upload that asks for another encryption or another key.
 */
export function s3BucketPolicy({ bucketArn, keyArn, perimeter }: S3BucketPolicyTarget): AwsPolicyDocument {
  const everything = [bucketArn, `${bucketArn}/*`];
  return awsPolicyDocument([
    denyAll('DenyInsecureTransport', ['s3:*'], everything, { Bool: { 'aws:SecureTransport': 'false' } }),
    denyAll('DenyOutdatedTls', ['s3:*'], everything, {
      NumericLessThan: { 's3:TlsVersion': MIN_TLS_VERSION },
    }),
    ...(keyArn === undefined ? [] : denyOtherEncryption(bucketArn, keyArn)),
    ...(perimeter === undefined
      ? []
      : [
          denyAll(
            'DenyDataOutsidePerimeter',
            [...S3_OBJECT_ACTIONS],
            [`${bucketArn}/*`],
            outsidePerimeter(perimeter, perimeter.serviceRoleArns),
          ),
          denyAll(
            'DenyListingOutsidePerimeter',
            [...S3_LISTING_ACTIONS],
            [bucketArn],
            outsidePerimeter(perimeter, [...perimeter.serviceRoleArns, ...perimeter.ciRoleArns]),
          ),
        ]),
  ]);
}

/**
 * True for a request from outside the perimeter. IAM ANDs every key of a condition, so one statement reads
 * "no listed endpoint AND no listed VPC AND no listed range AND not an AWS service AND not an exempt role":
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-logic-multiple-context-keys-or-values.html.
 * `...IfExists` makes a key the request lacks count as "not listed": aws:SourceVpce and aws:SourceVpc exist only
 * on requests through a VPC endpoint, and aws:SourceIp only on the others
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html, aws:SourceVpc,
 * aws:SourceVpce, aws:SourceIp). AWS services acting as themselves (aws:PrincipalIsAWSService: S3 Lifecycle,
 * CloudTrail) come from AWS's network and only do what a bucket policy grants them by name; this is the
 * exemption of AWS's data perimeter examples (https://github.com/aws-samples/data-perimeter-policy-examples).
 * Exempt roles are named by exact ARN and matched with ArnNotEquals (no wildcard expansion: "ArnEquals ...
 * case-sensitive matching of the ARN", https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_condition_operators.html#Conditions_ARN).
 */
function outsidePerimeter(perimeter: S3Perimeter, exemptPrincipals: readonly string[]) {
  const unlisted: Record<string, string[]> = {};
  if (perimeter.vpcEndpoints.length > 0) unlisted['aws:SourceVpce'] = [...perimeter.vpcEndpoints];
  if (perimeter.vpcs.length > 0) unlisted['aws:SourceVpc'] = [...perimeter.vpcs];
  return {
    ...(Object.keys(unlisted).length > 0 ? { StringNotEqualsIfExists: unlisted } : {}),
    ...(perimeter.cidrs.length > 0 ? { NotIpAddressIfExists: { 'aws:SourceIp': [...perimeter.cidrs] } } : {}),
    BoolIfExists: { 'aws:PrincipalIsAWSService': 'false' },
    ...(exemptPrincipals.length > 0
      ? { ArnNotEqualsIfExists: { 'aws:PrincipalArn': [...exemptPrincipals] } }
      : {}),
  };
}

// Each deny fires only when the header is present (Null: false) and wrong. An upload without these headers
// is encrypted by the bucket's default encryption, i.e. with this key and the bucket key, so refusing it
// (the classic StringNotEquals-only policy, which matches a missing header too) would break every client
// that relies on the default; and `...IfExists` operators would not help either: they also match when
// the header is missing.
function denyOtherEncryption(bucketArn: string, keyArn: string): AwsPolicyStatement[] {
  const algorithm = 's3:x-amz-server-side-encryption';
  const keyId = 's3:x-amz-server-side-encryption-aws-kms-key-id';
  return [
    denyAll('DenyOtherEncryption', ['s3:PutObject'], [`${bucketArn}/*`], {
      StringNotEquals: { [algorithm]: 'aws:kms' },
      Null: { [algorithm]: 'false' },
    }),
    denyAll('DenyOtherKmsKeys', ['s3:PutObject'], [`${bucketArn}/*`], {
      StringNotEquals: { [keyId]: keyArn },
      Null: { [keyId]: 'false' },
    }),
  ];
}

/**
 * The resource policy of an S3 Express One Zone directory bucket. Every data request rides on a session
 * from CreateSession, so that is the call the TLS, encryption and perimeter rules guard. A session names
 * the encryption of what it writes (CreateSession's x-amz-server-side-encryption headers, which the
 * condition keys s3express:x-amz-server-side-encryption and s3express:x-amz-server-side-encryption-aws-kms-key-id
 * carry: https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3express.html), so a
 * session asking for another encryption or key is refused. S3 Lifecycle expires objects through a session of its
 * own, which the bucket must grant, or the expiry rules silently do nothing.
 */
export function s3DirectoryBucketPolicy({
  bucketArn,
  keyArn,
  perimeter,
}: S3BucketPolicyTarget): AwsPolicyDocument {
  const createSession = ['s3express:CreateSession'];
  const algorithm = 's3express:x-amz-server-side-encryption';
  const keyId = 's3express:x-amz-server-side-encryption-aws-kms-key-id';
  return awsPolicyDocument([
    denyAll('DenyInsecureTransport', createSession, [bucketArn], {
      Bool: { 'aws:SecureTransport': 'false' },
    }),
    denyAll('DenyOutdatedTls', createSession, [bucketArn], {
      NumericLessThan: { 's3express:TlsVersion': MIN_TLS_VERSION },
    }),
    {
      Sid: 'AllowLifecycleExpiry',
      Effect: 'Allow',
      Principal: { Service: ['lifecycle.s3.amazonaws.com'] },
      Action: createSession,
      Resource: [bucketArn],
      Condition: { StringEquals: { 's3express:SessionMode': 'ReadWrite' } },
    },
    // Absent headers mean the bucket's default encryption, the store's key: refused only when present and other.
    denyAll('DenyOtherEncryption', createSession, [bucketArn], {
      StringNotEquals: { [algorithm]: keyArn === undefined ? 'AES256' : 'aws:kms' },
      Null: { [algorithm]: 'false' },
    }),
    ...(keyArn === undefined
      ? []
      : [
          denyAll('DenyOtherKmsKeys', createSession, [bucketArn], {
            StringNotEquals: { [keyId]: keyArn },
            Null: { [keyId]: 'false' },
          }),
        ]),
    ...(perimeter === undefined ? [] : directoryPerimeter(bucketArn, perimeter)),
  ]);
}

/**
 * Outside the perimeter, no session at all: every object call of a directory bucket goes through one
 * (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateSession.html), and no CI role needs one (CI never
 * refreshes a directory bucket, whose HeadBucket a session authorises).
 */
function directoryPerimeter(bucketArn: string, perimeter: S3Perimeter): AwsPolicyStatement[] {
  return [
    denyAll(
      'DenySessionsOutsidePerimeter',
      ['s3express:CreateSession'],
      [bucketArn],
      outsidePerimeter(perimeter, perimeter.serviceRoleArns),
    ),
  ];
}

export function denyAll(
  sid: string,
  actions: string[],
  resources: string[],
  condition: NonNullable<AwsPolicyStatement['Condition']>,
): AwsPolicyStatement {
  return {
    Sid: sid,
    Effect: 'Deny',
    Principal: '*',
    Action: actions,
    Resource: resources,
    Condition: condition,
  };
}
