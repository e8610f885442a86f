import { resourceRule } from '../define';

const WHAT: Readonly<Record<string, string>> = {
  'aws:iam/user:User': 'an IAM user',
  'aws:iam/accessKey:AccessKey': 'an access key (a long-lived secret)',
  'aws:iam/userLoginProfile:UserLoginProfile': 'a console password',
};

export const awsIamNoLongLivedCredentials = resourceRule({
  name: 'aws-iam-no-long-lived-credentials',
  description:
    'No IAM users, access keys or login profiles: workloads and CI assume roles with temporary credentials',
  source:
    'AWS IAM User Guide: Security best practices in IAM (require workloads to use temporary credentials with IAM roles); CIS AWS Foundations Benchmark v3.0.0 1.12-1.14 (IAM user credentials and access keys)',
  types: Object.keys(WHAT),
  validate: (_props, args, report) => {
    report(
      `${args.type} creates ${WHAT[args.type]}; expected none: grant access through a role (trust a role, a service or an OIDC provider) so only temporary credentials exist`,
    );
  },
});
