import type { Cloud } from '@checkpoints/config';

/** One list price of stored data, per GiB-month, in USD, with the page it was read from. */
export interface ListPrice {
  cloud: Cloud;
  region: string;
  storageClass: string;
  usdPerGiBMonth: number;
  source: string;
}

/**
 * List prices (pay-as-you-go, first volume tier, no discounts) of the storage classes the stacks use, in
 * the regions the shipped stacks use (AWS us-east-1, GCP us-central1, Azure eastus2), read on `PRICE_DATE`.
 * Not in the table because no page read could confirm them (so the projection reports them missing):
 * S3 GLACIER_IR in us-east-1, and every Azure eastus2 price (Hot ZRS, Cool ZRS, Premium ZRS block blob):
 * https://azure.microsoft.com/pricing/details/storage/blobs/ gave no readable figure.
 */
export const PRICE_DATE = '2026-12-01';

export const LIST_PRICES: readonly ListPrice[] = [
  // "This tier costs $0.023 per GB" (S3 Standard) and "only $0.0125 per GB" (Standard-IA), us-east-1; the
  // same $0.023 for Standard in US East (N. Virginia) "as of March 2026" at https://cloudburn.io/blog/amazon-s3-pricing.
  // Restatements of https://aws.amazon.com/s3/pricing/, which was not readable itself.
  {
    cloud: 'aws',
    region: 'us-east-1',
    storageClass: 'STANDARD',
    usdPerGiBMonth: 0.023,
    source: 'https://www.howtogeek.com/devops/aws-s3-pricing-explained-tiered-storage-can-save-you-money/',
  },
  {
    cloud: 'aws',
    region: 'us-east-1',
    storageClass: 'STANDARD_IA',
    usdPerGiBMonth: 0.0125,
    source: 'https://www.howtogeek.com/devops/aws-s3-pricing-explained-tiered-storage-can-save-you-money/',
  },
  // S3 FAQs, S3 Express One Zone example in US East (N. Virginia): "Total Storage cost = 10 GB-Month x $0.11".
  {
    cloud: 'aws',
    region: 'us-east-1',
    storageClass: 'EXPRESS_ONEZONE',
    usdPerGiBMonth: 0.11,
    source: 'https://aws.amazon.com/s3/faqs/',
  },
  // Cloud Storage pricing, Data storage, Regions: "Iowa (us-central1) $0.020 $0.010 $0.004 $0.0012"
  // (Standard, Nearline, Coldline, Archive per GB per month; GCS bills gibibytes).
  ...(
    [
      ['STANDARD', 0.02],
      ['NEARLINE', 0.01],
      ['ARCHIVE', 0.0012],
    ] as const
  ).map(([storageClass, usdPerGiBMonth]) => ({
    cloud: 'gcp' as const,
    region: 'us-central1',
    storageClass,
    usdPerGiBMonth,
    source: 'https://cloud.google.com/storage/pricing',
  })),
];

/** The list price of a class in a region, if the table has it (never a guess from another region). */
export function listPrice(cloud: Cloud, region: string, storageClass: string): ListPrice | undefined {
  return LIST_PRICES.find(
    (price) => price.cloud === cloud && price.region === region && price.storageClass === storageClass,
  );
}
