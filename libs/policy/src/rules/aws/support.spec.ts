import { principalsOf, statementsOf } from './support';

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
