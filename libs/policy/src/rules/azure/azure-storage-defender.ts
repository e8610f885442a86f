import { complianceRule } from '../compliance';

/**
 * Every prod storage account has Microsoft Defender for Storage on, scanning every upload for malware: a
 * checkpoint is a pickle that runs code when it is loaded.
 */
export const azureStorageDefender = complianceRule({
  name: 'azure-storage-defender',
  description:
    'In prod, every storage account has a DefenderForStorage setting with isEnabled true and on-upload malware scanning enabled',
  source:
    "CIS Microsoft Azure Foundations Benchmark v3.0.0 3.1.5.1; Microsoft cloud security benchmark LT-1; Azure Policy 'Microsoft Defender for Storage should be enabled' (640d2586-54d2-465f-877f-9ffc1d2109f4)",
});
