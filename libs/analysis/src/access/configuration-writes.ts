/**
 * Destruction and blinding through configuration: the settings writes that make checkpoints unrecoverable
 * without a single delete right (lifecycle, versioning, soft delete, retention and immutability policies), or
 * hide who touches them (trail selectors, audit configs, sinks, diagnostic settings). Each cloud's access file
 * asks its own permission question for each write of the tables below; what the worst write does to the store
 * is replayed by the retention model (../retention/configuration-replay) under the guardrails that still hold
 * against the principal.
 */
import type { Cloud, Tier } from '@checkpoints/config';
import type { TierRecovery } from '../retention/model';
import { resourcesOfType, type RenderedResource } from '@checkpoints/render';
import { s3BucketOf } from '../retention/aws';
import { adlsAccountOf } from '../retention/azure';
import {
  adlsWorstWrite,
  describeReplay,
  gcsWorstWrite,
  s3WorstWrite,
  soonestGone,
  type WriteReplay,
} from '../retention/configuration-replay';
import { gcsBucketOf } from '../retention/gcp';
import { statementOf } from '../retention';
import { S3_RECOVERY } from '../retention/aws';
import { GCS_RECOVERY } from '../retention/gcp';
import { ADLS_RECOVERY } from '../retention/azure';
import { record } from '../retention/values';
import { AWS_COPY_LIFTS, AWS_COPY_SHORTEN, type AwsIndependentCopy } from '../retention/aws-copy';
import { AZURE_COPY_LIFTS, AZURE_VAULT_WRITE, type AzureIndependentCopy } from '../retention/azure-copy';
import { GCP_COPY_LIFTS, type GcpIndependentCopy } from '../retention/gcp-copy';
import type { AccessGrant, ConfigurationWrite, CopyEffect, Principal } from './model';

/** What a write does: deletes by itself (lifecycle), or takes a recovery away from what lifecycle deletes. */
type WriteRole = 'deletes' | 'unprotects';

export interface WriteEntry {
  setting: string;
  permission: string;
  role: WriteRole;
}

/**
 * S3 general purpose buckets: PutLifecycleConfiguration (and DeleteBucketLifecycle, authorised as it) sets what
 * lifecycle expires; PutBucketVersioning suspends versioning. Replication only copies into the replica (whose
 * own lifecycle is a write on the replica, asked there), and the Object Lock configuration's default retention
 * applies to versions written after a change only: neither deletes a stored checkpoint.
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_amazons3.html
 */
export const AWS_BUCKET_WRITES: readonly WriteEntry[] = [
  { setting: 'lifecycle', permission: 's3:PutLifecycleConfiguration', role: 'deletes' },
  { setting: 'versioning', permission: 's3:PutBucketVersioning', role: 'unprotects' },
];

/** S3 Express directory buckets: lifecycle is their only delete by configuration (no versioning, no lock). */
export const AWS_DIRECTORY_BUCKET_WRITES: readonly WriteEntry[] = [
  { setting: 'lifecycle', permission: 's3express:PutLifecycleConfiguration', role: 'deletes' },
];

/**
 * What stops, narrows or deletes the stack trail's recording of the stores' data events.
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudtrail.html
 */
export const AWS_AUDIT_WRITES: readonly string[] = [
  'cloudtrail:StopLogging',
  'cloudtrail:PutEventSelectors',
  'cloudtrail:UpdateTrail',
  'cloudtrail:DeleteTrail',
];

/**
 * GCS: one `storage.buckets.update` changes lifecycle, soft delete, versioning and an unlocked retention policy
 * together (https://cloud.google.com/storage/docs/access-control/iam-permissions, buckets.update: "Update
 * bucket metadata, excluding IAM policies"; an unlocked retention policy is removed with it,
 * https://cloud.google.com/storage/docs/using-bucket-lock#remove-policy).
 */
export const GCP_BUCKET_WRITES: readonly WriteEntry[] = [
  {
    setting: 'lifecycle, soft delete, versioning and retention policy',
    permission: 'storage.buckets.update',
    role: 'deletes',
  },
];

/**
 * Data Access audit logs are the project IAM policy's auditConfigs (setIamPolicy), routed by sinks and kept
 * in log buckets. https://cloud.google.com/logging/docs/audit/configure-data-access#config-api,
 * https://cloud.google.com/logging/docs/access-control#permissions_and_roles
 */
export const GCP_AUDIT_WRITES: readonly string[] = [
  'resourcemanager.projects.setIamPolicy',
  'logging.sinks.update',
  'logging.sinks.delete',
  'logging.exclusions.create',
  'logging.buckets.update',
];

