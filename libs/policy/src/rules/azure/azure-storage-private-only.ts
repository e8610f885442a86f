import { complianceRule } from '../compliance';

/**
 * A prod storage account is reached through its private endpoints only, unless its store declares
 * `network.public: true`: public network access Disabled, and a private endpoint for both services a job uses
 * (blob and dfs), each registered in its private DNS zone (or by the platform's Azure Policy).
 */
export const azureStoragePrivateOnly = complianceRule({
  name: 'azure-storage-private-only',
  description:
    'In prod, every storage account has public network access Disabled and private endpoints for blob and dfs with their DNS zone groups, unless its store declares network.public: true',
  source:
    "CIS Microsoft Azure Foundations Benchmark v3.0.0 4.6 and 4.9; Azure Policy 'Storage accounts should disable public network access' (b2982f36-99f2-4db5-8eff-283140c09693) and 'Storage accounts should use private link' (6edd7eda-6dd8-40f7-810d-67160c639cd9)",
});
