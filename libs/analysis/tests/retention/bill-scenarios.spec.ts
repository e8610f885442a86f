/**
 * Nine calculator scenarios, three per cloud: a store and a workload, and the monthly bill worked BY HAND
 * from the rates the clouds' price pages publish (AWS https://aws.amazon.com/s3/pricing/ and
 * https://aws.amazon.com/s3/faqs/, Google https://cloud.google.com/storage/pricing, Azure
 * https://azure.microsoft.com/pricing/details/storage/data-lake/, as the tables in libs/analysis/data hold
 * them on 2026-12-03). They were NOT entered into the clouds' interactive pricing calculators: those could
 * not be opened from this workplace (no internet). The Azure rates are the tables' unconfirmed figures (see
 * prices-azure.json): those scenarios check the model's arithmetic, not Azure's current prices.
 *
 * Each figure in the comments is a calculator input (GB stored, requests, GB transferred) derived from the
 * workload by the cloud's documented semantics, times the page's rate; the model must land within 5%.
 * Months are 730 hours (30.4167 days); a checkpoint of S GiB is uploaded and read in 64 MiB parts
 * (S x 16 requests), plus create and complete for an S3 multipart upload.
 */
import { WORKLOAD_DEFAULTS } from '@checkpoints/config';
import type { StoreBill } from '../../src';
import { billOf, child, NO_RETENTION as retention } from './bill-fixtures';

/** 100 GiB once a day, seven kept, one read-back a day, no latest.pt, no restarts. */
const weekly = {
  checkpointSizeGiB: 100,
  intervalHours: 24,
  keepLast: 7,
  latestOverwriteHours: 0,
  readBacksPerDay: 1,
  restartsPerMonth: 0,
};
/** 50 GiB once a day, thirty kept, no reads. */
const monthly = { ...weekly, checkpointSizeGiB: 50, keepLast: 30, readBacksPerDay: 0 };

function expectWithin5Percent(bill: StoreBill, handWorked: number): void {
  expect(bill.missing).toEqual([]);
  expect(bill.total).not.toBeNull();
  expect(Math.abs(bill.total! - handWorked) / handWorked).toBeLessThan(0.05);
}

