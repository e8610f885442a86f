import type { Cloud } from '@checkpoints/config';
import type { AnalysisContext } from '../context';
import type { Render, RenderedResource, RenderedStore } from '@checkpoints/render';

/**
 * What a principal can do to a store. Data: read, write, delete checkpoints, open a data session (a credential
 * that reads or writes data without further checks). Control: change the
 * store's settings (lifecycle, versioning, encryption: each can lose data), change who has access,
 * delete the data holder, give itself data access. Key: use it to decrypt, disable it, destroy it. Identity: act as one of the
 * store's identities, or add a credential to one. Configuration: make checkpoints unrecoverable with settings
 * writes alone (lifecycle, versioning, soft delete, retention), or hide access from the audit (./configuration-writes).
 */
export const OPERATIONS = [
  'read',
  'write',
  'delete',
  'open-session',
  'configure',
  'change-access',
  'delete-store',
  'use-key',
  'disable-key',
  'destroy-key',
  'self-grant',
  'act-as',
  'add-credentials',
  'destroy-by-config',
  'blind-audit',
] as const;
export type Operation = (typeof OPERATIONS)[number];

export const DATA_OPERATIONS: readonly Operation[] = ['read', 'write', 'delete'];

/** Who a principal is, as far as the rules care. */
export type PrincipalKind =
  /** The store's own writer or reader identity. */
  | 'store-identity'
  /** A principal named in the store's `access` (or trusted by its identities). */
  | 'declared'
  /** CI's preview identity (pull requests, drift). */
  | 'ci-preview'
  /** CI's deploy identity of one environment. */
  | 'ci-deploy'
  /** What the cloud grants by default, whoever holds it outside this repository. */
  | 'cloud-default'
  /** Whoever a grant the analysis does not read names (./unread-grants): anyone, a CI identity included. */
  | 'unknown';

export interface Principal {
  /** The cloud's own identifier (role ARN, IAM member, principal ID). */
  id: string;
  /** What a reader recognises: `ci deploy-prod`, `writer`, `account root`. */
  label: string;
  kind: PrincipalKind;
  /** The environment a CI deploy identity deploys. */
  environment?: string;
}

export interface AccessGrant {
  principal: Principal;
  operation: Operation;
  /** Which policy, statement, role or binding grants it, in the cloud's words. */
  reason: string;
  /** For `destroy-by-config` and `blind-audit`: the writes and, for the first, what the worst of them does. */
  configuration?: ConfigurationEffect;
}

/** One settings write a principal may make, with the permission that allows it. */
export interface ConfigurationWrite {
  setting: string;
  permission: string;
  /** Where the permission comes from, in the cloud's words. */
  reason: string;
}

export interface ConfigurationEffect {
  writes: ConfigurationWrite[];
  /** Days after the worst write until the first checkpoint is gone for good; null: kept through the replay. */
  goneAfterDays?: number | null;
  /** The same for the checkpoints a guardrail of the cloud can hold (all but the `unguarded` part). */
  guardedGoneAfterDays?: number | null;
  /** Days the store's spec promises a checkpoint stays recoverable (or locked). */
  windowDays?: number;
  /** The guardrails that still hold against this principal. */
  guardrails?: string[];
  /** What no mechanism of this cloud or tier holds against the write. */
  unguarded?: string;
  /** The store's tier has no such mechanism at all (`guardedGoneAfterDays` is then null). */
  unguardedTier?: boolean;
  /** The write is on the store's replica: the store's own bucket still holds the data. */
  replica?: boolean;
  /** The store's independent copy (`recovery.independentCopy`), as it holds against this principal. */
  copy?: CopyEffect;
}

/** What the store's independent copy still keeps against a principal's worst write. */
export interface CopyEffect {
  /** Where the copy lives (an AWS Backup vault, a GCS copy bucket, an Azure Backup vault). */
  where: string;
  /** Days after the write the copy still holds every checkpoint that was in the store; 0: none. */
  days: number;
  /** The days the store's spec promises the copy keeps. */
  promisedDays: number;
  /** The principal's rights that lift the copy (delete or shorten recovery points, unlock the vault, change the copy bucket or its project). */
  lifts: ConfigurationWrite[];
  /** Why the copy holds nothing whoever asks, as rendered (fail closed). */
  broken?: string;
  /** Which of the store's checkpoints the copy holds, when not every one (a copy taken once a day). */
  holds?: string;
}

