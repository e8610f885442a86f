/**
 * The whole monthly bill of one store: storage per class (from the retention replay: live, noncurrent and
 * soft-deleted bytes), minimum-duration (early-deletion) charges, requests, per-GB transfer charges,
 * replication, caches, key operations and audit-log volume, each line with the price it used (unit and
 * source, from the dated tables in prices.ts) and the workload figure it multiplied. Pure: no cloud call.
 */
import type { Cloud, WorkloadSpec } from '@checkpoints/config';
import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import { PRICE_TABLES, priceOf } from './prices';
import { list, record } from './values';

const GIB = 2 ** 30;
/** The hours of an average month, as every cloud's calculator counts them (8,760 / 12). */
export const HOURS_PER_MONTH = 730;
const DAYS_PER_MONTH = HOURS_PER_MONTH / 24;
/**
 * The part size the bill assumes a job uploads and reads a checkpoint in (multipart upload parts, ranged
 * reads, resumable-upload chunks): each part is one request. Stated on every request line.
 */
export const PART_MIB = 64;
/**
 * ADLS Gen2 bills every 4 MiB of a read or write as one operation ("Transaction costs", Azure Data Lake
 * Storage Gen2 pricing, https://azure.microsoft.com/pricing/details/storage/data-lake/).
 */
const ADLS_OPERATION_MIB = 4;
/**
 * S3 Express One Zone charges per GB "for the portion of the request exceeding 512 KB" of each PUT and GET
 * (S3 FAQs, S3 Express One Zone billing, https://aws.amazon.com/s3/faqs/).
 */
const EXPRESS_FREE_MIB_PER_REQUEST = 0.5;
/**
 * S3 Bucket Keys "reduce request traffic from Amazon S3 to AWS KMS ... by up to 99 percent"
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucket-key.html); directory buckets always use
 * them with SSE-KMS (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-UsingKMSEncryption.html).
 */
const BUCKET_KEY_REQUEST_SHARE = 0.01;
/**
 * Size of one audit log entry (a Data Access log entry, a storage diagnostic log record), an assumption
 * stated on the line: neither cloud publishes an entry size, and their examples run from about 1 to 2 KB.
 */
export const AUDIT_ENTRY_BYTES = 1_500;
/**
 * Minimum storage durations: a copy removed or moved earlier is billed for the rest. S3 Standard-IA 30
 * days, Glacier Instant Retrieval 90 (https://aws.amazon.com/s3/pricing/, "minimum storage duration
 * charge"); GCS Nearline 30, Coldline 90, Archive 365 (https://cloud.google.com/storage/pricing#early-delete);
 * Azure Cool 30 (https://learn.microsoft.com/azure/storage/blobs/access-tiers-overview#early-deletion).
 */
const MINIMUM_DAYS: Readonly<Record<Cloud, Readonly<Record<string, number>>>> = {
  aws: { STANDARD_IA: 30, GLACIER_IR: 90 },
  gcp: { NEARLINE: 30, COLDLINE: 90, ARCHIVE: 365 },
  azure: { COOL: 30 },
};

/** One line of a store's bill. */
export interface BillLine {
  /** What is charged, e.g. `storage STANDARD`, `replication transfer to us-west-2`. */
  what: string;
  quantity: number;
  /** The unit of `quantity`, the same as the price's. */
  unit: string;
  usd: number;
  price: {
    item: string;
    region: string;
    usdPerUnit: number;
    unit: string;
    source: string;
    /** false: the figure was not readable from its source when the table was written. */
    confirmed: boolean;
    /** Set when the table has no price for the store's region: what stood in for it. */
    estimated?: string;
  };
  /** The workload figure the quantity came from, in words. */
  workload: string;
}

/** What `analysis.retention[].projection.bill` carries. */
export interface StoreBill {
  currency: 'USD';
  /** Sum of the lines, per month; null when a line's price is in no table (see `missing`). */
  total: number | null;
  lines: BillLine[];
  /** The workload the bill priced, every key, and which of them took the documented default. */
  workload: WorkloadSpec & { defaulted: string[] };
  /** Each cloud table the lines read, with its date. */
  priceTables: { cloud: Cloud; retrieved: string }[];
  /** Items no table prices: the total is null while any is here. */
  missing: string[];
  /** Lines priced at an unconfirmed figure or at another region's rate. */
  caveats: string[];
  /**
   * The bill of the store's independent copy (`recovery.independentCopy`), in the store's region; null: none
   * configured. Its total is not in `total`, the store's own.
   */
  independentCopy: StoreBill | null;
}

