import { read, state, UNKNOWN } from '../inputs';
import { azureResourceRule, isAzureType, T } from './support';

export const azureStorageNoPublicAccess = azureResourceRule({
  name: 'azure-storage-no-public-access',
  description:
    'Storage accounts set allowBlobPublicAccess to false, and no filesystem (blob container) asks for anonymous access: publicAccess is "None" or not set',
  source:
    'CIS Microsoft Azure Foundations Benchmark v3.0.0 4.17 (Allow Blob Anonymous Access disabled); Microsoft Learn: Remediate anonymous read access to blob data (Azure Resource Manager deployments)',
  types: [T.storageAccount, T.blobContainer],
  validate: (props, args, report) => {
    if (isAzureType(args.type, T.storageAccount)) {
      const allow = read(props, 'allowBlobPublicAccess');
      if (allow !== false) {
        report(
          `allowBlobPublicAccess ${state(allow)}; expected false, so that no container of the account can be read anonymously`,
        );
      }
      return;
    }
    // A container's own setting is only honoured where its account allows anonymous access, which the
    // account check above requires to be literally false; an unknown value here is therefore left alone.
    const access = read(props, 'publicAccess');
    if (access === undefined || access === null || access === 'None' || access === UNKNOWN) return;
    report(`publicAccess ${state(access)}; expected "None" or not set (filesystems are private)`);
  },
});
