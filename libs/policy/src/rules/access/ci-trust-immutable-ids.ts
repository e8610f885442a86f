import { trustRule } from './analysis';

export const ciTrustImmutableIds = trustRule({
  name: 'ci-trust-immutable-ids',
  description:
    'Where the cloud can bind a CI identity to the repository’s immutable repository_id / repository_owner_id, it does: a repository that takes this one’s name after a rename cannot become it',
  source:
    'GitHub OIDC token claims (repository_id, repository_owner_id: https://docs.github.com/en/actions/reference/security/oidc); GitHub subject claim customization',
  kind: 'immutable-ids',
});
