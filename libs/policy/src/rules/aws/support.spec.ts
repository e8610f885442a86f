import type { RenderedResource } from '@checkpoints/render';
import type { StackValidationArgs } from '@pulumi/policy';
import { Evaluation } from '../evaluation';
import {
  ALL_BUCKETS,
  awsStoresOf,
  checkBucketSetting,
  findAwsStores,
  principalsOf,
  statementsOf,
} from './support';

describe('statementsOf and principalsOf', () => {
  it('read single values as lists and name statements by Sid or position', () => {
    expect(
      statementsOf({
        Statement: {
          Effect: 'Allow',
          Principal: { AWS: '*' },
          Action: 's3:GetObject',
          Resource: 'arn:aws:s3:::b/*',
        },
      }),
    ).toEqual([
      {
        label: '#1',
        effect: 'Allow',
        principal: { AWS: '*' },
        notPrincipal: undefined,
        actions: ['s3:GetObject'],
        notActions: [],
        resources: ['arn:aws:s3:::b/*'],
        notResources: [],
        condition: undefined,
      },
    ]);
    expect(principalsOf('*')).toEqual(['*']);
    expect(principalsOf({ AWS: ['arn:aws:iam::123456789012:root'], Service: 'ec2.amazonaws.com' })).toEqual([
      'arn:aws:iam::123456789012:root',
      'ec2.amazonaws.com',
    ]);
  });
});

describe('checkBucketSetting', () => {
  const bucket = (name: string, bucketName: unknown) => ({
    urn: `urn:bucket:${name}`,
    type: 'aws:s3/bucket:Bucket',
    name,
    props: { bucket: bucketName },
    propertyDependencies: {},
  });
  const setting = (name: string, bucketName: unknown, dependsOn: string[] = []) => ({
    urn: `urn:setting:${name}`,
    type: 'aws:s3/bucketVersioning:BucketVersioning',
    name,
    props: { bucket: bucketName },
    propertyDependencies: { bucket: dependsOn.map((urn) => ({ urn })) },
  });
  const reports = (resources: object[]) => {
    const messages: string[] = [];
    checkBucketSetting(
      {
        bucketTypes: ALL_BUCKETS,
        settingTypes: ['aws:s3/bucketVersioning:BucketVersioning'],
        missing: (name) => `missing on ${name}`,
        problems: (inputs, configured) => [`${String(inputs['bucket'])} configures ${configured?.name}`],
      },
      { resources } as unknown as StackValidationArgs,
      (message) => messages.push(message),
    );
    return messages;
  };

  it('links a setting to a bucket by dependency or by a known name, the first such bucket in render order', () => {
    expect(
      reports([
        bucket('first', 'one'),
        bucket('second', 'two'),
        bucket('third', '[unknown]'),
        bucket('fourth', 'four'),
        setting('by-name', 'two'),
        setting('by-dependency', '[unknown]', ['urn:bucket:third']),
        setting('both', 'two', ['urn:bucket:first']),
        setting('unknown', '[unknown]'),
      ]),
    ).toEqual([
      'missing on four',
      "BucketVersioning 'by-name': two configures second",
      "BucketVersioning 'by-dependency': Symbol(unknown during preview) configures third",
      "BucketVersioning 'both': two configures first",
      "BucketVersioning 'unknown': Symbol(unknown during preview) configures undefined",
    ]);
  });
});

describe('awsStoresOf', () => {
  const resource = (urn: string, type: string, parent: string | null, inputs = {}): RenderedResource => ({
    urn,
    type,
    name: urn.split(':').pop() ?? urn,
    parent,
    protect: false,
    retainOnDelete: false,
    dependsOn: [],
    inputs,
  });
  const render = (bucketName: string) => [
    resource('urn:stack', 'pulumi:pulumi:Stack', null),
    resource('urn:store:a', 'checkpoints:aws:CheckpointStore', 'urn:stack'),
    resource('urn:bucket:a', 'aws:s3/bucket:Bucket', 'urn:store:a', { bucket: bucketName }),
    resource('urn:key:a', 'aws:kms/key:Key', 'urn:store:a', {
      policy: 'arn:aws:kms:eu-west-1:123456789012:key/1234abcd',
    }),
  ];

  it("finds each store's bucket, key and ARN, the account from the ARNs the render spells", () => {
    const [store, ...others] = findAwsStores(render('ckpt-a'));
    expect(others).toEqual([]);
    expect(store).toMatchObject({
      bucketArn: 'arn:aws:s3:::ckpt-a',
      accountId: '123456789012',
      directory: false,
      key: { urn: 'urn:key:a' },
    });
  });

  it('finds them once per evaluation, and each evaluation its own', () => {
    const first = new Evaluation(render('ckpt-a'));
    expect(awsStoresOf(first)).toBe(awsStoresOf(first));
    expect(awsStoresOf(new Evaluation(render('ckpt-b')))[0]?.bucketArn).toBe('arn:aws:s3:::ckpt-b');
    expect(awsStoresOf(first)[0]?.bucketArn).toBe('arn:aws:s3:::ckpt-a');
  });
});