/** Who may change the organization policies of a project. https://cloud.google.com/resource-manager/docs/organization-policy/using-constraints#required-roles */
export const GCP_ORG_POLICY_SET = 'orgpolicy.policy.set';

/**
 * ADLS: the management policy deletes; the blob service properties hold soft delete; an unlocked immutability
 * policy is shortened or deleted with these (https://learn.microsoft.com/azure/role-based-access-control/permissions/storage).
 */
export const AZURE_ACCOUNT_WRITES: readonly WriteEntry[] = [
  {
    setting: 'lifecycle management policy',
    permission: 'Microsoft.Storage/storageAccounts/managementPolicies/write',
    role: 'deletes',
  },
  {
    setting: 'blob soft delete',
    permission: 'Microsoft.Storage/storageAccounts/blobServices/write',
    role: 'unprotects',
  },
];
/**
 * Only deleting an unlocked immutability policy lets lifecycle delete: a shortened one still makes the
 * container immutable, and "the delete action of a lifecycle management policy won't work with any blob in an
 * immutable container" (https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-overview#known-issues-and-limitations).
 */
export const AZURE_IMMUTABILITY_LIFT =
  'Microsoft.Storage/storageAccounts/blobServices/containers/immutabilityPolicies/delete';

/** The account's diagnostic settings send its blob logs to the audit workspace. https://learn.microsoft.com/azure/azure-monitor/essentials/diagnostic-settings */
export const AZURE_AUDIT_WRITES: readonly string[] = [
  'Microsoft.Insights/diagnosticSettings/write',
  'Microsoft.Insights/diagnosticSettings/delete',
];

/**
 * The write-once archive a store's diagnostic settings also send to (`storageAccountId`): its account-level
 * immutability policy, while unlocked, is shortened, disabled or deleted with the account's own PUT ("Unlocked
 * state allows increase and decrease of immutability retention time", @pulumi/azure-native
 * AccountImmutabilityPolicyProperties.state; https://learn.microsoft.com/azure/storage/blobs/immutable-policy-configure-version-scope),
 * and deleting the account takes every log with it.
 * https://learn.microsoft.com/azure/role-based-access-control/permissions/storage#microsoftstorage
 */
export const AZURE_ARCHIVE_WRITES: readonly string[] = [
  'Microsoft.Storage/storageAccounts/write',
  'Microsoft.Storage/storageAccounts/delete',
];

/**
 * Who may lift an Azure Policy assignment: delete or rewrite it, its definition, or exempt a scope from it.
 * https://learn.microsoft.com/azure/governance/policy/overview#azure-rbac-permissions-in-azure-policy
 */
export const AZURE_POLICY_WRITES: readonly string[] = [
  'Microsoft.Authorization/policyAssignments/write',
  'Microsoft.Authorization/policyAssignments/delete',
  'Microsoft.Authorization/policyDefinitions/write',
  'Microsoft.Authorization/policyExemptions/write',
];

const TIER_RECOVERY: Record<Cloud, Record<Tier, TierRecovery>> = {
  aws: S3_RECOVERY,
  gcp: GCS_RECOVERY,
  azure: ADLS_RECOVERY,
};

/**
 * The recovery window a store's spec promises: days a checkpoint stays recoverable once it stops being live
 * (its previous versions' days where the tier keeps versions, else soft delete's). The retention lock is a
 * promise of its own, shown by the guardrails of the grant.
 */
export function promisedWindowDays(cloud: Cloud, component: RenderedResource | undefined): number {
  const statement = statementOf(component);
  if (statement === undefined) return 0;
  return TIER_RECOVERY[cloud][statement.tier].versions
    ? statement.retention.noncurrentExpireDays
    : statement.retention.softDeleteDays;
}

interface Outcome {
  replay: WriteReplay;
  lockDays: number;
  guardrails: string[];
  /** The part of the store no mechanism of its cloud or tier holds against the write, and why. */
  unguarded?: string;
  /** Whether the figure the guardrails answer for is the fresh one only (the rest is unguarded). */
  guardsFreshOnly: boolean;
  /** The tier has no mechanism at all: nothing of the store can be held. */
  unguardedTier?: boolean;
  copy?: CopyEffect;
  /** The store's own replay, before the copy's days (the figures above count the copy). */
  storeReplay?: WriteReplay;
}

