import { z } from 'zod';
import {
  AZURE_ADLS_VAULTED_BACKUP_REGIONS,
  AZURE_VAULTED_BACKUP_DAYS,
  CLOUDS,
  closestKey,
  ConfigError,
  ENVIRONMENTS,
  GCP_COPY_DAYS,
  gcpAuditExemptionIssues,
  STORE_NAME_PATTERN,
  valueAt,
  type Cloud,
  type ConfigIssue,
  type Environment,
} from '@checkpoints/config';
import { nameRules } from '@checkpoints/naming';

export const NAMESPACE = 'bootstrap';

/** A GitHub repository; `fullName` is `owner/name`, as the `repository` claim of its OIDC tokens spells it. */
export interface Repository {
  owner: string;
  name: string;
  fullName: string;
}

export interface AwsSettings {
  region: string;
  /** The account's GitHub OIDC provider, when it already exists (an account holds one per issuer URL). */
  oidcProviderArn?: string;
  /** The S3 bucket of the self-managed Pulumi state backend the AWS stacks use, if they use one. */
  stateBucket?: string;
}

export interface GcpSettings {
  /** Where the workload identity pool and the CI service accounts live (`gcp:project`). */
  project: string;
  /** Per environment of `environments`, the project its GCP stack deploys into: one each, none of them `project`. */
  stackProjects: Record<Environment, string>;
  /** The Cloud Storage bucket of the self-managed Pulumi state backend the GCP stacks use, if they use one. */
  stateBucket?: string;
  /**
   * Per environment, the members the stack project's Data Access audit config exempts: the same list as
   * that stack's checkpoints:auditExemptMembers (the gcp-gcs-data-access-audit rule compares them).
   */
  auditExemptMembers: Partial<Record<Environment, string[]>>;
  /**
   * The repository's and its owner's immutable GitHub IDs: the workload identity provider admits tokens of
   * these IDs only, so a repository that takes the name after a rename or transfer is refused.
   */
  repositoryIds?: { repository: string; owner: string };
  /** Per environment, where its stores' independent copies live (`recovery.independentCopy` of the GCP stack). */
  independentCopy: Partial<Record<Environment, GcpIndependentCopySettings>>;
}

export interface GcpIndependentCopySettings {
  /** The copy project: none of `project` and `stackProjects`, so no CI identity holds a right there. */
  project: string;
  /** The copy bucket's location, a region. */
  location: string;
  /** The copy bucket's locked retention, lifecycle age and soft delete, in days. */
  retentionDays: number;
  /** The stores of that environment's GCP stack that get a copy: each store's copy is its own transfer job. */
  stores: string[];
}

export interface AzureSettings {
  subscriptionId: string;
  location: string;
  /** Per environment of `environments`, the existing resource group its Azure stack deploys into. */
  stackResourceGroups: Record<Environment, string>;
  /** The blob container of the self-managed Pulumi state backend the Azure stacks use, if they use one. */
  stateContainer?: AzureStateContainer;
  /** Per environment, the subnets its stores name (network.subnets, network.privateEndpointSubnet): joined there alone. */
  subnets?: Partial<Record<Environment, string[]>>;
  /** Per environment, the private DNS zones its stores name (network.privateDnsZones): joined there alone. */
  privateDnsZones?: Partial<Record<Environment, string[]>>;
  /** Per environment, the stores whose accounts its Backup vault protects (recovery.independentCopy). */
  independentCopies?: Partial<Record<Environment, AzureIndependentCopies>>;
}

/** The stores of one environment with an independent copy, and how long the vault keeps each recovery point. */
export interface AzureIndependentCopies {
  /** Store names as their stack created them (the first name: a renamed store keeps its account). */
  stores: string[];
  retentionDays: number;
}

export interface AzureStateContainer {
  /** ARM resource ID of the storage account that holds the container. */
  storageAccountId: string;
  container: string;
}

export interface BootstrapConfig {
  repository: Repository;
  environments: Environment[];
  clouds: Cloud[];
  owner: string;
  costCenter: string;
  aws?: AwsSettings;
  gcp?: GcpSettings;
  azure?: AzureSettings;
}

// GitHub's own rules: owner of letters, digits and single inner hyphens; repository name of letters,
// digits, '.', '_' and '-' other than '.' and '..'.
const REPOSITORY = /^([A-Za-z0-9](?:-?[A-Za-z0-9]){0,38})\/(?!\.\.?$)([A-Za-z0-9._-]{1,100})$/;
const OIDC_PROVIDER_ARN =
  /^arn:aws(?:-cn|-us-gov)?:iam::\d{12}:oidc-provider\/token\.actions\.githubusercontent\.com$/;
