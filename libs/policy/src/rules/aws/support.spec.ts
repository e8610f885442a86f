import { inputsOf, principalsOf, statementsOf, UNKNOWN } from './support';
import { onPreview, UNKNOWN_BOOLEAN, UNKNOWN_STRING } from './spec-helpers';

describe('inputsOf', () => {
  it('copies inputs of a preview, unknown values marked instead of throwing', () => {
    const [resource] = onPreview([
      {
        type: 'aws:s3/bucketPolicy:BucketPolicy',
        props: {
          bucket: UNKNOWN_STRING,
          nested: { flag: UNKNOWN_BOOLEAN, list: [1, UNKNOWN_STRING] },
          known: 'x',
        },
      },
    ]);
    expect(inputsOf(resource!)).toEqual({
      bucket: UNKNOWN,
      nested: { flag: UNKNOWN, list: [1, UNKNOWN] },
      known: 'x',
    });
  });
});

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