function destroyGrant(
  principal: Principal,
  held: readonly { entry: WriteEntry; reason: string }[],
  windowDays: number,
  outcome: Outcome,
  replica = false,
): AccessGrant[] {
  if (!held.some(({ entry }) => entry.role === 'deletes')) return copyLiftGrant(principal, outcome.copy);
  const { replay } = outcome;
  const goneAfterDays = soonestGone(replay);
  const guardedGoneAfterDays = outcome.unguardedTier
    ? null
    : outcome.guardsFreshOnly
      ? replay.freshDays
      : goneAfterDays;
  const copy = outcome.copy;
  const summary =
    copy && copy.days > 0
      ? `${describeReplay(outcome.storeReplay ?? replay, outcome.lockDays)} in the store, ${copy.holds ?? 'every checkpoint'} still recoverable from the independent copy (${copy.where}) for ${copy.days} days after the write`
      : describeReplay(replay, outcome.lockDays);
  const writes: ConfigurationWrite[] = held.map(({ entry, reason }) => ({
    setting: entry.setting,
    permission: entry.permission,
    reason,
  }));
  const guards = outcome.guardrails.length > 0 ? outcome.guardrails.join('; ') : 'no guardrail holds';
  return [
    {
      principal,
      operation: 'destroy-by-config',
      reason: `${summary} (${guards}${outcome.unguarded ? `; ${outcome.unguarded}` : ''}): ${held
        .map(({ entry, reason }) => `${entry.setting} by ${reason}`)
        .join('; ')}`,
      configuration: {
        writes,
        goneAfterDays,
        guardedGoneAfterDays,
        windowDays,
        guardrails: outcome.guardrails,
        ...(outcome.unguarded ? { unguarded: outcome.unguarded } : {}),
        ...(replica ? { replica } : {}),
        ...(outcome.unguardedTier ? { unguardedTier: true } : {}),
        ...(outcome.copy ? { copy: outcome.copy } : {}),
      },
    },
  ];
}

/**
 * Lifting the store's independent copy (deleting or shortening its recovery points, unlocking its vault) destroys
 * what the copy keeps by itself, without a lifecycle right on the store.
 */
function copyLiftGrant(principal: Principal, copy: CopyEffect | undefined): AccessGrant[] {
  if (copy === undefined || copy.lifts.length === 0) return [];
  return [
    {
      principal,
      operation: 'destroy-by-config',
      reason: `can lift the independent copy in ${copy.where}: ${copy.lifts.map((lift) => lift.reason).join('; ')}`,
      configuration: { writes: [...copy.lifts], goneAfterDays: null, guardedGoneAfterDays: null, copy },
    },
  ];
}

function blindGrant(
  principal: Principal,
  held: readonly { permission: string; reason: string }[],
  what: string,
  guard: { guardrails?: string[]; unguarded?: string } = {},
): AccessGrant[] {
  if (held.length === 0) return [];
  const notes = [...(guard.guardrails ?? []), ...(guard.unguarded ? [guard.unguarded] : [])];
  return [
    {
      principal,
      operation: 'blind-audit',
      reason: `can ${what}${notes.length > 0 ? ` (${notes.join('; ')})` : ''}: ${held.map(({ reason }) => reason).join('; ')}`,
      configuration: {
        writes: held.map(({ permission, reason }) => ({ setting: 'audit', permission, reason })),
        ...(guard.guardrails ? { guardrails: guard.guardrails } : {}),
        ...(guard.unguarded ? { unguarded: guard.unguarded } : {}),
      },
    },
  ];
}

/**
 * CloudTrail offers no condition key on a trail's selectors or destination (only tags:
 * https://docs.aws.amazon.com/service-authorization/latest/reference/list_awscloudtrail.html), so no policy lets
 * a deploy keep a trail's selectors up to date and refuses narrowing them. Each such call is itself a management
 * event in the account's CloudTrail Event history, kept 90 days whatever a trail's settings
 * (https://docs.aws.amazon.com/awscloudtrail/latest/userguide/view-cloudtrail-events.html).
 */
const AWS_TRAIL_NARROWING = ['cloudtrail:PutEventSelectors', 'cloudtrail:UpdateTrail'];
const AWS_TRAIL_UNGUARDED =
  "no CloudTrail mechanism tells a deploy's selector change from a narrowing one; the change itself stays in the Event history for 90 days";

