import type * as pulumi from '@pulumi/pulumi';
import { Alias } from '@pulumi/aws/kms/alias';
import { Key } from '@pulumi/aws/kms/key';
import { names } from '@checkpoints/naming';
import { dataProtection, type StoreScope } from './scope';

/** KMS deletes a key only after this wait; the longest AWS allows, to give a mistaken deletion time to be cancelled. */
const KEY_DELETION_WINDOW_DAYS = 30;

/** The store's own KMS key (customer-managed encryption), rotated yearly, with an alias people can find. */
export function createStoreKey(scope: StoreScope): Key {
  const { store, parent } = scope;
  const key = new Key(
    `${store.name}-key`,
    {
      description: `Encrypts the checkpoints of store ${store.name} (${scope.nameContext.project}/${scope.nameContext.stack})`,
      keyUsage: 'ENCRYPT_DECRYPT',
      customerMasterKeySpec: 'SYMMETRIC_DEFAULT',
      enableKeyRotation: true,
      deletionWindowInDays: KEY_DELETION_WINDOW_DAYS,
      tags: scope.tags,
    },
    { parent, ...dataProtection(store) },
  );
  new Alias(
    `${store.name}-key-alias`,
    { name: names.kmsKeyAlias(scope.nameContext), targetKeyId: key.keyId },
    { parent },
  );
  return key;
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
