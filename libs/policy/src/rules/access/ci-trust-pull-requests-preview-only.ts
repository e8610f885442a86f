import { trustRule } from './analysis';

export const ciTrustPullRequestsPreviewOnly = trustRule({
  name: 'ci-trust-pull-requests-preview-only',
  description: 'Pull-request jobs can become the preview identity and no other CI identity',
  source:
    'Checkpoint CI rights (pull requests are untrusted: they preview, never deploy); GitHub Actions security hardening (pull_request subjects)',
  kind: 'pull-request',
});