/** What one AWS principal's answers say, per write, for one data holder (store bucket or replica). */
export interface AwsWriteAnswers {
  principal: Principal;
  /** The holder's own resources (bucket, lifecycle, versioning, lock). */
  resources: readonly RenderedResource[];
  /** Whether the holder is the store's replica, a second copy of data the store's bucket holds too. */
  replica: boolean;
  component: RenderedResource | undefined;
  directory: boolean;
  /** IAM's answer for an action on the holder's bucket; undefined: denied. */
  onBucket(action: string): Promise<string | undefined>;
  /** IAM's answer for an action on the stack trail recording the store; undefined: denied or no trail. */
  onTrail(action: string): Promise<string | undefined>;
  /** The store's independent copy, if it has one (../retention/aws-copy). */
  copy?: AwsIndependentCopy;
  /** IAM's answer for an action on the copy's vault, its recovery points or the store's backup plan. */
  onCopy(action: string, on: 'vault' | 'recovery-point' | 'plan'): Promise<string | undefined>;
}

/**
 * What the copy still keeps against the principal: nothing if it may lift it (or the render breaks it), the vault
 * lock's minimum if it may rewrite or delete the plan, else the plan's retention. Continuous backup restores the
 * bucket to any point in time of its retention (https://docs.aws.amazon.com/aws-backup/latest/devguide/s3-backups.html),
 * so every checkpoint in the store at the time of the write is in the copy that long after it.
 */
async function awsCopyEffect(input: AwsWriteAnswers, promisedDays: number): Promise<CopyEffect | undefined> {
  const { copy } = input;
  if (copy === undefined) {
    return promisedDays > 0
      ? missingCopy(promisedDays, "no backup selection of the store's bucket is rendered")
      : undefined;
  }
  const lifts: ConfigurationWrite[] = [];
  for (const { action, on } of AWS_COPY_LIFTS) {
    const reason = await input.onCopy(action, on);
    if (reason !== undefined) lifts.push({ setting: 'independent copy', permission: action, reason });
  }
  let shortens = false;
  for (const action of AWS_COPY_SHORTEN) shortens ||= (await input.onCopy(action, 'plan')) !== undefined;
  const held = shortens ? (copy.lockMinDays ?? 0) : copy.retentionDays;
  const days = copy.broken !== undefined || lifts.length > 0 ? 0 : held;
  return {
    where: `AWS Backup vault ${copy.vault}`,
    days,
    promisedDays,
    lifts,
    ...(copy.broken === undefined ? {} : { broken: copy.broken }),
  };
}

function missingCopy(promisedDays: number, missing: string): CopyEffect {
  return {
    where: 'none rendered',
    days: 0,
    promisedDays,
    lifts: [],
    broken: `the spec promises an independent copy, but ${missing}`,
  };
}

/**
 * What the GCP copy still keeps against the principal: nothing if it holds a right that lifts it (../retention/gcp-copy
 * GCP_COPY_LIFTS) or the render breaks it, else every checkpoint gone from the store for the copy's held days. No
 * right of the store's own project reaches the copy: the locked retention and the lifecycle's soft-deleted tail are
 * settings of the copy bucket, in the copy project.
 */
function gcpCopyEffect(input: GcpWriteAnswers, promisedDays: number): CopyEffect | undefined {
  const { copy } = input;
  if (copy === undefined)
    return promisedDays > 0
      ? missingCopy(promisedDays, "no transfer job of the bootstrap render reads the store's bucket")
      : undefined;
  const lifts = GCP_COPY_LIFTS.flatMap(({ permission, on }): ConfigurationWrite[] => {
    const reason = input.onCopy(permission, on);
    return reason === undefined ? [] : [{ setting: 'independent copy', permission, reason }];
  });
  return {
    where: `copy bucket ${copy.bucket} (project ${copy.project})`,
    days: copy.broken !== undefined || lifts.length > 0 ? 0 : copy.heldDays,
    promisedDays,
    lifts,
    ...(copy.broken === undefined ? {} : { broken: copy.broken }),
  };
}

/**
 * The replay with the copy's days: a checkpoint in the copy is recoverable from it that long after the write. A copy
 * taken once a day may not hold a checkpoint written just before the write (`oldOnly`): only old ones gain.
 */
function withCopy(replay: WriteReplay, days: number, oldOnly = false): WriteReplay {
  const held = (gone: number | null) => (gone === null ? null : Math.max(gone, days));
  return {
    ...replay,
    freshDays: oldOnly ? replay.freshDays : held(replay.freshDays),
    oldDays: held(replay.oldDays),
  };
}

