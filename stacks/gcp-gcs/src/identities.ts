import type * as pulumi from '@pulumi/pulumi';
import { Account } from '@pulumi/gcp/serviceaccount/account';
import type { Bucket } from '@pulumi/gcp/storage/bucket';
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
