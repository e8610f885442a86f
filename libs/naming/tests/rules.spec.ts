import { nameRules, type NameKind } from '../src/index';

describe('nameRules', () => {
  it('names the rule, the name and what is wrong with it', () => {
    expect(nameRules.storageAccount('Foo_bar')).toBe(
      "storage account names must be 3-24 characters, lowercase letters and digits only; got 'Foo_bar' " +
        "(7 chars, contains 'F', '_')",
    );
  });

  it.each<[NameKind, string, string]>([
    ['s3Bucket', 'my.bucket', "contains '.'"],
    ['s3Bucket', '192.168.5.4', "contains '.'"],
    ['s3Bucket', 'My-Bucket', "contains 'M', 'B'"],
    ['s3Bucket', 'ab', '2 chars, under the 3 minimum'],
    ['s3Bucket', 'a'.repeat(64), '64 chars, over the 63 limit'],
    ['s3Bucket', '-bucket', "starts with '-'"],
    ['s3Bucket', 'bucket-', "ends with '-'"],
    ['s3Bucket', 'xn--bucket', "starts with 'xn--'"],
    ['s3Bucket', 'sthree-bucket', "starts with 'sthree-'"],
    ['s3Bucket', 'amzn-s3-demo-bucket', "starts with 'amzn-s3-demo-'"],
    ['s3Bucket', 'bucket-s3alias', "ends with '-s3alias'"],
    ['s3Bucket', 'bucket--ol-s3', "ends with '--ol-s3'"],
    ['s3Bucket', 'bucket--use1-az4--x-s3', "ends with '--x-s3'"],
    ['s3Bucket', 'bucket--table-s3', "ends with '--table-s3'"],
    ['s3DirectoryBucket', 'bucket', "does not end with '--x-s3'"],
    ['s3DirectoryBucket', 'bucket--us-east-1a--x-s3', "'us-east-1a' is not an availability zone ID"],
    ['s3DirectoryBucket', 'bucket-x-s3', "does not end with '--x-s3'"],
    ['s3DirectoryBucket', 'bucket---use1-az4--x-s3', "base ends with '-'"],
    ['s3DirectoryBucket', 'sthree-b--use1-az4--x-s3', "starts with 'sthree-'"],
    ['s3DirectoryBucket', `${'a'.repeat(48)}--use1-az4--x-s3`, '64 chars, over the 63 limit'],
    ['s3DirectoryBucket', 'my.b--use1-az4--x-s3', "contains '.'"],
    ['gcsBucket', 'google-checkpoints', "contains 'google'"],
    ['gcsBucket', 'my-g00gle-store', "contains 'g00gle'"],
    ['gcsBucket', 'goog-checkpoints', "starts with 'goog'"],
    ['gcsBucket', 'my_bucket', "contains '_'"],
    ['gcsBucket', 'my.bucket', "contains '.'"],
    ['gcsBucket', 'bucket-', "ends with '-'"],
    ['resourceGroup', 'rg-checkpoints.', "ends with '.'"],
    ['resourceGroup', 'rg/checkpoints', "contains '/'"],
    ['resourceGroup', '', '0 chars, under the 1 minimum'],
    ['resourceGroup', 'r'.repeat(91), '91 chars, over the 90 limit'],
    ['storageAccount', 'ab', '2 chars, under the 3 minimum'],
    ['storageAccount', 'a'.repeat(25), '25 chars, over the 24 limit'],
    ['storageAccount', 'my-account', "contains '-'"],
    ['adlsFilesystem', 'check--points', "contains '--'"],
    ['adlsFilesystem', 'checkpoints-', "ends with '-'"],
    ['adlsFilesystem', '-checkpoints', "starts with '-'"],
    ['adlsFilesystem', 'Checkpoints', "contains 'C'"],
    ['adlsFilesystem', 'ab', 'under the 3 minimum'],
    ['iamRole', 'writer role', "contains ' '"],
    ['iamRole', 'writer#1', "contains '#'"],
    ['iamRole', 'r'.repeat(65), '65 chars, over the 64 limit'],
    ['gcpServiceAccountId', '1writer', "starts with '1'"],
    ['gcpServiceAccountId', 'writer-', "ends with '-'"],
    ['gcpServiceAccountId', 'write', '5 chars, under the 6 minimum'],
    ['gcpServiceAccountId', 'w'.repeat(31), '31 chars, over the 30 limit'],
    ['gcpServiceAccountId', 'Writer', "contains 'W'"],
    ['managedIdentity', '_writer', "starts with '_'"],
    ['managedIdentity', 'writer.1', "contains '.'"],
    ['managedIdentity', 'id', 'under the 3 minimum'],
    ['awsStoreRoleBoundary', 'store role boundary', "contains ' '"],
    ['awsStoreRoleBoundary', 'boundary/prod', "contains '/'"],
    ['awsStoreRoleBoundary', '', '0 chars, under the 1 minimum'],
    ['awsStoreRoleBoundary', 'b'.repeat(129), '129 chars, over the 128 limit'],
    ['kmsKeyAlias', 'checkpoints-key', "does not start with 'alias/'"],
    ['kmsKeyAlias', 'alias/aws/s3', "starts with 'alias/aws/'"],
    ['kmsKeyAlias', 'alias/my key', "contains ' '"],
    ['kmsKeyAlias', `alias/${'k'.repeat(251)}`, '257 chars, over the 256 limit'],
    ['gcpKeyRing', 'ring.1', "contains '.'"],
    ['gcpKeyRing', '', 'under the 1 minimum'],
    ['gcpKeyRing', 'r'.repeat(64), '64 chars, over the 63 limit'],
    ['gcpCryptoKey', 'key/1', "contains '/'"],
    ['keyVault', '1vault', "starts with '1'"],
    ['keyVault', 'vault-', "ends with '-'"],
    ['keyVault', 'my--vault', "contains '--'"],
    ['keyVault', 'my_vault', "contains '_'"],
    ['keyVault', 'v'.repeat(25), '25 chars, over the 24 limit'],
  ])('%s rejects %p: %s', (kind, name, reason) => {
    const message = nameRules[kind](name);
    expect(message).toContain(reason);
    expect(message).toContain(`got '${name}'`);
  });

  it.each<[NameKind, string]>([
    ['s3Bucket', 'my-bucket-123'],
    ['s3DirectoryBucket', 'my-base--use1-az4--x-s3'],
    ['s3DirectoryBucket', 'b1--usw2-lax1-az1--x-s3'],
    ['gcsBucket', 'my-bucket'],
    ['resourceGroup', 'rg_Checkpoints.(prod)'],
    ['storageAccount', 'abc123'],
    ['adlsFilesystem', 'a-b'],
    ['iamRole', 'Role+=,.@_-1'],
    ['gcpServiceAccountId', 'abc-de'],
    ['managedIdentity', 'Id_1-x'],
    ['awsStoreRoleBoundary', 'Boundary+=,.@_-1'],
    ['kmsKeyAlias', 'alias/team/Key_1-a'],
    ['gcpKeyRing', 'Ring_1-a'],
    ['gcpCryptoKey', 'K'],
    ['keyVault', 'Vault-1'],
  ])('%s accepts %p', (kind, name) => {
    expect(nameRules[kind](name)).toBeUndefined();
  });
});