export async function awsConfigurationWrites(input: AwsWriteAnswers): Promise<AccessGrant[]> {
  const entries = input.directory ? AWS_DIRECTORY_BUCKET_WRITES : AWS_BUCKET_WRITES;
  const held: { entry: WriteEntry; reason: string }[] = [];
  for (const entry of entries) {
    const reason = await input.onBucket(entry.permission);
    if (reason !== undefined) held.push({ entry, reason });
  }
  const bucket = s3BucketOf(input.resources);
  const lockDays = bucket.directory || !bucket.versioned ? 0 : (bucket.lockDays ?? 0);
  const suspends = held.some(({ entry }) => entry.permission === 's3:PutBucketVersioning');
  const copy = input.replica
    ? undefined
    : await awsCopyEffect(input, statementOf(input.component)?.copyDays ?? 0);
  const storeReplay = s3WorstWrite(bucket, JSON.stringify(bucket), suspends);
  const replay = copy && copy.days > 0 ? withCopy(storeReplay, copy.days) : storeReplay;
  const outcome: Outcome = bucket.directory
    ? {
        replay,
        lockDays: 0,
        guardrails: [],
        unguarded:
          'an S3 Express directory bucket has neither versioning nor Object Lock: nothing of S3 holds its data against lifecycle',
        guardsFreshOnly: true,
        unguardedTier: true,
      }
    : {
        replay,
        lockDays,
        guardrails: [
          ...(lockDays > 0
            ? [`S3 Object Lock keeps every version ${lockDays} days after its write, lifecycle included`]
            : []),
          ...(copy && copy.days > 0
            ? [
                `the independent copy in ${copy.where} keeps every checkpoint ${copy.days} days after the write (continuous backup, vault lock in compliance mode)`,
              ]
            : []),
        ],
        unguarded:
          copy && copy.days > 0
            ? `nothing holds a version beyond its Object Lock retention and the copy's ${copy.days} days`
            : 'no S3 mechanism holds a version whose Object Lock retention has run out: only an independent copy does',
        // The copy holds old checkpoints as well as fresh ones.
        guardsFreshOnly: !(copy && copy.days > 0),
        ...(copy ? { copy, storeReplay } : {}),
      };
  const audit: { permission: string; reason: string }[] = [];
  for (const permission of AWS_AUDIT_WRITES) {
    const reason = await input.onTrail(permission);
    if (reason !== undefined) audit.push({ permission, reason });
  }
  return [
    ...destroyGrant(
      input.principal,
      held,
      promisedWindowDays('aws', input.component),
      outcome,
      input.replica,
    ),
    ...blindGrant(
      input.principal,
      audit,
      'stop or narrow the trail recording the store',
      audit.every(({ permission }) => AWS_TRAIL_NARROWING.includes(permission))
        ? { unguarded: AWS_TRAIL_UNGUARDED }
        : {},
    ),
  ];
}

/**
 * Organization policy `constraints/storage.softDeletePolicySeconds` on a project: the soft-delete durations a
 * bucket may be given there, checked on every bucket create and update
 * (https://cloud.google.com/storage/docs/soft-delete#org-policy); its smallest allowed value is the shortest
 * soft delete a bucket update can set.
 */
export function gcpSoftDeleteMinimums(resources: readonly RenderedResource[]): ReadonlyMap<string, number> {
  const minimums = new Map<string, number>();
  for (const policy of resourcesOfType(resources, 'gcp:orgpolicy/policy:Policy')) {
    const name = String(policy.inputs['name'] ?? '');
    const project = /^projects\/([^/]+)\/policies\/storage\.softDeletePolicySeconds$/.exec(name)?.[1];
    if (project === undefined) continue;
    const allowed = ((record(policy.inputs['spec'])['rules'] as unknown[] | undefined) ?? []).flatMap(
      (rule) =>
        ((record(record(rule)['values'])['allowedValues'] as unknown[] | undefined) ?? []).map((value) =>
          Number(String(value).replace(/^in:/, '').replace(/s$/, '')),
        ),
    );
    if (allowed.length === 0 || allowed.some((seconds) => !Number.isFinite(seconds))) continue;
    minimums.set(project, Math.min(...allowed) / 86_400);
  }
  return minimums;
}

export interface GcpWriteAnswers {
  principal: Principal;
  resources: readonly RenderedResource[];
  component: RenderedResource | undefined;
  project: string;
  /** The principal's grant of a permission on the bucket (or its project); undefined: none. */
  onBucket(permission: string): string | undefined;
  onProject(permission: string): string | undefined;
  softDeleteMinimums: ReadonlyMap<string, number>;
  /** The store's independent copy, if a transfer job of the bootstrap render reads its bucket (../retention/gcp-copy). */
  copy?: GcpIndependentCopy;
  /** The principal's grant of a permission on the copy bucket or its project; undefined: none. */
  onCopy(permission: string, on: 'bucket' | 'project'): string | undefined;
}

