import {
  awsPolicyDocument,
  type AwsPolicyDocument,
  type AwsPolicyStatement,
  type AwsPrincipals,
} from './types';

/**
 * Services that tag the session when they assume a role, and so need `sts:TagSession` as well. EKS Pod
 * Identity is also the one service principal here that gets no `aws:SourceAccount` condition: AWS documents
 * no source-account context for it (its documented trust policy has none; it scopes callers through the
 * `aws:RequestTag/eks-cluster-*` and `kubernetes-*` session tags instead), and a condition on a key the
 * request lacks would lock every pod out.
 */
const SESSION_TAGGING_SERVICES: readonly string[] = ['pods.eks.amazonaws.com'];

const ACCOUNT_ROOT = /^arn:[a-z-]+:iam::(\d{12}):root$/;

/**
 * Who may assume a store's writer or reader role: exactly the configured principals (IAM ARNs under
 * `Principal.AWS`, service principals under `Principal.Service`). With none configured, the role trusts
 * its own account's root, which by itself lets nobody in: an administrator must still grant
 * `sts:AssumeRole` on this role in an identity policy, so access stays an explicit IAM decision.
 *
 * A service principal trusts that service whichever customer it acts for: the `ConfiguredServices`
 * statement lets it in only when it acts for a resource of the deploying account (`aws:SourceAccount`,
 * the account of `accountRootArn`), the guard AWS recommends against the cross-service confused deputy.
 */
export function awsTrustPolicy(principals: readonly string[], accountRootArn: string): AwsPolicyDocument {
  const account = ACCOUNT_ROOT.exec(accountRootArn)?.[1];
  if (account === undefined) {
    throw new Error(
      `awsTrustPolicy: ${accountRootArn} is not an account root ARN (arn:<partition>:iam::<account>:root)`,
    );
  }
  if (principals.length === 0) {
    return awsPolicyDocument([
      assume('AccountIdentityPolicies', { AWS: [accountRootArn] }, ['sts:AssumeRole']),
    ]);
  }
  const arns = principals.filter((principal) => principal.startsWith('arn:'));
  const services = principals.filter((principal) => !principal.startsWith('arn:'));
  const taggingServices = services.filter((service) => SESSION_TAGGING_SERVICES.includes(service));
  const otherServices = services.filter((service) => !SESSION_TAGGING_SERVICES.includes(service));
  return awsPolicyDocument([
    ...(arns.length > 0 ? [assume('ConfiguredPrincipals', { AWS: arns }, ['sts:AssumeRole'])] : []),
    ...(otherServices.length > 0
      ? [
          {
            ...assume('ConfiguredServices', { Service: otherServices }, ['sts:AssumeRole']),
            Condition: { StringEquals: { 'aws:SourceAccount': account } },
          },
        ]
      : []),
    ...(taggingServices.length > 0
      ? [
          assume('ConfiguredSessionTaggingServices', { Service: taggingServices }, [
            'sts:AssumeRole',
            'sts:TagSession',
          ]),
        ]
      : []),
  ]);
}

function assume(sid: string, principal: AwsPrincipals, actions: string[]): AwsPolicyStatement {
  return { Sid: sid, Effect: 'Allow', Principal: principal, Action: actions };
}
