#!/usr/bin/env node
/**
 * Rewrites the price tables libs/analysis/data/prices-<cloud>.json from the clouds' public price APIs:
 *
 *   npm run prices:refresh -- [--cloud=aws|gcp|azure] [--gcp-api-key=KEY] [--dry-run]
 *
 * - AWS Price List bulk API: the S3, KMS and CloudTrail offers' region index
 *   (https://pricing.us-east-1.amazonaws.com/offers/v1.0/aws/<offer>/current/region_index.json) and each
 *   region's offer file; "products" (sku -> attributes.usagetype) joined to terms.OnDemand (priceDimensions:
 *   unit, pricePerUnit.USD, beginRange), https://docs.aws.amazon.com/awsaccountbilling/latest/aboutv2/reading-an-offer.html.
 * - Cloud Billing Catalog API: GET https://cloudbilling.googleapis.com/v1/services/95FF-2EF5-5EA1/skus (Cloud
 *   Storage; an API key is required), each SKU's description, serviceRegions and
 *   pricingInfo[].pricingExpression (usageUnit, tieredRates[].unitPrice {units, nanos}),
 *   https://cloud.google.com/billing/docs/reference/rest/v1/services.skus/list.
 * - Azure Retail Prices API: GET https://prices.azure.com/api/retail/prices?$filter=..., Items[] with
 *   armRegionName, productName, meterName, skuName, unitOfMeasure, tierMinimumUnits and retailPrice, paged
 *   by NextPageLink, https://learn.microsoft.com/rest/api/cost-management/retail-prices/azure-retail-prices.
 *
 * Each entry the APIs price is replaced (and marked confirmed); an entry no response matches is kept as it
 * was and listed at the end, so a reviewer sees what the refresh could not read. Review the diff, commit.
 * This machine has no internet: the parsing below is tested on small recorded samples of the documented
 * response shapes (libs/analysis/tests/retention/refresh-prices.spec.ts), not on live responses.
 */
