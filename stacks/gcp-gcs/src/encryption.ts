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
  /** Where the bucket's data is (its region, or a dual-region's KMS multi-region): a key must live there. */
  location: string;
  labels: Record<string, string>;
  protection: { protect: boolean; retainOnDelete: boolean };
  /** `keyGeneration`: 1 keeps the names the store always had; from 2 every name carries `-g<N>`. */
  generation: number;
}

/** Longest key ring and crypto key name Cloud KMS takes (libs/naming rules gcpKeyRing, gcpCryptoKey). */
const KMS_NAME_MAX = 63;

/**
 * The name of a key generation. Cloud KMS never deletes a key ring or key, so a store whose key names are
 * taken (removed and re-added, destroyed then deployed again, re-keyed) needs new ones: generation N >= 2
 * appends `-gN`, cutting the name before its last segment (the store hash) if it would grow too long.
 * Generation 1 is the name as it always was, so nothing deployed changes.
 */
export function generationName(name: string, generation: number, max = KMS_NAME_MAX): string {
  if (generation === 1) return name;
  const suffix = `-g${generation}`;
  const excess = name.length + suffix.length - max;
  if (excess <= 0) return `${name}${suffix}`;
  const last = name.lastIndexOf('-');
  const head = last > 0 ? name.slice(0, last) : name;
  const tail = last > 0 ? name.slice(last) : '';
  return `${head.slice(0, Math.max(1, head.length - excess)).replace(/-+$/, '')}${tail}${suffix}`;
}

/** The logical (Pulumi) name of a key resource: generation 1 keeps today's URN, later ones get their own. */
function generationLogicalName(name: string, generation: number): string {
  return generation === 1 ? name : `${name}-g${generation}`;
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
  const { generation } = settings;
  const keyRing = new KeyRing(
    generationLogicalName(`${name}-key-ring`, generation),
    { name: generationName(names.gcpKeyRing(settings.names), generation), location: settings.location },
    { parent, ...settings.protection },
  );
  const key = new CryptoKey(
    generationLogicalName(`${name}-key`, generation),
    {
      name: generationName(names.gcpCryptoKey(settings.names), generation),
      keyRing: keyRing.id,
      purpose: 'ENCRYPT_DECRYPT',
      rotationPeriod: KEY_ROTATION_PERIOD,
      labels: settings.labels,
    },
    { parent, ...settings.protection },
  );
  const storageServiceAgent = getProjectServiceAccountOutput({}, { parent });
  const serviceAgentGrant = new CryptoKeyIAMMember(
    generationLogicalName(`${name}-key-storage-agent`, generation),
    { cryptoKeyId: key.id, role: KEY_USER_ROLE, member: storageServiceAgent.member },
    // Without this grant Cloud Storage cannot read what it encrypted: it outlives the store like the key,
    // and outlives its generation too. A new generation releases the earlier key, ring and grant (the
    // program forgets them, the cloud keeps them): objects written under the earlier key stay readable
    // while its versions are enabled, because this grant stays in the key's IAM policy.
    { parent, ...settings.protection, retainOnDelete: true },
  );
  return { key, serviceAgentGrant };
}
