import type { RenderedResource } from '@checkpoints/render';
import { stringInput } from '../access/model';
import {
  bindingsOf,
  customRolesOf,
  deniesIt,
  denyRulesOf,
  gcsIpFilterVerdict,
  parseIp,
  PREDEFINED,
  type GcsNetworkRequest,
  type GcsRequestSource,
} from '../access/gcp';
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
  // A binding is written the same way as a member: read the bucket's policy, set it with the role changed.
  'gcp:storage/bucketIAMBinding:BucketIAMBinding': {
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

const GITHUB_HOSTED_ADDRESSES =
  'https://docs.github.com/en/actions/using-github-hosted-runners/about-github-hosted-runners/about-github-hosted-runners#ip-addresses';

/**
 * Which of a resource's calls go to a bucket (and so through its IP filter), as which filter operation. A
 * bucket's creation is a call on the project (the bucket and its filter do not exist yet); getting,
 * updating and deleting it are what storage.buckets.exemptFromIpFilter exempts
 * (https://cloud.google.com/storage/docs/bypass-ip-filter, "Supported operations"); its IAM policy and its
 * Anywhere Caches (https://cloud.google.com/storage/docs/json_api/v1/anywhereCaches, under /b/BUCKET) are
 * not in that list, so they are filtered like any request.
 */
const BUCKET_CALLS: Readonly<
  Record<string, Partial<Record<MissingRight['operation'], GcsNetworkRequest['operation']>>>
> = {
  'gcp:storage/bucket:Bucket': { read: 'bucket-get', update: 'bucket-update', delete: 'bucket-delete' },
  'gcp:storage/bucketIAMMember:BucketIAMMember': {
    create: 'bucket-other',
    update: 'bucket-other',
    delete: 'bucket-other',
    read: 'bucket-other',
  },
  'gcp:storage/bucketIAMBinding:BucketIAMBinding': {
    create: 'bucket-other',
    update: 'bucket-other',
    delete: 'bucket-other',
    read: 'bucket-other',
  },
  'gcp:storage/anywhereCache:AnywhereCache': {
    create: 'bucket-other',
    update: 'bucket-other',
    delete: 'bucket-other',
    read: 'bucket-other',
  },
};

interface RunnerSource {
  label: string;
  /** The first and last address the runners may call from: the filter must admit both (so all between). */
  ends: GcsRequestSource[];
}

/**
 * Where CI's calls come from, per the store's `ciRunners` input. GitHub-hosted runners call from any of
 * GitHub's published ranges, which change (GITHUB_HOSTED_ADDRESSES): only a filter admitting every address
 * admits them. Self-hosted runners call from their egress ranges or their VPC networks; one declaring
 * neither is judged as GitHub-hosted (an unknown address: the worst case).
 */
function runnerSources(ciRunners: unknown): RunnerSource[] {
  const runners = (typeof ciRunners === 'object' && ciRunners !== null ? ciRunners : {}) as {
    kind?: unknown;
    egressCidrs?: unknown;
    networks?: unknown;
  };
  const list = (value: unknown) => (Array.isArray(value) ? value.map(String) : []);
  const egress = list(runners.egressCidrs);
  const networks = list(runners.networks);
  const anywhere = (): GcsRequestSource[] => rangeEnds('0.0.0.0/0').map((ip) => ({ internet: ip }));
  if (runners.kind !== 'self-hosted' || (egress.length === 0 && networks.length === 0)) {
    return [
      {
        label:
          runners.kind === 'self-hosted'
            ? 'self-hosted runners with no egressCidrs or networks (an unknown address)'
            : `GitHub-hosted runners (any of GitHub's changing ranges, ${GITHUB_HOSTED_ADDRESSES})`,
        ends: anywhere(),
      },
    ];
  }
  return [
    ...egress.map((cidr) => ({
      label: `self-hosted runners egressing from ${cidr}`,
      ends: rangeEnds(cidr).map((ip) => ({ internet: ip })),
    })),
    ...networks.map((network) => ({
      label: `self-hosted runners in ${network}`,
      ends: rangeEnds('0.0.0.0/0').map((ip) => ({ network, ip })),
    })),
  ];
}

/** The first and last address of a CIDR range (a malformed one: the whole IPv4 internet, the worst case). */
function rangeEnds(cidr: string): [string, string] {
  const [base = '', bitsText] = cidr.split('/');
  const address = parseIp(base);
  const bits = address?.bits ?? 32;
  const prefix = bitsText === undefined ? bits : Number(bitsText);
  if (!address || !Number.isInteger(prefix) || prefix < 0 || prefix > bits)
    return ['0.0.0.0', '255.255.255.255'];
  const host = (1n << BigInt(bits - prefix)) - 1n;
  const first = address.value & ~host;
  const format = (n: bigint) =>
    bits === 32
      ? [24n, 16n, 8n, 0n].map((shift) => String((n >> shift) & 255n)).join('.')
      : Array.from({ length: 8 }, (_, i) => ((n >> BigInt(112 - 16 * i)) & 0xffffn).toString(16)).join(':');
  return [format(first), format(first | host)];
}

/** The rule that keeps a call of CI's from the bucket, from any of the runners' sources; undefined: it passes. */
function blockedCall(
  ipFilter: unknown,
  ciRunners: unknown,
  operation: GcsNetworkRequest['operation'],
  exemptFromIpFilter: boolean,
): string | undefined {
  for (const source of runnerSources(ciRunners)) {
    for (const from of source.ends) {
      const verdict = gcsIpFilterVerdict(ipFilter, { from, operation, exemptFromIpFilter });
      if (!verdict.allowed) return `the bucket's IP filter refuses ${source.label}: ${verdict.rule}`;
    }
  }
  return undefined;
}

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
  const byUrn = new Map(render.resources.map((resource) => [resource.urn, resource]));
  const bucketsByName = new Map(
    render.resources
      .filter((r) => r.type === 'gcp:storage/bucket:Bucket')
      .map((r) => [stringInput(r, 'name') ?? r.name, r]),
  );
  const missing: MissingRight[] = [];
  for (const resource of render.resources) {
    const rights = GCP_RIGHTS[resource.type];
    if (!rights) continue;
    const bucket =
      resource.type === 'gcp:storage/bucket:Bucket'
        ? resource
        : bucketsByName.get(stringInput(resource, 'bucket') ?? '');
    // The store component says where CI runs; a bucket outside one is judged from GitHub-hosted runners.
    const ciRunners = (bucket?.parent ? byUrn.get(bucket.parent) : undefined)?.inputs['ciRunners'];
    const check = (identity: string, operation: MissingRight['operation'], permission: string) => {
      const at = { resource: `${resource.type} ${resource.name}`, operation, permission };
      if (!holds(identity, permission)) {
        missing.push({ ...at, on: `projects/${project}`, identity: `ci ${identity}` });
        return;
      }
      const filtered = BUCKET_CALLS[resource.type]?.[operation];
      if (!bucket || !filtered) return;
      const rule = blockedCall(
        bucket.inputs['ipFilter'],
        ciRunners,
        filtered,
        holds(identity, 'storage.buckets.exemptFromIpFilter'),
      );
      if (rule) {
        missing.push({
          ...at,
          on: `buckets/${stringInput(bucket, 'name') ?? bucket.name}`,
          identity: `ci ${identity}`,
          blockedBy: rule,
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