/* global fetch -- Node's built-in fetch (Node 18 and later) */
const { readFileSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { parseArgs } = require('node:util');

const DATA = join(__dirname, '..', 'data');
const AWS_OFFERS = 'https://pricing.us-east-1.amazonaws.com';
const GCS_SERVICE = '95FF-2EF5-5EA1';

/**
 * S3 usage types (after the region prefix, e.g. `USE1-`) and the table item each prices; the multiplier
 * turns the API's per-request price into the table's per-1,000 or per-10,000 unit.
 */
const AWS_USAGE_TYPES = [
  [/^TimedStorage-ByteHrs$/, 'storage/STANDARD', 1, 'GB-month'],
  [/^TimedStorage-SIA-ByteHrs$/, 'storage/STANDARD_IA', 1, 'GB-month'],
  [/^TimedStorage-GIR-ByteHrs$/, 'storage/GLACIER_IR', 1, 'GB-month'],
  [/^TimedStorage-XZ-ByteHrs$/, 'storage/EXPRESS_ONEZONE', 1, 'GB-month'],
  [/^Requests-Tier1$/, 'write/STANDARD', 1000, '1,000 requests'],
  [/^Requests-Tier2$/, 'read/STANDARD', 1000, '1,000 requests'],
  [/^Requests-SIA-Tier1$/, 'write/STANDARD_IA', 1000, '1,000 requests'],
  [/^Requests-SIA-Tier2$/, 'read/STANDARD_IA', 1000, '1,000 requests'],
  [/^Requests-GIR-Tier1$/, 'write/GLACIER_IR', 1000, '1,000 requests'],
  [/^Requests-GIR-Tier2$/, 'read/GLACIER_IR', 1000, '1,000 requests'],
  [/^Requests-XZ-Tier1$/, 'write/EXPRESS_ONEZONE', 1000, '1,000 requests'],
  [/^Requests-XZ-Tier2$/, 'read/EXPRESS_ONEZONE', 1000, '1,000 requests'],
  [/^Retrieval-SIA$/, 'retrieval/STANDARD_IA', 1, 'GB'],
  [/^Retrieval-GIR$/, 'retrieval/GLACIER_IR', 1, 'GB'],
  [/^XZ-Upload-Bytes$/, 'upload/EXPRESS_ONEZONE', 1, 'GB'],
  [/^XZ-Retrieval-Bytes$/, 'retrieval/EXPRESS_ONEZONE', 1, 'GB'],
  [/^S3-SIATransition$/, 'transition/STANDARD_IA', 1000, '1,000 requests'],
  [/^S3-GIRTransition$/, 'transition/GLACIER_IR', 1000, '1,000 requests'],
  [/^AWS-Out-Bytes$/, 'transfer/inter-region', 1, 'GB'],
  [/^KMS-Requests$/, 'kms/requests', 10_000, '10,000 requests'],
  [/^KMS-Keys$/, 'kms/key', 1, 'key-month'],
  [/^DataEventsRecorded$/, 'cloudtrail/data-events', 100_000, '100,000 events'],
];

/** The entries of one AWS offer file (one region): the first volume tier of each usage type we price. */
function parseAwsOffer(offer, source) {
  const entries = [];
  for (const [sku, product] of Object.entries(offer.products ?? {})) {
    const attributes = product.attributes ?? {};
    const region = attributes.regionCode;
    const usage = String(attributes.usagetype ?? '').replace(/^[A-Z]{2,4}[0-9]?-(?:[A-Z]{2,4}[0-9]?-)?/, '');
    const match = AWS_USAGE_TYPES.find(([pattern]) => pattern.test(usage));
    if (!region || !match) continue;
    // Inter-region transfer: the from-region's outbound price to another AWS region.
    if (match[1] === 'transfer/inter-region' && attributes.transferType !== 'InterRegion Outbound') continue;
    const dimensions = Object.values(offer.terms?.OnDemand?.[sku] ?? {}).flatMap((term) =>
      Object.values(term.priceDimensions ?? {}),
    );
    const first = dimensions.find((dimension) => Number(dimension.beginRange ?? 0) === 0);
    const usd = Number(first?.pricePerUnit?.USD);
    if (!first || !Number.isFinite(usd) || usd <= 0) continue;
    entries.push({
      region,
      item: match[1],
      usd: round(usd * match[2]),
      unit: match[3],
      source,
      note: `usage type ${attributes.usagetype}: ${first.description ?? ''}`.trim(),
    });
  }
  // Several destinations price inter-region transfer: keep the highest, a bill errs high.
  return highestPerItem(entries);
}

/** GCS SKU descriptions (Cloud Billing Catalog) and the table item each prices. */
const GCP_DESCRIPTIONS = [
  [/^Standard Storage (?!.*Dual-region)/i, 'storage/STANDARD', 'GiB-month'],
  [/^Nearline Storage (?!.*Dual-region)/i, 'storage/NEARLINE', 'GiB-month'],
  [/^Coldline Storage (?!.*Dual-region)/i, 'storage/COLDLINE', 'GiB-month'],
  [/^Archive Storage (?!.*Dual-region)/i, 'storage/ARCHIVE', 'GiB-month'],
  [/^Dual-region Standard Storage/i, 'dual-region-storage/STANDARD', 'GiB-month'],
  [/^Dual-region Nearline Storage/i, 'dual-region-storage/NEARLINE', 'GiB-month'],
  [/^Dual-region Coldline Storage/i, 'dual-region-storage/COLDLINE', 'GiB-month'],
  [/^Dual-region Archive Storage/i, 'dual-region-storage/ARCHIVE', 'GiB-month'],
];

/** Per-region storage entries from a page of Cloud Billing Catalog SKUs. */
function parseGcpSkus(page, source) {
  const entries = [];
  for (const sku of page.skus ?? []) {
    const match = GCP_DESCRIPTIONS.find(([pattern]) => pattern.test(sku.description ?? ''));
    const expression = sku.pricingInfo?.[0]?.pricingExpression;
    const rate =
      expression?.tieredRates?.find((tier) => Number(tier.startUsageAmount ?? 0) === 0) ??
      expression?.tieredRates?.[0];
    if (!match || !rate || sku.category?.usageType !== 'OnDemand') continue;
    const usd = Number(rate.unitPrice?.units ?? 0) + Number(rate.unitPrice?.nanos ?? 0) / 1e9;
    // A storage SKU is priced per GiB-month (usageUnit GiBy.mo); an hourly unit is turned into a month.
    const perMonth = expression.usageUnit === 'GiBy.h' ? usd * 730 : usd;
    if (!(perMonth > 0)) continue;
    for (const region of sku.serviceRegions ?? []) {
      entries.push({
        region,
        item: match[1],
        usd: round(perMonth),
        unit: match[2],
        source,
        note: `SKU ${sku.skuId}: ${sku.description}`,
      });
    }
  }
  return entries;
}

/** Azure meters (Retail Prices API) and the table item each prices. */
function azureItem(item) {
  const meter = item.meterName ?? '';
  const product = item.productName ?? '';
  const premium = product === 'Premium Block Blob';
  const hns = product === 'General Block Blob v2 Hierarchical Namespace';
  if (!premium && !hns && meter !== 'Geo-Replication Data Transfer') return undefined;
  const redundancy = (name) => name.replace('RA-GZRS', 'RAGZRS');
  let match = /^(Hot|Cool) (ZRS|GZRS|RA-GZRS|LRS) Data Stored$/.exec(meter);
  if (match) return [`storage/${match[1].toUpperCase()}_${redundancy(match[2])}`, 'GB-month'];
  match = /^Premium (ZRS|LRS) Data Stored$/.exec(meter);
  if (match) return [`storage/PREMIUM_${match[1]}`, 'GB-month'];
  match = /^(Hot|Cool) (ZRS|GZRS|RA-GZRS|LRS) Write Operations$/.exec(meter);
  if (match) return [`write/${match[1].toUpperCase()}_${redundancy(match[2])}`, '10,000 operations'];
  if (premium && /Write Operations$/.test(meter)) return ['write/PREMIUM', '10,000 operations'];
  match = /^(Hot|Cool|Premium) Read Operations$/.exec(meter);
  if (match) return [`read/${match[1].toUpperCase()}`, '10,000 operations'];
  match = /^(Hot|Cool|Premium)? ?Iterative Read Operations$/.exec(meter);
  if (match)
    return [`list/${(match[1] ?? (premium ? 'Premium' : 'Hot')).toUpperCase()}`, '10,000 operations'];
  match = /^(Hot|Cool|Premium)? ?Iterative Write Operations$/.exec(meter);
  if (match)
    return [`iterative-write/${(match[1] ?? (premium ? 'Premium' : 'Hot')).toUpperCase()}`, '100 operations'];
  if (/^Cool Data Retrieval$/.test(meter)) return ['retrieval/COOL', 'GB'];
  if (meter === 'Geo-Replication Data Transfer') return ['geo-replication', 'GB'];
  return undefined;
}

/** The unit the table uses for an API unitOfMeasure, with the factor from the API's to it. */
const AZURE_UNITS = { '1 GB/Month': 1, '1 GB': 1, '10K': 1, 100: 1, '1/Month': 1 };

/** Entries from one page of Retail Prices API items (first tier, consumption prices only). */
function parseAzureItems(page, source) {
  const entries = [];
  for (const item of page.Items ?? []) {
    if (item.type !== 'Consumption' || Number(item.tierMinimumUnits ?? 0) !== 0) continue;
    const mapped = azureItem(item);
    if (!mapped || !(item.unitOfMeasure in AZURE_UNITS) || !(item.retailPrice > 0)) continue;
    entries.push({
      region: item.armRegionName,
      item: mapped[0],
      usd: round(item.retailPrice * AZURE_UNITS[item.unitOfMeasure]),
      unit: mapped[1],
      source,
      note: `${item.productName}, meter '${item.meterName}' (${item.unitOfMeasure})`,
    });
  }
  return entries;
}

/** The table with the fetched entries in place of the old ones, and the old entries nothing replaced. */
function mergeTable(table, fetched, retrieved) {
  const key = (entry) => `${entry.region} ${entry.item}`;
  const fresh = new Map(fetched.map((entry) => [key(entry), entry]));
  const kept = table.prices.filter((entry) => !fresh.has(key(entry)));
  const prices = [...fresh.values(), ...kept].sort((a, b) => key(a).localeCompare(key(b)));
  return { table: { ...table, retrieved, prices }, notRefreshed: kept.map(key) };
}

function highestPerItem(entries) {
  const best = new Map();
  for (const entry of entries) {
    const key = `${entry.region} ${entry.item}`;
    if (!best.has(key) || best.get(key).usd < entry.usd) best.set(key, entry);
  }
  return [...best.values()];
}

function round(value) {
  return Number(value.toPrecision(6));
}

async function getJson(url) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
  return response.json();
}

