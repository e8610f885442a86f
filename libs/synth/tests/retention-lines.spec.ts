import type { StoreRetention } from '@checkpoints/analysis';
import { WORKLOAD_DEFAULTS } from '@checkpoints/config';
import { retentionLines } from '../src/retention-lines';

const kept: StoreRetention = {
  store: 'llm-pretrain',
  cloud: 'aws',
  tier: 'standard',
  deleteRecoveryDays: 8,
  overwriteRecoveryDays: 8,
  purgeWithinDays: 9,
  promisedPurgeWithinDays: 9,
  hourlyCopies: 49,
  expiresAfterDays: null,
  lock: null,
  notes: [],
  broken: [],
  projection: {
    monthlyCost: 14.95,
    currency: 'USD',
    bytesByState: { live: 60 * 2 ** 30, noncurrent: 590 * 2 ** 30, softDeleted: 0 },
    bytesByClass: { STANDARD: 650 * 2 ** 30, STANDARD_IA: 0 },
    priceTable: { date: '2026-12-01', source: 'https://aws.amazon.com/s3/faqs/' },
    assumptions: ['workload not stated in the spec, default assumed: keepLast 5'],
    missingPrices: [],
    series: { stepDays: 5, storedBytes: [0, 650 * 2 ** 30], cumulativeUsd: [0, 2.46] },
    bill: {
      currency: 'USD',
      total: 14.95,
      lines: [
        {
          what: 'storage STANDARD',
          quantity: 650,
          unit: 'GB-month',
          usd: 14.95,
          price: {
            item: 'storage/STANDARD',
            region: 'us-east-1',
            usdPerUnit: 0.023,
            unit: 'GB-month',
            source: 'https://aws.amazon.com/s3/pricing/',
            confirmed: true,
          },
          workload: 'mean stored over the month',
        },
        {
          what: 'PUT requests (STANDARD)',
          quantity: 0.5,
          unit: '1,000 requests',
          usd: 0.0025,
          price: {
            item: 'write/STANDARD',
            region: 'us-east-1',
            usdPerUnit: 0.005,
            unit: '1,000 requests',
            source: 'https://aws.amazon.com/s3/pricing/',
            confirmed: false,
          },
          workload: '500 object writes/month',
        },
      ],
      workload: { ...WORKLOAD_DEFAULTS, defaulted: ['keepLast'] },
      priceTables: [{ cloud: 'aws', retrieved: '2026-12-03' }],
      missing: [],
      caveats: ['unconfirmed price: write/STANDARD (us-east-1)'],
      independentCopy: null,
    },
  },
};

describe('retentionLines', () => {
  it('prints two lines per store: recovery and purge, then copies and expiry', () => {
    expect(retentionLines([kept])).toEqual([
      "Retention (each store's lifecycle replayed against its cloud's documented semantics):",
      '  llm-pretrain: recover a delete for 8 days, an overwrite for 8 days; non-live data purged within 9 days (spec: within 9)',
      '    an object overwritten hourly holds 49 stored copies; live checkpoints never expire',
      '    stored: live 60.0 GiB, noncurrent 590.0 GiB, soft-deleted 0.0 GiB (STANDARD 650.0 GiB); ~14.95 USD/month, the whole bill (list prices of 2026-12-01) [default workload]',
      '      workload: 10 GiB every 4 h, 5 kept, latest.pt every 1 h, 1 read-backs/day, 4 restarts/month (defaults: keepLast)',
      '         14.95 USD  storage STANDARD: 650 GB-month x 0.023 USD [mean stored over the month]',
      '          0.00 USD  PUT requests (STANDARD): 0.5 1,000 requests x 0.005 USD unconfirmed [500 object writes/month]',
      '      caveat: unconfirmed price: write/STANDARD (us-east-1)',
    ]);
  });

  it('says what a store cannot do and which promise breaks on which day', () => {
    const fast: StoreRetention = {
      ...kept,
      store: 'fast',
      tier: 'high-throughput',
      deleteRecoveryDays: 0,
      overwriteRecoveryDays: 0,
      purgeWithinDays: null,
      hourlyCopies: null,
      expiresAfterDays: 8,
      notes: ['a delete cannot be undone'],
      broken: [{ promise: 'purge', day: 40, message: 'nothing ever purges it' }],
      projection: {
        ...kept.projection,
        monthlyCost: null,
        bytesByClass: { EXPRESS_ONEZONE: 650 * 2 ** 30 },
        assumptions: [],
        missingPrices: ['aws us-west-2 EXPRESS_ONEZONE'],
        bill: {
          ...kept.projection.bill,
          total: null,
          lines: [],
          caveats: [],
          missing: ['aws us-west-2 EXPRESS_ONEZONE'],
        },
      },
    };
    expect(retentionLines([fast]).slice(1)).toEqual([
      '  fast: recover a delete not at all, an overwrite not at all; non-live data purged never (spec: within 9)',
      '    an object overwritten hourly holds ever more stored copies; live checkpoints expire after 8 days',
      '    stored: live 60.0 GiB, noncurrent 590.0 GiB, soft-deleted 0.0 GiB (EXPRESS_ONEZONE 650.0 GiB); cost unknown (no list price for aws us-west-2 EXPRESS_ONEZONE)',
      '      workload: 10 GiB every 4 h, 5 kept, latest.pt every 1 h, 1 read-backs/day, 4 restarts/month (defaults: keepLast)',
      '    note: a delete cannot be undone',
      '    BROKEN purge (day 40): nothing ever purges it',
    ]);
  });

  it('says which requests a retention lock refuses and how long it keeps every version', () => {
    const released: StoreRetention = {
      ...kept,
      store: 'llm-releases',
      deleteRecoveryDays: null,
      overwriteRecoveryDays: null,
      lock: { days: 365, refuses: ['delete', 'overwrite'] },
    };
    expect(retentionLines([released]).slice(1, 4)).toEqual([
      '  llm-releases: recover a delete refused (the 365-day lock keeps it live), an overwrite refused (the 365-day lock keeps it live); non-live data purged within 9 days (spec: within 9)',
      '    an object overwritten hourly holds 49 stored copies; live checkpoints never expire',
      '    locked: no version goes before 365 days after its write (retention lock)',
    ]);
    const overwritable = {
      ...released,
      lock: { days: 30, refuses: ['delete' as const] },
      overwriteRecoveryDays: 8,
    };
    expect(retentionLines([overwritable])[1]).toContain('an overwrite for 8 days');
  });

  it('prints nothing for a render without stores', () => {
    expect(retentionLines([])).toEqual([]);
  });
});
