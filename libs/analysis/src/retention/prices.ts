import type { Cloud } from '@checkpoints/config';
import awsTable from '../../data/prices-aws.json';
import gcpTable from '../../data/prices-gcp.json';
import azureTable from '../../data/prices-azure.json';

/**
 * The clouds' list prices as data: one dated table per cloud in `libs/analysis/data/prices-<cloud>.json`,
 * each entry with its unit and source, rewritten by `npm run prices:refresh`
 * (libs/analysis/scripts/refresh-prices.mjs) from the AWS Price List API, the Cloud Billing Catalog API
 * and the Azure Retail Prices API. docs/costs.md explains the items.
 */
export interface PriceEntry {
  /** The region the price is for; `*` where the source gives one price for every region. */
  region: string;
  /** What is priced: `storage/STANDARD`, `write/HOT_ZRS`, `transfer/inter-region`, ... */
  item: string;
  usd: number;
  /** What one `usd` buys: `GB-month`, `1,000 requests`, `GiB`, ... */
  unit: string;
  source: string;
  /** The words of the source the figure was read from, or its API meter. */
  note?: string;
  /** false: the figure could not be read from its source when the table was written (shown on every bill line). */
  confirmed?: boolean;
}

export interface PriceTable {
  cloud: Cloud;
  currency: string;
  /** When the table's figures were read (YYYY-MM-DD). */
  retrieved: string;
  sources: Record<string, unknown>;
  note: string;
  prices: PriceEntry[];
}

export const PRICE_TABLES: Readonly<Record<Cloud, PriceTable>> = {
  aws: awsTable as PriceTable,
  gcp: gcpTable as PriceTable,
  azure: azureTable as PriceTable,
};

/** A price as a bill line uses it: the entry, and why it is not the region's own when it is not. */
export interface PriceUse {
  entry: PriceEntry;
  /** Set when the table has no price for the region: what stands in for it. */
  estimated?: string;
}

/**
 * The price of an item in a region: the region's own entry, else the table's every-region (`*`) entry,
 * else the highest price any region of the table has for the item (an estimate that errs high, and says
 * so); undefined when the table has no price for the item at all.
 */
export function priceOf(cloud: Cloud, region: string, item: string): PriceUse | undefined {
  const table = PRICE_TABLES[cloud];
  const entries = table.prices.filter((entry) => entry.item === item);
  const own =
    entries.find((entry) => entry.region === region) ?? entries.find((entry) => entry.region === '*');
  if (own) return { entry: own };
  const highest = entries.reduce<PriceEntry | undefined>(
    (top, entry) => (top === undefined || entry.usd > top.usd ? entry : top),
    undefined,
  );
  if (!highest) return undefined;
  return {
    entry: highest,
    estimated: `no ${item} price for ${region} in the ${cloud} table of ${table.retrieved}: the table's highest (${highest.region}) stands in; npm run prices:refresh reads the region's own`,
  };
}

/** Whether the table holds the region's own price for the item (or an every-region one). */
export function hasOwnPrice(cloud: Cloud, region: string, item: string): boolean {
  return PRICE_TABLES[cloud].prices.some(
    (entry) => entry.item === item && (entry.region === region || entry.region === '*'),
  );
}
