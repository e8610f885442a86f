import { AUDIT_ENTRY_BYTES, type StoreBill } from '../../src';
import { billOf, child, NO_RETENTION as retention, rendered } from './bill-fixtures';

/** 1 GiB once a day, two kept, one read-back a day: 16 requests per object (64 MiB parts). */
const workload = {
  checkpointSizeGiB: 1,
  intervalHours: 24,
  keepLast: 2,
  latestOverwriteHours: 0,
  readBacksPerDay: 1,
  restartsPerMonth: 0,
};
const perMonth = 730 / 24;

const line = (bill: StoreBill, start: string) => bill.lines.find((each) => each.what.startsWith(start));

describe('the whole bill: the lines the configuration adds', () => {
  const bucket = child('bucket', 'aws:s3/bucket:Bucket', { bucket: 'ckpt' });
  const trail = (prefix: string) =>
    rendered('trail', 'aws:cloudtrail/trail:Trail', null, {
      advancedEventSelectors: [
        {
          fieldSelectors: [
            { field: 'eventCategory', equals: ['Data'] },
            { field: 'resources.ARN', startsWiths: [`arn:aws:s3:::${prefix}/`] },
          ],
        },
      ],
    });

  it("CloudTrail data events are billed when the stack's trail selects the store's bucket, one per request", () => {
    const component = { tier: 'standard', retention, location: 'us-east-1', workload };
    const recorded = line(billOf('aws', [bucket], component, [trail('ckpt')]), 'CloudTrail data events');
    // Each checkpoint: 16 parts + create + complete, 16 ranged GETs per read, a listing per read, a delete.
    const requests = perMonth * 18 + perMonth * 16 + perMonth + perMonth;
    expect(recorded?.quantity).toBeCloseTo(requests / 100_000, 6);
    expect(recorded?.price.usdPerUnit).toBe(0.1);
    expect(line(billOf('aws', [bucket], component, [trail('other')]), 'CloudTrail')).toBeUndefined();
    expect(line(billOf('aws', [bucket], { ...component, audit: true }), 'CloudTrail')).toBeDefined();
  });

  it('replicated delete markers make the replica hold what the source holds; without them it grows', () => {
    const children = (markers: 'Enabled' | 'Disabled') => [
      bucket,
      child('versioning', 'aws:s3/bucketVersioning:BucketVersioning', {
        bucket: 'ckpt',
        versioningConfiguration: { status: 'Enabled' },
      }),
      child('replica', 'aws:s3/bucket:Bucket', { bucket: 'copy', region: 'us-west-2' }),
      child('replication', 'aws:s3/bucketReplicationConfig:BucketReplicationConfig', {
        rules: [
          {
            status: 'Enabled',
            deleteMarkerReplication: { status: markers },
            destination: { bucket: 'arn:aws:s3:::copy' },
          },
        ],
      }),
    ];
    const component = {
      tier: 'standard',
      retention: { ...retention, noncurrentExpireDays: 1 },
      location: 'us-east-1',
      workload,
    };
    const mirrored = billOf('aws', children('Enabled'), component);
    const source = line(mirrored, 'storage STANDARD')!;
    expect(line(mirrored, 'replica storage')?.quantity).toBeCloseTo(source.quantity, 3);
    const growing = line(billOf('aws', children('Disabled'), component), 'replica storage')!;
    expect(growing.quantity).toBeCloseTo(perMonth / 2, 3);
    expect(growing.workload).toContain(`grows by ${perMonth.toFixed(1)} GiB`);
    expect(line(mirrored, 'replication transfer to us-west-2')?.quantity).toBeCloseTo(perMonth, 3);
  });

  it('Azure diagnostic logs to Log Analytics: one entry per logged 4 MiB operation, listing and delete', () => {
    const children = [
      child('account', 'azure-native:storage:StorageAccount', {
        isHnsEnabled: true,
        sku: { name: 'Standard_ZRS' },
        accessTier: 'Hot',
      }),
      child('diagnostics', 'azure-native:monitor:DiagnosticSetting', {
        resourceUri:
          '/subscriptions/s/resourceGroups/g/providers/Microsoft.Storage/storageAccounts/a/blobServices/default',
        workspaceId: '/subscriptions/s/resourceGroups/g/providers/Microsoft.OperationalInsights/workspaces/w',
        logs: [
          { category: 'StorageWrite', enabled: true },
          { category: 'StorageRead', enabled: false },
          { category: 'StorageDelete', enabled: true },
        ],
      }),
    ];
    const bill = billOf('azure', children, { tier: 'standard', retention, location: 'eastus2', workload });
    const logs = line(bill, 'diagnostic logs to Log Analytics')!;
    // Writes: 1 GiB a day = 256 operations of 4 MiB; deletes: one a day; reads are not logged.
    expect(logs.quantity).toBeCloseTo(((perMonth * 256 + perMonth) * AUDIT_ENTRY_BYTES) / 1e9, 6);
    expect(logs.price.item).toBe('loganalytics/ingestion');
  });

  it("an Azure store's independent copy is billed with its prices missing, never as zero", () => {
    const account = child('account', 'azure-native:storage:StorageAccount', {
      isHnsEnabled: true,
      sku: { name: 'Standard_ZRS' },
      accessTier: 'Hot',
    });
    const bill = billOf('azure', [account], {
      tier: 'standard',
      retention,
      location: 'eastasia',
      workload,
      independentCopy: { retentionDays: 30 },
    });
    const copy = bill.independentCopy!;
    expect(copy.lines.map((each) => each.what)).toEqual([]);
    expect(copy.missing).toEqual([
      'azure eastasia backup/ADLS_PROTECTED_INSTANCE',
      'azure eastasia backup/ADLS_VAULT_STORAGE',
    ]);
    expect(copy.total).toBeNull();
  });

  it('GCS Data Access logs are billed only where the spec turns audit on', () => {
    const gcs = [child('bucket', 'gcp:storage/bucket:Bucket', {})];
    const component = { tier: 'standard', retention, location: 'us-central1', workload };
    expect(line(billOf('gcp', gcs, component), 'Data Access')).toBeUndefined();
    const logged = line(billOf('gcp', gcs, { ...component, audit: { enabled: true } }), 'Data Access')!;
    expect(logged.quantity).toBeCloseTo(
      ((perMonth * 16 * 2 + perMonth * 2) * AUDIT_ENTRY_BYTES) / 2 ** 30,
      6,
    );
  });
});