/** What the bill reads besides the store's resources. */
export interface BillInputs {
  cloud: Cloud;
  /** AWS region, GCS bucket location or Azure location; undefined when the render does not say. */
  location: string | undefined;
  resources: readonly RenderedResource[];
  /** Every resource of the render (a stack trail records several stores' data events). */
  renderResources: readonly RenderedResource[];
  /** Whether the store's spec records data access (GCP Data Access logs are project settings, not resources). */
  audit: boolean;
  workload: WorkloadSpec;
  defaulted: readonly string[];
  /** Mean stored bytes per storage class, every state (live, noncurrent, soft-deleted) together. */
  bytesByClass: Record<string, number>;
  /** Hours one checkpoint's copies spend in each class, from its write until the last copy is purged. */
  checkpointClassHours: Record<string, number>;
  /** Mean stored bytes of latest.pt's copies (the replica keeps the same as the source). */
  latestBytes: number;
  /** The classes a live checkpoint passes through with its age, [class, from hour]. */
  classes: readonly [string, number][];
  /** Hours a checkpoint stays live before the job deletes it. */
  keptHours: number;
  /** `recovery.independentCopy.retentionDays`; 0: the store has no independent copy. */
  copyDays: number;
}

/** The workload's monthly counts the lines multiply. */
interface Volume {
  checkpoints: number;
  objectWrites: number;
  writtenGiB: number;
  partsPerObject: number;
  readObjects: number;
  readGiB: number;
  lists: number;
  deletes: number;
}

function volumeOf(workload: WorkloadSpec): Volume {
  const checkpoints = HOURS_PER_MONTH / workload.intervalHours;
  const latest = workload.latestOverwriteHours > 0 ? HOURS_PER_MONTH / workload.latestOverwriteHours : 0;
  const readObjects = workload.readBacksPerDay * DAYS_PER_MONTH + workload.restartsPerMonth;
  return {
    checkpoints,
    objectWrites: checkpoints + latest,
    writtenGiB: (checkpoints + latest) * workload.checkpointSizeGiB,
    partsPerObject: Math.max(1, Math.ceil((workload.checkpointSizeGiB * 1024) / PART_MIB)),
    readObjects,
    readGiB: readObjects * workload.checkpointSizeGiB,
    lists: readObjects,
    deletes: checkpoints,
  };
}

/** Collects lines, pricing each from the cloud's table in the store's region. */
class Lines {
  readonly lines: BillLine[] = [];
  readonly missing: string[] = [];
  readonly caveats = new Set<string>();

  constructor(
    private readonly cloud: Cloud,
    private readonly region: string,
  ) {}

  add(what: string, item: string, quantity: number, workload: string, region = this.region): void {
    if (quantity <= 0) return;
    const use = priceOf(this.cloud, region, item);
    if (!use) {
      this.missing.push(`${this.cloud} ${region} ${item}`);
      return;
    }
    const { entry } = use;
    const confirmed = entry.confirmed !== false;
    if (!confirmed) this.caveats.add(`unconfirmed price: ${entry.item} (${entry.region})`);
    if (use.estimated) this.caveats.add(use.estimated);
    this.lines.push({
      what,
      quantity: Number(quantity.toPrecision(6)),
      unit: entry.unit,
      usd: round(quantity * entry.usd, 4),
      price: {
        item: entry.item,
        region: entry.region,
        usdPerUnit: entry.usd,
        unit: entry.unit,
        source: entry.source,
        confirmed,
        ...(use.estimated ? { estimated: use.estimated } : {}),
      },
      workload,
    });
  }
}

/** The store's whole monthly bill under its workload. */
export function billStore(inputs: BillInputs): StoreBill {
  const { cloud, workload } = inputs;
  const workloadOut = { ...workload, defaulted: [...inputs.defaulted] };
  if (inputs.location === undefined) {
    return {
      currency: 'USD',
      total: null,
      lines: [],
      workload: workloadOut,
      priceTables: [{ cloud, retrieved: PRICE_TABLES[cloud].retrieved }],
      missing: [`${cloud}: the store's region is not in the render`],
      caveats: [],
      independentCopy: null,
    };
  }
  const lines = new Lines(cloud, inputs.location);
  const volume = volumeOf(workload);
  if (cloud === 'aws') awsLines(inputs, volume, lines);
  else if (cloud === 'gcp') gcpLines(inputs, volume, lines);
  else azureLines(inputs, volume, lines);
  return {
    ...finished(lines, cloud, workloadOut),
    independentCopy: inputs.copyDays > 0 ? copyBill(inputs, volume, workloadOut) : null,
  };
}

function finished(lines: Lines, cloud: Cloud, workload: StoreBill['workload']) {
  const total = lines.lines.reduce((sum, line) => sum + line.usd, 0);
  return {
    currency: 'USD' as const,
    total: lines.missing.length > 0 ? null : round(total, 2),
    lines: lines.lines,
    workload,
    priceTables: [{ cloud, retrieved: PRICE_TABLES[cloud].retrieved }],
    missing: lines.missing,
    caveats: [...lines.caveats],
  };
}

