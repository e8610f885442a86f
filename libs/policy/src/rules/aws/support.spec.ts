import type { StackValidationArgs } from '@pulumi/policy';
import { ALL_BUCKETS, checkBucketSetting, principalsOf, statementsOf } from './support';

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
