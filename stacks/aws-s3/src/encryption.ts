import type * as pulumi from '@pulumi/pulumi';
import { Alias } from '@pulumi/aws/kms/alias';
import { Key } from '@pulumi/aws/kms/key';
import { names } from '@checkpoints/naming';
import { dataProtection, type StoreScope } from './scope';

/** KMS deletes a key only after this wait; the longest AWS allows, to give a mistaken deletion time to be cancelled. */
export const KEY_DELETION_WINDOW_DAYS = 30;

/**
 * The store's own KMS key (customer-managed encryption), rotated yearly, with an alias people can find.
 * Generation 1 keeps the names the stack always gave; a later generation (`keyGeneration`) is a new key under
 * new logical and alias names, so the earlier key and alias are released (retained in the account, never
 * scheduled for deletion) rather than replaced, and stay readable through their alias (keyAlias, earlierKeyAliases).
 * With `replicaRegion`: the replica bucket's own key there, under the same generation scheme.
 */
export function createStoreKey(scope: StoreScope, replicaRegion?: string): Key {
  const { store, parent } = scope;
  const generation = generationSuffix(store.keyGeneration);
  const replica = replicaRegion === undefined ? '' : '-replica';
  const inRegion = replicaRegion === undefined ? {} : { region: replicaRegion };
  const key = new Key(
    `${store.name}${replica}-key${generation}`,
    {
      ...inRegion,
      description: `Encrypts the checkpoints of store ${store.name} (${scope.nameContext.project}/${scope.nameContext.stack})${replicaRegion === undefined ? '' : ` in its replica in ${replicaRegion}`}${store.keyGeneration > 1 ? `, key generation ${store.keyGeneration}` : ''}`,
      keyUsage: 'ENCRYPT_DECRYPT',
      customerMasterKeySpec: 'SYMMETRIC_DEFAULT',
      enableKeyRotation: true,
      deletionWindowInDays: KEY_DELETION_WINDOW_DAYS,
      tags: scope.tags,
    },
    { parent, ...dataProtection(store) },
  );
  // Retained with the key: once a later generation releases them, the alias is how the store's roles still
  // find the key to decrypt the checkpoints written under it.
  new Alias(
    `${store.name}${replica}-key-alias${generation}`,
    {
      ...inRegion,
      name: `${names.kmsKeyAlias(scope.nameContext)}${replica}${generationSuffix(store.keyGeneration)}`,
      targetKeyId: key.keyId,
    },
    { parent, retainOnDelete: true },
  );
  return key;
}

/** The logical and alias name suffix of a key generation: none for the first, `-gen<N>` after it. */
function generationSuffix(generation: number): string {
  return generation > 1 ? `-gen${generation}` : '';
}

export function keyAlias(scope: Pick<StoreScope, 'nameContext'>, generation: number): string {
  return `${names.kmsKeyAlias(scope.nameContext)}${generationSuffix(generation)}`;
}

/** The aliases of the store's earlier key generations, oldest first. */
export function earlierKeyAliases(scope: Pick<StoreScope, 'nameContext' | 'store'>): string[] {
  return Array.from({ length: scope.store.keyGeneration - 1 }, (_, index) => keyAlias(scope, index + 1));
}

/**
 * The bucket's default encryption: SSE-KMS with the store's key and an S3 Bucket Key (one KMS call per
 * bucket key period, not per object) when customer-managed, SSE-S3 otherwise.
 */
export function defaultEncryptionRule(key: Key | undefined): {
  applyServerSideEncryptionByDefault: { sseAlgorithm: string; kmsMasterKeyId?: pulumi.Output<string> };
  bucketKeyEnabled?: boolean;
} {
  if (key === undefined) return { applyServerSideEncryptionByDefault: { sseAlgorithm: 'AES256' } };
  return {
    applyServerSideEncryptionByDefault: { sseAlgorithm: 'aws:kms', kmsMasterKeyId: key.arn },
    bucketKeyEnabled: true,
  };
}
