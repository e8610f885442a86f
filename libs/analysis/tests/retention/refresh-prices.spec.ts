/**
 * The refresh script's parsing, on small recorded samples that follow each API's documented response
 * shape (the script cannot reach the APIs from this machine): AWS offer files
 * (https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/reading-an-offer.html), Cloud Billing
 * Catalog SKUs (https://cloud.google.com/billing/docs/reference/rest/v1/services.skus/list) and Azure
 * Retail Prices items (https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices).
 */
import { PRICE_TABLES } from '../../src';

// eslint-disable-next-line @typescript-eslint/no-require-imports
const refresh = require('../../scripts/refresh-prices.cjs') as {
  parseAwsOffer(offer: unknown, source: string): Entry[];
  parseGcpSkus(page: unknown, source: string): Entry[];
  parseAzureItems(page: unknown, source: string): Entry[];
  mergeTable(
    table: unknown,
    fetched: Entry[],
    retrieved: string,
  ): { table: { retrieved: string; prices: Entry[] }; notRefreshed: string[] };
};

interface Entry {
  region: string;
  item: string;
  usd: number;
  unit: string;
  source: string;
  confirmed?: boolean;
}

const onDemand = (sku: string, dimensions: { beginRange: string; usd: string; unit: string }[]) => ({
  [`${sku}.JRTCKXETXF`]: {
    offerTermCode: 'JRTCKXETXF',
    sku,
    priceDimensions: Object.fromEntries(
      dimensions.map((dimension, index) => [
        `${sku}.JRTCKXETXF.${index}`,
        {
          unit: dimension.unit,
          beginRange: dimension.beginRange,
          endRange: 'Inf',
          description: `$${dimension.usd} per ${dimension.unit}`,
          pricePerUnit: { USD: dimension.usd },
        },
      ]),
    ),
  },
});

