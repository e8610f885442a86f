import { WORKLOAD_DEFAULTS, type Cloud } from '@checkpoints/config';
import fc from 'fast-check';
import { type RenderedResource } from '@checkpoints/render';
import { retentionOf, type StoreProjection } from '../../src';
import { NO_RETENTION, rendered } from './bill-fixtures';

const GIB = 2 ** 30;

const retention = { ...NO_RETENTION, noncurrentExpireDays: 7 };

/** One checkpoint a day, two kept, no latest.pt, no reads: a deleted checkpoint's copy-hours are easy to count. */
const daily = {
  checkpointSizeGiB: 1,
  intervalHours: 24,
  keepLast: 2,
  latestOverwriteHours: 0,
  readBacksPerDay: 0,
  restartsPerMonth: 0,
};

/** The storage lines of the bill (the rest are requests, transfer, keys and logs). */
function storageUsd(result: StoreProjection): number {
  return result.bill.lines
    .filter((line) => line.what.startsWith('storage '))
    .reduce((sum, line) => sum + line.quantity * line.price.usdPerUnit, 0);
}

function projection(
  cloud: Cloud,
  children: RenderedResource[],
  component: Record<string, unknown>,
): StoreProjection {
  const type = `checkpoints:${cloud}:CheckpointStore`;
  const render = { resources: [rendered('store', type, null, component), ...children] };
  const [store] = retentionOf(render);
  if (!store) throw new Error('no store in the render');
  return store.projection;
}

/** A versioned GCS bucket whose previous versions go `days` after they stop being live. */
function gcs(days: number, softDeleteDays = 0, location = 'us-central1', workload: object = daily) {
  const bucket = rendered('bucket', 'gcp:storage/bucket:Bucket', 'store', {
    versioning: { enabled: true },
    softDeletePolicy: { retentionDurationSeconds: softDeleteDays * 86_400 },
    lifecycleRules: [
      { action: { type: 'Delete' }, condition: { withState: 'ARCHIVED', daysSinceNoncurrentTime: days } },
    ],
  });
  return projection('gcp', [bucket], {
    tier: 'standard',
    retention: { ...retention, noncurrentExpireDays: days, softDeleteDays },
    location,
    workload,
  });
}

