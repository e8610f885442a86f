import { azurePolicies } from '.';
import { describeCloudRules, sdkTypeTokens } from '../../../testing/rules';
import { T } from './support';

const SDK = {
  package: '@pulumi/azure-native',
  // azure-native is large: the modules the rules read.
  modules: [
    'storage',
    'keyvault',
    'authorization',
    'resources',
    'managedidentity',
    'monitor',
    'network',
    'dataprotection',
  ],
};

describe('azurePolicies', () => {
  describeCloudRules({
    cloud: 'azure',
    policies: azurePolicies,
    folder: __dirname,
    namePattern: /^azure-(storage|keyvault|rbac|deletion|ci)-[a-z0-9-]+$/,
    sdk: SDK,
    tokenPrefix: 'azure-native',
    leastTokens: Object.keys(T).length,
  });

  it('declares in T only type tokens the azure-native SDK really declares', () => {
    const sdk = sdkTypeTokens(SDK.package, SDK.modules);
    expect(Object.values(T).filter((token) => !sdk.has(token))).toEqual([]);
  });
});
