import type { CloudChangeRules, ReplacingInput } from './rules';

// @pulumi/gcp bridges the Terraform Google provider: an argument marked ForceNew in its schema (the docs say
// "Changing this forces a new resource to be created") replaces the resource when it changes.
const TF = 'https://registry.terraform.io/providers/hashicorp/google/latest/docs/resources';

function forceNew(page: string, inputs: readonly string[], why = 'ForceNew in the provider schema') {
  return inputs.map((input): ReplacingInput => ({ input, source: `${TF}/${page}: ${input} is ${why}` }));
}

/** IAM member resources are one binding each: any change of who, what or where is a new binding. */
const IAM_MEMBER = 'ForceNew, as every argument of a *_iam_member resource (one binding each)';

export const gcpChangeRules: CloudChangeRules = {
  cloud: 'gcp',
  // The default provider's settings (https://www.pulumi.com/registry/packages/gcp/installation-configuration/):
  // a bucket, key ring or service account belongs to one project for good (the project inputs above are
  // ForceNew). gcp:region is no placement key here: every regional resource of a store states its location.
  placement: [
    {
      key: 'gcp:project',
      scope: 'account',
      source: 'gcp:project is the project of every resource without a project input of its own',
    },
  ],
  types: {
    'gcp:storage/bucket:Bucket': {
      holds: 'data',
      replacedBy: [
        ...forceNew('storage_bucket', ['name', 'location', 'project']),
        {
          input: 'hierarchicalNamespace.enabled',
          source: `${TF}/storage_bucket: hierarchical_namespace - (Optional, ForceNew); https://cloud.google.com/storage/docs/hns-overview: hierarchical namespace can only be enabled when the bucket is created`,
        },
        {
          input: 'customPlacementConfig',
          source:
            '@pulumi/gcp 9.37 BucketCustomPlacementConfig.dataLocations: "If any of the dataLocations changes, it will recreate the bucket" (https://cloud.google.com/storage/docs/locations#key-concepts: the regions of a dual-region are its location)',
        },
      ],
    },
    'gcp:kms/keyRing:KeyRing': {
      holds: 'key',
      holdsSource: `${TF}/kms_key_ring: KeyRings cannot be deleted from Google Cloud Platform; destroying one removes it from state only`,
      replacedBy: forceNew('kms_key_ring', ['name', 'location', 'project']),
    },
    'gcp:kms/cryptoKey:CryptoKey': {
      holds: 'key',
      holdsSource: `${TF}/kms_crypto_key: destroying a CryptoKey schedules every CryptoKeyVersion for destruction, rendering the key unusable (https://cloud.google.com/kms/docs/destroy-restore: data encrypted with a destroyed version cannot be recovered)`,
      replacedBy: forceNew('kms_crypto_key', [
        'name',
        'keyRing',
        'purpose',
        'importOnly',
        'skipInitialVersionCreation',
        'cryptoKeyBackend',
      ]),
    },
    'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember': {
      holds: 'key',
      holdsSource:
        'https://cloud.google.com/storage/docs/encryption/customer-managed-keys: the Cloud Storage service agent needs the key to read and write objects; without the grant, CMEK objects cannot be read',
      replacedBy: forceNew(
        'google_kms_crypto_key_iam',
        ['cryptoKeyId', 'role', 'member', 'condition'],
        IAM_MEMBER,
      ),
    },
    'gcp:storage/bucketIAMMember:BucketIAMMember': {
      replacedBy: forceNew('storage_bucket_iam', ['bucket', 'role', 'member', 'condition'], IAM_MEMBER),
    },
    'gcp:serviceaccount/account:Account': {
      replacedBy: [
        {
          input: 'accountId',
          source: `${TF}/google_service_account: account_id - (Required) ... Changing this forces a new service account to be created`,
        },
        ...forceNew('google_service_account', ['project']),
      ],
    },
    'gcp:storage/anywhereCache:AnywhereCache': {
      replacedBy: forceNew('storage_anywhere_cache', ['bucket', 'zone']),
    },
  },
};
