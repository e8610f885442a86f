import { onPreview, UNKNOWN_OBJECT, UNKNOWN_STRING } from './spec-helpers';
import { azureModuleOf, isAzureType, read, readList, roleGuidOf, state, UNKNOWN } from './support';

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

describe('read', () => {
  const [resource] = onPreview([
    {
      type: 't',
      props: { a: { b: UNKNOWN_STRING, c: 1 }, d: UNKNOWN_OBJECT, list: [1, UNKNOWN_STRING] },
    },
  ]);
  const props = resource!.props;

  it('reads known values and marks unknown ones (preview proxy and synth marks) without throwing', () => {
    expect(read(props, 'a', 'c')).toBe(1);
    expect(read(props, 'a', 'b')).toBe(UNKNOWN);
    expect(read(props, 'd', 'e', 'f')).toBe(UNKNOWN);
    expect(read(props, 'x', 'y')).toBeUndefined();
    expect(read({ a: '[unknown]' }, 'a', 'b')).toBe(UNKNOWN);
    expect(read({ a: '[secret]' }, 'a')).toBe(UNKNOWN);
    expect(readList(props, 'list')).toEqual([1, UNKNOWN]);
    expect(readList(props, 'd')).toBe(UNKNOWN);
  });

  it('shows values in messages', () => {
    expect([state(UNKNOWN), state(undefined), state('TLS1_0')]).toEqual([
      'is unknown during preview',
      'is not set',
      'is "TLS1_0"',
    ]);
  });

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
