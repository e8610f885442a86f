import { stackRule } from '../define';
import { read, state } from '../inputs';
import { accountLabel, environmentTag, isAzureType, T } from './support';

export const azureStorageNetworkPerimeter = stackRule({
  name: 'azure-storage-network-perimeter',
  description:
    "Every prod storage account refuses networks outside its perimeter: networkRuleSet.defaultAction 'Deny' or publicNetworkAccess 'Disabled' (private endpoints only), unless its store declares network: { public: true } (recorded in the store component's inputs)",
  source:
    'Checkpoint security baseline (network perimeter); CIS Microsoft Azure Foundations Benchmark v3.0.0 4.6 (Ensure Default Network Access Rule for Storage Accounts is Set to Deny); Microsoft Learn: Azure Storage firewall rules',
  validate: (args, report) => {
    for (const account of args.resources.filter((r) => isAzureType(r.type, T.storageAccount))) {
      if (environmentTag(account) !== 'prod') continue;
      if (read(account.parent?.props, 'network', 'public') === true) continue;
      const publicAccess = read(account.props, 'publicNetworkAccess');
      const defaultAction = read(account.props, 'networkRuleSet', 'defaultAction');
      if (publicAccess === 'Disabled' || defaultAction === 'Deny') continue;
      report(
        `${accountLabel(account)} (prod): networkRuleSet.defaultAction ${state(defaultAction)} and publicNetworkAccess ${state(publicAccess)}; expected defaultAction 'Deny' (or publicNetworkAccess 'Disabled'), or network: { public: true } on the store`,
        account.urn,
      );
    }
  },
});
