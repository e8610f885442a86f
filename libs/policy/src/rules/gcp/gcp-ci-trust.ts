import { gcpCiRepository, gcpCiTrust as trustOf } from '@checkpoints/analysis';
import { stackRule } from '../define';
import { ciResourcesOf, reportTrust } from '../access/ci-identities';

export const gcpCiTrust = stackRule({
  name: 'gcp-ci-trust',
  description:
    "Each GCP CI service account is reachable only from its own GitHub environment of this repository (pull requests reach the preview account alone), through a workload identity provider that pins the repository's immutable IDs",
  source:
    'https://cloud.google.com/iam/docs/workload-identity-federation-with-deployment-pipelines#github-actions (attribute conditions, principal identifiers); https://docs.github.com/en/actions/reference/security/oidc',
  validate: (args, report, evaluation) => {
    const resources = ciResourcesOf('gcp', args, report, evaluation());
    if (!resources) return;
    reportTrust(trustOf(resources), (fullName) => gcpCiRepository(resources, fullName), report);
  },
});
