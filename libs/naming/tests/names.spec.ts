import { azureBackup, names, stableHash, type NameContext } from '../src/index';

const aws: NameContext = { project: 'checkpoints-aws', stack: 'prod', store: 'llm-pretrain' };
const gcp: NameContext = { project: 'checkpoints-gcp', stack: 'dev', store: 'vision-ft' };
const azure: NameContext = { project: 'checkpoints-azure', stack: 'staging', store: 'ab' };

describe('names for real stacks', () => {
  it.each<[string, string, string]>([
    ['s3Bucket', names.s3Bucket(aws), 'checkpoints-aws-prod-llm-pretrain-0d2516'],
    [
      's3DirectoryBucket',
      names.s3DirectoryBucket(aws, 'use1-az4'),
      'checkpoints-aws-prod-llm-pretrain-0d2516--use1-az4--x-s3',
    ],
    ['iamRole writer', names.iamRole(aws, 'writer'), 'checkpoints-aws-prod-llm-pretrain-writer-0d2516'],
    ['iamRole reader', names.iamRole(aws, 'reader'), 'checkpoints-aws-prod-llm-pretrain-reader-0d2516'],
    [
      'iamRole replication',
      names.iamRole(aws, 'replication'),
      'checkpoints-aws-prod-llm-pretrain-replication-0d2516',
    ],
    ['s3ReplicaBucket', names.s3ReplicaBucket(aws), 'checkpoints-aws-prod-llm-pretrain-replica-0d2516'],
    ['kmsKeyAlias', names.kmsKeyAlias(aws), 'alias/checkpoints-aws-prod-llm-pretrain-0d2516'],
    [
      'awsStoreRoleBoundary',
      names.awsStoreRoleBoundary(aws),
      'checkpoints-aws-prod-store-role-boundary-24b5b6',
    ],
    ['gcsBucket', names.gcsBucket(gcp), 'checkpoints-gcp-dev-vision-ft-47f3f0'],
    ['gcpServiceAccountId', names.gcpServiceAccountId(gcp, 'writer'), 'dev-vision-ft-writer-47f3f0'],
    ['gcpKeyRing', names.gcpKeyRing(gcp), 'checkpoints-gcp-dev-vision-ft-47f3f0'],
    ['gcpCryptoKey', names.gcpCryptoKey(gcp), 'checkpoints-vision-ft'],
    ['resourceGroup', names.resourceGroup(azure), 'checkpoints-azure-staging-4d7a6c'],
    ['storageAccount', names.storageAccount(azure), 'azurestagingab7b14ee'],
    ['adlsFilesystem', names.adlsFilesystem(azure), 'checkpoints-ab'],
    ['managedIdentity', names.managedIdentity(azure, 'reader'), 'checkpoints-azure-staging-ab-reader-7b14ee'],
    ['keyVault', names.keyVault(azure), 'azure-staging-ab-7b14ee'],
  ])('%s is %s', (_kind, actual, expected) => {
    expect(actual).toBe(expected);
  });

  it('gives every kind a name for checkpoints-aws/prod/llm-pretrain', () => {
    expect({
      s3Bucket: names.s3Bucket(aws),
      s3DirectoryBucket: names.s3DirectoryBucket(aws, 'use1-az4'),
      gcsBucket: names.gcsBucket(aws),
      resourceGroup: names.resourceGroup(aws),
      storageAccount: names.storageAccount(aws),
      adlsFilesystem: names.adlsFilesystem(aws),
      iamRole: names.iamRole(aws, 'writer'),
      awsBackupVault: names.awsBackupVault(aws),
      gcsCopyBucket: names.gcsCopyBucket(aws),
      gcpServiceAccountId: names.gcpServiceAccountId(aws, 'writer'),
      managedIdentity: names.managedIdentity(aws, 'writer'),
      awsStoreRoleBoundary: names.awsStoreRoleBoundary(aws),
      kmsKeyAlias: names.kmsKeyAlias(aws),
      gcpKeyRing: names.gcpKeyRing(aws),
      gcpCryptoKey: names.gcpCryptoKey(aws),
      keyVault: names.keyVault(aws),
    }).toEqual({
      s3Bucket: 'checkpoints-aws-prod-llm-pretrain-0d2516',
      s3DirectoryBucket: 'checkpoints-aws-prod-llm-pretrain-0d2516--use1-az4--x-s3',
      gcsBucket: 'checkpoints-aws-prod-llm-pretrain-0d2516',
      resourceGroup: 'checkpoints-aws-prod-24b5b6',
      storageAccount: 'awsprodllmpretrain0d2516',
      adlsFilesystem: 'checkpoints-llm-pretrain',
      iamRole: 'checkpoints-aws-prod-llm-pretrain-writer-0d2516',
      awsBackupVault: 'checkpoints-aws-prod-backup-24b5b6',
      gcsCopyBucket: 'checkpoints-aws-prod-copy-24b5b6',
      gcpServiceAccountId: 'llm-pretrain-writer-0d2516',
      managedIdentity: 'checkpoints-aws-prod-llm-pretrain-writer-0d2516',
      awsStoreRoleBoundary: 'checkpoints-aws-prod-store-role-boundary-24b5b6',
      kmsKeyAlias: 'alias/checkpoints-aws-prod-llm-pretrain-0d2516',
      gcpKeyRing: 'checkpoints-aws-prod-llm-pretrain-0d2516',
      gcpCryptoKey: 'checkpoints-llm-pretrain',
      keyVault: 'prod-llm-pretrain-0d2516',
    });
  });
});

