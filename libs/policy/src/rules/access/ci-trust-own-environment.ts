import { trustRule } from './analysis';

export const ciTrustOwnEnvironment = trustRule({
  name: 'ci-trust-own-environment',
  description:
    'A deploy identity can be assumed only by jobs of its own GitHub environment (environment:<env>) of this repository',
  source:
    'Checkpoint CI rights (a deploy passes its environment’s protection rules); GitHub Actions OIDC (environment subjects are minted only after the environment’s protection rules pass)',
  kind: 'environment',
});