// Written at 10:00 on day 0 and deleted by the job 48 h later (keepLast 2, daily): live 48 h. Deleted at hour
// 58, it is noncurrent until the first daily pass once 7 days have passed (hour 240): 182 h. Per checkpoint
// a day, the steady state holds 48/24 live and 182/24 noncurrent checkpoints.
describe('storage and cost projection (from the retention replay)', () => {
  it('holds the kept checkpoints live and each deleted one for as long as the replay keeps it', () => {
    const result = gcs(7);
    expect(result.bytesByState.live / GIB).toBeCloseTo(2, 6);
    expect(result.bytesByState.noncurrent / GIB).toBeCloseTo(182 / 24, 6);
    expect(result.bytesByState.softDeleted).toBe(0);
    expect(result.bytesByClass['STANDARD']! / GIB).toBeCloseTo(2 + 182 / 24, 6);
    // us-central1 STANDARD at $0.020 per GiB-month.
    expect(storageUsd(result)).toBeCloseTo((2 + 182 / 24) * 0.02, 4);
    expect(result.monthlyCost).toBeCloseTo(
      result.bill.lines.reduce((sum, line) => sum + line.usd, 0),
      2,
    );
    expect(result.currency).toBe('USD');
    expect(result.missingPrices).toEqual([]);
    expect(result.priceTable.source).toBe('libs/analysis/data/prices-gcp.json');
  });

  it('a longer noncurrent window raises the noncurrent bytes by the extra days', () => {
    const week = gcs(7).bytesByState.noncurrent;
    const fortnight = gcs(14).bytesByState.noncurrent;
    // 7 more days of one deleted checkpoint a day: 7 GiB more.
    expect((fortnight - week) / GIB).toBeCloseTo(7, 6);
    expect(gcs(14).monthlyCost).toBeGreaterThan(gcs(7).monthlyCost!);
  });

  it('soft delete adds soft-deleted bytes: each purged version stays its retention days', () => {
    const result = gcs(7, 7);
    expect(result.bytesByState.softDeleted / GIB).toBeCloseTo(7, 6);
    expect(result.bytesByState.noncurrent / GIB).toBeCloseTo(182 / 24, 6);
  });

  it("a region missing from the price table is priced at the table's highest rate, and the line says so", () => {
    const result = gcs(7, 0, 'europe-west9');
    const [storage] = result.bill.lines;
    expect(result.missingPrices).toEqual([]);
    // The highest regional STANDARD rate in the table: northamerica-south1, $0.026.
    expect(storage?.price).toMatchObject({ region: 'northamerica-south1', usdPerUnit: 0.026 });
    expect(storage?.price.estimated).toMatch(/^no storage\/STANDARD price for europe-west9 in the gcp table/);
    expect(result.bill.caveats).toContain(storage?.price.estimated);
    expect(result.bytesByState.live / GIB).toBeCloseTo(2, 6);
  });

  it('a store without a location in the render gives no cost and says why', () => {
    const result = gcs(7, 0, '');
    expect(result.monthlyCost).toBeNull();
    expect(result.missingPrices).toEqual(["gcp: the store's region is not in the render"]);
  });

  it('a workload the spec leaves out takes the documented defaults, shown as an assumption', () => {
    const result = gcs(7, 0, 'us-central1', {});
    expect(result.assumptions[0]).toBe(
      `workload not stated in the spec, default assumed: checkpointSizeGiB ${WORKLOAD_DEFAULTS.checkpointSizeGiB}, intervalHours ${WORKLOAD_DEFAULTS.intervalHours}, keepLast ${WORKLOAD_DEFAULTS.keepLast}, latestOverwriteHours ${WORKLOAD_DEFAULTS.latestOverwriteHours}, readBacksPerDay ${WORKLOAD_DEFAULTS.readBacksPerDay}, restartsPerMonth ${WORKLOAD_DEFAULTS.restartsPerMonth}`,
    );
    expect(result.bill.workload).toEqual({
      ...WORKLOAD_DEFAULTS,
      defaulted: Object.keys(WORKLOAD_DEFAULTS),
    });
    expect(gcs(7).assumptions.some((line) => line.startsWith('workload not stated'))).toBe(false);
  });

  it('a partly stated workload names only the defaulted keys', () => {
    const result = gcs(7, 0, 'us-central1', { checkpointSizeGiB: 3, intervalHours: 24, keepLast: 2 });
    expect(result.assumptions[0]).toBe(
      `workload not stated in the spec, default assumed: latestOverwriteHours ${WORKLOAD_DEFAULTS.latestOverwriteHours}, readBacksPerDay ${WORKLOAD_DEFAULTS.readBacksPerDay}, restartsPerMonth ${WORKLOAD_DEFAULTS.restartsPerMonth}`,
    );
  });

  it('a rule that never purges (count in the same rule) is reported as growing without bound', () => {
    const bucket = rendered('bucket', 'gcp:storage/bucket:Bucket', 'store', {
      versioning: { enabled: true },
      lifecycleRules: [
        {
          action: { type: 'Delete' },
          condition: { withState: 'ARCHIVED', daysSinceNoncurrentTime: 7, numNewerVersions: 2 },
        },
      ],
    });
    const result = projection('gcp', [bucket], {
      tier: 'standard',
      retention,
      location: 'us-central1',
      workload: daily,
    });
    expect(result.assumptions.some((line) => line.includes('stored bytes grow without bound'))).toBe(true);
    expect(gcs(7).assumptions.some((line) => line.includes('grow without bound'))).toBe(false);
  });

  it('live checkpoints move to the class the rendered rule sets at its age; a deleted one stays there', () => {
    const bucket = rendered('bucket', 'gcp:storage/bucket:Bucket', 'store', {
      storageClass: 'STANDARD',
      versioning: { enabled: true },
      lifecycleRules: [
        { action: { type: 'Delete' }, condition: { withState: 'ARCHIVED', daysSinceNoncurrentTime: 7 } },
        {
          action: { type: 'SetStorageClass', storageClass: 'NEARLINE' },
          condition: { age: 30, withState: 'LIVE', matchesStorageClasses: ['STANDARD'] },
        },
      ],
    });
    const result = projection('gcp', [bucket], {
      tier: 'standard',
      retention: { ...retention, coolAfterDays: 30 },
      location: 'us-central1',
      workload: { ...daily, keepLast: 60 },
    });
    // 60 days live: 30 in STANDARD, then 30 in NEARLINE, where it stays once deleted (noncurrent).
    expect(result.bytesByClass['STANDARD']! / GIB).toBeCloseTo(30, 6);
    expect(result.bytesByClass['NEARLINE']! / GIB).toBeCloseTo(30 + result.bytesByState.noncurrent / GIB, 6);
    expect(storageUsd(result)).toBeCloseTo(30 * 0.02 + (result.bytesByClass['NEARLINE']! / GIB) * 0.01, 4);
  });

  it('S3: the rendered transition moves a live checkpoint to STANDARD_IA; its previous version stays there', () => {
    const children = [
      rendered('bucket', 'aws:s3/bucket:Bucket', 'store', {}),
      rendered('versioning', 'aws:s3/bucketVersioning:BucketVersioning', 'store', {
        versioningConfiguration: { status: 'Enabled' },
      }),
      rendered('lifecycle', 'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration', 'store', {
        rules: [
          {
            id: 'all',
            status: 'Enabled',
            filter: { prefix: '' },
            transitions: [{ days: 1, storageClass: 'STANDARD_IA' }],
            noncurrentVersionExpiration: { noncurrentDays: 7 },
            expiration: { expiredObjectDeleteMarker: true },
          },
        ],
      }),
    ];
    const result = projection('aws', children, {
      tier: 'standard',
      retention,
      location: 'us-east-1',
      workload: daily,
    });
    // Live 48 h: the first 24 in STANDARD, then STANDARD_IA; noncurrent from hour 58 to the pass at 240.
    expect(result.bytesByClass['STANDARD']! / GIB).toBeCloseTo(1, 6);
    expect(result.bytesByClass['STANDARD_IA']! / GIB).toBeCloseTo(1 + 182 / 24, 6);
    expect(storageUsd(result)).toBeCloseTo(1 * 0.023 + (1 + 182 / 24) * 0.0125, 4);
    // Standard-IA has a 30-day minimum: each checkpoint's copy spends 24 + 182 = 206 h there, so S3 bills
    // the missing 720 - 206 h, for each of the 730 / 24 checkpoints a month.
    const early = result.bill.lines.find((line) => line.what.startsWith('early deletion STANDARD_IA'));
    expect(early?.quantity).toBeCloseTo(((720 - 206) / 730) * (730 / 24), 3);
    expect(early?.price.usdPerUnit).toBe(0.0125);
    const transitions = result.bill.lines.find(
      (line) => line.what === 'lifecycle transitions into STANDARD_IA',
    );
    expect(transitions?.quantity).toBeCloseTo(730 / 24 / 1000, 6);
  });

  it('an S3 Express One Zone directory bucket keeps one copy of latest.pt, priced at the Express rate', () => {
    const directory = rendered('bucket', 'aws:s3/directoryBucket:DirectoryBucket', 'store', {});
    const result = projection('aws', [directory], {
      tier: 'high-throughput',
      retention: { ...retention, noncurrentExpireDays: 0 },
      location: 'us-east-1',
      workload: { ...daily, latestOverwriteHours: 1 },
    });
    // Two kept checkpoints and latest.pt, all live: no versions on a directory bucket.
    expect(result.bytesByState).toEqual({ live: 3 * GIB, noncurrent: 0, softDeleted: 0 });
    expect(result.bytesByClass).toEqual({ EXPRESS_ONEZONE: 3 * GIB });
    expect(storageUsd(result)).toBeCloseTo(3 * 0.11, 4);
    // 730 overwrites of a 1 GiB latest.pt and 30.4 checkpoints: every GiB beyond 512 KB a request pays the
    // per-GB upload charge (16 parts of 64 MiB each, 0.5 MiB of each free).
    const upload = result.bill.lines.find((line) => line.what.startsWith('S3 Express upload'));
    expect(upload?.quantity).toBeCloseTo((730 + 730 / 24) * (1 - 0.5 / 64), 3);
    expect(upload?.price.usdPerUnit).toBe(0.0032);
  });

  it('Azure prices the table holds unconfirmed are used, and every line and the caveats say so', () => {
    const children = [
      rendered('account', 'azure-native:storage:StorageAccount', 'store', {
        isHnsEnabled: true,
        sku: { name: 'Standard_ZRS' },
        accessTier: 'Hot',
      }),
      rendered('service', 'azure-native:storage:BlobServiceProperties', 'store', {
        deleteRetentionPolicy: { enabled: true, days: 7 },
      }),
    ];
    const result = projection('azure', children, {
      tier: 'standard',
      retention: { ...retention, noncurrentExpireDays: 0, softDeleteDays: 7 },
      location: 'eastus2',
      workload: daily,
    });
    // A deleted file is soft-deleted for 7 days: 7 GiB at one a day.
    expect(result.bytesByState.softDeleted / GIB).toBeCloseTo(7, 6);
    expect(result.monthlyCost).not.toBeNull();
    expect(result.missingPrices).toEqual([]);
    expect(result.bill.lines.every((line) => !line.price.confirmed)).toBe(true);
    expect(result.bill.caveats).toContain('unconfirmed price: storage/HOT_ZRS (eastus2)');
  });

  it('without expiry, the live bytes are the kept checkpoints plus latest.pt, for any workload', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 500 }),
        fc.integer({ min: 1, max: 48 }),
        fc.integer({ min: 1, max: 20 }),
        fc.constantFrom(0, 1, 6),
        (checkpointSizeGiB, intervalHours, keepLast, latestOverwriteHours) => {
          const workload = { ...daily, checkpointSizeGiB, intervalHours, keepLast, latestOverwriteHours };
          const result = gcs(7, 0, 'us-central1', workload);
          const latest = latestOverwriteHours > 0 ? 1 : 0;
          expect(result.bytesByState.live / GIB).toBeCloseTo((keepLast + latest) * checkpointSizeGiB, 3);
        },
      ),
      { numRuns: 15 },
    );
  });

  describe('the first 90 days from an empty store (the series the PR chart draws)', () => {
    const stored = (result: StoreProjection) =>
      result.bytesByState.live + result.bytesByState.noncurrent + result.bytesByState.softDeleted;

    it('rises from nothing and levels off at the steady-state bytes the projection states', () => {
      const result = gcs(7, 3);
      const { storedBytes, stepDays } = result.series;
      expect(stepDays).toBe(5);
      expect(storedBytes).toHaveLength(19);
      expect(storedBytes[0]).toBe(0);
      // Day 5: five daily checkpoints, two live, three noncurrent (none purged before day 9).
      expect(storedBytes[1]! / GIB).toBeCloseTo(2 + 3 - 10 / 24, 6);
      expect(storedBytes.at(-1)! / GIB).toBeCloseTo(stored(result) / GIB, 4);
      expect(storedBytes.at(-2)).toBe(storedBytes.at(-1));
      for (let i = 1; i < storedBytes.length; i += 1) {
        expect(storedBytes[i]!).toBeGreaterThanOrEqual(storedBytes[i - 1]!);
      }
    });

    it('a store whose lifecycle purges sooner levels off lower', () => {
      const soon = gcs(3).series.storedBytes;
      const late = gcs(30).series.storedBytes;
      expect(soon.at(-1)!).toBeLessThan(late.at(-1)!);
      expect(late.at(-1)! - soon.at(-1)!).toBeCloseTo((30 - 3) * GIB * 1, -6);
      // Both fill at the same pace until the sooner one purges its first copy (the day 6 pass).
      expect(soon.slice(0, 2)).toEqual(late.slice(0, 2));
      expect(soon[2]!).toBeLessThan(late[2]!);
    });

    it('spends the bill from day 0, at the monthly rate once the store has settled', () => {
      const result = gcs(7);
      const spent = result.series.cumulativeUsd!;
      expect(spent[0]).toBe(0);
      for (let i = 1; i < spent.length; i += 1) expect(spent[i]!).toBeGreaterThan(spent[i - 1]!);
      // Five settled days cost five days of the monthly bill (730 h a month).
      expect(spent.at(-1)! - spent.at(-2)!).toBeCloseTo((result.monthlyCost! * 5 * 24) / 730, 1);
      // Filling up costs less than the settled rate.
      expect(spent[1]!).toBeLessThan((result.monthlyCost! * 5 * 24) / 730);
    });

    it('a store the bill cannot price has stored bytes but no cost series', () => {
      const result = gcs(7, 0, '');
      expect(result.series.cumulativeUsd).toBeNull();
      expect(result.series.storedBytes).toEqual(gcs(7).series.storedBytes);
    });
  });
});
