import { trustRule } from './analysis';

export const ciTrustThisRepository = trustRule({
  name: 'ci-trust-this-repository',
  description:
    'Only jobs of this repository can become a CI identity: no wildcard repository or owner, no other repository',
  source:
    'GitHub Actions OIDC hardening ("define at least one condition, so that untrusted repositories can’t request access tokens"); AWS IAM guidance on evaluating token.actions.githubusercontent.com:sub',
  kind: 'repository',
});
