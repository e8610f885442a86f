import * as pulumi from '@pulumi/pulumi';
import { IAMCustomRole } from '@pulumi/gcp/projects/iamcustomRole';
import { IAMMember as ProjectIAMMember } from '@pulumi/gcp/projects/iammember';
import type { Service } from '@pulumi/gcp/projects/service';
import { Bucket } from '@pulumi/gcp/storage/bucket';
import { getTransferProjectServiceAccountOutput } from '@pulumi/gcp/storage/getTransferProjectServiceAccount';
import { TransferJob } from '@pulumi/gcp/storage/transferJob';
import type { Environment } from '@checkpoints/config';
import { names } from '@checkpoints/naming';
import type { GcpIndependentCopySettings } from '../config';
import { STACK_PROJECTS } from '../names';
import { enableApis } from './services';
import { bucketResourceName, objectResourceName } from './state';

const SECONDS_PER_DAY = 86_400;

/**
 * The APIs of the copy project: Cloud Storage (the copy bucket) and the Storage Transfer API (its jobs; the
 * service agent is created on its first googleServiceAccounts.get,
 * https://cloud.google.com/storage-transfer/docs/sink-cloud-storage).
 */
export const GCP_COPY_APIS = ['storage.googleapis.com', 'storagetransfer.googleapis.com'] as const;

/** The custom role the copy project's transfer agent holds in a stack project, on the copied store buckets alone. */
export const GCP_COPY_SOURCE_ROLE = {
  roleId: 'checkpointsCopySource',
  title: 'Checkpoints independent copy source',
  description: "What the copy project's Storage Transfer Service agent reads in a copied store's bucket",
  // A Cloud Storage source needs storage.buckets.get, storage.objects.list and storage.objects.get
  // (https://cloud.google.com/storage-transfer/docs/source-cloud-storage). Reading a CMEK-encrypted object takes
  // nothing more of the reader: the bucket's Cloud Storage service agent decrypts it with the key it already holds
  // (https://cloud.google.com/storage/docs/encryption/customer-managed-keys).
  permissions: ['storage.buckets.get', 'storage.objects.get', 'storage.objects.list'],
} as const;

/**
 * The custom role the copy project's transfer agent holds in the copy project, on the copy bucket alone. A sink
 * needs storage.buckets.get, storage.objects.create and storage.objects.list, and storage.objects.delete only to
 * overwrite or delete in the sink, which the job never does (https://cloud.google.com/storage-transfer/docs/sink-cloud-storage).
 * No predefined object role holds storage.buckets.get, and a bucket's IAM takes object roles only
 * (gcp-gcs-bucket-object-roles): granted on the project with an IAM Condition on the bucket's name, as the source.
 */
export const GCP_COPY_SINK_ROLE = {
  roleId: 'checkpointsCopySink',
  title: 'Checkpoints independent copy sink',
  description:
    "What the copy project's Storage Transfer Service agent does in the copy bucket: add objects, never delete",
  permissions: ['storage.buckets.get', 'storage.objects.create', 'storage.objects.list'],
} as const;

/** Hourly: the shortest interval a transfer job repeats at ("may not be less than 1 hour", @pulumi/gcp TransferJobSchedule). */
export const GCP_COPY_REPEAT_SECONDS = 3_600;

/**
 * An IAM Condition admitting one bucket and its objects: a bucket's resource.name is projects/_/buckets/<bucket>, an
 * object's projects/_/buckets/<bucket>/objects/<object> (https://cloud.google.com/iam/docs/conditions-resource-attributes#resource-name).
 */
function onBucket(bucket: string): string {
  return `resource.name == '${bucketResourceName(bucket)}' || resource.name.startsWith('${objectResourceName(bucket, '')}')`;
}

/** The copy bucket of one environment's GCP stack, named as the analyses look it up. */
function copyBucketName(environment: Environment): string {
  return names.gcsCopyBucket({ project: STACK_PROJECTS.gcp, stack: environment });
}

/** The bucket of a store of one environment's GCP stack, as the stack names it. */
function storeBucketName(environment: Environment, store: string): string {
  return names.gcsBucket({ project: STACK_PROJECTS.gcp, stack: environment, store });
}

/**
 * One environment's independent copy: in the copy project (which holds no CI identity's right), a bucket whose
 * retention policy of `retentionDays` is locked, and one Storage Transfer Service job per listed store, run by the
 * copy project's own transfer agent, copying the store's bucket into `<store>/` of the copy bucket every hour.
 *
 * The copy bucket. "When a bucket retention policy is set, objects in the bucket can only be deleted or replaced
 * once their age is greater than the retention period"; once locked, "you cannot remove it or reduce the retention
 * period", and "you cannot delete a bucket with a locked policy unless every object in the bucket has met the
 * retention period" (https://cloud.google.com/storage/docs/bucket-lock). Cloud Storage does not allow Object
 * Versioning beside a retention policy (same page; google/exposure-notifications-verification-server#877 "Retention
 * policy and versioning are mutually exclusive"), so the bucket is unversioned. Its lifecycle deletes a copied checkpoint once it is
 * `retentionDays` old, and its soft delete keeps what lifecycle deletes `retentionDays` more days (soft delete
 * "preserves objects ... that get deleted", lifecycle included, https://cloud.google.com/storage/docs/soft-delete):
 * a checkpoint gone from the store at any time is thus kept at least `retentionDays` after, live and then
 * soft-deleted. Uniform bucket-level access and public access prevention, as every checkpoint bucket.
 *
 * The jobs. Here and not in the stack: a job names its source, and a CI identity that could write one could point
 * the agent at any bucket the agent reads and copy it to a bucket of its choosing. Each job copies new objects
 * only (overwriteWhen NEVER: the lock refuses to replace a copied object younger than the retention anyway),
 * deletes nothing from the source and nothing unique in the sink (@pulumi/gcp TransferJobTransferSpecTransferOptions).
 * `deletionPolicy: PREVENT` and `protect` keep a bootstrap run from deleting a job or the bucket.
 *
 * The agent reads the store buckets through a custom role granted in the stack project on their names alone: the
 * bootstrap runs before the stacks create the buckets, and a grant on the project with an IAM Condition on the
 * bucket's resource name holds before the bucket exists; it writes the copy bucket likewise (https://cloud.google.com/iam/docs/conditions-resource-attributes#resource-name).
 */
