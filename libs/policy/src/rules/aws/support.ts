/**
 * What the AWS rules share: finding the settings resources of a bucket through `propertyDependencies`, and
 * reading IAM policy documents. Inputs are read through `../inputs` (unknown values on a preview and in synth).
 */
import { storesOf, type RenderedResource, type RenderedStore } from '@checkpoints/render';
import type { Evaluation } from '../evaluation';
import type { PolicyResource, StackValidationArgs } from '@pulumi/policy';
import { asJson } from '../define';
import { inputsOf, UNKNOWN } from '../inputs';
import { childLinks } from '../links';

export const GENERAL_PURPOSE_BUCKETS: readonly string[] = [
  'aws:s3/bucket:Bucket',
  'aws:s3/bucketV2:BucketV2',
];
export const DIRECTORY_BUCKETS: readonly string[] = ['aws:s3/directoryBucket:DirectoryBucket'];
export const ALL_BUCKETS: readonly string[] = [...GENERAL_PURPOSE_BUCKETS, ...DIRECTORY_BUCKETS];

/** What a message calls a bucket: its name when known, else its logical name. */
export function bucketLabel(bucket: PolicyResource): string {
  const name = inputsOf(bucket)['bucket'];
  return typeof name === 'string' ? name : bucket.name;
}

export interface SettingCheck {
  /** Bucket types that need the setting. */
  bucketTypes: readonly string[];
  /** Type tokens of the settings resource (the v7 name and its deprecated V2 alias). */
  settingTypes: readonly string[];
  /** Reported on a bucket with no such setting. */
  missing(bucket: string): string;
  /** What is wrong with one settings resource, if anything; `bucket` is the bucket it configures. */
  problems(inputs: Record<string, unknown>, bucket: PolicyResource | undefined): string[];
}

/**
 * A stack check of a bucket setting: every bucket of `bucketTypes` has a settings resource linked to it,
 * and every settings resource of the stack is compliant (reported on it, whichever bucket it configures).
 */
export function checkBucketSetting(
  check: SettingCheck,
  args: StackValidationArgs,
  report: (message: string, urn?: string) => void,
): void {
  const buckets = args.resources.filter((resource) => check.bucketTypes.includes(resource.type));
  const allBuckets = args.resources.filter((resource) => ALL_BUCKETS.includes(resource.type));
  const settings = args.resources.filter((resource) => check.settingTypes.includes(resource.type));
  const links = childLinks(settings, allBuckets, 'bucket', (resource) => inputsOf(resource)['bucket']);
  for (const bucket of buckets) {
    if (!links.hasChild(bucket)) {
      report(check.missing(bucketLabel(bucket)), bucket.urn);
    }
  }
  for (const setting of settings) {
    const bucket = links.parentOf(setting);
    for (const problem of check.problems(inputsOf(setting), bucket)) {
      report(`${setting.type.split(':').pop()} '${setting.name}': ${problem}`, setting.urn);
    }
  }
}

/** A list input as a list: IAM accepts a single string where it takes a list. */
export function listOf(value: unknown): unknown[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? value : [value];
}

/** The kind of an IAM document decides which rules read it. */
export type IamDocumentKind = 'identity' | 'trust' | 'resource' | 'key';

export interface IamDocument {
  /** Where it is, for messages: `policy`, `assumeRolePolicy`, `inlinePolicies[0].policy`. */
  where: string;
  kind: IamDocumentKind;
  /** The parsed document, `UNKNOWN` when its text is not known yet, `undefined` when it is not JSON. */
  document: unknown;
}

/** Inputs of each type that hold an IAM policy document, and what kind of document it is. */
const IAM_DOCUMENT_INPUTS: Readonly<Record<string, readonly [string, IamDocumentKind][]>> = {
  'aws:iam/policy:Policy': [['policy', 'identity']],
  'aws:iam/rolePolicy:RolePolicy': [['policy', 'identity']],
  'aws:iam/groupPolicy:GroupPolicy': [['policy', 'identity']],
  'aws:iam/userPolicy:UserPolicy': [['policy', 'identity']],
  'aws:iam/role:Role': [['assumeRolePolicy', 'trust']],
  'aws:s3/bucketPolicy:BucketPolicy': [['policy', 'resource']],
  'aws:s3/bucket:Bucket': [['policy', 'resource']],
  'aws:s3/bucketV2:BucketV2': [['policy', 'resource']],
  'aws:s3/accessPoint:AccessPoint': [['policy', 'resource']],
  'aws:s3control/bucketPolicy:BucketPolicy': [['policy', 'resource']],
  'aws:s3control/accessPointPolicy:AccessPointPolicy': [['policy', 'resource']],
  'aws:kms/key:Key': [['policy', 'key']],
  'aws:kms/keyPolicy:KeyPolicy': [['policy', 'key']],
};

export const IAM_DOCUMENT_TYPES: readonly string[] = Object.keys(IAM_DOCUMENT_INPUTS);

function parsed(value: unknown): unknown {
  if (value === UNKNOWN) return UNKNOWN;
  return asJson(value);
}

/** Every IAM policy document among a resource's inputs; a role's inline policies included. */
export function iamDocuments(type: string, inputs: Record<string, unknown>): IamDocument[] {
  const documents: IamDocument[] = [];
  for (const [input, kind] of IAM_DOCUMENT_INPUTS[type] ?? []) {
    if (inputs[input] === undefined) continue;
    documents.push({ where: input, kind, document: parsed(inputs[input]) });
  }
  if (type === 'aws:iam/role:Role') {
    listOf(inputs['inlinePolicies']).forEach((inline, index) => {
      const policy = inline === UNKNOWN ? UNKNOWN : (inline as Record<string, unknown> | null)?.['policy'];
      if (policy === undefined) return;
      documents.push({
        where: `inlinePolicies[${index}].policy`,
        kind: 'identity',
        document: parsed(policy),
      });
    });
  }
  return documents;
}