describe('README examples', () => {
  const gcpProd: NameContext = { project: 'checkpoints-gcp', stack: 'prod', store: 'llm-pretrain' };
  const azureProd: NameContext = { project: 'checkpoints-azure', stack: 'prod', store: 'llm-pretrain' };

  it.each<[string, string, string]>([
    ['gcsBucket', names.gcsBucket(gcpProd), 'checkpoints-gcp-prod-llm-pretrain-4300f0'],
    ['gcpServiceAccountId', names.gcpServiceAccountId(gcpProd, 'writer'), 'llm-pretrain-writer-4300f0'],
    ['gcpKeyRing', names.gcpKeyRing(gcpProd), 'checkpoints-gcp-prod-llm-pretrain-4300f0'],
    ['gcpCryptoKey', names.gcpCryptoKey(gcpProd), 'checkpoints-llm-pretrain'],
    ['resourceGroup', names.resourceGroup(azureProd), 'checkpoints-azure-prod-f5f2a4'],
    ['storageAccount', names.storageAccount(azureProd), 'prodllmpretrain4ba09a'],
    ['adlsFilesystem', names.adlsFilesystem(azureProd), 'checkpoints-llm-pretrain'],
    [
      'managedIdentity',
      names.managedIdentity(azureProd, 'writer'),
      'checkpoints-azure-prod-llm-pretrain-writer-4ba09a',
    ],
    ['keyVault', names.keyVault(azureProd), 'prod-llm-pretrain-4ba09a'],
  ])('%s is %s', (_kind, actual, expected) => {
    expect(actual).toBe(expected);
  });
});

describe('shortening', () => {
  const long: NameContext = {
    project: 'platform.Team_checkpoints-storage-for-foundation-models-v2',
    stack: 'Production.EU_West_1',
    store: 'foundation-model-pretraining-a1',
  };

  it('cuts the project before the stack and the stack before the store, and keeps the hash', () => {
    expect(names.s3Bucket(long)).toBe('production-eu-west-1-foundation-model-pretraining-a1-1b141a');
    expect(names.iamRole(long, 'reader')).toBe('foundation-model-pretraining-a1-reader-1b141a');
    expect(names.storageAccount(long)).toBe('foundationmodelpre1b141a');
    expect(names.keyVault(long)).toBe('foundation-model-1b141a');
    expect(names.awsStoreRoleBoundary({ ...long, stack: `${long.stack}-${'x'.repeat(80)}` })).toBe(
      `production-eu-west-1-${'x'.repeat(80)}-store-role-boundary-d21ac3`,
    );
  });

  it('keeps names whole when they fit', () => {
    expect(names.kmsKeyAlias(long)).toBe(
      'alias/platform-team-checkpoints-storage-for-foundation-models-v2-production-eu-west-1-foundation-model-pretraining-a1-1b141a',
    );
  });

  it("drops the project's 'checkpoints-' prefix before cutting anything else", () => {
    expect(names.storageAccount(aws)).toBe('awsprodllmpretrain0d2516');
  });

  it("cuts a project that is just 'checkpoints' like any other", () => {
    expect(names.storageAccount({ ...aws, project: 'checkpoints' })).toBe('prodllmpretraine8350c');
  });
});