/**
 * The independent copy's storage, taken as every version the store holds plus every version written in the copy's
 * days (an upper bound: versions in both are counted twice).
 * - AWS: AWS Backup "backs up and stores all unexpired versions of your S3 data"
 *   (https://docs.aws.amazon.com/aws-backup/latest/devguide/s3-backups.html) and keeps what the store deleted for
 *   the copy's days, priced at AWS Backup's S3 backup storage rate (https://aws.amazon.com/backup/pricing/).
 * - Azure: a vaulted backup is billed as a protected instance fee plus the backup storage it holds
 *   (https://azure.microsoft.com/pricing/details/backup/); neither figure for vaulted backup of ADLS (a preview) could
 *   be read from the pricing page or the Retail Prices API, so both items stay out of the price table and the bill
 *   lists them as missing, never as zero.
 * - GCP: gcpCopyLines (Cloud Storage charges of the copy bucket and its transfers).
 */
function copyBill(inputs: BillInputs, volume: Volume, workload: StoreBill['workload']): StoreBill {
  const location = inputs.location ?? '';
  const lines = new Lines(inputs.cloud, location);
  const storedGiB = Object.values(inputs.bytesByClass).reduce((sum, bytes) => sum + bytes, 0) / GIB;
  const deletedGiB = (volume.writtenGiB / DAYS_PER_MONTH) * inputs.copyDays;
  if (inputs.cloud === 'gcp') {
    gcpCopyLines(inputs, volume, lines, storedGiB, deletedGiB);
    return { ...finished(lines, inputs.cloud, workload), independentCopy: null };
  }
  const held = `every version the store holds (${fixed(storedGiB)} GiB) plus what it writes in the copy's ${inputs.copyDays} days (${fixed(deletedGiB)} GiB): an upper bound`;
  if (inputs.cloud === 'azure') {
    lines.add(
      'independent copy: Azure Backup protected instance (vaulted backup of ADLS)',
      'backup/ADLS_PROTECTED_INSTANCE',
      1,
      "the store's account, one backup instance",
    );
    lines.add(
      'independent copy: Azure Backup vault storage',
      'backup/ADLS_VAULT_STORAGE',
      storedGiB + deletedGiB,
      held,
    );
  } else {
    lines.add('independent copy: AWS Backup S3 backup storage', 'backup/S3', storedGiB + deletedGiB, held);
  }
  return { ...finished(lines, inputs.cloud, workload), independentCopy: null };
}

/** A transfer run lists the source and the sink: one list call each returns up to 1,000 objects. */
const GCP_COPY_RUNS_PER_MONTH = HOURS_PER_MONTH;

/**
 * The GCP copy (docs/gcp.md "Independent copy"): "agentless transfers", Cloud Storage to Cloud Storage among them,
 * carry no Storage Transfer Service charge, only Cloud Storage's own: storage, an operation per object added, the
 * list calls of each run on the source and the sink, and data transfer between locations
 * (https://cloud.google.com/storage-transfer/pricing). The copy bucket holds each checkpoint live until its copy is
 * the copy's days old and soft-deleted as long again, and a checkpoint the store still holds is copied again after
 * its copy's lifecycle delete: its size is taken as twice what the store holds plus what it writes in the copy's
 * days (an upper bound), in STANDARD. Each copy reads the source once (a Class B get in the store's class, and its
 * retrieval fee for a cooled class) and writes the sink once (a Class A insert). The copy bucket's location is the
 * bootstrap's, which the stack render does not hold: priced at the store's, with a caveat.
 */
