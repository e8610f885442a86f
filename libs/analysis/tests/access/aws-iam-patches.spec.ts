import { allowed, type AwsPrincipal } from '../../src/access/aws';

describe('a simulation with pre-validated policies', () => {
  const ROLE = 'arn:aws:iam::111122223333:role/writer';

  it('leaves a request without a grant in allowed() when iam-policy rejects the policy', async () => {
    // An unknown statement element is a validation error; unvalidated, the statement would allow.
    const principal = (extra: Record<string, unknown>): AwsPrincipal => ({
      principal: { id: ROLE, label: 'writer', kind: 'store-identity' },
      arn: ROLE,
      policies: [
        {
          name: 'identity',
          policy: {
            Version: '2012-10-17',
            Statement: [{ Sid: 'Read', Effect: 'Allow', Action: 's3:GetObject', Resource: '*', ...extra }],
          },
        },
      ],
    });
    const request = { action: 's3:GetObject', resource: 'arn:aws:s3:::ckpt-a/checkpoint' };
    expect(await allowed(principal({}), request)).toBe('s3:GetObject: policy identity Read');
    expect(await allowed(principal({ Bogus: 1 }), request)).toBeUndefined();
  });
});
