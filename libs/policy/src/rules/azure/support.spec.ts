import { UNKNOWN } from '../inputs';
import { azureModuleOf, isAzureType, roleGuidOf } from './support';

describe('isAzureType', () => {
  it.each([
    ['azure-native:storage:StorageAccount', true],
    ['azure-native:storage/v20240101:StorageAccount', true],
    ['azure-native:storage/v20230101preview:StorageAccount', true],
    ['azure-native:storage:StorageAccountX', false],
    ['azure-native:storagecache:StorageAccount', false],
    ['azure-native:storagecache/v20240101:StorageAccount', false],
    ['azure:storage/account:Account', false],
  ])('%s is a StorageAccount: %s', (type, expected) => {
    expect(isAzureType(type, 'azure-native:storage:StorageAccount')).toBe(expected);
  });

  it('names the module of a token, version pin removed', () => {
    expect(azureModuleOf('azure-native:keyvault/v20230701:Key')).toBe('keyvault');
    expect(azureModuleOf('aws:s3/bucket:Bucket')).toBeUndefined();
  });
});

describe('roleGuidOf', () => {
  it('takes the role GUID of a role definition ID', () => {
    expect(
      roleGuidOf(
        '/subscriptions/s/providers/Microsoft.Authorization/roleDefinitions/8E3AF657-A8FF-443C-A75C-2FE8C4BCB635',
      ),
    ).toBe('8e3af657-a8ff-443c-a75c-2fe8c4bcb635');
    expect(roleGuidOf('Owner')).toBeUndefined();
    expect(roleGuidOf(UNKNOWN)).toBe(UNKNOWN);
  });
});
