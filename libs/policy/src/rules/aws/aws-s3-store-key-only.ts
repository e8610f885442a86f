import {
  awsRequestAllowed,
  awsStoreTokens,
  insideOrigin,
  type AwsPrincipal,
  type PolicyDocument,
} from '@checkpoints/analysis';
import { stackRule } from '../define';
import { awsStoresOf } from './support';

/** Anyone the account's IAM allows everything: only the bucket policy can refuse it. */
function administrator(accountId: string): AwsPrincipal {
  return {
    principal: { id: 'administrator', label: 'an account administrator', kind: 'cloud-default' },
    arn: `arn:aws:iam::${accountId}:role/administrator`,
    policies: [
      {
        name: 'administrator',
        policy: { Version: '2012-10-17', Statement: [{ Effect: 'Allow', Action: '*', Resource: '*' }] },
      },
    ],
  };
}

const OTHER_KEY = 'arn:aws:kms:us-east-1:000000000000:key/00000000-0000-4000-8000-000000000000';

/**
 * A store with its own KMS key accepts uploads (general purpose bucket: PutObject) and sessions (directory
 * bucket: CreateSession, whose headers set the encryption of what it writes) only under that key: one naming
 * SSE-S3 or another KMS key is refused by the bucket policy, judged by IAM's evaluation
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/specifying-kms-encryption.html,
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-data-protection.html).
 */
export const awsS3StoreKeyOnly = stackRule({
  name: 'aws-s3-store-key-only',
  description:
    'A store with a customer-managed key refuses uploads and directory-bucket sessions that ask for SSE-S3 or another KMS key, in its bucket policy',
  source:
    'AWS Prescriptive Guidance, S3 encryption best practices (deny PutObject without the expected SSE-KMS key)',
  validate: async (args, report, evaluation) => {
    const { resources } = evaluation();
    for (const { store, component, directory, bucketArn, key, bucketPolicy, accountId } of awsStoresOf(
      evaluation(),
    )) {
      if (key === undefined) continue;
      const policy = parsed(bucketPolicy?.inputs['policy']);
      const prefix = directory ? 's3express' : 's3';
      const origin = insideOrigin(policy);
      const network: Record<string, string> =
        origin === undefined
          ? {}
          : 'sourceIp' in origin
            ? { 'aws:SourceIp': origin.sourceIp }
            : { 'aws:SourceVpce': origin.vpcEndpoint, 'aws:SourceVpc': origin.vpc };
      const asking = {
        'SSE-S3': { [`${prefix}:x-amz-server-side-encryption`]: 'AES256' },
        'another KMS key': {
          [`${prefix}:x-amz-server-side-encryption`]: 'aws:kms',
          [`${prefix}:x-amz-server-side-encryption-aws-kms-key-id`]: OTHER_KEY,
        },
      };
      for (const [what, headers] of Object.entries(asking)) {
        const allowed = await awsRequestAllowed(
          administrator(accountId),
          {
            action: directory ? 's3express:CreateSession' : 's3:PutObject',
            resource: directory ? bucketArn : `${bucketArn}/checkpoint`,
            context: { ...network, ...headers, 'aws:SecureTransport': 'true' },
            ...(policy ? { resourcePolicy: policy } : {}),
          },
          awsStoreTokens({ resources }, store.urn, evaluation().context(args)),
          evaluation().context(args),
        );
        if (allowed !== undefined) {
          report(
            `store ${store.name}: ${directory ? 'a session' : 'an upload'} asking for ${what} is not refused (${allowed}); expected the bucket policy to deny ${directory ? 's3express:CreateSession' : 's3:PutObject'} when ${prefix}:x-amz-server-side-encryption or its key ID names anything but the store's key`,
            component.urn,
          );
        }
      }
    }
  },
});

function parsed(policy: unknown): PolicyDocument | undefined {
  if (typeof policy !== 'string') return undefined;
  try {
    return JSON.parse(policy) as PolicyDocument;
  } catch {
    return undefined;
  }
}
