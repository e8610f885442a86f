import { AWS_IAM_LIMITS, ConfigError, type ConfigIssue } from '@checkpoints/config';
import { awsTrustPolicy } from '@checkpoints/translate';
import { render, type RenderFailure } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import {
  ACCOUNT_ROOT,
  documentOf,
  renderFailure,
  renderStack,
  resource,
  stackConfig,
  TYPES,
  type StackOptions,
} from './render-stack';

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
        message:
          'is an AZ of us-east-1, not of aws:region eu-west-1; S3 Express One Zone AZ IDs in eu-west-1: euw1-az1, euw1-az3',
      },
    ],
    [
      "another environment's deploy role as the CI role the perimeters exempt",
      {
        environment: 'prod',
        stores: [store()],
        extra: { 'checkpoints:ciDeployRole': 'checkpoints-ci-deploy-dev' },
      },
      {
        path: 'checkpoints:ciDeployRole',
        value: 'checkpoints-ci-deploy-dev',
        message:
          "must be the bootstrap's deploy role of environment prod, checkpoints-<bootstrap stack>-deploy-prod (e.g. checkpoints-ci-deploy-prod): the buckets' perimeters exempt it, and the preview role checkpoints-<bootstrap stack>-preview, by exact ARN",
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
        message:
          'S3 directory buckets have no versioning; remove retention.keepNoncurrentVersions or set it to 0',
      },
    ],
    [
      'a cool tier on a directory bucket',
      { stores: [fast({ retention: { coolAfterDays: 30 } })] },
      {
        path: 'checkpoints:stores[0].retention.coolAfterDays',
        value: 30,
        message:
          'S3 directory buckets have one storage class (S3 Express One Zone) and no lifecycle transitions; remove retention.coolAfterDays or set it to 0',
      },
    ],
    [
      'soft delete, as on GCS or Azure',
      { stores: [store({ retention: { softDeleteDays: 14 } })] },
      {
        path: 'checkpoints:stores[0].retention.softDeleteDays',
        value: 14,
        message:
          'S3 has no soft delete; deleted objects stay recoverable as noncurrent versions: use retention.noncurrentExpireDays and keepNoncurrentVersions instead, and remove retention.softDeleteDays or set it to 0',
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
          "unknown key; did you mean 'coolAfterDays'? known keys here: keepNoncurrentVersions, noncurrentExpireDays, coolAfterDays, archiveAfterDays, expireAfterDays, abortIncompleteUploadDays, softDeleteDays, keptPrefixes, expirePrefixes",
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
      'an AZ without S3 Express One Zone',
      { stores: [fast({ zone: 'use1-az1' })] },
      {
        path: 'checkpoints:stores[0].zone',
        value: 'use1-az1',
        message:
          'is an AZ of us-east-1 without S3 Express One Zone; S3 Express One Zone AZ IDs in us-east-1: use1-az4, use1-az5, use1-az6',
      },
    ],
    [
      'a zone that does not exist',
      { stores: [fast({ zone: 'use1-az9' })] },
      {
        path: 'checkpoints:stores[0].zone',
        value: 'use1-az9',
        message:
          'is not an AZ ID of us-east-1; did you mean use1-az4, use1-az5, use1-az6? (S3 Express One Zone AZ IDs in us-east-1: use1-az4, use1-az5, use1-az6)',
      },
    ],
    [
      'a region that does not exist',
      { region: 'us-east-3', stores: [store()] },
      {
        path: 'aws:region',
        value: 'us-east-3',
        message:
          'is not an AWS region (the published list is in libs/config/src/facts/aws.ts); did you mean us-east-1, us-east-2, ap-east-1?',
      },
    ],
    [
      'a commercial-partition principal in a China region',
      {
        region: 'cn-north-1',
        stores: [store({ access: { writers: ['arn:aws:iam::123456789012:role/trainer'] } })],
      },
      {
        path: 'checkpoints:stores[0].access.writers[0]',
        value: 'arn:aws:iam::123456789012:role/trainer',
        message:
          'is in partition aws, but aws:region cn-north-1 is in partition aws-cn: a role can only trust principals of its own partition; write arn:aws-cn:iam::123456789012:role/trainer if that principal exists there',
      },
    ],
    [
      'S3 Express One Zone in a partition that has none',
      { region: 'us-gov-west-1', stores: [fast({ zone: 'usgw1-az1' })] },
      {
        path: 'checkpoints:stores[0].tier',
        value: 'high-throughput',
        message:
          'S3 Express One Zone (tier high-throughput) is not offered in partition aws-us-gov (aws:region us-gov-west-1); use tier: standard',
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
      '  - aws:region: got "us-east-1a"; is an availability zone name, not a region; use its region us-east-1',
    );
  });
});

