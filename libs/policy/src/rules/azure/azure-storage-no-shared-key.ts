import { read, state } from '../inputs';
import { azureResourceRule, T } from './support';

export const azureStorageNoSharedKey = azureResourceRule({
  name: 'azure-storage-no-shared-key',
  description:
    'Storage accounts take Microsoft Entra ID tokens only: allowSharedKeyAccess false (no account keys, no account or service SAS), defaultToOAuthAuthentication true, and no local users (isLocalUserEnabled not true)',
  source:
    'CIS Microsoft Azure Foundations Benchmark v4.0.0 10.3.1.3 (Allow storage account key access disabled); Microsoft Learn: Prevent Shared Key authorization for an Azure Storage account; Microsoft cloud security benchmark IM-1',
  types: [T.storageAccount],
  validate: (props, _args, report) => {
    const sharedKey = read(props, 'allowSharedKeyAccess');
    if (sharedKey !== false) {
      // Unset means allowed: the service's default is to accept Shared Key.
      report(
        `allowSharedKeyAccess ${state(sharedKey)}; expected false (Microsoft Entra ID authorization only)`,
      );
    }
    const oauth = read(props, 'defaultToOAuthAuthentication');
    if (oauth !== true) {
      report(`defaultToOAuthAuthentication ${state(oauth)}; expected true`);
    }
    const localUsers = read(props, 'isLocalUserEnabled');
    if (localUsers === true) {
      report(
        'isLocalUserEnabled is true; expected false or not set (local users sign in with passwords or SSH keys)',
      );
    }
  },
});
