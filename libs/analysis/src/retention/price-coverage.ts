/**
 * Which prices a bill can need: every region the config accepts (libs/config's published region lists)
 * with every item the bill prices for the storage classes the stacks render there. The coverage test
 * holds the tables to it, and `npm run prices:refresh` asks the clouds' price APIs for exactly these.
 */
import {
  AWS_REGIONS,
  AZURE_GZRS_REGIONS,
  AZURE_ZONAL_REGIONS,
  GCP_REGIONS,
  GCS_DUAL_REGION_GROUPS,
  S3_EXPRESS_ZONES,
  type Cloud,
} from '@checkpoints/config';
import { hasOwnPrice, priceOf } from './prices';

/** A price a bill can need. */
export interface RequiredPrice {
  cloud: Cloud;
  region: string;
  item: string;
}

/** S3 classes of a general purpose bucket: STANDARD, and the cool and archive lifecycle classes. */
const S3_CLASSES = ['STANDARD', 'STANDARD_IA', 'GLACIER_IR'];
const S3_COLD = ['STANDARD_IA', 'GLACIER_IR'];
const S3_REGION_ITEMS = [
  ...S3_CLASSES.flatMap((name) => [`storage/${name}`, `write/${name}`, `read/${name}`]),
  ...S3_COLD.flatMap((name) => [`retrieval/${name}`, `transition/${name}`]),
  'transfer/inter-region',
  'kms/requests',
  'kms/key',
  'cloudtrail/data-events',
];
const S3_EXPRESS_ITEMS = ['storage', 'write', 'read', 'upload', 'retrieval'].map(
  (kind) => `${kind}/EXPRESS_ONEZONE`,
);
/** GCS classes the stacks render: the bucket's STANDARD and the cool (NEARLINE) and archive (ARCHIVE) rules. */
const GCS_CLASSES = ['STANDARD', 'NEARLINE', 'ARCHIVE'];
const GCS_EVERY_REGION_ITEMS = [
  ...GCS_CLASSES.flatMap((name) => [`classA/${name}`, `classB/${name}`]),
  'dual-region-classA/STANDARD',
  'retrieval/NEARLINE',
  'retrieval/ARCHIVE',
  'replication/default',
  'replication/turbo',
  'cache/storage',
  'cache/ingest',
  'cache/operations',
  'cache/transfer-out',
  'kms/key-version',
  'kms/operations',
  'logging/ingestion',
];
/** ADLS accounts the stacks render: Standard ZRS (GZRS, RA-GZRS with a replica region) Hot with Cool tiering, Premium ZRS. */
const ADLS_TIERED = (redundancy: string) => ['HOT', 'COOL'].map((tier) => `${tier}_${redundancy}`);
const ADLS_COMMON_ITEMS = [
  'storage/PREMIUM_ZRS',
  'write/PREMIUM',
  ...['HOT', 'COOL', 'PREMIUM'].flatMap((tier) => [
    `read/${tier}`,
    `list/${tier}`,
    `iterative-write/${tier}`,
  ]),
  'retrieval/COOL',
  'keyvault/operations',
  'loganalytics/ingestion',
];

/** Every price a bill in any accepted region can need. */
export function requiredPrices(): RequiredPrice[] {
  const aws = AWS_REGIONS.flatMap((region) =>
    [...S3_REGION_ITEMS, ...(S3_EXPRESS_ZONES[region] ? S3_EXPRESS_ITEMS : [])].map((item) => ({
      cloud: 'aws' as const,
      region,
      item,
    })),
  );
  const dualRegions = new Set(Object.values(GCS_DUAL_REGION_GROUPS).flat());
  const gcp = GCP_REGIONS.flatMap((region) =>
    [
      ...GCS_CLASSES.map((name) => `storage/${name}`),
      ...(dualRegions.has(region) ? GCS_CLASSES.map((name) => `dual-region-storage/${name}`) : []),
      ...GCS_EVERY_REGION_ITEMS,
    ].map((item) => ({ cloud: 'gcp' as const, region, item })),
  );
  const azure = AZURE_ZONAL_REGIONS.flatMap((region) => {
    const redundancies = AZURE_GZRS_REGIONS.includes(region) ? ['ZRS', 'GZRS', 'RAGZRS'] : ['ZRS'];
    const classes = redundancies.flatMap(ADLS_TIERED);
    return [
      ...classes.flatMap((name) => [`storage/${name}`, `write/${name}`]),
      ...(redundancies.length > 1 ? ['geo-replication'] : []),
      ...ADLS_COMMON_ITEMS,
    ].map((item) => ({ cloud: 'azure' as const, region, item }));
  });
  return [...aws, ...gcp, ...azure];
}

/** How the tables cover the required prices: none at all (a bill line would be missing), or another region's. */
export function priceCoverage(required: readonly RequiredPrice[] = requiredPrices()): {
  unpriced: RequiredPrice[];
  standIns: RequiredPrice[];
} {
  return {
    unpriced: required.filter(({ cloud, region, item }) => priceOf(cloud, region, item) === undefined),
    standIns: required.filter(
      ({ cloud, region, item }) =>
        priceOf(cloud, region, item) !== undefined && !hasOwnPrice(cloud, region, item),
    ),
  };
}
