import { violationsOf } from '../../../testing';
import { awsIamNoWildcardResources } from './aws-iam-no-wildcard-resources';
import { BUCKET_ARN, doc, T, tlsDenyStatement } from '../../../testing/aws';

const EXPECTED = 'expected the ARNs it needs ("*" only for actions that support no resource type)';

describe('aws-iam-no-wildcard-resources', () => {
  it('passes scoped resources, "*" for actions that support no resource type, and Deny statements', async () => {
    expect(
      await violationsOf(awsIamNoWildcardResources, [
        {
          type: T.rolePolicy,
          props: {
            policy: doc(
              { Effect: 'Allow', Action: 's3:GetObject', Resource: `${BUCKET_ARN}/*` },
              {
                Sid: 'ReadOnlyListings',
                Effect: 'Allow',
                Action: ['s3:ListAllMyBuckets', 's3express:ListAllMyDirectoryBuckets', 'kms:ListAliases'],
                Resource: '*',
              },
              { Sid: 'CreateKeys', Effect: 'Allow', Action: 'kms:CreateKey', Resource: ['*'] },
              { Effect: 'Deny', Action: 's3:DeleteBucket', Resource: '*' },
            ),
          },
        },
        { type: T.bucketPolicy, props: { policy: doc(tlsDenyStatement(['s3:*'], ['*'])) } },
        {
          type: T.role,
          props: {
            assumeRolePolicy: doc({
              Effect: 'Allow',
              Principal: { Service: 'ec2.amazonaws.com' },
              Action: 'sts:AssumeRole',
            }),
          },
        },
      ]),
    ).toEqual([]);
  });

  it('flags a resource-scoped action on "*", also next to one that supports only "*"', async () => {
    expect(
      await violationsOf(awsIamNoWildcardResources, [
        {
          type: T.rolePolicy,
          props: {
            policy: doc({
              Sid: 'ReadEverything',
              Effect: 'Allow',
              Action: ['s3:ListAllMyBuckets', 's3:GetObject'],
              Resource: '*',
            }),
          },
        },
      ]),
    ).toEqual([
      `policy: Allow statement 'ReadEverything' grants s3:GetObject (supports accesspointobject, object) on Resource "*"; ${EXPECTED}`,
    ]);
  });

  // The catalogue is pinned in package-lock.json: an upgrade that adds a kms:Get* action updates this list.
  it('expands wildcards against the catalogue', async () => {
    expect(
      await violationsOf(awsIamNoWildcardResources, [
        {
          type: T.rolePolicy,
          props: {
            policy: doc(
              { Sid: 'Lists', Effect: 'Allow', Action: 's3:ListAllMy*', Resource: '*' },
              { Sid: 'Gets', Effect: 'Allow', Action: 'kms:Get*', Resource: '*' },
            ),
          },
        },
      ]),
    ).toEqual([
      `policy: Allow statement 'Gets' grants kms:Get* (matches 5 resource-scoped action(s): kms:GetKeyLastUsage, kms:GetKeyPolicy, kms:GetKeyRotationStatus, kms:GetParametersForImport, ... and 1 more) on Resource "*"; ${EXPECTED}`,
    ]);
  });

  it('flags "*" with actions it cannot vouch for, in role inline and bucket policies', async () => {
    expect(
      await violationsOf(awsIamNoWildcardResources, [
        {
          type: T.role,
          props: {
            assumeRolePolicy: doc({
              Effect: 'Allow',
              Principal: { Service: 'ec2.amazonaws.com' },
              Action: 'sts:AssumeRole',
            }),
            inlinePolicies: [
              { name: 'admin', policy: doc({ Sid: 'Admin', Effect: 'Allow', Action: '*', Resource: '*' }) },
            ],
          },
        },
        {
          type: T.bucketPolicy,
          props: {
            policy: doc({
              Sid: 'Typo',
              Effect: 'Allow',
              Principal: { AWS: 'arn:aws:iam::210987654321:root' },
              Action: 's3:PutObjects',
              Resource: '*',
            }),
          },
        },
      ]),
    ).toEqual([
      `inlinePolicies[0].policy: Allow statement 'Admin' grants "*" (every action) on Resource "*"; ${EXPECTED}`,
      `policy: Allow statement 'Typo' grants s3:PutObjects (not in AWS's catalogue) on Resource "*"; ${EXPECTED}`,
    ]);
  });

  it('flags NotResource in an Allow', async () => {
    expect(
      await violationsOf(awsIamNoWildcardResources, [
        {
          type: T.rolePolicy,
          props: {
            policy: doc({
              Sid: 'AllButOne',
              Effect: 'Allow',
              Action: 's3:GetObject',
              NotResource: BUCKET_ARN,
            }),
          },
        },
      ]),
    ).toEqual([
      `policy: Allow statement 'AllButOne' uses NotResource, which grants on every other resource; expected Resource with the ARNs it needs`,
    ]);
  });
});