function gcpCopyLines(
  inputs: BillInputs,
  volume: Volume,
  lines: Lines,
  storedGiB: number,
  deletedGiB: number,
): void {
  const w = inputs.workload;
  const copyGiB = 2 * (storedGiB + deletedGiB);
  lines.add(
    'independent copy: storage STANDARD (live and soft-deleted copies)',
    'storage/STANDARD',
    copyGiB,
    `twice what the store holds (${fixed(storedGiB)} GiB) plus what it writes in the copy's ${inputs.copyDays} days (${fixed(deletedGiB)} GiB): an upper bound`,
  );
  const recopies = (storedGiB / Math.max(1, w.checkpointSizeGiB)) * (DAYS_PER_MONTH / inputs.copyDays);
  const copies = volume.objectWrites + recopies;
  lines.add(
    'independent copy: Class A operations (inserts and listings)',
    'classA/STANDARD',
    (copies + 2 * GCP_COPY_RUNS_PER_MONTH) / 1000,
    `${fixed(volume.objectWrites)} new objects/month, ${fixed(recopies)} copied again after their copy's lifecycle delete, and two listings per hourly run`,
  );
  const base = inputs.classes[0]?.[0] ?? 'STANDARD';
  lines.add(
    `independent copy: Class B operations (source reads, ${base})`,
    `classB/${base}`,
    copies / 1000,
    `one read of the store per object copied (${fixed(copies)}/month)`,
  );
  const cooled = inputs.classes.slice(1);
  if (cooled.length > 0) {
    const [name] = cooled[0]!;
    lines.add(
      `independent copy: retrieval ${name} (copies again of cooled checkpoints)`,
      `retrieval/${name}`,
      recopies * w.checkpointSizeGiB,
      `the checkpoints copied again, read from the class the store cools them to (an upper bound)`,
    );
  }
  lines.caveats.add(
    "independent copy: priced in the store's location; a copy bucket elsewhere (bootstrap gcp.independentCopy location) also pays Cloud Storage data transfer between locations for every object copied",
  );
}

// Words of the workload figures, shown beside each line.
const size = (w: WorkloadSpec) => `${w.checkpointSizeGiB} GiB`;
const writesWords = (w: WorkloadSpec, v: Volume) =>
  `${fixed(v.objectWrites)} object writes/month of ${size(w)} (a checkpoint every ${w.intervalHours} h` +
  (w.latestOverwriteHours > 0 ? `, latest.pt every ${w.latestOverwriteHours} h)` : ')');
const readsWords = (w: WorkloadSpec, v: Volume) =>
  `${fixed(v.readObjects)} whole-checkpoint reads/month (${w.readBacksPerDay} read-backs/day, ${w.restartsPerMonth} restarts/month) of ${size(w)}`;
const partsWords = (v: Volume) => `${v.partsPerObject} requests per object (${PART_MIB} MiB parts)`;
const storedWords = 'mean stored over the month: live, noncurrent and soft-deleted copies (retention replay)';

/** Storage per class, and the minimum-duration charge of a checkpoint that leaves a class too early. */
function storageLines(
  inputs: BillInputs,
  lines: Lines,
  itemOf: (storageClass: string) => { item: string; region?: string }[],
  baseOf: (storageClass: string) => string = (name) => name,
): void {
  for (const [name, bytes] of Object.entries(inputs.bytesByClass)) {
    for (const { item, region } of itemOf(name)) {
      lines.add(`storage ${name}${region ? ` (${region})` : ''}`, item, bytes / GIB, storedWords, region);
    }
  }
  const volume = volumeOf(inputs.workload);
  for (const [name, hours] of Object.entries(inputs.checkpointClassHours)) {
    const minimum = MINIMUM_DAYS[inputs.cloud][baseOf(name)];
    if (minimum === undefined || hours <= 0 || hours >= minimum * 24) continue;
    const shortHours = minimum * 24 - hours;
    for (const { item, region } of itemOf(name)) {
      lines.add(
        `early deletion ${name} (${minimum}-day minimum, each checkpoint stored ${fixed(hours / 24)} days there)`,
        item,
        (shortHours / HOURS_PER_MONTH) * volume.checkpoints * inputs.workload.checkpointSizeGiB,
        `${fixed(volume.checkpoints)} checkpoints/month of ${size(inputs.workload)}, each billed ${fixed(shortHours / 24)} more days`,
        region,
      );
    }
  }
}

/** The classes a live checkpoint is moved into by lifecycle rules before the job deletes it. */
function transitionsReached(inputs: BillInputs): string[] {
  return inputs.classes
    .slice(1)
    .filter(([, from]) => from < inputs.keptHours)
    .map(([name]) => name);
}

