import type * as pulumi from '@pulumi/pulumi';
import { Account } from '@pulumi/gcp/serviceaccount/account';
import type { Bucket } from '@pulumi/gcp/storage/bucket';
import { BucketIAMBinding } from '@pulumi/gcp/storage/bucketIAMBinding';
import { BucketIAMMember } from '@pulumi/gcp/storage/bucketIAMMember';
import type { AccessSpec } from '@checkpoints/config';
import { names, stableHash, type NameContext } from '@checkpoints/naming';
import { GCS_BUCKET_ROLES, gcsBucketGrants, type GcsStorePurpose } from '@checkpoints/translate';

export interface StoreIdentities {
  writer: Account;
  reader: Account;
}

const PURPOSE_TEXT: Record<GcsStorePurpose, string> = {
  writer: 'reads and writes',
  reader: 'reads',
};

/** The store's own writer and reader service accounts; no keys are ever created for them. */
export function createStoreIdentities(
  parent: pulumi.Resource,
  name: string,
  ctx: NameContext,
): StoreIdentities {
  const account = (purpose: GcsStorePurpose) =>
    new Account(
      `${name}-${purpose}`,
      {
        accountId: names.gcpServiceAccountId(ctx, purpose),
        // The ID keeps the store's first name (ctx); what people read follows its current name.
        displayName: `Checkpoint ${purpose}: ${name}`,
        description: `${PURPOSE_TEXT[purpose]} the checkpoints of store ${name} in stack ${ctx.stack}; used through Workload Identity or Vertex AI, never with a key`,
      },
      { parent },
    );
  return { writer: account('writer'), reader: account('reader') };
}

/**
 * Object roles on this bucket only, for the store's service accounts and the members of `access`.
 * BucketIAMMember adds one member to one role and leaves every other grant alone, where BucketIAMBinding
 * and BucketIAMPolicy own the whole role or policy and would silently remove grants made elsewhere
 * (an organisation's audit readers, a data-transfer job).
 */
export function grantBucketAccess(
  parent: pulumi.Resource,
  name: string,
  bucket: Bucket,
  identities: StoreIdentities,
  access: AccessSpec,
): BucketIAMMember[] {
  const grants = [
    { logicalName: `${name}-writer-access`, role: GCS_BUCKET_ROLES.writer, member: identities.writer.member },
    { logicalName: `${name}-reader-access`, role: GCS_BUCKET_ROLES.reader, member: identities.reader.member },
    // Named after the member, not its position, so reordering the list replaces nothing.
    ...gcsBucketGrants(access).map((grant) => ({
      logicalName: `${name}-${grant.purpose}-${stableHash([grant.member], 8)}`,
      role: grant.role,
      member: grant.member,
    })),
  ];
  return grants.map(
    ({ logicalName, role, member }) =>
      new BucketIAMMember(logicalName, { bucket: bucket.name, role, member }, { parent }),
  );
}

/**
 * The legacy roles every new bucket's IAM policy grants to the project's basic-role holders (the
 * "convenience values"): project viewers read every object, project editors and owners also write and
 * delete them, and change the bucket's settings and IAM policy.
 * https://cloud.google.com/storage/docs/access-control/iam#convenience-values
 * Uniform bucket-level access disables ACLs, not these IAM bindings: they stay until the policy drops them.
 * https://cloud.google.com/storage/docs/uniform-bucket-level-access
 */
export const GCS_CONVENIENCE_ROLES: readonly string[] = [
  'roles/storage.legacyBucketReader',
  'roles/storage.legacyObjectReader',
  'roles/storage.legacyBucketOwner',
  'roles/storage.legacyObjectOwner',
];

/**
 * Takes the convenience values off a bucket: one BucketIAMBinding per legacy role with no members. A
 * BucketIAMBinding is authoritative for its role and leaves every other role alone (@pulumi/gcp
 * `storage/bucketIAMBinding`), so it removes the project's basic-role holders from that role without fighting
 * the store's BucketIAMMember grants of object roles; no principal of the store needs a legacy role (its
 * writer, reader and `access` members hold object roles, CI holds its project-level roles). An empty
 * members list is accepted and clears the role (terraform-provider-google: "Allow resource_*_iam_bindings
 * with no members", GoogleCloudPlatform/magic-modules#1926).
 */
export function removeConvenienceBindings(
  parent: pulumi.Resource,
  name: string,
  bucket: Bucket,
): BucketIAMBinding[] {
  return GCS_CONVENIENCE_ROLES.map(
    (role) =>
      new BucketIAMBinding(
        `${name}-no-${role.split('.').pop() ?? role}`,
        { bucket: bucket.name, role, members: [] },
        { parent },
      ),
  );
}
