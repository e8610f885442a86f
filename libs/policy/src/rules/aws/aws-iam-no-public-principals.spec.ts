import { violationsOf } from '../../../testing';
import { awsIamNoPublicPrincipals } from './aws-iam-no-public-principals';
import { BUCKET_ARN, doc, T, tlsDenyStatement } from '../../../testing/aws';

const NAMED = 'expected named accounts, roles or services';

describe('aws-iam-no-public-principals', () => {
  it('passes named principals, Deny statements for everyone, and identity policies', async () => {
    expect(
      await violationsOf(awsIamNoPublicPrincipals, [
        { type: T.bucketPolicy, props: { policy: doc(tlsDenyStatement(['s3:*'], [BUCKET_ARN])) } },
        {
          type: T.role,
          props: {
            assumeRolePolicy: doc(
              {
                Effect: 'Allow',
                Principal: { AWS: ['arn:aws:iam::123456789012:role/train'] },
                Action: 'sts:AssumeRole',
              },
              {
                Effect: 'Allow',
                Principal: {
                  Federated: 'arn:aws:iam::123456789012:oidc-provider/token.actions.githubusercontent.com',
                },
                Action: 'sts:AssumeRoleWithWebIdentity',
              },
            ),
          },
        },
        {
          type: T.rolePolicy,
          props: { policy: doc({ Effect: 'Allow', Action: 's3:GetObject', Resource: BUCKET_ARN }) },
        },
      ]),
    ).toEqual([]);
  });

  it('flags public principals in bucket, trust and key policies, whatever the condition', async () => {
    expect(
      await violationsOf(awsIamNoPublicPrincipals, [
        {
          type: T.bucketPolicy,
          props: {
            policy: doc({
              Sid: 'PublicRead',
              Effect: 'Allow',
              Principal: '*',
              Action: 's3:GetObject',
              Resource: `${BUCKET_ARN}/*`,
            }),
          },
        },
        {
          type: T.role,
          props: {
            assumeRolePolicy: doc({
              Effect: 'Allow',
              Principal: { AWS: '*' },
              Action: 'sts:AssumeRole',
              Condition: { StringEquals: { 'aws:PrincipalOrgID': 'o-example' } },
            }),
          },
        },
        {
          type: T.key,
          props: {
            policy: doc({
              Sid: 'Anyone',
              Effect: 'Allow',
              Principal: { AWS: ['*'] },
              Action: 'kms:Decrypt',
              Resource: '*',
            }),
          },
        },
      ]),
    ).toEqual([
      `policy: Allow statement 'PublicRead' has a public principal "*"; ${NAMED}`,
      `assumeRolePolicy: Allow statement #1 has a public principal {"AWS":"*"}; ${NAMED}`,
      `policy: Allow statement 'Anyone' has a public principal {"AWS":["*"]}; ${NAMED}`,
    ]);
  });

  it('flags NotPrincipal in an Allow', async () => {
    expect(
      await violationsOf(awsIamNoPublicPrincipals, [
        {
          type: T.bucketPolicy,
          props: {
            policy: doc({
              Sid: 'AllButOne',
              Effect: 'Allow',
              NotPrincipal: { AWS: 'arn:aws:iam::123456789012:root' },
              Action: 's3:GetObject',
              Resource: `${BUCKET_ARN}/*`,
            }),
          },
        },
      ]),
    ).toEqual([
      `policy: Allow statement 'AllButOne' uses NotPrincipal, which allows everyone else; expected Principal with named accounts, roles or services`,
    ]);
  });
});
