import { read, state } from '../inputs';
import { azureResourceRule, T } from './support';

export const azureKeyvaultRbacAuthorization = azureResourceRule({
  name: 'azure-keyvault-rbac-authorization',
  description:
    'Key vaults authorize data-plane access with Azure RBAC (properties.enableRbacAuthorization true), not vault access policies, so key access is a role assignment the least-privilege rules can see',
  source:
    'CIS Microsoft Azure Foundations Benchmark v3.0.0 3.3.6 (Enable Role Based Access Control for Azure Key Vault); Microsoft cloud security benchmark PA-7',
  types: [T.vault],
  validate: (props, _args, report) => {
    const rbac = read(props, 'properties', 'enableRbacAuthorization');
    if (rbac !== true) {
      report(`properties.enableRbacAuthorization ${state(rbac)}; expected true (no vault access policies)`);
    }
  },
});