export function createIndependentCopy(
  parent: pulumi.Resource,
  args: {
    environment: Environment;
    stackProject: string;
    copy: GcpIndependentCopySettings;
    labels: Record<string, string>;
    apis: Map<string, Service>;
  },
): void {
  const { environment, stackProject, copy, labels } = args;
  const services = enableApis(parent, copy.project, GCP_COPY_APIS, args.apis);
  const seconds = copy.retentionDays * SECONDS_PER_DAY;
  const bucket = new Bucket(
    `copy-${environment}`,
    {
      project: copy.project,
      name: copyBucketName(environment),
      location: copy.location,
      storageClass: 'STANDARD',
      uniformBucketLevelAccess: true,
      publicAccessPrevention: 'enforced',
      retentionPolicy: { retentionPeriod: String(seconds), isLocked: true },
      softDeletePolicy: { retentionDurationSeconds: seconds },
      lifecycleRules: [
        { action: { type: 'Delete' }, condition: { age: copy.retentionDays } },
        // Parts of an upload a transfer left incomplete are billed until aborted, as on every bucket here.
        { action: { type: 'AbortIncompleteMultipartUpload' }, condition: { age: 1 } },
      ],
      forceDestroy: false,
      labels,
    },
    { parent, protect: true, dependsOn: services },
  );
  // googleServiceAccounts.get is a Storage Transfer API call: on a fresh copy project it waits for the API.
  const agent = getTransferProjectServiceAccountOutput(
    { project: copy.project },
    { parent, dependsOn: services },
  );
  const member = pulumi.interpolate`serviceAccount:${agent.email}`;
  const sinkRole = new IAMCustomRole(
    `copy-${environment}-${GCP_COPY_SINK_ROLE.roleId}`,
    { project: copy.project, ...GCP_COPY_SINK_ROLE, permissions: [...GCP_COPY_SINK_ROLE.permissions] },
    { parent, dependsOn: services },
  );
  const sinkGrant = new ProjectIAMMember(
    `copy-${environment}-sink`,
    {
      project: copy.project,
      role: pulumi.interpolate`projects/${copy.project}/roles/${sinkRole.roleId}`,
      member,
      condition: {
        title: 'copy sink',
        description: `The ${environment} copy bucket and its objects, which the copy jobs write`,
        expression: onBucket(copyBucketName(environment)),
      },
    },
    { parent },
  );
  const sourceRole = new IAMCustomRole(
    `copy-${environment}-${GCP_COPY_SOURCE_ROLE.roleId}`,
    { project: stackProject, ...GCP_COPY_SOURCE_ROLE, permissions: [...GCP_COPY_SOURCE_ROLE.permissions] },
    { parent },
  );
  for (const store of copy.stores) {
    const source = storeBucketName(environment, store);
    const sourceGrant = new ProjectIAMMember(
      `copy-${environment}-source-${store}`,
      {
        project: stackProject,
        role: pulumi.interpolate`projects/${stackProject}/roles/${sourceRole.roleId}`,
        member,
        condition: {
          title: `copy source ${store}`,
          description: `The ${environment} store ${store}'s bucket and its objects, which the copy job reads`,
          expression: onBucket(source),
        },
      },
      { parent },
    );
    new TransferJob(
      `copy-${environment}-${store}`,
      {
        project: copy.project,
        description: `Independent copy of the ${environment} store ${store} (checkpoints)`,
        transferSpec: {
          gcsDataSource: { bucketName: source },
          gcsDataSink: { bucketName: bucket.name, path: `${store}/` },
          transferOptions: {
            overwriteWhen: 'NEVER',
            deleteObjectsUniqueInSink: false,
            deleteObjectsFromSourceAfterTransfer: false,
          },
        },
        // A start date in the past runs the job from the following day on (TransferJobSchedule.scheduleStartDate).
        schedule: {
          scheduleStartDate: { year: 2026, month: 1, day: 1 },
          repeatInterval: `${GCP_COPY_REPEAT_SECONDS}s`,
        },
        status: 'ENABLED',
        deletionPolicy: 'PREVENT',
      },
      { parent, protect: true, dependsOn: [sinkGrant, sourceGrant] },
    );
  }
}
