import type { RetentionSpec, Tier } from '@checkpoints/config';
import { adlsResources, brokenPromises, FILESYSTEM, judge, resource } from '../../testing/retention';
import {
  adlsManagementPolicy,
  type AdlsBaseBlobActions,
  type AdlsManagementPolicy,
} from '../../src/azure/management-policy';

// What azureRules leaves in the spec: options an ADLS Gen2 account cannot honour are 0.
const retention = (overrides: Partial<RetentionSpec>): RetentionSpec => ({
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 0,
  coolAfterDays: 0,
  archiveAfterDays: 0,
  expireAfterDays: 0,
  abortIncompleteUploadDays: 0,
  softDeleteDays: 7,
  keptPrefixes: [],
  expirePrefixes: [],
  ...overrides,
});

describe('adlsManagementPolicy', () => {
  it.each<[string, Tier, Partial<RetentionSpec>, AdlsBaseBlobActions]>([
    [
      'cool only (the standard default)',
      'standard',
      { coolAfterDays: 30 },
      {
        tierToCool: { daysAfterModificationGreaterThan: 30 },
      },
    ],
    [
      'cool then delete',
      'standard',
      { coolAfterDays: 30, expireAfterDays: 180 },
      {
        tierToCool: { daysAfterModificationGreaterThan: 30 },
        delete: { daysAfterModificationGreaterThan: 180 },
      },
    ],
    [
      'cool, archive, delete',
      'standard',
      { coolAfterDays: 7, archiveAfterDays: 90, expireAfterDays: 365 },
      {
        tierToCool: { daysAfterModificationGreaterThan: 7 },
        tierToArchive: { daysAfterModificationGreaterThan: 90 },
        delete: { daysAfterModificationGreaterThan: 365 },
      },
    ],
    [
      'delete only',
      'standard',
      { expireAfterDays: 14 },
      { delete: { daysAfterModificationGreaterThan: 14 } },
    ],
    [
      'high-throughput delete',
      'high-throughput',
      { expireAfterDays: 3 },
      {
        delete: { daysAfterModificationGreaterThan: 3 },
      },
    ],
    [
      'versioning and upload options do not produce rules',
      'standard',
      {
        coolAfterDays: 30,
        keepNoncurrentVersions: 3,
        noncurrentExpireDays: 7,
        abortIncompleteUploadDays: 1,
      },
      { tierToCool: { daysAfterModificationGreaterThan: 30 } },
    ],
  ])('%s', (_title, tier, overrides, baseBlob) => {
    expect(adlsManagementPolicy(retention(overrides), tier, FILESYSTEM)).toEqual({
      rules: [
        {
          name: 'checkpoint-retention',
          enabled: true,
          type: 'Lifecycle',
          definition: { filters: { blobTypes: ['blockBlob'] }, actions: { baseBlob } },
        },
      ],
    });
  });

  it.each<[string, Tier, Partial<RetentionSpec>]>([
    ['standard, everything 0 (never)', 'standard', {}],
    ['high-throughput with its defaults', 'high-throughput', {}],
  ])('no policy when nothing is asked: %s', (_title, tier, overrides) => {
    expect(adlsManagementPolicy(retention(overrides), tier, FILESYSTEM)).toBeUndefined();
  });

  it.each<[string, Partial<RetentionSpec>]>([
    ['cool', { coolAfterDays: 30 }],
    ['archive', { archiveAfterDays: 90 }],
  ])('refuses access tiers on a premium account: %s', (_title, overrides) => {
    expect(() => adlsManagementPolicy(retention(overrides), 'high-throughput', FILESYSTEM)).toThrow(
      'premium block blob accounts have no access tiers',
    );
  });
});

function outcome(tier: Tier, spec: RetentionSpec, policy?: AdlsManagementPolicy) {
  return judge('azure', tier, spec, adlsResources(tier, spec, policy));
}

describe('ADLS Gen2 management policies keep every retention promise (simulated)', () => {
  it.each<[string, Tier, Partial<RetentionSpec>]>([
    ['shipped dev', 'standard', { coolAfterDays: 30, expireAfterDays: 90 }],
    ['shipped prod', 'standard', { coolAfterDays: 30, expireAfterDays: 365, softDeleteDays: 14 }],
    ['shipped prod, high-throughput', 'high-throughput', { expireAfterDays: 14 }],
    ['the shortest expiry', 'high-throughput', { expireAfterDays: 1 }],
    ['the longest soft delete', 'standard', { coolAfterDays: 30, softDeleteDays: 365 }],
    [
      'expiry scoped away from a kept prefix',
      'standard',
      {
        coolAfterDays: 30,
        expireAfterDays: 90,
        keptPrefixes: ['releases/'],
        expirePrefixes: ['runs/', 'tmp/'],
      },
    ],
  ])('%s', (_title, tier, overrides) => {
    expect(brokenPromises(outcome(tier, retention(overrides)))).toEqual([]);
  });

  it('states the figures: deletes are recovered from soft delete, overwrites not at all, and the report says so', () => {
    const result = outcome('standard', retention({ coolAfterDays: 30, expireAfterDays: 90 }));
    expect(result).toMatchObject({
      deleteRecoveryDays: 7,
      overwriteRecoveryDays: 0,
      purgeWithinDays: 7,
      hourlyCopies: 1,
      expiresAfterDays: 91,
    });
    expect(result.notes.join(' ')).toMatch(/overwritten file cannot be recovered/);
  });

  it('expiry scoped to prefixes names them below the filesystem, as prefixMatch requires', () => {
    const policy = adlsManagementPolicy(
      retention({
        coolAfterDays: 30,
        expireAfterDays: 90,
        keptPrefixes: ['releases/'],
        expirePrefixes: ['runs/'],
      }),
      'standard',
      FILESYSTEM,
    );
    expect(policy?.rules.map((rule) => rule.definition.filters.prefixMatch)).toEqual([
      undefined,
      ['ckpt-llm/runs/'],
    ]);
  });
});

describe('the simulator catches broken ADLS Gen2 policies', () => {
  it('one rule for every blob (the old shape) deletes a kept prefix', () => {
    const spec = retention({
      coolAfterDays: 30,
      expireAfterDays: 90,
      keptPrefixes: ['releases/'],
      expirePrefixes: ['runs/'],
    });
    const storeWide: AdlsManagementPolicy | undefined = adlsManagementPolicy(
      { ...spec, expirePrefixes: [] },
      'standard',
      FILESYSTEM,
    );
    expect(brokenPromises(outcome('standard', spec, storeWide))).toContainEqual(
      expect.stringMatching(/^live-data: releases\/.* is deleted on day 91/),
    );
  });

  it('soft delete shorter than the spec states breaks the recovery promise', () => {
    const spec = retention({ coolAfterDays: 30, softDeleteDays: 14 });
    const result = outcome('standard', spec);
    const shorter = judge('azure', 'standard', spec, [
      resource('azure-native:storage:StorageAccount', { isHnsEnabled: true }),
      resource('azure-native:storage:BlobServiceProperties', {
        deleteRetentionPolicy: { enabled: true, days: 7 },
      }),
    ]);
    expect(brokenPromises(result)).toEqual([]);
    expect(brokenPromises(shorter)).toContainEqual(
      'recovery: a deleted checkpoint can be restored for 7 days only, less than the 14 days the spec states',
    );
  });
});
