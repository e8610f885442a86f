import type * as pulumi from '@pulumi/pulumi';
import { CryptoKey } from '@pulumi/gcp/kms/cryptoKey';
import { CryptoKeyIAMMember } from '@pulumi/gcp/kms/cryptoKeyIAMMember';
import { KeyRing } from '@pulumi/gcp/kms/keyRing';
import { getProjectServiceAccountOutput } from '@pulumi/gcp/storage/getProjectServiceAccount';
import { names, type NameContext } from '@checkpoints/naming';

/** A new key version every 90 days; objects keep the version they were written with. */
export const KEY_ROTATION_PERIOD = '7776000s';
export const KEY_USER_ROLE = 'roles/cloudkms.cryptoKeyEncrypterDecrypter';

export interface CustomerManagedKey {
  key: CryptoKey;
  /** Cloud Storage's own service agent may encrypt and decrypt with the key. */
  serviceAgentGrant: CryptoKeyIAMMember;
}

export interface KeySettings {
  names: NameContext;
  /** The bucket's region: a Cloud KMS key must live where the bucket does. */
  location: string;
  labels: Record<string, string>;
  protection: { protect: boolean; retainOnDelete: boolean };
}

/**
 * The store's own key ring and key. Losing the key loses every checkpoint written with it, so the key and
 * its ring share the bucket's protection. Cloud Storage encrypts with the project's storage service agent,
 * never with the caller's identity: that agent, and only it, is granted the key.
 */
export function createCustomerManagedKey(
  parent: pulumi.Resource,
  name: string,
  settings: KeySettings,
): CustomerManagedKey {
  const keyRing = new KeyRing(
    `${name}-key-ring`,
    { name: names.gcpKeyRing(settings.names), location: settings.location },
    { parent, ...settings.protection },
  );
  const key = new CryptoKey(
    `${name}-key`,
    {
      name: names.gcpCryptoKey(settings.names),
      keyRing: keyRing.id,
      purpose: 'ENCRYPT_DECRYPT',
      rotationPeriod: KEY_ROTATION_PERIOD,
      labels: settings.labels,
    },
    { parent, ...settings.protection },
  );
  const storageServiceAgent = getProjectServiceAccountOutput({}, { parent });
  const serviceAgentGrant = new CryptoKeyIAMMember(
    `${name}-key-storage-agent`,
    { cryptoKeyId: key.id, role: KEY_USER_ROLE, member: storageServiceAgent.member },
    // Without this grant Cloud Storage cannot read what it encrypted: it outlives the store like the key.
    { parent, retainOnDelete: true },
  );
  return { key, serviceAgentGrant };
}
