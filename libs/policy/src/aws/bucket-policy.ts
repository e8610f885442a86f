import { awsPolicyDocument, type AwsPolicyDocument, type AwsPolicyStatement } from './types';

export interface S3BucketPolicyTarget {
  bucketArn: string;
  /** The store's customer-managed key; absent when S3 manages the key. */
  keyArn?: string;
}

const MIN_TLS_VERSION = 1.2;

/**
 * The resource policy of a general purpose bucket: no plain HTTP, no TLS before 1.2 and, with a
 * customer-managed key, no upload that asks for another encryption or another key.
 */
export function s3BucketPolicy({ bucketArn, keyArn }: S3BucketPolicyTarget): AwsPolicyDocument {
  const everything = [bucketArn, `${bucketArn}/*`];
  return awsPolicyDocument([
    denyAll('DenyInsecureTransport', ['s3:*'], everything, { Bool: { 'aws:SecureTransport': 'false' } }),
    denyAll('DenyOutdatedTls', ['s3:*'], everything, {
      NumericLessThan: { 's3:TlsVersion': MIN_TLS_VERSION },
    }),
    ...(keyArn === undefined ? [] : denyOtherEncryption(bucketArn, keyArn)),
  ]);
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
 * from CreateSession, so that is the call the TLS rules guard. The bucket's encryption needs no rule:
 * a directory bucket accepts only its default key. S3 Lifecycle expires objects through a session of its
 * own, which the bucket must grant, or the expiry rules silently do nothing.
 */
export function s3DirectoryBucketPolicy({ bucketArn }: { bucketArn: string }): AwsPolicyDocument {
  const createSession = ['s3express:CreateSession'];
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
  ]);
}

function denyAll(
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
