import { read, state } from '../inputs';
import { azureResourceRule, T } from './support';

export const azureKeyvaultRecoverable = azureResourceRule({
  name: 'azure-keyvault-recoverable',
  description:
    'Key vaults holding customer-managed keys are recoverable: enablePurgeProtection true and soft delete not turned off (enableSoftDelete not false), so a deleted key, and the checkpoints it encrypts, can be brought back',
  source:
    'CIS Microsoft Azure Foundations Benchmark v3.0.0 3.3.5 (Ensure the Key Vault is Recoverable); Microsoft Learn: Customer-managed keys for Azure Storage encryption (key vault requirements)',
  types: [T.vault],
  validate: (props, _args, report) => {
    const purgeProtection = read(props, 'properties', 'enablePurgeProtection');
    if (purgeProtection !== true) {
      report(`properties.enablePurgeProtection ${state(purgeProtection)}; expected true`);
    }
    // Soft delete is on by default and can no longer be turned off; only an explicit false is wrong.
    const softDelete = read(props, 'properties', 'enableSoftDelete');
    if (softDelete === false) {
      report('properties.enableSoftDelete is false; expected true or not set');
    }
  },
});