function awsLines(inputs: BillInputs, v: Volume, lines: Lines): void {
  const { workload: w, resources } = inputs;
  const express = resourcesOfType(resources, 'aws:s3/directoryBucket:DirectoryBucket').length > 0;
  const base = inputs.classes[0]?.[0] ?? 'STANDARD';
  storageLines(inputs, lines, (name) => [{ item: `storage/${name}` }]);
  const writeRequests = v.objectWrites * (v.partsPerObject + (v.partsPerObject > 1 ? 2 : 0));
  const readRequests = v.readObjects * v.partsPerObject;
  lines.add(
    `PUT requests (${base})`,
    `write/${base}`,
    writeRequests / 1000,
    `${writesWords(w, v)}; ${partsWords(v)} + create and complete`,
  );
  lines.add(
    `GET requests (${base})`,
    `read/${base}`,
    readRequests / 1000,
    `${readsWords(w, v)}; ${partsWords(v)}`,
  );
  lines.add(
    `LIST requests`,
    `write/${base}`,
    v.lists / 1000,
    `one listing of the run prefix per read (${fixed(v.lists)}/month)`,
  );
  if (express) {
    const beyond = (gib: number) =>
      gib * (1 - EXPRESS_FREE_MIB_PER_REQUEST / Math.min(PART_MIB, w.checkpointSizeGiB * 1024));
    lines.add(
      'S3 Express upload (per GB beyond 512 KB a request)',
      'upload/EXPRESS_ONEZONE',
      beyond(v.writtenGiB),
      `${fixed(v.writtenGiB)} GiB written/month: ${writesWords(w, v)}`,
    );
    lines.add(
      'S3 Express retrieval (per GB beyond 512 KB a request)',
      'retrieval/EXPRESS_ONEZONE',
      beyond(v.readGiB),
      `${fixed(v.readGiB)} GiB read/month: ${readsWords(w, v)}`,
    );
  } else {
    for (const name of transitionsReached(inputs)) {
      lines.add(
        `lifecycle transitions into ${name}`,
        `transition/${name}`,
        v.checkpoints / 1000,
        `${fixed(v.checkpoints)} checkpoints/month reach the transition age while live`,
      );
    }
    if (base !== 'STANDARD') lines.add(`retrieval ${base}`, `retrieval/${base}`, v.readGiB, readsWords(w, v));
  }
  const replicated = awsReplication(inputs, v, lines);
  awsKeys(inputs, v, lines, express, replicated);
  awsDataEvents(inputs, lines, writeRequests + readRequests + v.lists + v.deletes);
}

/**
 * Cross-region replication: S3 bills the inter-region transfer of every replicated byte, the destination's
 * PUT of every replicated object and the replica's storage at the destination's rates ("Replication
 * pricing", https://aws.amazon.com/s3/pricing/; "What does Amazon S3 replicate?",
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/replication-what-is-isnot-replicated.html). A
 * job's delete adds a delete marker in the source only: "By default, when S3 Replication is enabled and an
 * object is deleted in the source bucket, Amazon S3 adds a delete marker in the source bucket only"
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/delete-marker-replication.html), so every
 * checkpoint stays current in the replica until the replica's own lifecycle expires it. Returns the
 * replicated objects a month (0 without replication).
 */
function awsReplication(inputs: BillInputs, v: Volume, lines: Lines): number {
  const rule = resourcesOfType(inputs.resources, 'aws:s3/bucketReplicationConfig:BucketReplicationConfig')
    .flatMap((config) => list(config.inputs['rules']).map(record))
    .find((each) => each['status'] === 'Enabled');
  if (!rule) return 0;
  const destination = record(rule['destination']);
  const bucketName = String(destination['bucket'] ?? '').replace(/^arn:aws[a-z-]*:s3:::/, '');
  const replica = resourcesOfType(inputs.resources, 'aws:s3/bucket:Bucket').find(
    (bucket) => bucket.inputs['bucket'] === bucketName,
  );
  const replicaRegion = typeof replica?.inputs['region'] === 'string' ? replica.inputs['region'] : undefined;
  const region = replicaRegion ?? inputs.location ?? '';
  const storageClass = String(destination['storageClass'] ?? 'STANDARD');
  const w = inputs.workload;
  lines.add(
    `replication transfer to ${region}`,
    'transfer/inter-region',
    v.writtenGiB,
    `${fixed(v.writtenGiB)} GiB written/month: ${writesWords(w, v)}`,
  );
  lines.add(
    `replica PUT requests (${region})`,
    `write/${storageClass}`,
    v.objectWrites / 1000,
    writesWords(w, v),
    region,
  );
  const markers = record(rule['deleteMarkerReplication'])['status'] === 'Enabled';
  const replicaLifecycle = resourcesOfType(
    inputs.resources,
    'aws:s3/bucketLifecycleConfiguration:BucketLifecycleConfiguration',
  )
    .filter((config) => config.inputs['bucket'] === bucketName)
    .flatMap((config) => list(config.inputs['rules']).map(record))
    .filter((each) => each['status'] === 'Enabled');
  const expiryDays = replicaLifecycle
    .map((each) => record(each['expiration'])['days'])
    .find((days): days is number => typeof days === 'number');
  if (markers) {
    const total = Object.values(inputs.bytesByClass).reduce((sum, bytes) => sum + bytes, 0);
    lines.add(
      `replica storage ${storageClass} (${region})`,
      `storage/${storageClass}`,
      total / GIB,
      `delete markers replicated: the replica holds what the source holds (${storedWords})`,
      region,
    );
    return v.objectWrites;
  }
  const monthlyGiB = v.checkpoints * w.checkpointSizeGiB;
  const keptGiB =
    expiryDays === undefined
      ? monthlyGiB / 2
      : Math.min(monthlyGiB / 2, ((expiryDays * 24) / w.intervalHours) * w.checkpointSizeGiB);
  lines.add(
    `replica storage ${storageClass} (${region}), first month`,
    `storage/${storageClass}`,
    keptGiB + inputs.latestBytes / GIB,
    expiryDays === undefined
      ? `delete markers are not replicated: each deleted checkpoint stays current in the replica, which grows by ${fixed(monthlyGiB)} GiB (${fixed(v.checkpoints)} checkpoints of ${size(w)}) every month with no expiry; the first month holds half that on average, plus latest.pt's copies`
      : `delete markers are not replicated: each checkpoint stays in the replica until its ${expiryDays}-day expiry, plus latest.pt's copies`,
    region,
  );
  return v.objectWrites;
}