/** One statement of a document, its lists as lists and how a message names it. */
export interface IamStatement {
  label: string;
  effect: unknown;
  principal: unknown;
  notPrincipal: unknown;
  actions: unknown[];
  notActions: unknown[];
  resources: unknown[];
  notResources: unknown[];
  condition: unknown;
}

/** The statements of a parsed document (a single statement object counts as a list of one). */
export function statementsOf(document: unknown): IamStatement[] {
  if (document === null || typeof document !== 'object') return [];
  return listOf((document as Record<string, unknown>)['Statement']).map((raw, index) => {
    const statement = (raw !== null && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
    const sid = statement['Sid'];
    return {
      label: typeof sid === 'string' && sid !== '' ? `'${sid}'` : `#${index + 1}`,
      effect: statement['Effect'],
      principal: statement['Principal'],
      notPrincipal: statement['NotPrincipal'],
      actions: listOf(statement['Action']),
      notActions: listOf(statement['NotAction']),
      resources: listOf(statement['Resource']),
      notResources: listOf(statement['NotResource']),
      condition: statement['Condition'],
    };
  });
}

/** Anything but an explicit Deny is read as an Allow: a statement is never let off for a typo. */
export function isAllow(statement: IamStatement): boolean {
  return statement.effect !== 'Deny';
}

/** An IAM wildcard pattern (`*`, `?`) as a case-sensitive or -insensitive regular expression. */
export function wildcardPattern(pattern: string, flags = ''): RegExp {
  const escaped = pattern
    .replace(/[.+^${}()|[\]\\]/g, '\\$&')
    .replace(/\*/g, '.*')
    .replace(/\?/g, '.');
  return new RegExp(`^${escaped}$`, flags);
}

/** The principals a Principal element names, flattened: `"*"` and `{ AWS: ["*"] }` both give `["*"]`. */
export function principalsOf(principal: unknown): unknown[] {
  if (principal === undefined) return [];
  if (principal === null || typeof principal !== 'object' || Array.isArray(principal))
    return listOf(principal);
  return Object.values(principal as Record<string, unknown>).flatMap(listOf);
}

/** An AWS store of a render, with what the audit, perimeter and key rules judge it by. */
export interface AwsRenderedStore {
  store: RenderedStore;
  component: RenderedResource;
  /** The store's own bucket (a direct child of its component). */
  bucket: RenderedResource;
  directory: boolean;
  /** The bucket's ARN, as IAM and CloudTrail name it. */
  bucketArn: string;
  /** The store's own customer-managed key, if any. */
  key: RenderedResource | undefined;
  bucketPolicy: RenderedResource | undefined;
  /** The account the store lives in. */
  accountId: string;
}

/**
 * The AWS stores of an evaluation's render, found once for its five rules that read them (each serialised
 * every input of the render, 9.5 MB at 200 stores, to find them).
 */
export function awsStoresOf(evaluation: Evaluation): readonly AwsRenderedStore[] {
  let stores = evaluation.memo.get(AWS_STORES) as readonly AwsRenderedStore[] | undefined;
  if (stores === undefined) {
    stores = Object.freeze(findAwsStores(evaluation.resources));
    evaluation.memo.set(AWS_STORES, stores);
  }
  return stores;
}
const AWS_STORES = 'aws stores';

/** The AWS stores of a render; the account and region come from the ARNs the render spells. */
export function findAwsStores(resources: readonly RenderedResource[]): AwsRenderedStore[] {
  const stores = storesOf({ resources: [...resources] }).filter((store) => store.cloud === 'aws');
  // The ARNs are read only for a render with AWS stores: the text of every input costs as much as the render.
  if (stores.length === 0) return [];
  const text = JSON.stringify(resources.map((resource) => resource.inputs));
  const [, region = 'us-east-1', account = '000000000000'] =
    /arn:aws[a-z-]*:[a-z0-9-]+:([a-z]{2}-[a-z-]+-\d):(\d{12}):/.exec(text) ?? [];
  const partition = /arn:(aws[a-z-]*):/.exec(text)?.[1] ?? 'aws';
  const byUrn = new Map(resources.map((resource) => [resource.urn, resource]));
  return stores.flatMap((store) => {
    const own = store.resources.filter((resource) => resource.parent === store.urn);
    const bucket = own.find(
      (r) => r.type === 'aws:s3/bucket:Bucket' || r.type === 'aws:s3/directoryBucket:DirectoryBucket',
    );
    const component = byUrn.get(store.urn);
    const name = bucket?.inputs['bucket'];
    if (bucket === undefined || component === undefined || typeof name !== 'string') return [];
    const directory = bucket.type === 'aws:s3/directoryBucket:DirectoryBucket';
    return [
      {
        store,
        component,
        bucket,
        directory,
        bucketArn: directory
          ? `arn:${partition}:s3express:${region}:${account}:bucket/${name}`
          : `arn:${partition}:s3:::${name}`,
        key: own.find((r) => r.type === 'aws:kms/key:Key'),
        bucketPolicy: own.find((r) => r.type === 'aws:s3/bucketPolicy:BucketPolicy'),
        accountId: account,
      },
    ];
  });
}
