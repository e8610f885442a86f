/**
 * A store's independent copy on GCP (`recovery.independentCopy`), as the bootstrap's render declares it: a Storage
 * Transfer Service job reading the store's bucket into a copy bucket of another project, whose retention policy is
 * locked. What it keeps, and against whom, is what ../access/configuration-writes asks of each principal.
 */
import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import { list, numberOr, record } from './values';

const SECONDS_PER_DAY = 86_400;

/** The Storage Transfer Service agent of a project: project-<number>@storage-transfer-service.iam.gserviceaccount.com. */
export const GCP_TRANSFER_AGENT =
  /^serviceAccount:project-\d+@storage-transfer-service\.iam\.gserviceaccount\.com$/;

/**
 * Whoever holds one of these on the copy bucket or its project can lift the copy: delete a copied checkpoint the
 * lock no longer holds or change the bucket (its soft delete, lifecycle, IAM: storage.buckets.update,
 * setIamPolicy), delete the bucket once every object has met the lock, point the job elsewhere or delete it, or
 * delete the project with the bucket (the Bucket Lock page does not say that a locked bucket holds its project's
 * deletion back: fail closed) (https://cloud.google.com/storage/docs/access-control/iam-permissions,
 * https://cloud.google.com/storage-transfer/docs/access-control, https://cloud.google.com/resource-manager/docs/access-control-proj).
 * Asked on the copy bucket (`bucket`) or on the copy project (`project`), as each permission is authorised.
 */
export const GCP_COPY_LIFTS: readonly { permission: string; on: 'bucket' | 'project' }[] = [
  { permission: 'storage.objects.delete', on: 'bucket' },
  { permission: 'storage.buckets.update', on: 'bucket' },
  { permission: 'storage.buckets.delete', on: 'bucket' },
  { permission: 'storage.buckets.setIamPolicy', on: 'bucket' },
  // A job of its own runs as the copy project's agent, which reads the copied stores: into a bucket of its choosing.
  { permission: 'storagetransfer.jobs.create', on: 'project' },
  { permission: 'storagetransfer.jobs.update', on: 'project' },
  { permission: 'storagetransfer.jobs.delete', on: 'project' },
  { permission: 'resourcemanager.projects.delete', on: 'project' },
  { permission: 'resourcemanager.projects.setIamPolicy', on: 'project' },
];

/** What the access model reads of IAM: every binding on some scopes (`buckets/<name>`, `projects/<id>`), CI's members. */
export interface CopyIam {
  bindingsOn(scopes: readonly string[]): readonly { member: string; role: string; source: string }[];
  ciMembers: ReadonlySet<string>;
}

export interface GcpIndependentCopy {
  /** The copy bucket the store's job writes. */
  bucket: string;
  /** The copy bucket's project. */
  project: string;
  /** The copy bucket's locked retention, in days (0: none, or not locked). */
  lockedDays: number;
  /**
   * Days a checkpoint gone from the store stays in the copy at the least: the soft delete of what the lifecycle
   * deletes (a checkpoint copied long ago is deleted by lifecycle soon after), or the locked retention with no
   * lifecycle delete.
   */
  heldDays: number;
  /** Why the copy holds nothing, whoever asks (fail closed), if it does not. */
  broken?: string;
}

/**
 * The copy of the store whose bucket is `bucket.name` (in `bucket.project`), from the bootstrap's render
 * (`bootstrap`): the transfer job reading that bucket and the copy bucket it writes. Undefined: no job reads the
 * store's bucket. `promisedDays` is the copy's retention the store's spec promises.
 */
export function gcpIndependentCopyOf(
  bucket: { name: string; project: string; ipFilter?: unknown },
  promisedDays: number,
  bootstrap: readonly RenderedResource[],
  iam: CopyIam,
): GcpIndependentCopy | undefined {
  const job = resourcesOfType(bootstrap, 'gcp:storage/transferJob:TransferJob').find(
    (each) => record(record(each.inputs['transferSpec'])['gcsDataSource'])['bucketName'] === bucket.name,
  );
  if (job === undefined) return undefined;
  const spec = record(job.inputs['transferSpec']);
  const sinkName = String(record(spec['gcsDataSink'])['bucketName'] ?? '');
  const sink = resourcesOfType(bootstrap, 'gcp:storage/bucket:Bucket').find(
    (each) => each.inputs['name'] === sinkName,
  );
  const project = String(sink?.inputs['project'] ?? '');
  const policy = record(sink?.inputs['retentionPolicy']);
  const lockedDays =
    policy['isLocked'] === true ? Number(policy['retentionPeriod'] ?? 0) / SECONDS_PER_DAY || 0 : 0;
  const softDeleteDays =
    numberOr(record(sink?.inputs['softDeletePolicy'])['retentionDurationSeconds'], 0) / SECONDS_PER_DAY;
  const lifecycleDelete = list(sink?.inputs['lifecycleRules']).some(
    (rule) => record(record(rule)['action'])['type'] === 'Delete',
  );
  const heldDays = lifecycleDelete ? softDeleteDays : Math.max(lockedDays, softDeleteDays);
  const copy: GcpIndependentCopy = { bucket: sinkName, project, lockedDays, heldDays };
  const broken = brokenReason(job, sink, copy, bucket, promisedDays, iam);
  if (broken !== undefined) copy.broken = broken;
  return copy;
}

