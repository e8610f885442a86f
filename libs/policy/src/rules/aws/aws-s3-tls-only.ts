import type { PolicyResource } from '@pulumi/policy';
import { stackRule } from '../define';
import { inputsOf, UNKNOWN } from '../inputs';
import {
  ALL_BUCKETS,
  checkBucketSetting,
  DIRECTORY_BUCKETS,
  iamDocuments,
  principalsOf,
  statementsOf,
  wildcardPattern,
  type IamStatement,
} from './support';

interface Target {
  directory: boolean;
  /** The bucket's name, when known. */
  name: string | undefined;
}

/** Whether an ARN pattern of a statement covers `arn:<any>:<service>:<any>:<any>:<resource>`. */
function covers(pattern: unknown, service: string, resource: string): boolean {
  if (pattern === '*') return true;
  if (typeof pattern !== 'string') return false;
  const [arn = '', , patternService = '', , , ...rest] = pattern.split(':');
  return (
    wildcardPattern(arn).test('arn') &&
    wildcardPattern(patternService).test(service) &&
    wildcardPattern(rest.join(':')).test(resource)
  );
}

function coversBucket(statement: IamStatement, { directory, name }: Target): boolean {
  if (name === undefined) return true;
  const anyCovers = (service: string, resource: string) =>
    statement.resources.some((pattern) => covers(pattern, service, resource));
  return directory
    ? anyCovers('s3express', `bucket/${name}`)
    : anyCovers('s3', name) && anyCovers('s3', `${name}/any-object`);
}

function isSecureTransportFalse(condition: unknown): boolean {
  if (condition === null || typeof condition !== 'object') return false;
  return ['Bool', 'BoolIfExists'].some((operator) => {
    const keys = (condition as Record<string, unknown>)[operator];
    if (keys === null || typeof keys !== 'object') return false;
    return Object.entries(keys).some(
      ([key, value]) =>
        key.toLowerCase() === 'aws:securetransport' &&
        [value].flat().some((entry) => entry === false || entry === 'false'),
    );
  });
}

function deniesInsecureTransport(statement: IamStatement, target: Target): boolean {
  const everything = target.directory ? ['*', 's3express:*', 's3express:createsession'] : ['*', 's3:*'];
  return (
    statement.effect === 'Deny' &&
    principalsOf(statement.principal).includes('*') &&
    statement.actions.some(
      (action) => typeof action === 'string' && everything.includes(action.toLowerCase()),
    ) &&
    isSecureTransportFalse(statement.condition) &&
    coversBucket(statement, target)
  );
}

function expected({ directory }: Target): string {
  return directory
    ? 'expected a Deny for Principal "*" of s3express:CreateSession on the bucket when aws:SecureTransport is "false"'
    : 'expected a Deny for Principal "*" of s3:* on the bucket and its objects when aws:SecureTransport is "false"';
}

function targetOf(inputs: Record<string, unknown>, bucket: PolicyResource | undefined): Target {
  const name = bucket ? inputsOf(bucket)['bucket'] : inputs['bucket'];
  const known = typeof name === 'string' ? name : undefined;
  const directory = bucket ? DIRECTORY_BUCKETS.includes(bucket.type) : (known?.endsWith('--x-s3') ?? false);
  return { directory, name: known };
}

export const awsS3TlsOnly = stackRule({
  name: 'aws-s3-tls-only',
  description:
    'Every bucket (general purpose and directory) has a BucketPolicy that denies any request made without TLS (aws:SecureTransport false)',
  source:
    'CIS AWS Foundations Benchmark v3.0.0 2.1.1 (S3 bucket policy set to deny HTTP requests); AWS Foundational Security Best Practices S3.5',
  validate: (args, report) =>
    checkBucketSetting(
      {
        bucketTypes: ALL_BUCKETS,
        settingTypes: ['aws:s3/bucketPolicy:BucketPolicy'],
        missing: (bucket) =>
          `bucket '${bucket}' has no BucketPolicy; expected one that denies requests with aws:SecureTransport "false"`,
        problems: (inputs, bucket) => {
          const target = targetOf(inputs, bucket);
          const [policy] = iamDocuments('aws:s3/bucketPolicy:BucketPolicy', inputs);
          // Computed from the bucket's ARN, the text is unknown on a first preview; the stack check at the
          // end of `pulumi up` sees it known.
          if (policy?.document === UNKNOWN) return [];
          if (policy === undefined || policy.document === undefined) {
            return [`policy is not a JSON policy document; ${expected(target)}`];
          }
          return statementsOf(policy.document).some((statement) => deniesInsecureTransport(statement, target))
            ? []
            : [`policy does not deny insecure transport; ${expected(target)}`];
        },
      },
      args,
      report,
    ),
});
