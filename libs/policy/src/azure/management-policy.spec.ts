import type { RetentionSpec, Tier } from '@checkpoints/config';
import { adlsManagementPolicy, type AdlsBaseBlobActions } from './management-policy';

// What azureRules leaves in the spec: options an ADLS Gen2 account cannot honour are 0.
const retention = (overrides: Partial<RetentionSpec>): RetentionSpec => ({
  keepNoncurrentVersions: 0,
  noncurrentExpireDays: 0,
  coolAfterDays: 0,
  archiveAfterDays: 0,
  expireAfterDays: 0,
  abortIncompleteUploadDays: 0,
  softDeleteDays: 7,
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
    expect(adlsManagementPolicy(retention(overrides), tier)).toEqual({
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
    expect(adlsManagementPolicy(retention(overrides), tier)).toBeUndefined();
  });

  it.each<[string, Partial<RetentionSpec>]>([
    ['cool', { coolAfterDays: 30 }],
    ['archive', { archiveAfterDays: 90 }],
  ])('refuses access tiers on a premium account: %s', (_title, overrides) => {
    expect(() => adlsManagementPolicy(retention(overrides), 'high-throughput')).toThrow(
      'premium block blob accounts have no access tiers',
    );
  });
});
