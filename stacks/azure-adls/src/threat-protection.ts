import type { Environment } from '@checkpoints/config';
import { DefenderForStorage } from '@pulumi/azure-native/security/defenderForStorage';
import type { StorageAccount } from '@pulumi/azure-native/storage/storageAccount';
import type { StoreScope } from './scope';

/**
 * Microsoft Defender for Storage on a prod account, with malware scanning of every uploaded blob: checkpoints
 * are pickles that run code when loaded. The per-account setting (`Microsoft.Security/defenderForStorageSettings`,
 * name `current`, https://learn.microsoft.com/rest/api/defenderforcloud/defender-for-storage/create) overrides
 * the subscription's plan, so the account is protected whatever the subscription sets; on-upload scanning
 * without a monthly cap (-1) scans every upload
 * (https://learn.microsoft.com/azure/defender-for-cloud/on-upload-malware-scanning). Outside prod the stacks
 * leave it off (docs/compliance.md, the accepted exception).
 */
export function protectFromMalware(
  scope: StoreScope,
  account: StorageAccount,
  environment: Environment,
): DefenderForStorage | undefined {
  if (environment !== 'prod') return undefined;
  return new DefenderForStorage(
    `${scope.store.name}-defender`,
    {
      resourceId: account.id,
      settingName: 'current',
      properties: {
        isEnabled: true,
        overrideSubscriptionLevelSettings: true,
        malwareScanning: { onUpload: { isEnabled: true, capGBPerMonth: -1 } },
        sensitiveDataDiscovery: { isEnabled: false },
      },
    },
    // A deploy never switches threat detection off: removed from the program, the setting stays (released).
    { parent: scope.parent, protect: scope.store.protect, retainOnDelete: true },
  );
}
