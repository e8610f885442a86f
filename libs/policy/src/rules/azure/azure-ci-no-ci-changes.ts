import { azureCiChanges } from '@checkpoints/analysis';
import { stackRule } from '../define';
import { ciResourcesOf, reportChanges, reportUnreadGrants } from '../access/ci-identities';

export const azureCiNoCiChanges = stackRule({
  name: 'azure-ci-no-ci-changes',
  description:
    'No Azure CI identity can assign a CI identity a role, add a federated credential to one, or rewrite a role definition CI holds',
  source:
    'https://learn.microsoft.com/azure/role-based-access-control/permissions/management-and-governance#microsoftauthorization; https://learn.microsoft.com/azure/role-based-access-control/delegate-role-assignments-examples',
  validate: (args, report, evaluation) => {
    const resources = ciResourcesOf('azure', args, report, evaluation());
    if (!resources) return;
    reportChanges(azureCiChanges(resources), report);
    reportUnreadGrants('azure', resources, report);
  },
});