function brokenReason(
  job: RenderedResource,
  sink: RenderedResource | undefined,
  copy: GcpIndependentCopy,
  store: { name: string; project: string; ipFilter?: unknown },
  promisedDays: number,
  iam: CopyIam,
): string | undefined {
  const options = record(record(job.inputs['transferSpec'])['transferOptions']);
  if (sink === undefined) {
    return `the transfer job ${job.name} writes bucket '${copy.bucket}', which the bootstrap render does not create with a lock`;
  }
  if (job.inputs['status'] !== undefined && job.inputs['status'] !== 'ENABLED') {
    return `the transfer job ${job.name} is ${String(job.inputs['status'])}: it copies nothing`;
  }
  if (
    options['deleteObjectsUniqueInSink'] === true ||
    options['deleteObjectsFromSourceAfterTransfer'] === true
  ) {
    return `the transfer job ${job.name} deletes objects (deleteObjectsUniqueInSink or deleteObjectsFromSourceAfterTransfer): the copy follows the store's deletes`;
  }
  if (options['overwriteWhen'] !== 'NEVER') {
    return `the transfer job ${job.name} overwrites copied checkpoints (overwriteWhen ${String(options['overwriteWhen'] ?? 'unset')}): a checkpoint overwritten in the store replaces its copy`;
  }
  if (job.inputs['serviceAccount'] !== undefined) {
    return `the transfer job ${job.name} runs as ${String(job.inputs['serviceAccount'])}, not as the copy project's transfer agent`;
  }
  if (job.inputs['project'] !== copy.project) {
    return `the transfer job ${job.name} lives in project ${String(job.inputs['project'])}, not in the copy bucket's project ${copy.project}`;
  }
  if (copy.project === store.project) {
    return `the copy bucket ${copy.bucket} is in the store's own project ${store.project}, where the stack's CI holds its project roles`;
  }
  const ciProject = [...iam.ciMembers]
    .map((member) => /@([a-z][a-z0-9-]{4,28}[a-z0-9])\.iam\.gserviceaccount\.com$/.exec(member)?.[1])
    .find((project) => project === copy.project);
  if (ciProject !== undefined) {
    return `the copy bucket ${copy.bucket} is in project ${ciProject}, where the CI service accounts live: whoever administers them reaches the copy`;
  }
  if (copy.lockedDays <= 0) {
    return `the copy bucket ${copy.bucket} has no locked retention policy: whoever may change the bucket may delete every copy`;
  }
  if (copy.lockedDays < promisedDays) {
    return `the copy bucket's locked retention is ${copy.lockedDays} days, shorter than the ${promisedDays} days the store promises`;
  }
  if (copy.heldDays < promisedDays) {
    return `the copy bucket keeps a checkpoint the lifecycle deletes ${copy.heldDays} days (its soft delete), shorter than the ${promisedDays} days the store promises`;
  }
  // The bootstrap's and the stack's grants on the copy bucket and its project: a stack project, where CI holds its
  // project roles, shows as one of them.
  const grants = iam.bindingsOn([`buckets/${copy.bucket}`, `projects/${copy.project}`]);
  const stranger = grants.find((grant) => !GCP_TRANSFER_AGENT.test(grant.member));
  if (stranger !== undefined) {
    const who = iam.ciMembers.has(stranger.member) ? `the CI identity ${stranger.member}` : stranger.member;
    return `${stranger.source} grants ${who} ${stranger.role} on the copy (${copy.project}): only the copy project's transfer agent may hold a right there`;
  }
  // Each project has one transfer agent: a second one is another project's, whose jobs that project's admins (the
  // stack's, if it is a stack project) write.
  const agents = [...new Set(grants.map((grant) => grant.member))];
  if (agents.length > 1) {
    return `${agents.length} transfer agents hold rights on the copy (${agents.join(', ')}): only the copy project's own may`;
  }
  const filter = record(store.ipFilter);
  if (filter['mode'] === 'Enabled' && filter['allowAllServiceAgentAccess'] !== true) {
    return "the store's bucket IP filter is Enabled without allowAllServiceAgentAccess: it refuses the transfer agent, so nothing is copied";
  }
  return undefined;
}
