import {
  AWS_ACCOUNT_ID,
  byName,
  render,
  RenderFailure,
  type RenderedResource,
  type Snapshot,
  withProdNetwork,
  sharedPerKey,
} from '@checkpoints/synth';
import type { AwsPolicyDocument } from '@checkpoints/translate';
import { checkpointStack } from '../src/program';

export const ACCOUNT = AWS_ACCOUNT_ID;
export const ACCOUNT_ROOT = `arn:aws:iam::${ACCOUNT}:root`;

export const TYPES = {
  bucket: 'aws:s3/bucket:Bucket',
  directoryBucket: 'aws:s3/directoryBucket:DirectoryBucket',
  ownership: 'aws:s3/bucketOwnershipControls:BucketOwnershipControls',
  publicAccessBlock: 'aws:s3/bucketPublicAccessBlock:BucketPublicAccessBlock',
  versioning: 'aws:s3/bucketVersioning:BucketVersioning',
  encryption: 'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
  lifecycle: 'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration',
  bucketPolicy: 'aws:s3/bucketPolicy:BucketPolicy',
  key: 'aws:kms/key:Key',
  alias: 'aws:kms/alias:Alias',
  role: 'aws:iam/role:Role',
  rolePolicy: 'aws:iam/rolePolicy:RolePolicy',
  store: 'checkpoints:aws:CheckpointStore',
} as const;

export interface StackOptions {
  environment?: string;
  /** Stores as the user writes them in the stack config; null leaves `checkpoints:stores` out. */
  stores: unknown[] | null;
  /** `aws:region`; null leaves it out. */
  region?: string | null;
  stack?: string;
  /** Raw `checkpoints:` keys to add or override, as Pulumi passes them (text). */
  extra?: Record<string, string>;
}

export function stackConfig(options: StackOptions): Record<string, string> {
  const region = options.region === undefined ? 'us-east-1' : options.region;
  return {
    ...(region === null ? {} : { 'aws:region': region }),
    // The mocks' account: a prod store naming IAM principals needs the stack's accounts.
    ...(options.environment === 'prod' ? { 'aws:allowedAccountIds': '["123456789012"]' } : {}),
    'checkpoints:environment': options.environment ?? 'dev',
    'checkpoints:owner': 'ml-platform',
    'checkpoints:costCenter': 'cc-1234',
    ...(options.stores === null
      ? {}
      : {
          'checkpoints:stores': JSON.stringify(
            withProdNetwork(options.stores, options.environment, PROD_NETWORK),
          ),
        }),
    ...options.extra,
  };
}

/** The perimeter `withProdNetwork` gives a prod store that states none. */
export const PROD_NETWORK = { vpcEndpoints: ['vpce-0a1b2c3d4e5f60718'] };

/** Renders the real program under the mocks, as `pulumi preview` would run it. */
export function renderStack(options: StackOptions): Promise<Snapshot> {
  const stack = options.stack ?? options.environment ?? 'dev';
  return render(checkpointStack, { project: 'checkpoints-aws', stack, config: stackConfig(options) });
}

/** `renderStack` made once per stack and config in a test file, frozen (`sharedPerKey`). */
export const sharedRenderStack = sharedPerKey(renderStack, (options: StackOptions) =>
  JSON.stringify([options.stack ?? options.environment ?? 'dev', stackConfig(options)]),
);

/** Renders a program expected to fail, and returns the failure. */
export async function renderFailure(options: StackOptions): Promise<RenderFailure> {
  try {
    await renderStack(options);
  } catch (error) {
    if (error instanceof RenderFailure) return error;
    throw error;
  }
  throw new Error('expected the render to fail');
}

/** A JSON policy input (policy, assumeRolePolicy) as the document it holds. */
export function documentOf(resource: RenderedResource, input = 'policy'): AwsPolicyDocument {
  return JSON.parse(resource.inputs[input] as string) as AwsPolicyDocument;
}

/** The resource's single-store logical name lookup, with the type spelled once. */
export function resource(snapshot: Snapshot, type: keyof typeof TYPES, name: string): RenderedResource {
  return byName(snapshot, TYPES[type], name);
}
