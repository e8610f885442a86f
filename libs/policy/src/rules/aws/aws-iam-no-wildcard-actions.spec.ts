import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { awsIamNoWildcardActions, isServiceWideAction } from './aws-iam-no-wildcard-actions';
import { BUCKET_ARN, doc, T, tlsDenyStatement } from '../../../testing/aws';

describe('aws-iam-no-wildcard-actions', () => {
  it('passes named actions, partial wildcards, Deny wildcards and key policies', async () => {
    expect(
      await violationsOf(awsIamNoWildcardActions, [
        {
          type: T.rolePolicy,
          props: {
            policy: doc(
              { Effect: 'Allow', Action: ['s3:GetObject', 's3:PutObject'], Resource: `${BUCKET_ARN}/*` },
              { Effect: 'Allow', Action: 's3:GetBucket*', Resource: BUCKET_ARN },
            ),
          },
        },
        { type: T.bucketPolicy, props: { policy: doc(tlsDenyStatement(['s3:*'], [BUCKET_ARN])) } },
        {
          type: T.key,
          props: {
            policy: doc({
              Sid: 'EnableIamUserPermissions',
              Effect: 'Allow',
              Principal: { AWS: 'arn:aws:iam::123456789012:root' },
              Action: 'kms:*',
              Resource: '*',
            }),
          },
        },
      ]),
    ).toEqual([]);
  });

  it('passes a policy whose text is unknown on a first preview', async () => {
    expect(
      await violationsOf(
        awsIamNoWildcardActions,
        onPreview([{ type: T.rolePolicy, props: { policy: UNKNOWN_STRING } }]),
      ),
    ).toEqual([]);
  });

  it('flags "*" and service-wide actions in identity, inline, trust and bucket policies', async () => {
    expect(
      await violationsOf(awsIamNoWildcardActions, [
        {
          type: T.policy,
          props: { policy: doc({ Sid: 'Admin', Effect: 'Allow', Action: '*', Resource: '*' }) },
        },
        {
          type: T.role,
          props: {
            assumeRolePolicy: doc({
              Effect: 'Allow',
              Principal: { Service: 'ec2.amazonaws.com' },
              Action: 'sts:*',
            }),
            inlinePolicies: [
              {
                name: 'store',
                policy: doc(
                  { Sid: 'Read', Effect: 'Allow', Action: 's3:GetObject', Resource: `${BUCKET_ARN}/*` },
                  { Sid: 'Everything', Effect: 'Allow', Action: ['s3:*', 'kms:*'], Resource: BUCKET_ARN },
                ),
              },
            ],
          },
        },
        {
          type: T.bucketPolicy,
          props: {
            policy: doc({
              Sid: 'Partner',
              Effect: 'Allow',
              Principal: { AWS: 'arn:aws:iam::210987654321:root' },
              Action: 's3:*',
              Resource: [BUCKET_ARN],
            }),
          },
        },
      ]),
    ).toEqual([
      `policy: Allow statement 'Admin' grants *; expected the named actions it needs`,
      `assumeRolePolicy: Allow statement #1 grants sts:*; expected the named actions it needs`,
      `inlinePolicies[0].policy: Allow statement 'Everything' grants s3:*, kms:*; expected the named actions it needs`,
      `policy: Allow statement 'Partner' grants s3:*; expected the named actions it needs`,
    ]);
  });

  it('flags NotAction in an Allow', async () => {
    expect(
      await violationsOf(awsIamNoWildcardActions, [
        {
          type: T.rolePolicy,
          props: {
            policy: doc({ Sid: 'AllButIam', Effect: 'Allow', NotAction: 'iam:*', Resource: BUCKET_ARN }),
          },
        },
      ]),
    ).toEqual([
      `policy: Allow statement 'AllButIam' uses NotAction, which grants every other action; expected Action with the named actions it needs`,
    ]);
  });

  it.each([
    ['*', true],
    ['s3:*', true],
    ['s3:**', true],
    ['s3:?*', true],
    ['s3:Get*', false],
    ['s3:GetObject', false],
    ['s3express:CreateSession', false],
  ])('isServiceWideAction(%s) is %s', (action, expected) => {
    expect(isServiceWideAction(action)).toBe(expected);
  });
});