describe('calculator scenarios, worked by hand from the price pages (not the calculator UIs), 2026-12-03', () => {
  describe('AWS (us-east-1)', () => {
    it('1. S3 Standard, unversioned: 100 GiB a day, 7 kept, read back daily', () => {
      // Storage: 7 live checkpoints x 100 GiB = 700 GB-month x $0.023            = 16.1000
      // PUT: 30.4167 checkpoints x (1,600 parts + 2) = 48,727 x $0.005 / 1,000      =  0.2436
      // GET: 30.4167 reads x 1,600 ranged GETs = 48,667 x $0.0004 / 1,000          =  0.0195
      // LIST: 30.4167 x $0.005 / 1,000                                             =  0.0002
      // DELETE: free. Total                                                        = 16.3633
      const bill = billOf('aws', [child('bucket', 'aws:s3/bucket:Bucket', { bucket: 'b' })], {
        tier: 'standard',
        retention,
        location: 'us-east-1',
        workload: weekly,
      });
      expectWithin5Percent(bill, 16.3633);
    });

    it('2. cross-region replication to us-west-2, delete markers not replicated, SSE-KMS with Bucket Keys', () => {
      // Source storage: 30 live x 50 GiB = 1,500, plus each deleted checkpoint noncurrent from its delete
      // (10:00 on day 30) until the daily pass after 1 noncurrent day (00:00 on day 32): 38 h, so
      // 38/24 x 50 = 79.17 GB; 1,579.17 GB-month x $0.023                            = 36.3208
      // PUT: 30.4167 x (800 + 2) = 24,393 x $0.005 / 1,000                           =  0.1220
      // Replication transfer: 30.4167 x 50 = 1,520.83 GB x $0.02                    = 30.4167
      // Replica PUT: 30.4167 objects x $0.005 / 1,000                                =  0.0002
      // Replica storage, first month: deletes are not replicated, every replicated checkpoint stays
      // current; on average half the month's 1,520.83 GB = 760.42 GB-month x $0.023 = 17.4896
      // KMS: 2 keys x $1 = 2.00; requests (30.4 writes + 60.8 replication) x 1% x $0.03 / 10,000 = 0.0000
      // Total                                                                        = 86.3493
      const children = [
        child('bucket', 'aws:s3/bucket:Bucket', { bucket: 'src' }),
        child('versioning', 'aws:s3/bucketVersioning:BucketVersioning', {
          bucket: 'src',
          versioningConfiguration: { status: 'Enabled' },
        }),
        child('lifecycle', 'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration', {
          bucket: 'src',
          rules: [
            {
              id: 'purge',
              status: 'Enabled',
              filter: {},
              noncurrentVersionExpiration: { noncurrentDays: 1 },
            },
          ],
        }),
        child('replica', 'aws:s3/bucket:Bucket', { bucket: 'dst', region: 'us-west-2' }),
        child('replication', 'aws:s3/bucketReplicationConfig:BucketReplicationConfig', {
          bucket: 'src',
          rules: [
            {
              status: 'Enabled',
              filter: {},
              deleteMarkerReplication: { status: 'Disabled' },
              destination: { bucket: 'arn:aws:s3:::dst', storageClass: 'STANDARD' },
            },
          ],
        }),
        child(
          'encryption',
          'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
          {
            bucket: 'src',
            rules: [
              { applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms' }, bucketKeyEnabled: true },
            ],
          },
        ),
        child('key', 'aws:kms/key:Key', {}),
        child('replica-key', 'aws:kms/key:Key', {}),
      ];
      const bill = billOf('aws', children, {
        tier: 'standard',
        retention: { ...retention, noncurrentExpireDays: 1 },
        location: 'us-east-1',
        workload: monthly,
      });
      expectWithin5Percent(bill, 86.3493);
    });

    it('3. S3 Express One Zone: 10 GiB every 4 h, 5 kept, latest.pt hourly (the shipped default workload)', () => {
      // Storage: 5 checkpoints + latest.pt = 60 GB-month x $0.11                      =  6.6000
      // PUT: (182.5 + 730) objects x (160 + 2) = 147,825 x $0.00113 / 1,000            =  0.1670
      // Upload: 9,125 GB written, less 0.5 MB of each 64 MiB request: 9,053.71 GB x $0.0032 = 28.9719
      // GET: 34.4167 reads (1/day + 4 restarts) x 160 = 5,507 x $0.00003 / 1,000       =  0.0002
      // Retrieval: 344.17 GB x (1 - 0.5/64) = 341.48 GB x $0.0006                      =  0.2049
      // Total (the figure the review quoted as ~36)                                    = 35.9440
      const bill = billOf(
        'aws',
        [child('bucket', 'aws:s3/directoryBucket:DirectoryBucket', { bucket: 'x' })],
        {
          tier: 'high-throughput',
          retention,
          location: 'us-east-1',
          workload: WORKLOAD_DEFAULTS,
        },
      );
      expectWithin5Percent(bill, 35.944);
    });
  });

  describe('Google Cloud (us-central1)', () => {
    it('1. regional Standard, unversioned: 100 GiB a day, 7 kept, read back daily', () => {
      // Storage: 700 GiB-month x $0.020                                                = 14.0000
      // Class A: 30.4167 x 1,600 uploads + 30.4 listings = 48,697 x $0.005 / 1,000     =  0.2435
      // Class B: 48,667 reads x $0.0004 / 1,000                                        =  0.0195
      // Total                                                                          = 14.2630
      const bill = billOf('gcp', [child('bucket', 'gcp:storage/bucket:Bucket', {})], {
        tier: 'standard',
        retention,
        location: 'us-central1',
        workload: weekly,
      });
      expectWithin5Percent(bill, 14.263);
    });

    it('2. dual-region us-central1 + us-west1, default replication: 50 GiB a day, 30 kept', () => {
      // Storage: 1,500 GiB-month at each region's dual-region SKU, $0.022 + $0.022     = 66.0000
      // Class A (dual-region): 30.4167 x 800 = 24,333 x $0.010 / 1,000                 =  0.2433
      // Inter-region replication: 1,520.83 GiB written x $0.02                         = 30.4167
      // Total                                                                          = 96.6600
      const bill = billOf(
        'gcp',
        [
          child('bucket', 'gcp:storage/bucket:Bucket', {
            customPlacementConfig: { dataLocations: ['US-CENTRAL1', 'US-WEST1'] },
          }),
        ],
        { tier: 'standard', retention, location: 'us-central1', workload: monthly },
      );
      expectWithin5Percent(bill, 96.66);
    });

    it('3. Anywhere Cache in us-central1-a: 10 GiB every 4 h, 5 kept, 4 read-backs a day, 1-day TTL', () => {
      // Storage: 5 x 10 = 50 GiB-month x $0.020                                        =  1.0000
      // Class A: 182.5 x 160 uploads + 121.67 listings = 29,322 x $0.005 / 1,000       =  0.1466
      // Class B: 121.67 reads x 160 = 19,467 x $0.0004 / 1,000                         =  0.0078
      // Cache ingest: 121.67 distinct checkpoints read x 10 GiB = 1,216.7 GiB x $0.0032 =  3.8933
      // Cache storage: 4 reads a day held 1 day = 4 x 10 = 40 GiB x 730 h x $0.0001233 =  3.6004
      // Cache transfer out: 1,216.7 GiB x $0.0006                                      =  0.7300
      // Cache operations: 19,467 x $0.0002 / 1,000                                     =  0.0039
      // Total                                                                          =  9.3820
      const bill = billOf(
        'gcp',
        [
          child('bucket', 'gcp:storage/bucket:Bucket', {}),
          child('cache', 'gcp:storage/anywhereCache:AnywhereCache', {
            zone: 'us-central1-a',
            ttl: '86400s',
            ingestOnWrite: false,
          }),
        ],
        {
          tier: 'high-throughput',
          retention,
          location: 'us-central1',
          workload: {
            ...WORKLOAD_DEFAULTS,
            latestOverwriteHours: 0,
            readBacksPerDay: 4,
            restartsPerMonth: 0,
          },
        },
      );
      expectWithin5Percent(bill, 9.382);
    });
  });

  describe('Azure (eastus2, ADLS Gen2 with hierarchical namespace; unconfirmed table rates)', () => {
    const account = (sku: string, extra: Record<string, unknown> = {}) => [
      child('account', 'azure-native:storage:StorageAccount', {
        isHnsEnabled: true,
        sku: { name: sku },
        ...extra,
      }),
      child('service', 'azure-native:storage:BlobServiceProperties', {
        deleteRetentionPolicy: { enabled: true, days: 7 },
      }),
    ];
    const softDeleted = { ...retention, softDeleteDays: 7 };

    it('1. Hot ZRS, 7-day soft delete: 100 GiB a day, 7 kept, read back daily', () => {
      // Storage: 700 live + 7 days x 100 soft-deleted = 1,400 GB-month x $0.023        = 32.2000
      // Writes: 3,041.67 GiB / 4 MiB = 778,667 ops x $0.0813 / 10,000                  =  6.3306
      // Reads: 778,667 ops x $0.0052 / 10,000                                          =  0.4049
      // Lists 30.4 x $0.065 / 10,000 + directory creations 30.4 x $0.0065 / 100        =  0.0022
      // Total                                                                          = 38.9377
      const bill = billOf('azure', account('Standard_ZRS', { accessTier: 'Hot' }), {
        tier: 'standard',
        retention: softDeleted,
        location: 'eastus2',
        workload: weekly,
      });
      expectWithin5Percent(bill, 38.9377);
    });

    it('2. Hot GZRS (a replica region): the same workload, plus geo-replication of every write', () => {
      // Storage: 1,400 GB-month x $0.0414                                              = 57.9600
      // Writes: 778,667 ops x $0.1463 / 10,000                                         = 11.3919
      // Reads: 0.4049; lists and directories 0.0022
      // Geo-replication data transfer: 3,041.67 GB x $0.02                             = 60.8333
      // Total                                                                          = 130.5923
      const bill = billOf('azure', account('Standard_GZRS', { accessTier: 'Hot' }), {
        tier: 'standard',
        retention: softDeleted,
        location: 'eastus2',
        workload: weekly,
      });
      expectWithin5Percent(bill, 130.5923);
    });

    it('3. Premium ZRS block blobs: 10 GiB every 4 h, 5 kept, 7-day soft delete, no reads', () => {
      // Storage: 50 live + 6 deletes a day x 7 days x 10 = 420 soft-deleted: 470 GB-month x $0.195 = 91.6500
      // Writes: 1,825 GiB / 4 MiB = 467,200 ops x $0.0228 / 10,000                     =  1.0652
      // Directory creations: 182.5 x $0.0065 / 100                                     =  0.0119
      // Total                                                                          = 92.7271
      const bill = billOf('azure', account('Premium_ZRS'), {
        tier: 'high-throughput',
        retention: softDeleted,
        location: 'eastus2',
        workload: { ...WORKLOAD_DEFAULTS, latestOverwriteHours: 0, readBacksPerDay: 0, restartsPerMonth: 0 },
      });
      expectWithin5Percent(bill, 92.7271);
    });
  });
});
