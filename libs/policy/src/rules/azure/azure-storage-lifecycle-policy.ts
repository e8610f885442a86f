import { stackRule } from '../define';
import { read, readList, state, UNKNOWN } from '../inputs';
import { checkAccountCompanion, T } from './support';

export const azureStorageLifecyclePolicy = stackRule({
  name: 'azure-storage-lifecycle-policy',
  description:
    'Every storage account has a ManagementPolicy (linked through accountName) with at least one enabled rule, so checkpoints are tiered or expired rather than kept forever. (Azure has no incomplete-upload rule: uncommitted blocks are discarded by the service after 7 days.)',
  source:
    'Checkpoint security baseline (lifecycle: management policy); Microsoft Learn: Azure Blob Storage lifecycle management overview; Azure Well-Architected Framework service guide for Azure Blob Storage (cost optimization)',
  validate: (args, report) =>
    checkAccountCompanion(
      {
        companionType: T.managementPolicy,
        missing: (account) =>
          `${account} has no ManagementPolicy; expected one with at least one enabled rule`,
        problems: (policy) => {
          const expected = 'expected at least one rule with enabled true';
          const rules = readList(policy.props, 'policy', 'rules');
          if (rules === UNKNOWN || rules === undefined) return [`policy.rules ${state(rules)}; ${expected}`];
          if (rules.length === 0) return [`policy.rules is empty; ${expected}`];
          return rules.some((rule) => read(rule, 'enabled') === true)
            ? []
            : [`none of the ${rules.length} rule(s) of policy.rules is enabled; ${expected}`];
        },
      },
      args.resources,
      report,
    ),
});