export function gcpConfigurationWrites(input: GcpWriteAnswers): AccessGrant[] {
  const held = GCP_BUCKET_WRITES.flatMap((entry) => {
    const reason = input.onBucket(entry.permission);
    return reason === undefined ? [] : [{ entry, reason }];
  });
  const bucket = gcsBucketOf(input.resources);
  const audit = GCP_AUDIT_WRITES.flatMap((permission) => {
    const reason = input.onProject(permission);
    return reason === undefined ? [] : [{ permission, reason }];
  });
  const blind = blindGrant(
    input.principal,
    audit,
    "turn off or reroute the project's Data Access audit logs",
  );
  if (bucket === undefined) return blind;
  const minimum = input.softDeleteMinimums.get(input.project);
  const lifts = input.onProject(GCP_ORG_POLICY_SET);
  const softDeleteMin = minimum !== undefined && lifts === undefined ? minimum : 0;
  const storeReplay = gcsWorstWrite(bucket, softDeleteMin);
  const copy = gcpCopyEffect(input, statementOf(input.component)?.copyDays ?? 0);
  const replay = copy && copy.days > 0 ? withCopy(storeReplay, copy.days) : storeReplay;
  const guardrails = [
    ...(softDeleteMin > 0
      ? [
          `organization policy storage.softDeletePolicySeconds keeps soft delete at ${softDeleteMin} days or more`,
        ]
      : minimum !== undefined && lifts
        ? [`(the soft-delete organization policy does not hold: ${lifts})`]
        : []),
    ...(bucket.retentionLocked && (bucket.retentionDays ?? 0) > 0
      ? [`the locked retention policy keeps every object ${bucket.retentionDays} days after its write`]
      : []),
    ...(copy && copy.days > 0
      ? [
          `the independent copy in ${copy.where} keeps every checkpoint ${copy.days} days after the write (locked retention, then soft delete)`,
        ]
      : []),
  ].filter((text) => !text.startsWith('('));
  return [
    ...destroyGrant(input.principal, held, promisedWindowDays('gcp', input.component), {
      replay,
      lockDays: bucket.retentionLocked ? (bucket.retentionDays ?? 0) : 0,
      guardrails,
      guardsFreshOnly: false,
      ...(copy ? { copy, storeReplay } : {}),
    }),
    ...blind,
  ];
}

/**
 * An Azure Policy assignment (bootstrap/src/azure) whose definition denies, at its scope: a blob service whose
 * soft delete is off or shorter than its `minimumDays` parameter (`soft-delete`), or a diagnostic setting of a
 * blob service that stops sending its read, write and delete logs (`diagnostic-settings`). Deny refuses the
 * write before the resource provider makes it, whoever calls
 * (https://learn.microsoft.com/azure/governance/policy/concepts/effect-deny).
 */
export interface AzureGuard {
  kind: 'soft-delete' | 'diagnostic-settings';
  scope: string;
  /** For `soft-delete`: the fewest days soft delete may keep a blob. */
  days: number;
  /** For `diagnostic-settings`: the archive a setting must also send to, when the definition requires one. */
  archive?: string;
  source: string;
}

export const AZURE_SOFT_DELETE_FIELD =
  'Microsoft.Storage/storageAccounts/blobServices/default.deleteRetentionPolicy.days';
export const AZURE_DIAGNOSTIC_LOGS_FIELD = 'Microsoft.Insights/diagnosticSettings/logs[*].enabled';
const AZURE_DIAGNOSTIC_ARCHIVE_FIELD = 'Microsoft.Insights/diagnosticSettings/storageAccountId';
const AZURE_DIAGNOSTIC_WRITE = 'Microsoft.Insights/diagnosticSettings/write';