describe('sanitising', () => {
  it('lowercases and turns runs of other characters into single hyphens', () => {
    expect(names.s3Bucket({ project: 'My..Team__X', stack: 'Dev-_-1', store: 'a--b-' })).toBe(
      'my-team-x-dev-1-a-b-06302a',
    );
  });

  it('drops segments with nothing usable left', () => {
    expect(names.s3Bucket({ project: '...', stack: '_', store: 'a--' })).toBe('a-432fef');
    expect(names.adlsFilesystem({ project: '...', stack: '_', store: 'a--' })).toBe('checkpoints-a');
    expect(names.resourceGroup({ project: '_', stack: '.' })).toBe(stableHash(['_', '.']));
    expect(names.awsStoreRoleBoundary({ project: '_', stack: '.' })).toBe(
      `store-role-boundary-${stableHash(['_', '.'])}`,
    );
  });

  it("avoids the S3 reserved prefixes 'sthree-' and 'amzn-s3-demo-'", () => {
    expect(names.s3Bucket({ project: 'sthree', stack: 'amzn-s3-demo', store: 'ab' })).toBe('ab-5bd2c6');
    expect(names.s3DirectoryBucket({ project: 'sthree', stack: 'dev', store: 'ab' }, 'usw2-lax1-az1')).toBe(
      'dev-ab-a5bfb1--usw2-lax1-az1--x-s3',
    );
  });

  it("keeps 'google', its look-alikes and a leading 'goog' out of GCS bucket names", () => {
    expect(names.gcsBucket({ project: 'Google-G00GLE', stack: 'goog', store: 'gogle-ml' })).toBe('ml-dc256a');
    expect(names.gcsBucket({ project: 'goog', stack: 'goog.x', store: 'googx' })).toBe('x-googx-849987');
  });

  it('starts key vault names and service account IDs with a letter', () => {
    const digits = { project: '123', stack: '4-5', store: 'x9' };
    expect(names.keyVault(digits)).toBe('x9-41981f');
    expect(names.gcpServiceAccountId(digits, 'writer')).toBe('x9-writer-41981f');
  });
});

describe('input checks', () => {
  it.each<[NameContext, string]>([
    [{ project: 'a b', stack: 'dev', store: 'ab' }, "Pulumi project name 'a b' must be letters, digits"],
    [{ project: 'a', stack: '', store: 'ab' }, "Pulumi stack name '' must be letters, digits"],
    [{ project: 'a', stack: 'dev', store: 'Ab' }, "store name 'Ab' must match [a-z][a-z0-9-]{1,30}"],
    [{ project: 'a', stack: 'dev', store: 'a' }, "store name 'a' must match"],
    [{ project: 'a', stack: 'dev', store: `a${'b'.repeat(31)}` }, 'must match'],
  ])('rejects %j', (ctx, message) => {
    expect(() => names.s3Bucket(ctx)).toThrow(message);
    expect(() => names.adlsFilesystem(ctx)).toThrow(message);
  });

  it('rejects a resource group or role boundary context with an invalid stack', () => {
    expect(() => names.resourceGroup({ project: 'a', stack: 'prod/eu' })).toThrow(
      "Pulumi stack name 'prod/eu'",
    );
    expect(() => names.awsStoreRoleBoundary({ project: 'a', stack: 'prod/eu' })).toThrow(
      "Pulumi stack name 'prod/eu'",
    );
  });

  it('gives every stack of a project its own role boundary', () => {
    const prod = { project: 'checkpoints-aws', stack: 'prod' };
    expect(names.awsStoreRoleBoundary({ ...prod, stack: 'dev' })).not.toBe(names.awsStoreRoleBoundary(prod));
    expect(names.awsStoreRoleBoundary({ ...prod, stack: 'Prod' })).not.toBe(names.awsStoreRoleBoundary(prod));
  });

  it.each(['us-east-1a', 'use1', 'use1-az4--x', 'USE1-AZ4'])('rejects the AZ ID %p', (azId) => {
    expect(() => names.s3DirectoryBucket(aws, azId)).toThrow(`'${azId}' is not an AWS availability zone ID`);
  });
});

describe('azureBackup', () => {
  const subscription = '00000000-0000-4000-a000-000000000001';

  it('names one vault per subscription and environment, within the Backup vault rule', () => {
    const prod = azureBackup.vault(subscription, 'prod');
    expect(prod).toMatch(/^[A-Za-z][-A-Za-z0-9]{1,49}$/);
    expect(azureBackup.vault(subscription.toUpperCase(), 'prod')).toBe(prod);
    expect(azureBackup.vault(subscription, 'dev')).not.toBe(prod);
    expect(azureBackup.vault('00000000-0000-4000-a000-000000000002', 'prod')).not.toBe(prod);
  });

  it("keeps the vault out of the stacks' resource groups", () => {
    expect(azureBackup.resourceGroup('prod')).toBe('rg-checkpoints-backup-prod');
  });
});