export interface StoreAccess {
  store: string;
  cloud: Cloud;
  /** The store's `environment` tag. */
  environment: string;
  /** The store's `data-classification` tag ('unknown' without one). */
  dataClassification?: string;
  grants: AccessGrant[];
}

export interface AccessAnalysis {
  /** False when no bootstrap render was given: CI identities are not in the table and CI rules are not checked. */
  ciChecked: boolean;
  stores: StoreAccess[];
  /** Who can become each CI identity of the clouds the stores live on (libs/analysis trust). */
  trust?: CiTrust[];
}

/** One CI identity's trust as the access table shows it. */
export interface CiTrust {
  identity: string;
  cloud: Cloud;
  /** Per trust path: where it is and the subjects it names, as written. */
  paths: { where: string; subjects: readonly string[] }[];
  /** The jobs that can become it, among those of this repository, another and a renamed one (trust's probe tokens). */
  reachedBy: string[];
  /** How the identity is bound to the repository: by name or by its immutable ids, and why. */
  binding: string;
}

/** What every cloud's file gets: one store, the whole stack render and the bootstrap render (if any). */
export interface StoreAccessInput {
  store: RenderedStore;
  render: Pick<Render, 'resources'>;
  bootstrap: Pick<Render, 'resources'> | undefined;
  /** The analysis these renders belong to, whose answers are kept for its other questions; a new one without. */
  context?: AnalysisContext;
}

/** The renders of one analysis, for all of its stores. */
export type RendersInput = Omit<StoreAccessInput, 'store'>;
export type StoreAccessOf = (store: RenderedStore) => Promise<AccessGrant[]>;

/**
 * A store's access from what `read` takes from the renders once, on the first store: what a cloud's
 * stores are judged against is the same for every store of a render.
 */
export function perRender<Context>(
  input: RendersInput,
  read: (input: RendersInput) => Context,
  grants: (store: RenderedStore, context: Context) => AccessGrant[],
): StoreAccessOf {
  let context: Context | undefined;
  return (store) => {
    context ??= read(input);
    return Promise.resolve(grants(store, context));
  };
}

/** `list` grouped by `key`, each group in list order. */
export function groupedBy<T>(list: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of list) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

const TAG_KEYS = ['tags', 'labels'];

/** The store's environment, from the standard `environment` tag of its resources. */
export function environmentOf(store: RenderedStore): string {
  return tagOf(store, 'environment');
}

/** The value of a standard tag on the store's resources; 'unknown' when none carries it. */
export function tagOf(store: RenderedStore, tag: string): string {
  for (const resource of store.resources) {
    for (const key of TAG_KEYS) {
      const value = (resource.inputs[key] as Record<string, unknown> | undefined)?.[tag];
      if (typeof value === 'string') return value;
    }
  }
  return 'unknown';
}

/** CI identities are the bootstrap's resources named `preview` and `deploy-<environment>`. */
export function ciPrincipal(resource: RenderedResource, id: string): Principal | undefined {
  if (resource.name === 'preview') return { id, label: 'ci preview', kind: 'ci-preview' };
  const environment = /^deploy-(.+)$/.exec(resource.name)?.[1];
  if (environment === undefined) return undefined;
  return { id, label: `ci deploy-${environment}`, kind: 'ci-deploy', environment };
}

/** Whether the principal is a CI identity, or may be one: an unknown principal counts as CI (fail closed). */
export function isCi(principal: Principal): boolean {
  return principal.kind === 'ci-preview' || principal.kind === 'ci-deploy' || principal.kind === 'unknown';
}

/** JSON documents arrive as text (IAM policies) or objects. */
export function jsonOf(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

export function stringInput(resource: RenderedResource, key: string): string | undefined {
  const value = resource.inputs[key];
  return typeof value === 'string' ? value : undefined;
}
