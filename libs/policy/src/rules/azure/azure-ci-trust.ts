import { azureCiTrust as trustOf } from '@checkpoints/analysis';
import { stackRule } from '../define';
import { ciResourcesOf, reportTrust } from '../access/ci-identities';

export const azureCiTrust = stackRule({
  name: 'azure-ci-trust',
  description:
    "Each Azure CI identity's federated credentials admit only its own GitHub environment of this repository (pull requests reach the preview identity alone), no pattern of another repository or owner",
  source:
    'https://learn.microsoft.com/entra/workload-id/workload-identity-federation-create-trust (GitHub Actions subjects); https://docs.github.com/en/actions/reference/security/oidc',
  validate: (args, report, evaluation) => {
    const resources = ciResourcesOf('azure', args, report, evaluation());
    if (!resources) return;
    reportTrust(trustOf(resources), (fullName) => ({ fullName }), report);
  },
});
