/**
 * The Azure resource provider each @pulumi/azure-native module the stacks use calls: a resource's ARM type is
 * `<namespace>/<type>` (https://learn.microsoft.com/azure/azure-resource-manager/management/resource-providers-and-types),
 * and the subscription must be registered for the namespace before a deploy can create one ("Before you use
 * a resource provider, you must make sure your Azure subscription is registered for the resource provider",
 * same page). libs/analysis checks each entry against the operations of its rights table, and every rendered
 * type against this map, so a type whose module is missing here fails the rights check.
 */
export const AZURE_MODULE_PROVIDERS: Readonly<Record<string, string>> = {
  authorization: 'Microsoft.Authorization',
  // The bootstrap's Backup vault of the independent copies (bootstrap/src/azure/independent-copy.ts).
  dataprotection: 'Microsoft.DataProtection',
  keyvault: 'Microsoft.KeyVault',
  managedidentity: 'Microsoft.ManagedIdentity',
  monitor: 'Microsoft.Insights',
  network: 'Microsoft.Network',
  operationalinsights: 'Microsoft.OperationalInsights',
  resources: 'Microsoft.Resources',
  security: 'Microsoft.Security',
  storage: 'Microsoft.Storage',
};

/** The namespace of an azure-native type token (`azure-native:storage:StorageAccount`); undefined for another module. */
export function azureResourceProvider(type: string): string | undefined {
  const [provider, module] = type.split(':');
  return provider === 'azure-native' && module !== undefined ? AZURE_MODULE_PROVIDERS[module] : undefined;
}

/**
 * Every resource provider the Azure stack's and the bootstrap's types come from: what the bootstrap registers in the
 * subscription.
 */
export const AZURE_RESOURCE_PROVIDERS: readonly string[] = [
  ...new Set(Object.values(AZURE_MODULE_PROVIDERS)),
].sort();
