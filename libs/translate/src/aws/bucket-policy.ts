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
   * The CI roles' ARN patterns (`awsCiRoleArnPatterns`): they list buckets and open read-only sessions from
   * GitHub's runners to refresh them, outside any perimeter, and never read an object (their own policies deny it).
   */
  ciRoleArnPatterns: readonly string[];
}

/**
 * ARN patterns of the bootstrap project's CI roles, `checkpoints-<bootstrap stack>-preview` and
 * `checkpoints-<bootstrap stack>-deploy-<environment>` (bootstrap/src/names.ts `ciNames.awsRole`; a
 * bootstrap test checks both agree). A store role's name ends in its hash, so matches none.
 */
export function awsCiRoleArnPatterns(partition: string, accountId: string): string[] {
  const role = (name: string) => `arn:${partition}:iam::${accountId}:role/${name}`;
  return [
    role('checkpoints-*-preview'),
    ...ENVIRONMENTS.map((environment) => role(`checkpoints-*-deploy-${environment}`)),
  ];
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
            outsidePerimeter(perimeter, [...perimeter.serviceRoleArns, ...perimeter.ciRoleArnPatterns]),
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
      ? { ArnNotLikeIfExists: { 'aws:PrincipalArn': [...exemptPrincipals] } }
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
 * Outside the perimeter, no session at all, but the read-only sessions CI's roles open to refresh the bucket
 * (HeadBucket is authorised as CreateSession). Two statements, since IAM has no OR within one: every session
 * but CI's, and every read-write session.
 */
function directoryPerimeter(bucketArn: string, perimeter: S3Perimeter): AwsPolicyStatement[] {
  const createSession = ['s3express:CreateSession'];
  const exceptCi = outsidePerimeter(perimeter, [
    ...perimeter.serviceRoleArns,
    ...perimeter.ciRoleArnPatterns,
  ]);
  const readWrite = outsidePerimeter(perimeter, perimeter.serviceRoleArns);
  // A session that names no mode is refused too: S3 then tries ReadWrite first
  // (https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateSession.html, x-amz-create-session-mode).
  readWrite.StringNotEqualsIfExists = {
    ...(readWrite.StringNotEqualsIfExists ?? {}),
    's3express:SessionMode': ['ReadOnly'],
  };
  return [
    denyAll('DenySessionsOutsidePerimeter', createSession, [bucketArn], exceptCi),
    denyAll('DenyWriteSessionsOutsidePerimeter', createSession, [bucketArn], readWrite),
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
