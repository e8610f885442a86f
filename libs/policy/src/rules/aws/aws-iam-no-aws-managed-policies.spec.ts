import { violationsOf } from '../../../testing';
import { onPreview, UNKNOWN_STRING } from '../../../testing/rules';
import { awsIamNoAwsManagedPolicies } from './aws-iam-no-aws-managed-policies';
import { T } from '../../../testing/aws';

describe('aws-iam-no-aws-managed-policies', () => {
  it("passes the program's own policies, known or computed", async () => {
    expect(
      await violationsOf(
        awsIamNoAwsManagedPolicies,
        onPreview([
          { type: T.role, props: { managedPolicyArns: ['arn:aws:iam::123456789012:policy/ckpt-writer'] } },
          {
            type: 'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
            props: { role: 'r', policyArn: UNKNOWN_STRING },
          },
        ]),
      ),
    ).toEqual([]);
  });

  it('flags AWS managed policies however they are attached', async () => {
    expect(
      await violationsOf(awsIamNoAwsManagedPolicies, [
        { type: T.role, props: { managedPolicyArns: ['arn:aws:iam::aws:policy/AdministratorAccess'] } },
        {
          type: 'aws:iam/rolePolicyAttachment:RolePolicyAttachment',
          props: { role: 'r', policyArn: 'arn:aws-us-gov:iam::aws:policy/AmazonS3FullAccess' },
        },
      ]),
    ).toEqual([
      'managedPolicyArns attaches the AWS managed policy arn:aws:iam::aws:policy/AdministratorAccess; expected a policy of this stack naming the actions and ARNs needed',
      'policyArn attaches the AWS managed policy arn:aws-us-gov:iam::aws:policy/AmazonS3FullAccess; expected a policy of this stack naming the actions and ARNs needed',
    ]);
  });
});