describe('prices:refresh parsing (recorded samples of the documented shapes)', () => {
  it('AWS offer file: the first volume tier of each usage type, per request turned per 1,000', () => {
    const offer = {
      formatVersion: 'v1.0',
      offerCode: 'AmazonS3',
      products: {
        A: {
          sku: 'A',
          productFamily: 'Storage',
          attributes: { regionCode: 'eu-west-3', usagetype: 'EUW3-TimedStorage-ByteHrs' },
        },
        B: {
          sku: 'B',
          productFamily: 'API Request',
          attributes: { regionCode: 'eu-west-3', usagetype: 'EUW3-Requests-Tier1' },
        },
        C: {
          sku: 'C',
          productFamily: 'Data Transfer',
          attributes: {
            regionCode: 'eu-west-3',
            usagetype: 'EUW3-USE1-AWS-Out-Bytes',
            transferType: 'InterRegion Outbound',
          },
        },
        D: {
          sku: 'D',
          productFamily: 'Storage',
          attributes: { regionCode: 'eu-west-3', usagetype: 'EUW3-TimedStorage-GDA-ByteHrs' },
        },
      },
      terms: {
        OnDemand: {
          A: onDemand('A', [
            { beginRange: '0', usd: '0.0240000000', unit: 'GB-Mo' },
            { beginRange: '51200', usd: '0.0230000000', unit: 'GB-Mo' },
          ]),
          B: onDemand('B', [{ beginRange: '0', usd: '0.0000053000', unit: 'Requests' }]),
          C: onDemand('C', [{ beginRange: '0', usd: '0.0200000000', unit: 'GB' }]),
          D: onDemand('D', [{ beginRange: '0', usd: '0.0018000000', unit: 'GB-Mo' }]),
        },
      },
    };
    const entries = refresh.parseAwsOffer(offer, 'offer-url');
    expect(entries.map(({ region, item, usd, unit }) => ({ region, item, usd, unit }))).toEqual([
      { region: 'eu-west-3', item: 'storage/STANDARD', usd: 0.024, unit: 'GB-month' },
      { region: 'eu-west-3', item: 'write/STANDARD', usd: 0.0053, unit: '1,000 requests' },
      { region: 'eu-west-3', item: 'transfer/inter-region', usd: 0.02, unit: 'GB' },
    ]);
  });

  it('Cloud Billing Catalog: per-region storage from units + nanos, an hourly SKU made monthly', () => {
    const page = {
      skus: [
        {
          skuId: 'E5F0-6A5D-7BAD',
          description: 'Standard Storage Tokyo',
          category: { resourceFamily: 'Storage', resourceGroup: 'RegionalStorage', usageType: 'OnDemand' },
          serviceRegions: ['asia-northeast1'],
          pricingInfo: [
            {
              pricingExpression: {
                usageUnit: 'GiBy.mo',
                tieredRates: [
                  { startUsageAmount: 0, unitPrice: { currencyCode: 'USD', units: '0', nanos: 23000000 } },
                ],
              },
            },
          ],
        },
        {
          skuId: '1111-2222-3333',
          description: 'Dual-region Standard Storage Tokyo',
          category: {
            resourceFamily: 'Storage',
            resourceGroup: 'DualRegionalStorage',
            usageType: 'OnDemand',
          },
          serviceRegions: ['asia-northeast1'],
          pricingInfo: [
            {
              pricingExpression: {
                usageUnit: 'GiBy.h',
                tieredRates: [
                  { startUsageAmount: 0, unitPrice: { currencyCode: 'USD', units: '0', nanos: 34247 } },
                ],
              },
            },
          ],
        },
        {
          skuId: '4444-5555-6666',
          description: 'Standard Storage Tokyo (commitment)',
          category: { resourceFamily: 'Storage', usageType: 'Commit1Yr' },
          serviceRegions: ['asia-northeast1'],
          pricingInfo: [
            { pricingExpression: { usageUnit: 'GiBy.mo', tieredRates: [{ unitPrice: { nanos: 1 } }] } },
          ],
        },
      ],
      nextPageToken: '',
    };
    const entries = refresh.parseGcpSkus(page, 'catalog');
    expect(entries.map(({ region, item, usd }) => ({ region, item, usd }))).toEqual([
      { region: 'asia-northeast1', item: 'storage/STANDARD', usd: 0.023 },
      { region: 'asia-northeast1', item: 'dual-region-storage/STANDARD', usd: 0.0250003 },
    ]);
  });

  it('Azure Retail Prices: hierarchical-namespace and premium meters, first tier, consumption only', () => {
    const item = (
      productName: string,
      meterName: string,
      retailPrice: number,
      unitOfMeasure: string,
      tierMinimumUnits = 0,
    ) => ({
      currencyCode: 'USD',
      tierMinimumUnits,
      retailPrice,
      unitPrice: retailPrice,
      armRegionName: 'westeurope',
      location: 'EU West',
      meterName,
      productName,
      skuName: meterName.split(' ').slice(0, 2).join(' '),
      serviceName: 'Storage',
      unitOfMeasure,
      type: 'Consumption',
    });
    const hns = 'General Block Blob v2 Hierarchical Namespace';
    const page = {
      BillingCurrency: 'USD',
      Items: [
        item(hns, 'Hot ZRS Data Stored', 0.025, '1 GB/Month'),
        item(hns, 'Hot ZRS Data Stored', 0.024, '1 GB/Month', 51200),
        item(hns, 'Hot RA-GZRS Data Stored', 0.056, '1 GB/Month'),
        item(hns, 'Hot GZRS Write Operations', 0.15, '10K'),
        item('Premium Block Blob', 'Premium ZRS Data Stored', 0.2, '1 GB/Month'),
        item('General Block Blob v2', 'Hot ZRS Data Stored', 0.021, '1 GB/Month'),
      ],
      NextPageLink: null,
      Count: 6,
    };
    const entries = refresh.parseAzureItems(page, 'retail');
    expect(entries.map(({ region, item: name, usd, unit }) => ({ region, item: name, usd, unit }))).toEqual([
      { region: 'westeurope', item: 'storage/HOT_ZRS', usd: 0.025, unit: 'GB-month' },
      { region: 'westeurope', item: 'storage/HOT_RAGZRS', usd: 0.056, unit: 'GB-month' },
      { region: 'westeurope', item: 'write/HOT_GZRS', usd: 0.15, unit: '10,000 operations' },
      { region: 'westeurope', item: 'storage/PREMIUM_ZRS', usd: 0.2, unit: 'GB-month' },
    ]);
  });

  it('a merge replaces what the API priced, marks it confirmed, and names what it kept as it was', () => {
    const fetched: Entry[] = [
      { region: 'eastus2', item: 'storage/HOT_ZRS', usd: 0.0235, unit: 'GB-month', source: 'retail' },
    ];
    const { table, notRefreshed } = refresh.mergeTable(PRICE_TABLES.azure, fetched, '2027-01-05');
    expect(table.retrieved).toBe('2027-01-05');
    expect(table.prices.find((entry) => entry.item === 'storage/HOT_ZRS')).toEqual(fetched[0]);
    expect(notRefreshed).toContain('eastus2 storage/HOT_GZRS');
    expect(notRefreshed).not.toContain('eastus2 storage/HOT_ZRS');
    expect(table.prices).toHaveLength(PRICE_TABLES.azure.prices.length);
  });
});