function awsKeys(inputs: BillInputs, v: Volume, lines: Lines, express: boolean, replicated: number): void {
  const rules = resourcesOfType(
    inputs.resources,
    'aws:s3/bucketServerSideEncryptionConfiguration:BucketServerSideEncryptionConfiguration',
  ).flatMap((config) => list(config.inputs['rules']).map(record));
  const kms = rules.filter(
    (each) => record(each['applyServerSideEncryptionByDefault'])['sseAlgorithm'] === 'aws:kms',
  );
  if (kms.length === 0) return;
  const keys = resourcesOfType(inputs.resources, 'aws:kms/key:Key').length;
  lines.add(
    'KMS customer managed keys',
    'kms/key',
    keys,
    `${keys} key(s) of the store${replicated ? ' (source and replica)' : ''}`,
  );
  const bucketKeys = express || kms.every((each) => each['bucketKeyEnabled'] === true);
  const calls = v.objectWrites + v.readObjects * v.partsPerObject + replicated * 2;
  lines.add(
    `KMS requests${bucketKeys ? ' (S3 Bucket Keys: 1% of the object requests)' : ''}`,
    'kms/requests',
    (calls * (bucketKeys ? BUCKET_KEY_REQUEST_SHARE : 1)) / 10_000,
    `${fixed(calls)} object encryptions and decryptions/month (writes, ranged reads${replicated ? ', replication decrypt and encrypt' : ''})`,
  );
}

/** CloudTrail data events: every object-level request on a bucket a trail's selector covers. */
function awsDataEvents(inputs: BillInputs, lines: Lines, requests: number): void {
  const names = [
    ...resourcesOfType(inputs.resources, 'aws:s3/bucket:Bucket').map((bucket) =>
      String(bucket.inputs['bucket'] ?? ''),
    ),
    ...resourcesOfType(inputs.resources, 'aws:s3/directoryBucket:DirectoryBucket').map((bucket) =>
      String(bucket.inputs['bucket'] ?? ''),
    ),
  ].filter(Boolean);
  const selected = resourcesOfType(inputs.renderResources, 'aws:cloudtrail/trail:Trail').some((trail) =>
    list(trail.inputs['advancedEventSelectors']).some((selector) =>
      list(record(selector)['fieldSelectors']).some((field) => {
        const each = record(field);
        return (
          each['field'] === 'resources.ARN' &&
          list(each['startsWiths']).some((prefix) =>
            names.some((name) => String(prefix).includes(`${name}/`)),
          )
        );
      }),
    ),
  );
  if (!selected && !inputs.audit) return;
  lines.add(
    'CloudTrail data events',
    'cloudtrail/data-events',
    requests / 100_000,
    `${fixed(requests)} object-level requests/month (PUT parts, GET parts, LIST, DELETE), each one event`,
  );
}

