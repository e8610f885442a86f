import { ConfigError, type ConfigIssue } from '@checkpoints/config';
import { render, type RenderFailure } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { renderFailure, stackConfig, type StackOptions } from './render-stack';

const store = (extra: Record<string, unknown> = {}) => ({
  name: 'llm-pretrain',
  dataClassification: 'confidential',
  ...extra,
});
const fast = (extra: Record<string, unknown> = {}) =>
  store({ tier: 'high-throughput', zone: 'use1-az4', ...extra });

/** The issues a config fails with; also checks that nothing was created before it failed. */
async function issuesOf(options: StackOptions): Promise<ConfigIssue[]> {
  const failure = await renderFailure(options);
  expect(failure.cause).toBeInstanceOf(ConfigError);
  expect(failure.resources.filter((resource) => resource.custom)).toEqual([]);
  return [...(failure.cause as ConfigError).issues];
}

const PRINCIPAL_FORMATS =
  'expected an IAM principal ARN (arn:aws:iam::123456789012:root, arn:aws:iam::123456789012:role/NAME or ' +
  'arn:aws:iam::123456789012:user/NAME; partition aws, aws-us-gov or aws-cn) or an AWS service principal ' +
  'such as sagemaker.amazonaws.com';

describe('config a user is likely to get wrong fails before any resource, with where, what and why', () => {
  it.each<[string, StackOptions, ConfigIssue]>([
    [
      'no aws:region',
      { region: null, stores: [store()] },
      {
        path: 'aws:region',
        value: undefined,
        message: 'is required: the region of every store, e.g. us-east-1 (set it in the stack config file)',
      },
    ],
    [
      'an AZ name for the directory bucket zone',
      { stores: [fast({ zone: 'us-east-1a' })] },
      {
        path: 'checkpoints:stores[0].zone',
        value: 'us-east-1a',
        message:
          'allowed: an availability zone ID such as use1-az4 (an AZ ID, not an AZ name such as us-east-1a; run `aws ec2 describe-availability-zones` to map them)',
      },
    ],
    [
      'a zone of another region',
      { region: 'eu-west-1', stores: [fast({ zone: 'use1-az4' })] },
      {
        path: 'checkpoints:stores[0].zone',
        value: 'use1-az4',
        message: "is not in aws:region eu-west-1: its AZ IDs start with 'euw1-', e.g. euw1-az4",
      },
    ],
    [
      'a high-throughput store without a zone',
      { stores: [store({ tier: 'high-throughput' })] },
      {
        path: 'checkpoints:stores[0].zone',
        value: undefined,
        message:
          "is required for tier 'high-throughput' on AWS: the availability zone ID of the S3 Express One Zone directory bucket, e.g. use1-az4",
      },
    ],
    [
      'a zone on a standard store',
      { stores: [store({ zone: 'use1-az4' })] },
      {
        path: 'checkpoints:stores[0].zone',
        value: 'use1-az4',
        message: "applies only to tier 'high-throughput'; remove it or set tier: high-throughput",
      },
    ],
    [
      'infrequent access after a week',
      { stores: [store({ retention: { coolAfterDays: 7 } })] },
      {
        path: 'checkpoints:stores[0].retention.coolAfterDays',
        value: 7,
        message:
          'S3 moves objects to STANDARD_IA no earlier than 30 days after creation; use 0 (never) or at least 30',
      },
    ],
    [
      'archive two weeks after infrequent access',
      { stores: [store({ retention: { coolAfterDays: 30, archiveAfterDays: 44 } })] },
      {
        path: 'checkpoints:stores[0].retention.archiveAfterDays',
        value: 44,
        message:
          'S3 keeps objects at least 30 days in STANDARD_IA before archiving them (GLACIER_IR); use at least 60 (coolAfterDays + 30) or 0 (never)',
      },
    ],
    [
      'noncurrent versions on a directory bucket',
      { stores: [fast({ retention: { keepNoncurrentVersions: 3 } })] },
      {
        path: 'checkpoints:stores[0].retention.keepNoncurrentVersions',
        value: 3,
        message: 'S3 directory buckets have no versioning; remove retention.keepNoncurrentVersions',
      },
    ],
    [
      'a cool tier on a directory bucket',
      { stores: [fast({ retention: { coolAfterDays: 30 } })] },
      {
        path: 'checkpoints:stores[0].retention.coolAfterDays',
        value: 30,
        message:
          'S3 directory buckets have one storage class (S3 Express One Zone) and no lifecycle transitions; remove retention.coolAfterDays',
      },
    ],
    [
      'soft delete, as on GCS or Azure',
      { stores: [store({ retention: { softDeleteDays: 14 } })] },
      {
        path: 'checkpoints:stores[0].retention.softDeleteDays',
        value: 14,
        message:
          'S3 has no soft delete; deleted objects stay recoverable as noncurrent versions: use retention.noncurrentExpireDays and keepNoncurrentVersions instead',
      },
    ],
    [
      'an account ID as a writer',
      { stores: [store({ access: { writers: ['123456789012'] } })] },
      {
        path: 'checkpoints:stores[0].access.writers[0]',
        value: '123456789012',
        message: 'is an account ID; write the account root ARN instead: arn:aws:iam::123456789012:root',
      },
    ],
    [
      'a role session ARN as a reader',
      { stores: [store({ access: { readers: ['arn:aws:sts::123456789012:assumed-role/ml-eval/i-0abc'] } })] },
      {
        path: 'checkpoints:stores[0].access.readers[0]',
        value: 'arn:aws:sts::123456789012:assumed-role/ml-eval/i-0abc',
        message:
          'is a role session, which cannot be trusted by name; use the role ARN: arn:aws:iam::123456789012:role/ml-eval',
      },
    ],
    [
      'everyone as a reader',
      { stores: [store({ access: { readers: ['*'] } })] },
      {
        path: 'checkpoints:stores[0].access.readers[0]',
        value: '*',
        message: `wildcards are not allowed: name each principal; ${PRINCIPAL_FORMATS}`,
      },
    ],
    [
      'a service name without its domain',
      { stores: [store({ access: { writers: ['sagemaker'] } })] },
      { path: 'checkpoints:stores[0].access.writers[0]', value: 'sagemaker', message: PRINCIPAL_FORMATS },
    ],
    [
      'a typo in a retention key',
      { stores: [store({ retention: { coolAfterDay: 30 } })] },
      {
        path: 'checkpoints:stores[0].retention.coolAfterDay',
        value: undefined,
        message:
          "unknown key; did you mean 'coolAfterDays'? known keys here: keepNoncurrentVersions, noncurrentExpireDays, coolAfterDays, archiveAfterDays, expireAfterDays, abortIncompleteUploadDays, softDeleteDays",
      },
    ],
    [
      'the KMS algorithm name as the encryption',
      { stores: [store({ encryption: 'aws:kms' })] },
      {
        path: 'checkpoints:stores[0].encryption',
        value: 'aws:kms',
        message: 'allowed: one of customer-managed | provider-managed',
      },
    ],
    [
      'a GCP bucket location',
      { stores: [store({ location: 'us-east-1' })] },
      {
        path: 'checkpoints:stores[0].location',
        value: 'us-east-1',
        message: 'is not used on aws; it applies on gcp only',
      },
    ],
  ])('%s', async (_title, options, issue) => {
    expect(await issuesOf(options)).toEqual([issue]);
  });

  it('lists the region and every store problem at once, naming the stack file', async () => {
    const failure = await renderFailure({
      region: 'us-east-1a',
      stack: 'prod',
      environment: 'prod',
      stores: [store({ retention: { coolAfterDays: 10 } }), fast({ name: 'fast', zone: 'use1a' })],
    });
    const error = failure.cause as ConfigError;
    expect(error.issues.map((issue) => issue.path)).toEqual([
      'aws:region',
      'checkpoints:stores[0].retention.coolAfterDays',
      'checkpoints:stores[1].zone',
    ]);
    expect(error.message.split('\n')[0]).toBe('Invalid stack config in Pulumi.prod.yaml (3 problems):');
    expect(error.message).toContain(
      '  - aws:region: got "us-east-1a"; allowed: an AWS region code such as us-east-1',
    );
  });
});

describe('secrets', () => {
  it('refuses a secret store list, whose names would become bucket and role names, before any resource', async () => {
    const failure = (await render(checkpointStack, {
      project: 'checkpoints-aws',
      stack: 'dev',
      config: stackConfig({ stores: [store()] }),
      secretKeys: ['checkpoints:stores'],
    }).then(
      () => undefined,
      (error: unknown) => error,
    )) as RenderFailure;
    expect((failure.cause as ConfigError).issues).toEqual([
      expect.objectContaining({ path: 'checkpoints:stores', value: '[secret]' }),
    ]);
    expect(failure.resources.filter((resource) => resource.custom)).toEqual([]);
  });
});
