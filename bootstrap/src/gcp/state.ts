import { statePrefixes } from '../state-layout';

/**
 * A bucket-level grant of a CI service account on the GCP stacks' self-managed state bucket
 * (`bootstrap:gcp.stateBucket`), narrowed by an IAM Condition on the object name.
 */
export interface GcpStateGrant {
  role: string;
  /** Names the grant's resource. */
  key: string;
  title: string;
  expression: string;
}

/** A Cloud Storage resource name as IAM Conditions see it: projects/_/buckets/<bucket>[/objects/<object>]. */
export const bucketResourceName = (bucket: string) => `projects/_/buckets/${bucket}`;
export const objectResourceName = (bucket: string, object: string) =>
  `${bucketResourceName(bucket)}/objects/${object}`;

function startsWithAny(bucket: string, prefixes: readonly string[]): string[] {
  return prefixes.map((prefix) => `resource.name.startsWith('${objectResourceName(bucket, prefix)}')`);
}

/**
 * What a CI service account may do in the state bucket: the preview (`environment` undefined) reads the
 * GCP stacks' state and history and writes their locks; a deploy account reads the backend's meta.yaml
 * and reads, writes and deletes its own environment's state, history, backups and lock.
 *
 * In an IAM Condition on Cloud Storage, resource.name of an object is
 * projects/_/buckets/<bucket>/objects/<object>, and of a bucket projects/_/buckets/<bucket>
 * (https://cloud.google.com/iam/docs/conditions-resource-attributes#resource-name). Listing objects
 * (storage.objects.list) is authorised on the bucket, not on an object, so an object-name condition alone
 * refuses every list (https://cloud.google.com/storage/docs/access-control/iam#conditions): the reader
 * grant also admits the bucket itself, for listing; the writer grant, whose role holds more bucket-level
 * permissions, admits objects only. Conditions need uniform bucket-level access on the bucket
 * (https://cloud.google.com/storage/docs/using-uniform-bucket-level-access).
 */
export function gcpStateGrants(bucket: string, environment?: string): GcpStateGrant[] {
  const { read, write } = statePrefixes('gcp', environment);
  const who = environment === undefined ? 'GCP stacks' : `${environment} GCP stack`;
  return [
    {
      role: 'roles/storage.objectViewer',
      key: 'state-reader',
      title: `Pulumi state of the ${who}: read, list`,
      expression: [
        `resource.name == '${bucketResourceName(bucket)}'`,
        ...startsWithAny(bucket, [...read, ...write]),
      ].join(' || '),
    },
    {
      role: 'roles/storage.objectUser',
      key: 'state-writer',
      title:
        environment === undefined ? 'Pulumi locks of the GCP stacks' : `Pulumi state of the ${who}: write`,
      expression: startsWithAny(bucket, write).join(' || '),
    },
  ];
}