export function azureGuardsOf(resources: readonly RenderedResource[]): AzureGuard[] {
  const kinds = new Map<string, AzureGuard['kind']>();
  const archives = new Map<string, string>();
  for (const definition of resourcesOfType(resources, 'azure-native:authorization:PolicyDefinition')) {
    const rule = JSON.stringify(definition.inputs['policyRule'] ?? {});
    if (!JSON.stringify(record(definition.inputs['policyRule'])['then'] ?? {}).includes('"deny"')) continue;
    const name = String(definition.inputs['policyDefinitionName'] ?? definition.name);
    if (rule.includes(AZURE_SOFT_DELETE_FIELD)) kinds.set(name, 'soft-delete');
    else if (rule.includes(AZURE_DIAGNOSTIC_LOGS_FIELD)) {
      kinds.set(name, 'diagnostic-settings');
      const archive = new RegExp(`"field":"${AZURE_DIAGNOSTIC_ARCHIVE_FIELD}","notEquals":"([^"]+)"`).exec(
        rule,
      )?.[1];
      if (archive !== undefined) archives.set(name, archive);
    }
  }
  return resourcesOfType(resources, 'azure-native:authorization:PolicyAssignment').flatMap((assignment) => {
    const definition =
      String(assignment.inputs['policyDefinitionId'] ?? '')
        .split('/')
        .pop() ?? '';
    const kind = kinds.get(definition);
    const archive = archives.get(definition);
    const scope = assignment.inputs['scope'];
    if (kind === undefined || typeof scope !== 'string') return [];
    // DoNotEnforce evaluates without denying (https://learn.microsoft.com/azure/governance/policy/concepts/assignment-structure#enforcement-mode).
    if (assignment.inputs['enforcementMode'] === 'DoNotEnforce') return [];
    const days = record(record(assignment.inputs['parameters'])['minimumDays'])['value'];
    if (kind === 'soft-delete' && typeof days !== 'number') return [];
    return [
      {
        kind,
        scope,
        days: typeof days === 'number' ? days : 0,
        ...(archive === undefined ? {} : { archive }),
        source: `PolicyAssignment ${assignment.name}`,
      },
    ];
  });
}

export interface AzureWriteAnswers {
  principal: Principal;
  resources: readonly RenderedResource[];
  component: RenderedResource | undefined;
  account: string;
  /** The principal's grant of an action on the account (or the resource given). */
  on(action: string, resource?: string): string | undefined;
  container: string;
  guards: readonly AzureGuard[];
  /** The store's independent copy in the bootstrap's Backup vault, if it has one (../retention/azure-copy). */
  copy?: AzureIndependentCopy;
}

/**
 * What the copy still keeps against the principal: nothing if it may lift it (or the render breaks it), else a day
 * less than the policy's retention. One backup a day ("Maximum number of scheduled backups per day: 1",
 * https://learn.microsoft.com/azure/backup/azure-data-lake-storage-backup-support-matrix#backup-limits): a checkpoint
 * in the store a day before the write is in a recovery point taken at most a day before it, kept `retentionDays`
 * from then; one written since may be in none.
 */
function azureCopyEffect(input: AzureWriteAnswers, promisedDays: number): CopyEffect | undefined {
  const { copy } = input;
  if (copy === undefined) {
    return promisedDays > 0
      ? missingCopy(
          promisedDays,
          "no backup instance of the store's account is rendered (the bootstrap's azure.independentCopies must list the store; deploy the stack, then the bootstrap)",
        )
      : undefined;
  }
  const resourceOf = { vault: copy.vaultId, policy: copy.policyId, instance: copy.instanceId };
  const lifts: ConfigurationWrite[] = AZURE_COPY_LIFTS.flatMap(({ action, on }) => {
    const reason = input.on(action, resourceOf[on]);
    return reason === undefined ? [] : [{ setting: 'independent copy', permission: action, reason }];
  });
  const reversible = [
    ...(copy.immutability === 'Locked' ? [] : [`immutability (${copy.immutability})`]),
    ...(copy.softDelete === 'AlwaysOn' ? [] : [`soft delete (${copy.softDelete})`]),
  ];
  const vaultWrite = reversible.length > 0 ? input.on(AZURE_VAULT_WRITE, copy.vaultId) : undefined;
  if (vaultWrite !== undefined) {
    lifts.push({
      setting: 'independent copy',
      permission: AZURE_VAULT_WRITE,
      reason: `${vaultWrite}, which turns off the vault's ${reversible.join(' and ')}`,
    });
  }
  const days = copy.broken !== undefined || lifts.length > 0 ? 0 : Math.max(0, copy.retentionDays - 1);
  return {
    where: `Backup vault ${copy.vault}`,
    days,
    promisedDays,
    lifts,
    holds: 'every checkpoint a day old or more',
    ...(copy.broken === undefined ? {} : { broken: copy.broken }),
  };
}

