import type { PolicyResource } from '@pulumi/policy';
import { UNKNOWN } from '../inputs';
import { azureModuleOf, checkAccountCompanion, isAzureType, roleGuidOf, T } from './support';

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

describe('checkAccountCompanion', () => {
  const resource = (type: string, name: string, accountName: unknown, dependsOn: string[] = []) =>
    ({
      urn: `urn:${type}::${name}`,
      type,
      name,
      props: { accountName },
      propertyDependencies: { accountName: dependsOn.map((urn) => ({ urn })) },
    }) as unknown as PolicyResource;
  const account = (name: string, accountName: unknown) => resource(T.storageAccount, name, accountName);
  const policy = (name: string, accountName: unknown, dependsOn: string[] = []) =>
    resource(T.managementPolicy, name, accountName, dependsOn);

  it('links a companion to an account by dependency or by a known name, the first such account in render order', () => {
    const messages: string[] = [];
    checkAccountCompanion(
      {
        companionType: T.managementPolicy,
        missing: (label) => `missing on ${label}`,
        problems: (_companion, linked) => [`of ${linked?.name}`],
      },
      [
        account('first', 'one'),
        account('second', 'two'),
        account('third', '[unknown]'),
        account('fourth', 'four'),
        policy('by-name', 'two'),
        policy('by-dependency', '[unknown]', [`urn:${T.storageAccount}::third`]),
        policy('both', 'two', [`urn:${T.storageAccount}::first`]),
        policy('unknown', '[unknown]'),
      ],
      (message) => messages.push(message),
    );
    expect(messages).toEqual([
      "missing on storage account 'four'",
      "ManagementPolicy 'by-name': of second",
      "ManagementPolicy 'by-dependency': of third",
      "ManagementPolicy 'both': of first",
      "ManagementPolicy 'unknown': of undefined",
    ]);
  });
});