function gcpLines(inputs: BillInputs, v: Volume, lines: Lines): void {
  const { workload: w, resources } = inputs;
  const [bucket] = resourcesOfType(resources, 'gcp:storage/bucket:Bucket');
  const dual = list(record(bucket?.inputs['customPlacementConfig'])['dataLocations']).map((value) =>
    String(value).toLowerCase(),
  );
  const isDual = dual.length === 2;
  const base = inputs.classes[0]?.[0] ?? 'STANDARD';
  // A dual-region is billed at each region's dual-region rate ("Dual-regions are billed to both underlying
  // regions", https://cloud.google.com/storage/pricing#storage-pricing).
  storageLines(inputs, lines, (name) =>
    isDual
      ? dual.map((region) => ({ item: `dual-region-storage/${name}`, region }))
      : [{ item: `storage/${name}` }],
  );
  const writeRequests = v.objectWrites * v.partsPerObject;
  const readRequests = v.readObjects * v.partsPerObject;
  const classA = isDual && base === 'STANDARD' ? 'dual-region-classA/STANDARD' : `classA/${base}`;
  lines.add(
    `Class A operations (uploads, ${base})`,
    classA,
    writeRequests / 1000,
    `${writesWords(w, v)}; ${partsWords(v)}`,
  );
  lines.add(
    'Class A operations (listings)',
    classA,
    v.lists / 1000,
    `one listing of the run prefix per read (${fixed(v.lists)}/month)`,
  );
  lines.add(
    `Class B operations (reads, ${base})`,
    `classB/${base}`,
    readRequests / 1000,
    `${readsWords(w, v)}; ${partsWords(v)}`,
  );
  if (base !== 'STANDARD') lines.add(`retrieval ${base}`, `retrieval/${base}`, v.readGiB, readsWords(w, v));
  if (isDual) {
    const turbo = bucket?.inputs['rpo'] === 'ASYNC_TURBO';
    lines.add(
      `inter-region replication (${turbo ? 'turbo' : 'default'}, ${dual.join(' + ')})`,
      turbo ? 'replication/turbo' : 'replication/default',
      v.writtenGiB,
      `${fixed(v.writtenGiB)} GiB written/month: ${writesWords(w, v)}`,
    );
  }
  gcpCache(inputs, v, lines);
  if (bucket && record(bucket.inputs['encryption'])['defaultKmsKeyName']) {
    const keys = resourcesOfType(resources, 'gcp:kms/cryptoKey:CryptoKey').length || 1;
    lines.add('Cloud KMS key versions', 'kms/key-version', keys, `${keys} active key version(s)`);
    const operations = v.objectWrites + v.readObjects;
    lines.add(
      'Cloud KMS operations (CMEK)',
      'kms/operations',
      operations / 10_000,
      `${fixed(operations)} object writes and reads/month, one key operation each`,
    );
  }
  if (inputs.audit) {
    const entries = writeRequests + readRequests + v.lists + v.deletes;
    lines.add(
      "Data Access audit logs ingestion (before the project's 50 GiB monthly free allotment, which its other logs share)",
      'logging/ingestion',
      (entries * AUDIT_ENTRY_BYTES) / GIB,
      `${fixed(entries)} data requests/month, one log entry of ${AUDIT_ENTRY_BYTES} bytes each (assumed)`,
    );
  }
}

/**
 * Anywhere Cache: data is ingested when a VM of the cache's zone reads it (or on write with ingestOnWrite),
 * held for the cache's TTL and served from the cache ("Anywhere Cache", https://cloud.google.com/storage/docs/anywhere-cache).
 */
function gcpCache(inputs: BillInputs, v: Volume, lines: Lines): void {
  const w = inputs.workload;
  for (const cache of resourcesOfType(inputs.resources, 'gcp:storage/anywhereCache:AnywhereCache')) {
    const zone = String(cache.inputs['zone'] ?? '');
    const ttlDays = Number(String(cache.inputs['ttl'] ?? '86400s').replace(/s$/, '')) / 86_400 || 1;
    const onWrite = cache.inputs['ingestOnWrite'] === true;
    const ingested = onWrite ? v.writtenGiB : Math.min(v.readObjects, v.checkpoints) * w.checkpointSizeGiB;
    const readsPerDay = v.readObjects / DAYS_PER_MONTH;
    const held = onWrite
      ? Math.min((v.objectWrites / DAYS_PER_MONTH) * ttlDays, w.keepLast + 1)
      : Math.min(readsPerDay * ttlDays, w.keepLast + 1);
    lines.add(
      `Anywhere Cache ingest (${zone})`,
      'cache/ingest',
      ingested,
      onWrite
        ? `${fixed(ingested)} GiB written/month (ingest on write)`
        : `${fixed(ingested)} GiB/month of distinct checkpoints read in the zone (${readsWords(w, v)})`,
    );
    lines.add(
      `Anywhere Cache storage (${zone})`,
      'cache/storage',
      held * w.checkpointSizeGiB,
      `${fixed(held)} checkpoints of ${size(w)} held for the ${fixed(ttlDays)}-day TTL`,
    );
    lines.add(
      `Anywhere Cache data transfer out (${zone})`,
      'cache/transfer-out',
      v.readGiB,
      `${fixed(v.readGiB)} GiB read/month served from the cache`,
    );
    lines.add(
      `Anywhere Cache operations (${zone})`,
      'cache/operations',
      (v.readObjects * v.partsPerObject) / 1000,
      `${readsWords(w, v)}; ${partsWords(v)}`,
    );
  }
}

