import { standardTagSet, violationsOf } from '../../../testing';
import { awsIamNoLongLivedCredentials } from './aws-iam-no-long-lived-credentials';
import { doc, T } from '../../../testing/aws';

const ROLES_INSTEAD =
  'expected none: grant access through a role (trust a role, a service or an OIDC provider) so only temporary credentials exist';

describe('aws-iam-no-long-lived-credentials', () => {
  it('passes roles', async () => {
    expect(
      await violationsOf(awsIamNoLongLivedCredentials, [
        {
          type: T.role,
          props: {
            assumeRolePolicy: doc({
              Effect: 'Allow',
              Principal: { Service: 'sagemaker.amazonaws.com' },
              Action: 'sts:AssumeRole',
            }),
            tags: standardTagSet(),
          },
        },
      ]),
    ).toEqual([]);
  });

  it('flags users, access keys and login profiles', async () => {
    expect(
      await violationsOf(awsIamNoLongLivedCredentials, [
        { type: 'aws:iam/user:User', props: { name: 'ci' } },
        { type: 'aws:iam/accessKey:AccessKey', props: { user: 'ci' } },
        { type: 'aws:iam/userLoginProfile:UserLoginProfile', props: { user: 'ci' } },
      ]),
    ).toEqual([
      `aws:iam/user:User creates an IAM user; ${ROLES_INSTEAD}`,
      `aws:iam/accessKey:AccessKey creates an access key (a long-lived secret); ${ROLES_INSTEAD}`,
      `aws:iam/userLoginProfile:UserLoginProfile creates a console password; ${ROLES_INSTEAD}`,
    ]);
  });
});
