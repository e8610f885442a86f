import { read, state } from '../inputs';
import { azureResourceRule, T } from './support';

export const azureStorageInfrastructureEncryption = azureResourceRule({
  name: 'azure-storage-infrastructure-encryption',
  description:
    'Storage accounts encrypt data twice at rest: encryption.requireInfrastructureEncryption is true (a second, platform-managed layer under the service-level CMK or Microsoft-managed key; it can only be chosen when the account is created)',
  source:
    'CIS Microsoft Azure Foundations Benchmark v3.0.0 4.2 (Enable Infrastructure Encryption); Microsoft cloud security benchmark DP-4',
  types: [T.storageAccount],
  validate: (props, _args, report) => {
    const required = read(props, 'encryption', 'requireInfrastructureEncryption');
    if (required !== true) {
      report(
        `encryption.requireInfrastructureEncryption ${state(required)}; expected true (it cannot be turned on after the account is created)`,
      );
    }
  },
});
