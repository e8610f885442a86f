import { AWS_REGIONS, AZURE_ZONAL_REGIONS, GCP_REGIONS, type Cloud } from '@checkpoints/config';
import { PRICE_TABLES, priceCoverage, priceOf, requiredPrices } from '../../src';

const CLOUDS: Cloud[] = ['aws', 'gcp', 'azure'];
const named = (prices: readonly { cloud: Cloud; region: string; item: string }[]) =>
  prices.map(({ cloud, region, item }) => `${cloud} ${region} ${item}`);

describe('price tables (libs/analysis/data/prices-<cloud>.json)', () => {
  it.each(CLOUDS)('%s: dated, every entry with a positive price, a unit and an http(s) source', (cloud) => {
    const table = PRICE_TABLES[cloud];
    expect(table.cloud).toBe(cloud);
    expect(table.retrieved).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const bad = table.prices.filter(
      (entry) => !(entry.usd > 0) || entry.unit.length === 0 || !/^https:\/\//.test(entry.source),
    );
    expect(bad).toEqual([]);
  });

  it('every region the config accepts has a price for every item a bill there can need', () => {
    const required = requiredPrices();
    // Each accepted region is asked for: the config's lists, not a copy of them.
    for (const [cloud, regions] of [
      ['aws', AWS_REGIONS],
      ['gcp', GCP_REGIONS],
      ['azure', AZURE_ZONAL_REGIONS],
    ] as const) {
      expect(new Set(required.filter((each) => each.cloud === cloud).map((each) => each.region))).toEqual(
        new Set(regions),
      );
    }
    // Named one per line, so a failure says exactly which price is missing.
    expect(named(priceCoverage(required).unpriced)).toEqual([]);
  });

  it('a price missing from every region of a table is named, cloud, region and item', () => {
    const required = [
      { cloud: 'aws' as const, region: 'eu-west-3', item: 'storage/STANDARD' },
      { cloud: 'aws' as const, region: 'eu-west-3', item: 'storage/DEEP_ARCHIVE' },
    ];
    const { unpriced, standIns } = priceCoverage(required);
    expect(named(unpriced)).toEqual(['aws eu-west-3 storage/DEEP_ARCHIVE']);
    expect(named(standIns)).toEqual(['aws eu-west-3 storage/STANDARD']);
  });

  it("a region's own price wins over another region's; a stand-in is the table's highest and says so", () => {
    expect(priceOf('gcp', 'us-east4', 'storage/STANDARD')?.entry.usd).toBe(0.023);
    expect(priceOf('gcp', 'us-east4', 'storage/STANDARD')?.estimated).toBeUndefined();
    const standIn = priceOf('gcp', 'asia-east1', 'storage/STANDARD');
    const highest = Math.max(
      ...PRICE_TABLES.gcp.prices.filter((e) => e.item === 'storage/STANDARD').map((e) => e.usd),
    );
    expect(standIn?.entry.usd).toBe(highest);
    expect(standIn?.estimated).toContain('no storage/STANDARD price for asia-east1');
  });
});
