import { resourceRule } from '../define';
import { inputsOf } from '../inputs';
import { listOf } from './support';

/** Where each type names the policies it attaches. */
const ATTACHMENTS: Readonly<Record<string, string>> = {
  'aws:iam/role:Role': 'managedPolicyArns',
  'aws:iam/rolePolicyAttachment:RolePolicyAttachment': 'policyArn',
  'aws:iam/rolePolicyAttachmentsExclusive:RolePolicyAttachmentsExclusive': 'policyArns',
  'aws:iam/policyAttachment:PolicyAttachment': 'policyArn',
  'aws:iam/groupPolicyAttachment:GroupPolicyAttachment': 'policyArn',
  'aws:iam/userPolicyAttachment:UserPolicyAttachment': 'policyArn',
};

const AWS_MANAGED = /^arn:[^:]+:iam::aws:policy\//;

export const awsIamNoAwsManagedPolicies = resourceRule({
  name: 'aws-iam-no-aws-managed-policies',
  description:
    'No AWS managed policy (arn:aws:iam::aws:policy/...) is attached: their grants are service-wide and not written here, so the least-privilege rules cannot check them',
  source:
    'AWS IAM User Guide: Security best practices in IAM (get started with AWS managed policies and move toward least-privilege permissions); CIS AWS Foundations Benchmark v3.0.0 1.16',
  types: Object.keys(ATTACHMENTS),
  validate: (_props, args, report) => {
    const input = ATTACHMENTS[args.type] ?? 'policyArn';
    // AWS managed policy ARNs are fixed strings: an ARN unknown on a preview is a policy of the program.
    for (const arn of listOf(inputsOf(args)[input])) {
      if (typeof arn === 'string' && AWS_MANAGED.test(arn)) {
        report(
          `${input} attaches the AWS managed policy ${arn}; expected a policy of this stack naming the actions and ARNs needed`,
        );
      }
    }
  },
});