const AWS_REGION = /^[a-z]{2}(?:-[a-z]+)+-\d{1,2}$/;
// General purpose bucket names: 3-63 lowercase letters, digits, '.' and '-', starting and ending with a
// letter or digit, no '..' (https://docs.aws.amazon.com/AmazonS3/latest/userguide/bucketnamingrules.html).
const S3_BUCKET = /^(?!.*\.\.)[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
// Bucket names without dots: 3-63 lowercase letters, digits, '-' and '_', starting and ending with a letter
// or digit, not starting with 'goog' nor containing 'google'
// (https://cloud.google.com/storage/docs/buckets#naming). Dotted (domain) names are left out: they need
// domain verification and IAM Conditions gain nothing from them.
const GCS_BUCKET = /^(?!goog)(?!.*google)[a-z0-9][a-z0-9_-]{1,61}[a-z0-9]$/;
// A storage account's ARM ID; account names are 3-24 lowercase letters and digits
// (https://learn.microsoft.com/en-us/azure/azure-resource-manager/management/resource-name-rules#microsoftstorage).
const STORAGE_ACCOUNT_ID =
  /^\/subscriptions\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/resourceGroups\/[-\w.()]{1,90}\/providers\/Microsoft\.Storage\/storageAccounts\/[a-z0-9]{3,24}$/i;
const SUBNET_ID =
  /^\/subscriptions\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/resourceGroups\/[-\w.()]{1,90}\/providers\/Microsoft\.Network\/virtualNetworks\/[-\w.]{2,64}\/subnets\/[-\w.]{1,80}$/i;
const PRIVATE_DNS_ZONE_ID =
  /^\/subscriptions\/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\/resourceGroups\/[-\w.()]{1,90}\/providers\/Microsoft\.Network\/privateDnsZones\/[-\w.]{1,253}$/i;
// Container names: 3-63 lowercase letters, digits and '-', starting with a letter or digit, no '--'
// (https://learn.microsoft.com/en-us/rest/api/storageservices/naming-and-referencing-containers--blobs--and-metadata).
const BLOB_CONTAINER = /^(?!.*--)[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$/;
const GCP_PROJECT_ID = /^[a-z][a-z0-9-]{4,28}[a-z0-9]$/;
// A Google Cloud region, e.g. us-central1 (https://cloud.google.com/storage/docs/locations#available-locations).
const GCP_REGION = /^[a-z]+-[a-z]+[0-9]+$/;
// A store name of the stack config (checkpoints:stores[].name).
const STORE_NAME = /^[a-z][a-z0-9-]{1,30}$/;
const AZURE_SUBSCRIPTION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const perEnvironment = (value: z.ZodString) => z.record(z.string(), value);

const schema = z.strictObject({
  repository: z.string().regex(REPOSITORY),
  environments: z.array(z.enum(ENVIRONMENTS)).min(1),
  clouds: z.array(z.enum(CLOUDS)).min(1),
  owner: z.string().min(1).max(63),
  costCenter: z.string().min(1).max(63),
  aws: z
    .strictObject({
      oidcProviderArn: z.string().regex(OIDC_PROVIDER_ARN).optional(),
      stateBucket: z.string().regex(S3_BUCKET).optional(),
    })
    .optional(),
  gcp: z
    .strictObject({
      stackProjects: perEnvironment(z.string().regex(GCP_PROJECT_ID)).optional(),
      stateBucket: z.string().regex(GCS_BUCKET).optional(),
      auditExemptMembers: z.record(z.string(), z.array(z.string().min(1)).max(100)).optional(),
      repositoryId: z
        .string()
        .regex(/^[1-9]\d{0,19}$/)
        .optional(),
      repositoryOwnerId: z
        .string()
        .regex(/^[1-9]\d{0,19}$/)
        .optional(),
      // The organization every GCP project sits under, for the preflight (tools/preflight/bootstrap.cjs).
      organizationId: z
        .string()
        .regex(/^[1-9]\d{0,19}$/)
        .optional(),
      independentCopy: z
        .record(
          z.string(),
          z.strictObject({
            project: z.string().regex(GCP_PROJECT_ID),
            location: z.string().regex(GCP_REGION),
            retentionDays: z.number().int().min(GCP_COPY_DAYS.min).max(GCP_COPY_DAYS.max),
            stores: z.array(z.string().regex(STORE_NAME)).min(1).max(100),
          }),
        )
        .optional(),
    })
    .optional(),
  azure: z
    .strictObject({
      stackResourceGroups: perEnvironment(z.string()),
      subnets: z.record(z.string(), z.array(z.string().regex(SUBNET_ID))).optional(),
      privateDnsZones: z.record(z.string(), z.array(z.string().regex(PRIVATE_DNS_ZONE_ID))).optional(),
      independentCopies: z
        .record(
          z.string(),
          z.strictObject({
            stores: z.array(z.string().regex(STORE_NAME_PATTERN)).min(1),
            retentionDays: z
              .number()
              .int()
              .min(AZURE_VAULTED_BACKUP_DAYS.min)
              .max(AZURE_VAULTED_BACKUP_DAYS.max),
          }),
        )
        .optional(),
      stateContainer: z
        .strictObject({
          storageAccountId: z.string().regex(STORAGE_ACCOUNT_ID),
          container: z.string().regex(BLOB_CONTAINER),
        })
        .optional(),
    })
    .optional(),
});

type RawConfig = z.infer<typeof schema>;

const KNOWN_KEYS: Record<string, readonly string[]> = {
  '': Object.keys(schema.shape),
  aws: ['oidcProviderArn', 'stateBucket'],
  gcp: [
    'stackProjects',
    'stateBucket',
    'auditExemptMembers',
    'repositoryId',
    'repositoryOwnerId',
    'organizationId',
    'independentCopy',
  ],
  azure: ['stackResourceGroups', 'stateContainer', 'subnets', 'privateDnsZones', 'independentCopies'],
  ...Object.fromEntries(
    ENVIRONMENTS.map((environment) => [
      `azure.independentCopies.${environment}`,
      ['stores', 'retentionDays'],
    ]),
  ),
  'azure.stateContainer': ['storageAccountId', 'container'],
};

const ENVIRONMENT_LIST = ENVIRONMENTS.join(' | ');

/** What each key allows, in the words a user needs to fix it; `[]` marks one item of a list or map. */
const ALLOWED: Record<string, string> = {
  repository:
    "the GitHub repository CI runs in, as owner/name (e.g. acme/checkpoint-storage): no URL, no '.git', no wildcard",
  environments: `a list of one or more GitHub environments, each one of ${ENVIRONMENT_LIST} (the stack it deploys has the same name)`,
  'environments[]': `one of ${ENVIRONMENT_LIST}`,
  clouds: `a list of one or more of ${CLOUDS.join(' | ')}`,
  'clouds[]': `one of ${CLOUDS.join(' | ')}`,
  owner: 'a non-empty string of at most 63 characters (the owning team, used as a tag)',
  costCenter: 'a non-empty string of at most 63 characters (used as a tag)',
  aws: 'a mapping with the optional keys oidcProviderArn and stateBucket',
  oidcProviderArn:
    "the ARN of the account's existing GitHub OIDC provider: arn:aws:iam::<12-digit account>:oidc-provider/token.actions.githubusercontent.com",
  stateBucket:
    "the name of the S3 bucket of the AWS stacks' self-managed Pulumi state backend (s3://<bucket>): 3-63 lowercase letters, digits, '.' and '-', starting and ending with a letter or digit",
  gcp: 'a mapping with the key stackProjects and the optional keys stateBucket, auditExemptMembers, repositoryId, repositoryOwnerId, organizationId and independentCopy',
  independentCopy:
    'a mapping of environments to the copy of their GCP stores: { project, location, retentionDays, stores }',
  'independentCopy[]':
    'a mapping with the keys project, location, retentionDays and stores (the copy project, its region, the locked retention in days, the store names copied)',
  'gcp.independentCopy.project':
    'the ID of the copy project: 6-30 lowercase letters, digits and hyphens, starting with a letter; neither gcp:project nor a stackProjects entry',
  'gcp.independentCopy.location':
    'the region of the copy bucket, e.g. us-central1 (a region: no multi- or dual-region)',
  'gcp.independentCopy.retentionDays': `a whole number of days from ${GCP_COPY_DAYS.min} to ${GCP_COPY_DAYS.max}: the copy bucket's locked retention, lifecycle age and soft delete (soft delete keeps objects 7 to 90 days)`,
  'gcp.independentCopy.stores':
    "a list of 1 to 100 store names of that environment's GCP stack (checkpoints:stores[].name): lowercase letters, digits and hyphens, starting with a letter, 2-31 characters",
  'gcp.independentCopy.stores[]':
    "a store name of that environment's GCP stack (checkpoints:stores[].name): lowercase letters, digits and hyphens, starting with a letter, 2-31 characters",
  repositoryId:
    "the repository's numeric GitHub ID (the repository_id claim of its OIDC tokens; `gh api repos/OWNER/NAME --jq .id`), set together with repositoryOwnerId",
  repositoryOwnerId:
    "the numeric GitHub ID of the repository's owner (the repository_owner_id claim; `gh api repos/OWNER/NAME --jq .owner.id`), set together with repositoryId",
  organizationId:
    'the numeric ID of the GCP organization gcp:project and every stack project sit under, digits only and quoted (e.g. "123456789012", as `gcloud organizations list` prints it; not organizations/N)',
  auditExemptMembers:
    "a mapping of environments to lists of IAM members whose own data access that stack project's Data Access audit logs leave out (the stack's checkpoints:auditExemptMembers)",
  'auditExemptMembers[]':
    'a list of at most 100 IAM members, e.g. [serviceAccount:NAME@PROJECT.iam.gserviceaccount.com]',
  'gcp.stateBucket':
    "the name of the Cloud Storage bucket of the GCP stacks' self-managed Pulumi state backend (gs://<bucket>): 3-63 lowercase letters, digits, '-' and '_', starting and ending with a letter or digit, no 'goog' prefix, no 'google', no dots",
  stackProjects:
    'a mapping of every environment to the GCP project ID its stack deploys into (gcp:project there): one project per environment, none of them gcp:project',
  'stackProjects[]':
    'a GCP project ID: 6-30 lowercase letters, digits and hyphens, starting with a letter and not ending with a hyphen',
  azure:
    'a mapping with the key stackResourceGroups and the optional keys stateContainer, subnets, privateDnsZones and independentCopies',
  independentCopies:
    "a mapping of environments to the stores whose independent copy (recovery.independentCopy of stacks/azure-adls/Pulumi.<env>.yaml) that environment's Backup vault keeps",
  'independentCopies[]': `a mapping with the keys stores (the store names) and retentionDays (${AZURE_VAULTED_BACKUP_DAYS.min} to ${AZURE_VAULTED_BACKUP_DAYS.max})`,
  stores:
    'a non-empty list of the store names, as stacks/azure-adls/Pulumi.<env>.yaml names them (the first name of a renamed store, whose account keeps it)',
  'stores[]': `a store name matching ${STORE_NAME_PATTERN.source}`,
  retentionDays: `a whole number of days from ${AZURE_VAULTED_BACKUP_DAYS.min} to ${AZURE_VAULTED_BACKUP_DAYS.max}: how long the vault keeps each daily recovery point (Azure Backup keeps a daily vaulted recovery point at most ${AZURE_VAULTED_BACKUP_DAYS.max} days); at least the longest recovery.independentCopy.retentionDays of the listed stores`,
  subnets:
    'a mapping of environments to the subnets their Azure stores name (network.subnets and network.privateEndpointSubnet of stacks/azure-adls/Pulumi.<env>.yaml): the deploy identity may join those subnets alone',
  'subnets[]':
    'a list of subnet resource IDs: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/Microsoft.Network/virtualNetworks/<vnet>/subnets/<subnet>',
  privateDnsZones:
    'a mapping of environments to the private DNS zones their Azure stores name (network.privateDnsZones of stacks/azure-adls/Pulumi.<env>.yaml): the deploy identity may register private endpoints in those zones alone',
  'privateDnsZones[]':
    'a list of private DNS zone resource IDs: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/Microsoft.Network/privateDnsZones/<zone>, e.g. privatelink.blob.core.windows.net',
  stateContainer:
    "the blob container of the Azure stacks' self-managed Pulumi state backend (azblob://<container>), as a mapping with the keys storageAccountId and container",
  storageAccountId:
    'the ARM resource ID of the storage account that holds the state container: /subscriptions/<subscription GUID>/resourceGroups/<group>/providers/Microsoft.Storage/storageAccounts/<3-24 lowercase letters and digits>',
  container:
    "the name of the state container: 3-63 lowercase letters, digits and '-', starting and ending with a letter or digit, no '--'",
  stackResourceGroups:
    'a mapping of every environment to the existing resource group its Azure stack deploys into (checkpoints:resourceGroupName there)',
  'stackResourceGroups[]':
    "an Azure resource group name: 1-90 letters, digits, '-', '_', '.', '(' and ')', not ending with '.'",
};

/** Provider keys a cloud needs, with what they must hold. */
const PROVIDER_KEYS: Record<Cloud, { key: string; pattern: RegExp; allowed: string }[]> = {
  aws: [
    {
      key: 'aws:region',
      pattern: AWS_REGION,
      allowed: 'an AWS region such as us-east-1 (IAM is global; the region picks the STS endpoint)',
    },
  ],
  gcp: [
    {
      key: 'gcp:project',
      pattern: GCP_PROJECT_ID,
      allowed: 'the ID of the GCP project that holds the workload identity pool and the CI service accounts',
    },
  ],
  azure: [
    {
      key: 'azure-native:subscriptionId',
      pattern: AZURE_SUBSCRIPTION_ID,
      allowed: 'the ID (a GUID) of the Azure subscription the stacks deploy into',
    },
    {
      key: 'azure-native:location',
      pattern: /^[a-z][a-z0-9]*$/,
      allowed: 'the Azure region of the CI identities, e.g. eastus2',
    },
  ],
};

/**
 * Validates the `bootstrap:` namespace and the provider keys of the enabled clouds.
 * @param allConfig every config key of the stack, as `pulumi.runtime.allConfig()` gives it.
 * @param source the stack config file, named in the error.
 * @throws ConfigError listing every problem, before any resource is registered.
 */
export function loadBootstrapConfig(allConfig: Record<string, string>, source?: string): BootstrapConfig {
  const values = readNamespace(allConfig);
  const parsed = schema.safeParse(values);
  // Provider keys are checked whenever the cloud list itself is readable, so one run lists every problem.
  const clouds = schema.shape.clouds.safeParse(values['clouds']);
  const providerIssues = clouds.success ? providerKeyIssues(new Set(clouds.data), allConfig) : [];
  if (!parsed.success) {
    throw new ConfigError(
      [...parsed.error.issues.flatMap((issue) => toConfigIssues(issue, values)), ...providerIssues],
      source,
    );
  }
  const issues = [
    ...duplicateIssues(parsed.data),
    ...settingsIssues(parsed.data, allConfig['gcp:project'], allConfig['azure-native:location']),
    ...providerIssues,
  ];
  if (issues.length > 0) throw new ConfigError(issues, source);
  return toBootstrapConfig(parsed.data, allConfig);
}

function readNamespace(allConfig: Record<string, string>): Record<string, unknown> {
  const prefix = `${NAMESPACE}:`;
  return Object.fromEntries(
    Object.entries(allConfig)
      .filter(([key]) => key.startsWith(prefix))
      .map(([key, text]) => [key.slice(prefix.length), parseValue(text)]),
  );
}

/** Pulumi hands structured config values to programs as JSON text. */
function parseValue(text: string): unknown {
  const trimmed = text.trim();
  if (!trimmed.startsWith('[') && !trimmed.startsWith('{')) return text;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}

export function formatPath(segments: readonly PropertyKey[]): string {
  return segments.reduce<string>((path, segment, index) => {
    if (typeof segment === 'number') return `${path}[${segment}]`;
    return index === 0 ? `${path}${String(segment)}` : `${path}.${String(segment)}`;
  }, `${NAMESPACE}:`);
}

function toConfigIssues(issue: z.core.$ZodIssue, root: Record<string, unknown>): ConfigIssue[] {
  const segments = issue.path.filter((segment): segment is string | number => typeof segment !== 'symbol');
  if (issue.code === 'unrecognized_keys') {
    const known = KNOWN_KEYS[segments.join('.')] ?? [];
    return issue.keys.map((key) => {
      const hint = closestKey(key, known);
      return {
        path: formatPath([...segments, key]),
        value: undefined,
        message: `unknown key; ${hint ? `did you mean '${hint}'? ` : ''}known keys here: ${known.join(', ')}`,
      };
    });
  }
  const value = valueAt(root, segments);
  const allowed = ALLOWED[allowedKey(segments)] ?? issue.message;
  if (value === undefined) return [{ path: formatPath(segments), value, message: `is required: ${allowed}` }];
  return [
    { path: formatPath(segments), value, message: `${repositoryHint(segments, value)}allowed: ${allowed}` },
  ];
}

/** `environments[1]` -> 'environments[]'; `gcp.stackProjects.prod` -> 'stackProjects[]'. */
function allowedKey(segments: readonly (string | number)[]): string {
  const path = segments.join('.');
  if (ALLOWED[path] !== undefined) return path;
  const last = segments.at(-1);
  const parent = segments.at(-2);
  // `azure.subnets.prod[0]`: an entry of one environment's list.
  if (segments[0] === 'azure' && segments[1] === 'subnets' && segments.length > 2) return 'subnets[]';
  if (segments[0] === 'azure' && segments[1] === 'privateDnsZones' && segments.length > 2) {
    return 'privateDnsZones[]';
  }
  if (segments[0] === 'gcp' && segments[1] === 'independentCopy') {
    if (segments.length === 3) return 'independentCopy[]';
    if (segments.length > 3) {
      return typeof last === 'number'
        ? 'gcp.independentCopy.stores[]'
        : `gcp.independentCopy.${String(segments[3])}`;
    }
  }
  if (typeof last === 'number') return `${String(parent)}[]`;
  if (
    parent === 'stackProjects' ||
    parent === 'stackResourceGroups' ||
    parent === 'auditExemptMembers' ||
    parent === 'independentCopies'
  ) {
    return `${parent}[]`;
  }
  return String(last ?? '');
}

/** The usual slip is pasting the repository's URL: name the value to write instead. */
function repositoryHint(segments: readonly (string | number)[], value: unknown): string {
  if (segments.join('.') !== 'repository' || typeof value !== 'string') return '';
  const fromUrl = /github\.com[/:]([^/\s]+)\/([^/\s]+?)(?:\.git)?\/?$/.exec(value);
  const candidate = fromUrl ? `${fromUrl[1]}/${fromUrl[2]}` : undefined;
  return candidate && REPOSITORY.test(candidate) ? `did you mean '${candidate}'? ` : '';
}

function duplicateIssues(raw: RawConfig): ConfigIssue[] {
  return (['environments', 'clouds'] as const).flatMap((key) =>
    (raw[key] as readonly string[]).flatMap((item, index, list) =>
      list.indexOf(item) === index
        ? []
        : [{ path: formatPath([key, index]), value: item, message: 'is listed twice' }],
    ),
  );
}

/** Each enabled cloud needs its provider keys, each with a value of the right shape. */
function providerKeyIssues(enabled: ReadonlySet<Cloud>, allConfig: Record<string, string>): ConfigIssue[] {
  return CLOUDS.filter((cloud) => enabled.has(cloud)).flatMap((cloud) =>
    PROVIDER_KEYS[cloud].flatMap(({ key, pattern, allowed }): ConfigIssue[] => {
      const value = allConfig[key];
      if (value === undefined || value === '') {
        return [
          {
            path: key,
            value: undefined,
            message: `is required when ${cloud} is in ${NAMESPACE}:clouds: ${allowed}`,
          },
        ];
      }
      return pattern.test(value) ? [] : [{ path: key, value, message: `allowed: ${allowed}` }];
    }),
  );
}

/** The repository's ID means nothing without its owner's, nor the owner's without the repository's. */
function repositoryIdIssues(raw: RawConfig): ConfigIssue[] {
  const { repositoryId, repositoryOwnerId } = raw.gcp ?? {};
  if ((repositoryId === undefined) === (repositoryOwnerId === undefined)) return [];
  const [given, missing] =
    repositoryId === undefined
      ? ['repositoryOwnerId', 'repositoryId']
      : ['repositoryId', 'repositoryOwnerId'];
  return [
    {
      path: formatPath(['gcp', given]),
      value: repositoryId ?? repositoryOwnerId,
      message: `is set without gcp.${missing}: set both (${ALLOWED[missing] ?? ''})`,
    },
  ];
}

/** Settings of a cloud that is not enabled are a mistake; those of an enabled cloud must fit the environments. */
function settingsIssues(
  raw: RawConfig,
  ciProject: string | undefined,
  azureLocation: string | undefined,
): ConfigIssue[] {
  const enabled = new Set(raw.clouds);
  const notEnabled = CLOUDS.filter((cloud) => !enabled.has(cloud) && raw[cloud] !== undefined).map(
    (cloud) => ({
      path: formatPath([cloud]),
      value: raw[cloud],
      message: `is set, but ${cloud} is not in ${NAMESPACE}:clouds (${raw.clouds.join(', ')}); add it there or remove this key`,
    }),
  );
  return [
    ...notEnabled,
    ...(enabled.has('gcp')
      ? [
          ...environmentMapIssues(['gcp', 'stackProjects'], raw.gcp?.stackProjects, raw.environments, true),
          ...sharedProjectIssues(raw.gcp?.stackProjects ?? {}, ciProject),
          ...environmentMapIssues(
            ['gcp', 'auditExemptMembers'],
            raw.gcp?.auditExemptMembers,
            raw.environments,
            false,
          ),
          ...auditExemptionIssues(raw),
          ...repositoryIdIssues(raw),
          ...environmentMapIssues(
            ['gcp', 'independentCopy'],
            raw.gcp?.independentCopy,
            raw.environments,
            false,
          ),
          ...copyProjectIssues(raw, ciProject),
        ]
      : []),
    ...(enabled.has('azure')
      ? [
          ...environmentMapIssues(
            ['azure', 'stackResourceGroups'],
            raw.azure?.stackResourceGroups,
            raw.environments,
            true,
          ),
          ...resourceGroupNameIssues(raw.azure?.stackResourceGroups ?? {}),
          ...independentCopyIssues(raw, azureLocation),
          ...(['subnets', 'privateDnsZones', 'independentCopies'] as const).flatMap((list) =>
            Object.keys(raw.azure?.[list] ?? {})
              .filter((key) => !raw.environments.includes(key as Environment))
              .map((key) => ({
                path: formatPath(['azure', list, key]),
                value: raw.azure?.[list]?.[key],
                message: `is not an environment of ${NAMESPACE}:environments (${raw.environments.join(', ')})`,
              })),
          ),
        ]
      : []),
  ];
}

/**
 * A store listed twice has one backup instance; and the Backup vault must be in the stores' region (the
 * bootstrap's location, which the stacks share), where Azure Backup must offer vaulted backup of ADLS
 * (AZURE_ADLS_VAULTED_BACKUP_REGIONS).
 */
function independentCopyIssues(raw: RawConfig, location: string | undefined): ConfigIssue[] {
  const copies = Object.entries(raw.azure?.independentCopies ?? {});
  const duplicates = copies.flatMap(([environment, { stores }]) =>
    stores.flatMap((store, index) =>
      stores.indexOf(store) === index
        ? []
        : [
            {
              path: formatPath(['azure', 'independentCopies', environment, 'stores', index]),
              value: store,
              message: 'is listed twice',
            },
          ],
    ),
  );
  const region = (location ?? '').toLowerCase();
  const [first] = copies;
  const unsupported =
    first === undefined || AZURE_ADLS_VAULTED_BACKUP_REGIONS.includes(region)
      ? []
      : [
          {
            path: formatPath(['azure', 'independentCopies', first[0]]),
            value: first[1],
            message: `cannot be honoured in azure-native:location ${location ?? '(unset)'}: the Backup vault must be in the stores' region, and Azure Backup offers vaulted backup of ADLS (a limited preview) in ${AZURE_ADLS_VAULTED_BACKUP_REGIONS.join(', ')} only (https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-support-matrix); remove independentCopies or bootstrap in one of those regions`,
          },
        ];
  return [...duplicates, ...unsupported];
}

/**
 * Deploy rights are project-wide (creating a bucket is authorised on the project): two environments in
 * one project would let one's deploy account change the other's stores, and a stack project that holds
 * the CI service accounts would put them in the deploy accounts' reach.
 */
function sharedProjectIssues(projects: Record<string, string>, ciProject: string | undefined): ConfigIssue[] {
  const entries = Object.entries(projects);
  return entries.flatMap(([environment, project], index): ConfigIssue[] => {
    if (project === ciProject) {
      return [
        {
          path: formatPath(['gcp', 'stackProjects', environment]),
          value: project,
          message: `is gcp:project, where the CI service accounts live: give the stacks projects of their own, out of the deploy accounts' reach`,
        },
      ];
    }
    const first = entries.findIndex(([, other]) => other === project);
    if (first === index) return [];
    return [
      {
        path: formatPath(['gcp', 'stackProjects', environment]),
        value: project,
        message: `is also the project of ${entries[first]?.[0] ?? '?'}: each environment needs a project of its own, or its deploy account reaches the other's stores`,
      },
    ];
  });
}

/**
 * The copy is out of CI's reach only in a project where no CI identity holds a right: not the CI project, where
 * the CI service accounts live, nor a stack project, where the deploy account holds its project-wide roles.
 */
function copyProjectIssues(raw: RawConfig, ciProject: string | undefined): ConfigIssue[] {
  const stackProjects = Object.entries(raw.gcp?.stackProjects ?? {});
  return Object.entries(raw.gcp?.independentCopy ?? {}).flatMap(([environment, copy]): ConfigIssue[] => {
    const path = formatPath(['gcp', 'independentCopy', environment, 'project']);
    if (copy.project === ciProject) {
      return [
        {
          path,
          value: copy.project,
          message:
            'is gcp:project, where the CI service accounts live: the copy needs a project where no CI identity holds a right',
        },
      ];
    }
    const stack = stackProjects.find(([, project]) => project === copy.project);
    if (stack !== undefined) {
      return [
        {
          path,
          value: copy.project,
          message: `is the stack project of ${stack[0]} (gcp.stackProjects), where its deploy account holds project-wide roles: the copy needs a project where no CI identity holds a right`,
        },
      ];
    }
    const duplicate = copy.stores.findIndex((store, index) => copy.stores.indexOf(store) !== index);
    return duplicate < 0
      ? []
      : [
          {
            path: formatPath(['gcp', 'independentCopy', environment, 'stores', duplicate]),
            value: copy.stores[duplicate],
            message: 'is listed twice',
          },
        ];
  });
}

function resourceGroupNameIssues(groups: Record<string, string>): ConfigIssue[] {
  return Object.entries(groups).flatMap(([environment, group]) => {
    const problem = nameRules.resourceGroup(group);
    return problem === undefined
      ? []
      : [{ path: formatPath(['azure', 'stackResourceGroups', environment]), value: group, message: problem }];
  });
}

/** The member formats and prod limits of libs/config, per environment (a reader is checked by the stack). */
function auditExemptionIssues(raw: RawConfig): ConfigIssue[] {
  return Object.entries(raw.gcp?.auditExemptMembers ?? {}).flatMap(([environment, members]) =>
    ENVIRONMENTS.includes(environment as Environment)
      ? gcpAuditExemptionIssues(members, { environment: environment as Environment, readers: [] }).map(
          (issue) => ({
            ...issue,
            path: issue.path.replace(
              'checkpoints:auditExemptMembers',
              formatPath(['gcp', 'auditExemptMembers', environment]),
            ),
          }),
        )
      : [],
  );
}

function environmentMapIssues(
  segments: readonly string[],
  map: Record<string, unknown> | undefined,
  environments: readonly Environment[],
  everyEnvironmentRequired: boolean,
): ConfigIssue[] {
  const listed = environments.join(', ');
  const unknown = Object.keys(map ?? {})
    .filter((key) => !environments.includes(key as Environment))
    .map((key) => ({
      path: formatPath([...segments, key]),
      value: map?.[key],
      message: `is not an environment of ${NAMESPACE}:environments (${listed})`,
    }));
  const missing = everyEnvironmentRequired
    ? environments
        .filter((environment) => map?.[environment] === undefined)
        .map((environment) => ({
          path: formatPath([...segments, environment]),
          value: undefined,
          message: `is required: ${ALLOWED[`${segments.at(-1)}[]`]}; deploy rights are granted there alone`,
        }))
    : [];
  return [...unknown, ...missing];
}

function toBootstrapConfig(raw: RawConfig, allConfig: Record<string, string>): BootstrapConfig {
  const match = REPOSITORY.exec(raw.repository);
  const [owner = '', name = ''] = match ? [match[1], match[2]] : [];
  const config: BootstrapConfig = {
    repository: { owner, name, fullName: raw.repository },
    environments: raw.environments,
    clouds: raw.clouds,
    owner: raw.owner,
    costCenter: raw.costCenter,
  };
  const setting = (key: string) => allConfig[key] ?? '';
  if (raw.clouds.includes('aws')) {
    config.aws = { region: setting('aws:region') };
    if (raw.aws?.oidcProviderArn) config.aws.oidcProviderArn = raw.aws.oidcProviderArn;
    if (raw.aws?.stateBucket) config.aws.stateBucket = raw.aws.stateBucket;
  }
  if (raw.clouds.includes('gcp')) {
    const project = setting('gcp:project');
    config.gcp = {
      project,
      stackProjects: perEnvironmentValue(raw.environments, (env) => raw.gcp?.stackProjects?.[env] ?? ''),
      auditExemptMembers: Object.fromEntries(
        raw.environments.map((env) => [env, [...(raw.gcp?.auditExemptMembers?.[env] ?? [])]]),
      ),
      independentCopy: {},
    };
    if (raw.gcp?.stateBucket) config.gcp.stateBucket = raw.gcp.stateBucket;
    config.gcp.independentCopy = Object.fromEntries(
      raw.environments.flatMap((env) => {
        const copy = raw.gcp?.independentCopy?.[env];
        return copy ? [[env, { ...copy, stores: [...copy.stores] }]] : [];
      }),
    );
    if (raw.gcp?.repositoryId && raw.gcp.repositoryOwnerId)
      config.gcp.repositoryIds = { repository: raw.gcp.repositoryId, owner: raw.gcp.repositoryOwnerId };
  }
  if (raw.clouds.includes('azure')) {
    config.azure = {
      subscriptionId: setting('azure-native:subscriptionId').toLowerCase(),
      location: setting('azure-native:location'),
      stackResourceGroups: perEnvironmentValue(
        raw.environments,
        (env) => raw.azure?.stackResourceGroups[env] ?? '',
      ),
    };
    if (raw.azure?.stateContainer) config.azure.stateContainer = raw.azure.stateContainer;
    const { subnets, privateDnsZones } = raw.azure ?? {};
    if (subnets) config.azure.subnets = perEnvironmentLists(raw.environments, subnets);
    if (privateDnsZones)
      config.azure.privateDnsZones = perEnvironmentLists(raw.environments, privateDnsZones);
    const copies = raw.azure?.independentCopies;
    if (copies) {
      config.azure.independentCopies = Object.fromEntries(
        raw.environments.flatMap((env) => {
          const copy = copies[env];
          return copy ? [[env, { stores: [...copy.stores], retentionDays: copy.retentionDays }]] : [];
        }),
      );
    }
  }
  return config;
}

/** The lists of the configured environments only (the others are refused beforehand). */
function perEnvironmentLists(
  environments: readonly Environment[],
  lists: Record<string, string[]>,
): Partial<Record<Environment, string[]>> {
  return Object.fromEntries(environments.flatMap((env) => (lists[env] ? [[env, lists[env]]] : [])));
}

/** Holds exactly the configured environments: look it up with those only. */
function perEnvironmentValue(
  environments: readonly Environment[],
  valueOf: (environment: Environment) => string,
): Record<Environment, string> {
  return Object.fromEntries(environments.map((environment) => [environment, valueOf(environment)])) as Record<
    Environment,
    string
  >;
}
