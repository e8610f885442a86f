import {
  awsPolicyDocument,
  type AwsPolicyDocument,
  type AwsPolicyStatement,
  type AwsPrincipals,
} from './types';

/** Services that tag the session when they assume a role, and so need `sts:TagSession` as well. */
const SESSION_TAGGING_SERVICES: readonly string[] = ['pods.eks.amazonaws.com'];

/**
 * Who may assume a store's writer or reader role: exactly the configured principals (IAM ARNs under
 * `Principal.AWS`, service principals under `Principal.Service`). With none configured, the role trusts
 * its own account's root, which by itself lets nobody in: an administrator must still grant
 * `sts:AssumeRole` on this role in an identity policy, so access stays an explicit IAM decision.
 */
export function awsTrustPolicy(principals: readonly string[], accountRootArn: string): AwsPolicyDocument {
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
      ? [assume('ConfiguredServices', { Service: otherServices }, ['sts:AssumeRole'])]
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