function azureLines(inputs: BillInputs, v: Volume, lines: Lines): void {
  const { workload: w, resources } = inputs;
  const base = inputs.classes[0]?.[0] ?? 'HOT_ZRS';
  const tier = base.split('_')[0] ?? 'HOT';
  const redundancy = base.split('_')[1] ?? 'ZRS';
  storageLines(
    inputs,
    lines,
    (name) => [{ item: `storage/${name}` }],
    (name) => name.split('_')[0] ?? name,
  );
  const [account] = resourcesOfType(resources, 'azure-native:storage:StorageAccount');
  const hns = account?.inputs['isHnsEnabled'] === true;
  const opsPerGiB = 1024 / ADLS_OPERATION_MIB;
  const writeOps = v.writtenGiB * opsPerGiB;
  const readOps = v.readGiB * opsPerGiB;
  const writeItem = tier === 'PREMIUM' ? 'write/PREMIUM' : `write/${base}`;
  lines.add(
    `write operations (${base}, per ${ADLS_OPERATION_MIB} MiB)`,
    writeItem,
    writeOps / 10_000,
    `${fixed(v.writtenGiB)} GiB written/month: ${writesWords(w, v)}`,
  );
  lines.add(
    `read operations (${tier}, per ${ADLS_OPERATION_MIB} MiB)`,
    `read/${tier}`,
    readOps / 10_000,
    `${fixed(v.readGiB)} GiB read/month: ${readsWords(w, v)}`,
  );
  lines.add(
    `list operations (${tier})`,
    `list/${tier}`,
    v.lists / 10_000,
    `one listing of the run directory per read (${fixed(v.lists)}/month)`,
  );
  if (hns) {
    lines.add(
      `hierarchical namespace directory creations (${tier})`,
      `iterative-write/${tier}`,
      v.checkpoints / 100,
      `one new directory per checkpoint (${fixed(v.checkpoints)}/month)`,
    );
  }
  for (const name of transitionsReached(inputs)) {
    const into = name.split('_')[0] ?? name;
    lines.add(
      `lifecycle tiering into ${into} (write operations)`,
      `write/${name}`,
      v.checkpoints / 10_000,
      `${fixed(v.checkpoints)} checkpoints/month reach the tiering age while live`,
    );
  }
  if (tier === 'COOL') lines.add('Cool data retrieval', 'retrieval/COOL', v.readGiB, readsWords(w, v));
  // GZRS and RA-GZRS copy every write to the paired region: "Geo-replication data transfer costs ... incur
  // a per-gigabyte charge" (https://learn.microsoft.com/azure/storage/common/storage-plan-manage-costs).
  if (redundancy === 'GZRS' || redundancy === 'RAGZRS') {
    lines.add(
      `geo-replication data transfer (${redundancy === 'RAGZRS' ? 'RA-GZRS' : 'GZRS'})`,
      'geo-replication',
      v.writtenGiB,
      `${fixed(v.writtenGiB)} GiB written/month: ${writesWords(w, v)}`,
    );
  }
  if (record(account?.inputs['encryption'])['keySource'] === 'Microsoft.Keyvault') {
    lines.add(
      'Key Vault operations (the account key, unwrapped about hourly by the storage service)',
      'keyvault/operations',
      HOURS_PER_MONTH / 10_000,
      `${HOURS_PER_MONTH} key operations/month (assumed: the service caches the unwrapped key)`,
    );
  }
  const diagnostics = resourcesOfType(resources, 'azure-native:monitor:DiagnosticSetting').filter((setting) =>
    String(setting.inputs['resourceUri'] ?? '').includes('/blobServices/'),
  );
  for (const setting of diagnostics) {
    const categories = list(setting.inputs['logs'])
      .map(record)
      .filter((log) => log['enabled'] === true)
      .map((log) => String(log['category']));
    const entries =
      (categories.includes('StorageWrite') ? writeOps : 0) +
      (categories.includes('StorageRead') ? readOps + v.lists : 0) +
      (categories.includes('StorageDelete') ? v.deletes : 0);
    const gb = (entries * AUDIT_ENTRY_BYTES) / 1e9;
    if (setting.inputs['storageAccountId']) {
      lines.add(
        'diagnostic logs archived to a storage account (one month of logs held, Hot ZRS)',
        'storage/HOT_ZRS',
        gb,
        `${fixed(entries)} logged requests/month (${categories.join(', ')}), ${AUDIT_ENTRY_BYTES} bytes each (assumed); the archive's own retention is not modelled`,
      );
    }
    if (setting.inputs['workspaceId']) {
      lines.add(
        'diagnostic logs to Log Analytics (before the 5 GB monthly free allotment the billing account shares)',
        'loganalytics/ingestion',
        gb,
        `${fixed(entries)} logged requests/month (${categories.join(', ')}), ${AUDIT_ENTRY_BYTES} bytes each (assumed)`,
      );
    }
  }
}

function round(value: number, digits: number): number {
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}

function fixed(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}