describe('config written in the wrong place or shape: one line per problem, naming the fix', () => {
  it.each<[string, StackOptions, ConfigIssue]>([
    [
      'the stores under checkpoint: (singular)',
      { stores: null, extra: { 'checkpoint:stores': JSON.stringify([store()]) } },
      {
        path: 'checkpoint:stores',
        value: undefined,
        message: "is ignored: the namespace 'checkpoint:' is not read; write it as checkpoints:stores",
      },
    ],
    [
      'the region under checkpoints:',
      { stores: [store()], extra: { 'checkpoints:region': 'us-east-1' } },
      {
        path: 'checkpoints:region',
        value: undefined,
        message:
          'unknown key: the aws provider reads this setting from aws:region, not from the checkpoints: namespace; set aws:region instead',
      },
    ],
  ])('%s', async (_title, options, issue) => {
    expect(await issuesOf(options)).toEqual([issue]);
  });

  it('a store with type errors is still checked against S3 Express One Zone on the parts that parsed', async () => {
    const issues = await issuesOf({
      stores: [fast({ dataClassification: 'secret', retention: 30, zone: 'use1-az1' })],
    });
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].dataClassification',
      'checkpoints:stores[0].retention',
      'checkpoints:stores[0].zone',
    ]);
  });
});

describe("the trust policy the stack renders is checked against IAM's size limit before any resource", () => {
  const roles = (count: number) =>
    Array.from(
      { length: count },
      (_, i) => `arn:aws:iam::123456789012:role/ml-training-job-${String(i).padStart(3, '0')}`,
    );

  it('accepts writers whose trust policy fits in 2,048 characters', async () => {
    const snapshot = await renderStack({ stores: [store({ access: { writers: roles(30) } })] });
    const writer = resource(snapshot, 'role', 'llm-pretrain-writer');
    expect(JSON.stringify(documentOf(writer, 'assumeRolePolicy')).length).toBeLessThanOrEqual(2048);
  });

  it('refuses writers whose trust policy would pass it, on the key that drives it', async () => {
    const writers = roles(45);
    const issues = await issuesOf({ stores: [store({ access: { writers } })] });
    expect(issues).toEqual([
      {
        path: 'checkpoints:stores[0].access.writers',
        value: writers,
        message: expect.stringMatching(
          /^45 principals make the writer role's trust policy (\d+) characters, over IAM's default "Role trust policy length" of 2048 \(white space not counted\); name fewer principals/,
        ) as unknown as string,
      },
    ]);
    // The size named is the one the role would be sent with, and it is over the limit.
    const rendered = JSON.stringify(awsTrustPolicy(writers, ACCOUNT_ROOT)).length;
    expect(rendered).toBeGreaterThan(2048);
    expect(issues[0]?.message).toContain(`trust policy ${rendered} characters`);
  });
});

describe('policies that do not grow with the config stay inside their IAM limits', () => {
  it.each([
    ['standard', store({ name: 'a'.repeat(31) })],
    ['high-throughput', fast({ name: 'a'.repeat(31) })],
  ])(
    '%s: each role inline policy of the longest store name fits the per-role limit',
    async (_tier, longest) => {
      const snapshot = await renderStack({ stores: [longest] });
      const sizes = snapshot.resources
        .filter((found) => found.type === TYPES.rolePolicy)
        .map((policy) => JSON.stringify(documentOf(policy)).length);
      expect(sizes).toHaveLength(2);
      for (const size of sizes)
        expect(size).toBeLessThanOrEqual(AWS_IAM_LIMITS.inlinePoliciesPerRoleCharacters);
    },
  );
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