export function azureConfigurationWrites(input: AzureWriteAnswers): AccessGrant[] {
  const held = AZURE_ACCOUNT_WRITES.flatMap((entry) => {
    const reason = input.on(entry.permission);
    return reason === undefined ? [] : [{ entry, reason }];
  });
  const account = adlsAccountOf(input.resources);
  const liftsLock = input.on(AZURE_IMMUTABILITY_LIFT, input.container);
  const turnsOffSoftDelete = held.some(({ entry }) => entry.role === 'unprotects');
  const holds = (guard: AzureGuard) =>
    input.account.toLowerCase().startsWith(`${guard.scope.toLowerCase()}/`) &&
    !AZURE_POLICY_WRITES.some((action) => input.on(action, guard.scope));
  const holding = input.guards.filter((guard) => guard.kind === 'soft-delete' && holds(guard));
  const policyMinimum = Math.max(0, ...holding.map((guard) => guard.days));
  const softDeleteMin = turnsOffSoftDelete ? policyMinimum : Math.max(policyMinimum, account.softDeleteDays);
  const lockHolds = account.lockDays > 0 && liftsLock === undefined;
  const storeReplay = adlsWorstWrite(account, softDeleteMin, lockHolds);
  const copy = azureCopyEffect(input, statementOf(input.component)?.copyDays ?? 0);
  const replay = copy && copy.days > 0 ? withCopy(storeReplay, copy.days, true) : storeReplay;
  const guardrails = [
    ...(policyMinimum > 0
      ? [
          `Azure Policy deny (${holding.map((guard) => guard.source).join(', ')}) keeps blob soft delete at ${policyMinimum} days or more`,
        ]
      : []),
    ...(lockHolds
      ? [`the container immutability policy (${account.lockDays} days) keeps lifecycle from deleting`]
      : []),
    ...(copy && copy.days > 0
      ? [
          `the independent copy in ${copy.where} keeps ${copy.holds} ${copy.days} days after the write (daily vaulted backup, immutable vault, soft delete)`,
        ]
      : []),
  ];
  const audit = AZURE_AUDIT_WRITES.flatMap((permission) => {
    const reason = input.on(permission);
    return reason === undefined ? [] : [{ permission, reason }];
  });
  const archives = [
    ...new Set(
      input.resources
        .filter((resource) => resource.type === 'azure-native:monitor:DiagnosticSetting')
        .map((setting) => setting.inputs['storageAccountId'])
        .filter((id): id is string => typeof id === 'string'),
    ),
  ];
  const archiveWrites = archives.flatMap((archive) =>
    AZURE_ARCHIVE_WRITES.flatMap((permission) => {
      const reason = input.on(permission, archive);
      return reason === undefined
        ? []
        : [{ permission, reason: `${reason}, on the write-once archive ${archive.split('/').pop()}` }];
    }),
  );
  // A guard keeps the settings only if it also refuses one that stops sending to each of their archives.
  const keptBy = input.guards
    .filter(
      (guard) =>
        guard.kind === 'diagnostic-settings' &&
        holds(guard) &&
        archives.every((archive) => guard.archive?.toLowerCase() === archive.toLowerCase()),
    )
    .map((guard) => guard.source);
  const onlyWrites = audit.every(({ permission }) => permission === AZURE_DIAGNOSTIC_WRITE);
  return [
    ...destroyGrant(input.principal, held, promisedWindowDays('azure', input.component), {
      replay,
      lockDays: lockHolds ? account.lockDays : 0,
      guardrails,
      guardsFreshOnly: false,
      ...(copy ? { copy, storeReplay } : {}),
    }),
    ...blindGrant(
      input.principal,
      archiveWrites,
      "shorten, lift or delete the write-once archive of the store's resource logs",
    ),
    ...blindGrant(
      input.principal,
      audit,
      "change or delete the account's diagnostic settings",
      onlyWrites && keptBy.length > 0
        ? {
            guardrails: [
              `Azure Policy deny (${keptBy.join(', ')}) refuses a diagnostic setting that stops sending the blob logs`,
            ],
          }
        : {},
    ),
  ];
}

/** What the configuration writes of a render's stores are judged with, read once per render. */
export interface ConfigurationContext {
  /** Store components by URN: their retention statement gives each store's promised window. */
  components: ReadonlyMap<string, RenderedResource>;
  softDeleteMinimums: ReadonlyMap<string, number>;
  azureGuards: readonly AzureGuard[];
}

export function configurationContextOf(
  render: readonly RenderedResource[],
  everything: readonly RenderedResource[],
): ConfigurationContext {
  return {
    components: new Map(render.map((resource) => [resource.urn, resource])),
    softDeleteMinimums: gcpSoftDeleteMinimums(everything),
    azureGuards: azureGuardsOf(everything),
  };
}