async function fetchAws() {
  const entries = [];
  for (const offer of ['AmazonS3', 'awskms', 'AWSCloudTrail']) {
    const index = await getJson(`${AWS_OFFERS}/offers/v1.0/aws/${offer}/current/region_index.json`);
    for (const region of Object.values(index.regions ?? {})) {
      const url = `${AWS_OFFERS}${region.currentVersionUrl}`;
      entries.push(...parseAwsOffer(await getJson(url), url));
    }
  }
  return entries;
}

async function fetchGcp(apiKey) {
  if (!apiKey) throw new Error('--gcp-api-key is required: the Cloud Billing Catalog API takes an API key');
  const entries = [];
  let pageToken = '';
  do {
    const url = `https://cloudbilling.googleapis.com/v1/services/${GCS_SERVICE}/skus?pageSize=5000&key=${encodeURIComponent(apiKey)}${pageToken ? `&pageToken=${pageToken}` : ''}`;
    const page = await getJson(url);
    entries.push(
      ...parseGcpSkus(page, `https://cloudbilling.googleapis.com/v1/services/${GCS_SERVICE}/skus`),
    );
    pageToken = page.nextPageToken ?? '';
  } while (pageToken);
  return entries;
}

async function fetchAzure() {
  const entries = [];
  const filter = "serviceName eq 'Storage' and priceType eq 'Consumption'";
  let url = `https://prices.azure.com/api/retail/prices?$filter=${encodeURIComponent(filter)}`;
  while (url) {
    const page = await getJson(url);
    entries.push(...parseAzureItems(page, 'https://prices.azure.com/api/retail/prices'));
    url = page.NextPageLink ?? '';
  }
  return entries;
}

