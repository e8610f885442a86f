import type { RenderedResource } from '@checkpoints/render';
import { stringInput } from '../access/model';
import { bindingsOf, customRolesOf, deniesIt, denyRulesOf, PREDEFINED } from '../access/gcp';
import { neededOperations, type MissingRight, type ResourceRights, type RightsInput } from './model';

const STORAGE = 'https://cloud.google.com/storage/docs/access-control/iam-json';
const KMS = 'https://cloud.google.com/kms/docs/reference/permissions-and-roles';
const IP_FILTER =
  'https://cloud.google.com/storage/docs/create-ip-filter (storage.buckets.create, storage.buckets.setIpFilter); https://cloud.google.com/storage/docs/update-ip-filter (storage.buckets.update, storage.buckets.setIpFilter); https://cloud.google.com/storage/docs/bypass-ip-filter (storage.buckets.exemptFromIpFilter exempts getting, updating and deleting a bucket from its IP filter, so CI reaches a filtered bucket from outside its networks); https://cloud.google.com/storage/docs/access-control/iam-permissions (storage.buckets.getIpFilter reads the filter)';

/** The permission each API method the provider calls needs, per the services' method references. */
export const GCP_RIGHTS: Readonly<Record<string, ResourceRights>> = {
  // Every bucket's rights include its IP filter's: prod buckets always have one (a declared network).
  'gcp:storage/bucket:Bucket': {
    create: ['storage.buckets.create', 'storage.buckets.setIpFilter'],
    update: ['storage.buckets.update', 'storage.buckets.setIpFilter', 'storage.buckets.exemptFromIpFilter'],
    delete: ['storage.buckets.delete', 'storage.buckets.exemptFromIpFilter'],
    read: ['storage.buckets.get', 'storage.buckets.getIpFilter', 'storage.buckets.exemptFromIpFilter'],
    source: `${STORAGE}; ${IP_FILTER}`,
  },
  'gcp:storage/bucketIAMMember:BucketIAMMember': {
    create: ['storage.buckets.getIamPolicy', 'storage.buckets.setIamPolicy'],
    update: ['storage.buckets.getIamPolicy', 'storage.buckets.setIamPolicy'],
    delete: ['storage.buckets.getIamPolicy', 'storage.buckets.setIamPolicy'],
    read: ['storage.buckets.getIamPolicy'],
    source: STORAGE,
  },
  'gcp:storage/anywhereCache:AnywhereCache': {
    create: ['storage.anywhereCaches.create'],
    update: ['storage.anywhereCaches.update'],
    delete: ['storage.anywhereCaches.disable'],
    read: ['storage.anywhereCaches.get'],
    source: 'https://cloud.google.com/storage/docs/anywhere-cache#permissions',
  },
  'gcp:kms/keyRing:KeyRing': {
    create: ['cloudkms.keyRings.create'],
    update: [],
    // Key rings cannot be deleted: the provider forgets it.
    delete: [],
    read: ['cloudkms.keyRings.get'],
    source: KMS,
  },
  'gcp:kms/cryptoKey:CryptoKey': {
    create: ['cloudkms.cryptoKeys.create'],
    update: ['cloudkms.cryptoKeys.update'],
    // Keys cannot be deleted: the provider destroys every version instead.
    delete: ['cloudkms.cryptoKeyVersions.list', 'cloudkms.cryptoKeyVersions.destroy'],
    read: ['cloudkms.cryptoKeys.get'],
    source: `${KMS}; https://www.pulumi.com/registry/packages/gcp/api-docs/kms/cryptokey/ (destroy on delete)`,
  },
  'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember': {
    create: ['cloudkms.cryptoKeys.getIamPolicy', 'cloudkms.cryptoKeys.setIamPolicy'],
    update: ['cloudkms.cryptoKeys.getIamPolicy', 'cloudkms.cryptoKeys.setIamPolicy'],
    delete: ['cloudkms.cryptoKeys.getIamPolicy', 'cloudkms.cryptoKeys.setIamPolicy'],
    read: ['cloudkms.cryptoKeys.getIamPolicy'],
    source: KMS,
  },
  'gcp:serviceaccount/account:Account': {
    create: ['iam.serviceAccounts.create'],
    update: ['iam.serviceAccounts.update'],
    delete: ['iam.serviceAccounts.delete'],
    read: ['iam.serviceAccounts.get'],
    source: 'https://cloud.google.com/iam/docs/service-account-permissions',
  },
};

/** The stack's project: the one its own service accounts' emails name (the provider's default project). */
function stackProject(resources: readonly RenderedResource[]): string | undefined {
  const ids = resources
    .filter((r) => r.type === 'gcp:serviceaccount/account:Account')
    .map((r) => stringInput(r, 'accountId'));
  for (const resource of resources) {
    const member = /^serviceAccount:([^@]+)@([a-z][a-z0-9-]+)\.iam\.gserviceaccount\.com$/.exec(
      stringInput(resource, 'member') ?? '',
    );
    if (member && ids.includes(member[1])) return member[2];
  }
  return /projects\/([a-z][a-z0-9-]+)\//.exec(JSON.stringify(resources.map((r) => r.inputs)))?.[1];
}

export async function gcpMissingRights({
  render,
  bootstrap,
  environment,
}: RightsInput): Promise<MissingRight[]> {
  const project = stackProject(render.resources);
  if (!project) return [];
  const bindings = bindingsOf(bootstrap.resources);
  const customRoles = customRolesOf(bootstrap.resources);
  const denies = denyRulesOf(bootstrap.resources);
  const scopes = [`projects/${project}`];
  const members = new Map<string, string>();
  for (const account of bootstrap.resources) {
    if (account.type !== 'gcp:serviceaccount/account:Account') continue;
    members.set(
      account.name,
      `serviceAccount:${stringInput(account, 'accountId') ?? ''}@${stringInput(account, 'project') ?? ''}.iam.gserviceaccount.com`,
    );
  }
  const holds = (identity: string, permission: string) => {
    const member = members.get(identity);
    if (!member) return false;
    const granted = bindings.some(
      (b) =>
        b.member === member &&
        scopes.includes(b.scope) &&
        (customRoles.get(b.role) ?? PREDEFINED[b.role] ?? []).includes(permission),
    );
    return granted && !denies.some((rule) => deniesIt(rule, member, permission, scopes));
  };
  const missing: MissingRight[] = [];
  for (const resource of render.resources) {
    const rights = GCP_RIGHTS[resource.type];
    if (!rights) continue;
    const check = (identity: string, operation: MissingRight['operation'], permission: string) => {
      if (!holds(identity, permission)) {
        missing.push({
          resource: `${resource.type} ${resource.name}`,
          operation,
          permission,
          on: `projects/${project}`,
          identity: `ci ${identity}`,
        });
      }
    };
    for (const operation of neededOperations(resource)) {
      for (const permission of rights[operation]) check(`deploy-${environment}`, operation, permission);
    }
    for (const permission of rights.read) check('preview', 'read', permission);
  }
  return missing;
}