async function main(argv) {
  const { values } = parseArgs({
    args: argv,
    options: { cloud: { type: 'string' }, 'gcp-api-key': { type: 'string' }, 'dry-run': { type: 'boolean' } },
  });
  const clouds = values.cloud ? [values.cloud] : ['aws', 'gcp', 'azure'];
  const unknown = clouds.filter((cloud) => !['aws', 'gcp', 'azure'].includes(cloud));
  if (unknown.length > 0) {
    console.error(`--cloud ${unknown.join(', ')}: allowed aws, gcp or azure`);
    return 2;
  }
  const retrieved = new Date().toISOString().slice(0, 10);
  for (const cloud of clouds) {
    const file = join(DATA, `prices-${cloud}.json`);
    const fetched =
      cloud === 'aws'
        ? await fetchAws()
        : cloud === 'gcp'
          ? await fetchGcp(values['gcp-api-key'])
          : await fetchAzure();
    const { table, notRefreshed } = mergeTable(JSON.parse(readFileSync(file, 'utf8')), fetched, retrieved);
    console.log(
      `${cloud}: ${fetched.length} prices read; not refreshed (kept as they were): ${notRefreshed.join(', ') || 'none'}`,
    );
    if (!values['dry-run']) writeFileSync(file, `${JSON.stringify(table, null, 2)}\n`);
  }
  return 0;
}

module.exports = { parseAwsOffer, parseGcpSkus, parseAzureItems, mergeTable };

if (require.main === module) {
  main(process.argv.slice(2)).then(
    (code) => {
      process.exitCode = code;
    },
    (error) => {
      console.error(`prices:refresh: ${error.message}`);
      process.exitCode = 1;
    },
  );
}
