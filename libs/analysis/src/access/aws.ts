import {
  createValidatedPolicy,
  validateIdentityPolicy,
  validateResourcePolicy,
  type ValidatedPolicy,
} from '@cloud-copilot/iam-policy';
import { getGrantReasons, runSimulation, type Simulation } from '@cloud-copilot/iam-simulate';
import { COMPONENT_TYPES } from '@checkpoints/render';
import { createAnalysisContext as createContext, contextMemo, type AnalysisContext } from '../context';
import { memo, numberOfText } from '../memo';
import type { Render, RenderedResource } from '@checkpoints/render';
import {
  arnWordsLoaded,
  canonical,
  iamPattern,
  loadArnWords,
  restore,
  sharedQuestion,
  newRenamingState,
  storeWordsOf,
  type RenamingState,
  type StoreTokens,
} from './aws-renaming';
import { awsConfigurationWrites, type AwsWriteAnswers } from './configuration-writes';
import { awsIndependentCopyOf } from '../retention/aws-copy';
import {
  assumedFor,
  grantIndexOf,
  judgedPolicy,
  managedPoliciesOf,
  roleGrants,
  withGrants,
  type Assumption,
  type ManagedPolicies,
  type RoleGrants,
} from './aws-grants';
import {
  ciPrincipal,
  jsonOf,
  OPERATIONS,
  stringInput,
  type AccessGrant,
  type Operation,
  type Principal,
  type StoreAccessInput,
} from './model';

export interface PolicyDocument {
  Version?: string;
  Statement: Statement[] | Statement;
}
export interface Statement {
  Sid?: string;
  Effect: 'Allow' | 'Deny';
  Principal?: unknown;
  Action?: string | string[];
  Resource?: string | string[];
  Condition?: unknown;
}

/** A principal with what IAM evaluates for it: identity policies and permissions boundary. */
export interface AwsPrincipal {
  principal: Principal;
  arn: string;
  policies: { name: string; policy: PolicyDocument }[];
  boundary?: PolicyDocument;
  /** The boundary's ARN, which IAM puts in the request context of calls on the role. */
  boundaryArn?: string;
  /** A role's trust policy. */
  trust?: PolicyDocument;
  /** For a declared principal: the store role it acts through, and the trust statement letting it. */
  through?: { role: AwsPrincipal; sid: string };
  /** What was assumed of its policies' conditions to judge it (./aws-grants judgedPolicy). */
  assumed?: readonly Assumption[];
  /** The managed policies attached to it, by ARN: a new version of one changes what it may do. */
  attachedPolicyArns?: readonly string[];
}

/** One request to IAM: action on resource, with the request context and the resource's own policy. */
export interface AwsRequest {
  action: string;
  resource: string;
  context?: Record<string, string | string[]>;
  resourcePolicy?: PolicyDocument;
}

/** An operation is allowed when every request of one of its alternatives is. */
type Alternatives = AwsRequest[][];

/**
 * AWS's default key policy, what a key created without a policy gets: the account (its root) may do
 * everything with the key, which hands the key to the account's IAM policies.
 * https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html ("Allows access to the
 * AWS account and enables IAM policies": Principal arn:aws:iam::<account>:root, Action kms:*, Resource *).
 */
export function defaultKeyPolicy(partition: string, accountId: string): PolicyDocument {
  // One document per account: the rights check asks about every key with it, and a document seen before is
  // numbered and read for sharing without being serialised again (policyNumber, ./aws-renaming).
  return memo(
    defaultKeyPolicies,
    `${partition}:${accountId}`,
    () =>
      Object.freeze({
        Version: '2012-10-17',
        Statement: Object.freeze([
          Object.freeze({
            Sid: 'Enable IAM User Permissions',
            Effect: 'Allow',
            Principal: Object.freeze({ AWS: `arn:${partition}:iam::${accountId}:root` }),
            Action: 'kms:*',
            Resource: '*',
          }),
        ]),
      }) as PolicyDocument,
  );
}
const defaultKeyPolicies = new Map<string, PolicyDocument>();

/** Stands for any principal of the account an administrator gives full IAM rights (outside this repository). */
const ADMINISTRATOR_POLICY: PolicyDocument = {
  Version: '2012-10-17',
  Statement: [{ Sid: 'AccountAdministrator', Effect: 'Allow', Action: '*', Resource: '*' }],
};

/**
 * Every request context is TLS 1.3 over HTTPS, as the SDKs send it; the bucket policies' TLS denials
 * do not apply to it. https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-securetransport
 */
const SECURE = { 'aws:SecureTransport': 'true', 's3:TlsVersion': '1.3', 's3express:TlsVersion': '1.3' };

/**
 * Where a request comes from, as S3 sees it: through a VPC endpoint (aws:SourceVpce and aws:SourceVpc set,
 * aws:SourceIp absent) or over the internet (aws:SourceIp only).
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html (aws:SourceVpc,
 * aws:SourceVpce, aws:SourceIp: "If the request comes from a host that uses an Amazon VPC endpoint, then the
 * aws:SourceIp key is not available").
 */
export type AwsNetworkOrigin = { vpcEndpoint: string; vpc: string } | { sourceIp: string };

function originContext(origin: AwsNetworkOrigin | undefined): Record<string, string> {
  if (origin === undefined) return {};
  return 'sourceIp' in origin
    ? { 'aws:SourceIp': origin.sourceIp }
    : { 'aws:SourceVpce': origin.vpcEndpoint, 'aws:SourceVpc': origin.vpc };
}

/**
 * A network the bucket policy's perimeter admits (its first listed endpoint, VPC or range), or undefined when
 * the policy names none: access is judged from there by default, the strongest position a principal can take.
 */
export function insideOrigin(bucketPolicy: PolicyDocument | undefined): AwsNetworkOrigin | undefined {
  for (const statement of statements(bucketPolicy)) {
    if (statement.Effect !== 'Deny' || statement.Condition === undefined) continue;
    const condition = statement.Condition as Record<string, Record<string, string | string[]> | undefined>;
    const first = (operator: string, key: string) => [condition[operator]?.[key] ?? []].flat()[0];
    const vpcEndpoint = first('StringNotEqualsIfExists', 'aws:SourceVpce');
    const vpc = first('StringNotEqualsIfExists', 'aws:SourceVpc');
    if (vpcEndpoint !== undefined) return { vpcEndpoint, vpc: vpc ?? 'vpc-00000000' };
    if (vpc !== undefined) return { vpcEndpoint: 'vpce-00000000', vpc };
    const range = first('NotIpAddressIfExists', 'aws:SourceIp');
    if (range !== undefined) return { sourceIp: range.split('/')[0] ?? range };
  }
  return undefined;
}

interface StoreTargets {
  /** The network every S3 request of the analysis comes from. */
  origin: Record<string, string>;
  partition: string;
  accountId: string;
  region: string;
  bucketArn: string;
  directory: boolean;
  bucketPolicy?: PolicyDocument;
  key?: { arn: string; tags: Record<string, string>; policy: PolicyDocument };
  roles: AwsPrincipal[];
  /** What was assumed of the bucket and key policies' conditions to judge them (./aws-grants judgedPolicy). */
  assumed: readonly Assumption[];
  /** The store's tokens, for sharing answers between stores (see ./aws-renaming). */
  tokens: StoreTokens | undefined;
  context: AnalysisContext;
}

/** Who asks IAM: the analysis whose answers are kept, and the store whose tokens share them. */
type Asker = Pick<StoreTargets, 'tokens' | 'context'>;

/**
 * Who may do what on the store, each request made from `origin` (default: inside the store's perimeter,
 * see insideOrigin; outside any perimeter when the bucket policy declares none). With `operations`, only
 * the grants of those operations: each operation is judged on its own, so they are the grants of the whole
 * analysis that name one of them.
 */
export async function awsStoreAccess(
  { store, render, bootstrap, context = createContext(render, bootstrap) }: StoreAccessInput,
  origin?: AwsNetworkOrigin,
  operations: readonly Operation[] = OPERATIONS,
): Promise<AccessGrant[]> {
  // The store's own bucket, key and roles are its component's direct children; a replica's live one level below.
  const own = store.resources.filter((resource) => resource.parent === store.urn);
  const iamResources = bootstrap?.resources ?? render.resources;
  const tokens = awsStoreTokens(render, store.urn, context);
  const targets = storeTargets(own, iamResources, origin, { tokens, context });
  if (targets === undefined) return [];
  // The replica (recovery.replicaRegion) holds a copy of every checkpoint: whoever reaches it reaches the
  // store's data, so its grants count as the store's, each saying where.
  const replicaComponent = own.find((resource) => resource.type === REPLICA_COMPONENT);
  const replica =
    replicaComponent &&
    storeTargets(
      store.resources.filter((resource) => resource.parent === replicaComponent.urn),
      iamResources,
      origin,
      { tokens, context },
    );
  const holders: { targets: StoreTargets; where: string; resources: readonly RenderedResource[] }[] = [
    { targets, where: '', resources: own },
    ...(replica && replicaComponent
      ? [
          {
            targets: { ...replica, roles: [...targets.roles, ...replica.roles] },
            where: 'on the replica: ',
            resources: store.resources.filter((resource) => resource.parent === replicaComponent.urn),
          },
        ]
      : []),
  ];
  const roles = holders
    .flatMap((holder) => holder.targets.roles)
    .filter((role, index, all) => all.findIndex((other) => other.arn === role.arn) === index)
    .filter((role) => origin === undefined || !actsForServiceOnly(role));
  const principals: AwsPrincipal[] = [
    ...roles,
    ...declaredPrincipals(roles),
    ...ciPrincipals(bootstrap?.resources ?? [], targets),
    {
      principal: {
        id: `arn:${targets.partition}:iam::${targets.accountId}:root`,
        label: 'account administrators',
        kind: 'cloud-default',
      },
      arn: `arn:${targets.partition}:iam::${targets.accountId}:role/any-administrator`,
      policies: [{ name: 'administrator (outside this repository)', policy: ADMINISTRATOR_POLICY }],
    },
  ];
  const grants: AccessGrant[] = [];
  for (const holder of holders) {
    for (const principal of principals) {
      if (principal.through) {
        for (const grant of await grantsOf(principal.through.role, holder.targets, operations)) {
          grants.push({
            principal: principal.principal,
            operation: grant.operation,
            reason: `${holder.where}assumes ${principal.through.role.principal.label} (its trust policy, ${principal.through.sid}), which ${grant.reason}`,
          });
        }
        continue;
      }
      for (const grant of await grantsOf(principal, holder.targets, operations)) {
        grants.push({ ...grant, reason: `${holder.where}${grant.reason}` });
      }
      if (!operations.includes('destroy-by-config')) continue;
      for (const grant of await awsConfigurationWrites(
        configurationQuestions(principal, holder, render, store, iamResources),
      )) {
        grants.push({ ...grant, reason: `${holder.where}${grant.reason}` });
      }
    }
  }
  return grants;
}

/** The questions ./configuration-writes asks about a principal and one data holder, put to IAM here. */
function configurationQuestions(
  principal: AwsPrincipal,
  holder: { targets: StoreTargets; resources: readonly RenderedResource[] },
  render: Pick<Render, 'resources'>,
  store: StoreAccessInput['store'],
  iamResources: readonly RenderedResource[],
): AwsWriteAnswers {
  const { targets } = holder;
  const component = render.resources.find((resource) => resource.urn === store.urn);
  const location = component?.inputs['location'];
  const copy = awsIndependentCopyOf(
    holder.resources,
    { arn: targets.bucketArn, region: typeof location === 'string' ? location : undefined },
    iamResources,
  );
  const backupArn = (what: string) =>
    `arn:${targets.partition}:backup:${targets.region}:${targets.accountId}:${what}`;
  const copyResource = {
    vault: backupArn(`backup-vault:${copy?.vault ?? ''}`),
    'recovery-point': backupArn('recovery-point:continuous:checkpoint-store'),
    plan: backupArn('backup-plan:checkpoint-store'),
  } as const;
  // The stack trail records the store's bucket and its replica alike: it is asked about once, with the store.
  const trail =
    holder.resources.some((resource) => resource.parent === store.urn) &&
    render.resources.find((resource) => resource.type === 'aws:cloudtrail/trail:Trail');
  const trailName = trail ? stringInput(trail, 'name') : undefined;
  return {
    principal: principal.principal,
    resources: holder.resources,
    replica: !holder.resources.some((resource) => resource.parent === store.urn),
    component,
    directory: targets.directory,
    ...(copy ? { copy } : {}),
    onCopy: (action, on) => allowedFor(principal, { action, resource: copyResource[on] }, targets),
    onBucket: (action) =>
      allowedFor(
        principal,
        {
          action,
          resource: targets.bucketArn,
          context: targets.origin,
          ...(targets.bucketPolicy ? { resourcePolicy: targets.bucketPolicy } : {}),
        },
        targets,
      ),
    onTrail: (action) =>
      trailName === undefined
        ? Promise.resolve(undefined)
        : allowedFor(
            principal,
            {
              action,
              resource: `arn:${targets.partition}:cloudtrail:${targets.region}:${targets.accountId}:trail/${trailName}`,
            },
            targets,
          ),
  };
}

/** The component of a store's replica (stacks/aws-s3 StoreReplica): its bucket, key and replication role. */
const REPLICA_COMPONENT = COMPONENT_TYPES.awsStoreReplica;

async function grantsOf(
  principal: AwsPrincipal,
  targets: StoreTargets,
  operations: readonly Operation[],
): Promise<AccessGrant[]> {
  const grants: AccessGrant[] = [];
  const assumed = [...(principal.assumed ?? []), ...targets.assumed];
  for (const [operation, alternatives] of Object.entries(requestsOf(targets, principal))) {
    if (!operations.includes(operation as Operation)) continue;
    const reason = await firstAllowed(principal, alternatives, targets);
    if (reason === undefined) continue;
    const bearing = assumedFor(
      assumed,
      alternatives.flatMap((requests) => requests.map((request) => request.action)),
    );
    grants.push({
      principal: principal.principal,
      operation: operation as Operation,
      reason: bearing.length > 0 ? `${reason} (assumed: ${bearing.join('; ')})` : reason,
    });
  }
  if (operations.includes('act-as')) {
    for (const role of targets.roles) {
      if (role.arn === principal.arn) continue;
      const actAs = await actsAs(principal, role, targets);
      if (actAs) grants.push({ principal: principal.principal, operation: 'act-as', reason: actAs });
    }
  }
  const selfGrant = operations.includes('self-grant') && (await grantsItselfData(principal, targets));
  if (selfGrant) grants.push({ principal: principal.principal, operation: 'self-grant', reason: selfGrant });
  return grants;
}

/**
 * operationRequests made once per store and environment (the one thing of the principal they read): a
 * store's principals ask the same requests, and a request object reused is a context whose text is made once.
 */
function requestsOf(
  targets: StoreTargets,
  principal: AwsPrincipal,
): Partial<Record<Operation, Alternatives>> {
  const byEnvironment = memo(requestsByTargets, targets, () => new Map());
  return memo(byEnvironment, principal.principal.environment ?? '', () =>
    operationRequests(targets, principal),
  );
}
const requestsByTargets = new WeakMap<StoreTargets, Map<string, Partial<Record<Operation, Alternatives>>>>();

/**
 * The endpoint S3 Express calls KMS from for a directory bucket (kms:ViaService: the endpoint of the service that
 * calls KMS for the principal, https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-via-service).
 */
export function s3ExpressViaService(region: string): string {
  return `s3express.${region}.${region.startsWith('cn-') ? 'amazonaws.com.cn' : 'amazonaws.com'}`;
}

/**
 * The encryption context S3 Express puts on every KMS call for a directory bucket: the bucket's ARN under
 * `aws:s3express:arn`, and no other pair ("Encryption context":
 * https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-UsingKMSEncryption.html#s3-express-encryption-context).
 */
export const S3_EXPRESS_CONTEXT_KEY = 'kms:EncryptionContext:aws:s3express:arn';

/**
 * How the store's data reaches its key. SSE-KMS: S3 calls KMS as the requester, so reading needs Decrypt and
 * writing GenerateDataKey on the key, through S3
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/UsingKMSEncryption.html#aws-managed-customer-managed-keys);
 * for a directory bucket through S3 Express, with the bucket's encryption context, during the session
 * (https://docs.aws.amazon.com/AmazonS3/latest/userguide/s3-express-UsingKMSEncryption.html#s3-express-sse-kms-bucket-keys).
 */
function dataKeyContext(targets: StoreTargets): Record<string, string> {
  return targets.directory
    ? { 'kms:ViaService': s3ExpressViaService(targets.region), [S3_EXPRESS_CONTEXT_KEY]: targets.bucketArn }
    : { 'kms:ViaService': `s3.${targets.region}.amazonaws.com` };
}

/** The requests each operation makes on this store, per the S3, S3 Express and KMS authorization references. */
function operationRequests(
  targets: StoreTargets,
  principal: AwsPrincipal,
): Partial<Record<Operation, Alternatives>> {
  const { bucketArn, bucketPolicy, key } = targets;
  const bucket = (action: string, context: Record<string, string | string[]> = {}): AwsRequest => ({
    action,
    resource: bucketArn,
    context: withContext(targets.origin, context),
    ...(bucketPolicy ? { resourcePolicy: bucketPolicy } : {}),
  });
  const object = (action: string): AwsRequest => ({
    action,
    resource: `${bucketArn}/checkpoint`,
    context: targets.origin,
    ...(bucketPolicy ? { resourcePolicy: bucketPolicy } : {}),
  });
  const viaService = dataKeyContext(targets);
  const onKey = (action: string, context: Record<string, string | string[]> = {}): AwsRequest[] =>
    key
      ? [
          {
            action,
            resource: key.arn,
            context: withContext(keyTags(key.tags), context),
            resourcePolicy: key.policy,
          },
        ]
      : [];
  const session = (mode: 'ReadOnly' | 'ReadWrite') =>
    bucket('s3express:CreateSession', { 's3express:SessionMode': mode });
  const ops: Partial<Record<Operation, Alternatives>> = targets.directory
    ? {
        // Directory buckets authorise every object call through a session: ReadOnly reads, ReadWrite
        // writes and deletes. https://docs.aws.amazon.com/AmazonS3/latest/API/API_CreateSession.html
        read: [
          [session('ReadOnly'), ...onKey('kms:Decrypt', viaService)],
          [session('ReadWrite'), ...onKey('kms:Decrypt', viaService)],
        ],
        write: [[session('ReadWrite'), ...onKey('kms:GenerateDataKey', viaService)]],
        delete: [[session('ReadWrite')]],
        'open-session': [[session('ReadOnly')], [session('ReadWrite')]],
        configure: [
          [bucket('s3express:PutLifecycleConfiguration')],
          [bucket('s3express:PutEncryptionConfiguration')],
        ],
        'change-access': [[bucket('s3express:PutBucketPolicy')], [bucket('s3express:DeleteBucketPolicy')]],
        'delete-store': [[bucket('s3express:DeleteBucket')]],
      }
    : {
        read: [[object('s3:GetObject'), ...onKey('kms:Decrypt', viaService)]],
        write: [[object('s3:PutObject'), ...onKey('kms:GenerateDataKey', viaService)]],
        delete: [[object('s3:DeleteObject')], [object('s3:DeleteObjectVersion')]],
        configure: [
          [bucket('s3:PutLifecycleConfiguration')],
          [bucket('s3:PutBucketVersioning')],
          [bucket('s3:PutEncryptionConfiguration')],
        ],
        'change-access': [
          [bucket('s3:PutBucketPolicy')],
          [bucket('s3:DeleteBucketPolicy')],
          [bucket('s3:PutBucketPublicAccessBlock')],
        ],
        'delete-store': [[bucket('s3:DeleteBucket')]],
      };
  if (key) {
    // Calling KMS directly; for a directory bucket also with the context S3 Express would send, which a key
    // grant pinned to the bucket's context alone (without kms:ViaService) would let through.
    ops['use-key'] = targets.directory
      ? [onKey('kms:Decrypt'), onKey('kms:Decrypt', { [S3_EXPRESS_CONTEXT_KEY]: bucketArn })]
      : [onKey('kms:Decrypt')];
    ops['disable-key'] = [onKey('kms:DisableKey')];
    ops['destroy-key'] = [onKey('kms:ScheduleKeyDeletion')];
    // Every key statement of CI and the store boundaries matches on the key's tags: whoever may set
    // them to their own environment's may then act on the key as on their own.
    // https://docs.aws.amazon.com/kms/latest/developerguide/abac.html
    const retag = principal.principal.environment ?? 'another-environment';
    ops['change-access'] = [
      ...(ops['change-access'] ?? []),
      onKey('kms:PutKeyPolicy'),
      onKey('kms:CreateGrant'),
      onKey('kms:TagResource', {
        'aws:RequestTag/pulumi-stack': retag,
        'aws:RequestTag/pulumi-project': key.tags['pulumi-project'] ?? '',
        'aws:TagKeys': ['pulumi-project', 'pulumi-stack'],
      }),
    ];
  }
  for (const role of targets.roles) {
    // Rewriting a store role's policies changes who reaches the store's data.
    ops['change-access'] = [
      ...(ops['change-access'] ?? []),
      [{ action: 'iam:PutRolePolicy', resource: role.arn, context: boundaryContext(role) }],
      [{ action: 'iam:UpdateAssumeRolePolicy', resource: role.arn, context: boundaryContext(role) }],
    ];
  }
  return ops;
}

/**
 * A request context with more keys; the same object when there are none, so that a store's many
 * questions from one origin or on one key share one context and its text (contextText).
 */
function withContext(
  base: Record<string, string | string[]>,
  more: Record<string, string | string[]>,
): Record<string, string | string[]> {
  return Object.keys(more).length === 0 ? base : { ...base, ...more };
}

/** A context's JSON, made once per context object (contexts, like policies, are never changed). */
function contextText(context: Record<string, string | string[]>): string {
  return memo(contextTexts, context, () => JSON.stringify(context));
}
const contextTexts = new WeakMap<object, string>();

/** The key's tags as request context, made once per key: every key question of a store carries them. */
function keyTags(tags: Record<string, string>): Record<string, string> {
  return memo(keyTagContexts, tags, () =>
    Object.fromEntries(Object.entries(tags).map(([key, value]) => [`aws:ResourceTag/${key}`, value])),
  );
}
const keyTagContexts = new WeakMap<Record<string, string>, Record<string, string>>();

/** IAM sets `iam:PermissionsBoundary` to the boundary a role has, on every call on that role. */
function boundaryContext(role: AwsPrincipal): Record<string, string> {
  return role.boundaryArn ? { 'iam:PermissionsBoundary': role.boundaryArn } : {};
}

async function firstAllowed(
  principal: AwsPrincipal,
  alternatives: Alternatives,
  asker: Asker,
): Promise<string | undefined> {
  for (const requests of alternatives) {
    if (requests.length === 0) continue;
    const reasons: string[] = [];
    for (const request of requests) {
      const reason = await allowedFor(principal, request, asker);
      if (reason === undefined) break;
      reasons.push(reason);
    }
    if (reasons.length === requests.length) return reasons.join('; ');
  }
  return undefined;
}

/**
 * The tokens of a store of a render, for `allowed` to share the store's answers with other stores' (see
 * ./aws-renaming); undefined for a store that has none (the only store of its render).
 */
export function awsStoreTokens(
  render: Pick<Render, 'resources'>,
  storeUrn: string,
  context: AnalysisContext,
): StoreTokens | undefined {
  return storeWordsOf(render, awsAnswersOf(context).renaming).byStore.get(storeUrn);
}

/**
 * What allows one request, in the policies' own names and statement IDs; undefined when IAM denies it.
 * Answered from the context's answers (a new context's without one: asked afresh).
 */
export function allowed(
  principal: AwsPrincipal,
  request: AwsRequest,
  tokens?: StoreTokens,
  context: AnalysisContext = createContext({ resources: [] }),
): Promise<string | undefined> {
  return allowedFor(principal, request, { tokens, context });
}

function allowedFor(principal: AwsPrincipal, request: AwsRequest, { tokens, context }: Asker) {
  const answers = awsAnswersOf(context);
  if (answers.answers + answers.shared.size + answers.documents.size >= SIMULATION_CACHE_LIMIT)
    forgetAnswers(answers);
  // A render asks IAM the same question many times (every store's rights and access checks share the CI
  // identities' policies); the answer is a pure function of the question, so each is answered once. The
  // key spells the request out and names each policy by the number of its text (see policyNumber).
  const contextJson = request.context ? contextText(request.context) : '';
  const asked = principalKey(answers, principal);
  const byRequest = memo(answers.simulations, asked, () => new Map());
  // The request's texts by their numbers (textNumber): a short key, where one spelling them out (some 215
  // characters, 157,080 questions at 200 AWS stores) was hashed anew for every question.
  const key = `${textNumber(answers, request.action)},${textNumber(answers, request.resource)},${
    request.resourcePolicy ? policyNumber(answers, request.resourcePolicy) : ''
  },${textNumber(answers, contextJson)}`;
  let answer = byRequest.get(key);
  if (answer === undefined) {
    answer = !actionMayBeAllowed(answers, principal, request)
      ? DENIED
      : tokens
        ? askShared(answers, principal, request, tokens, contextJson)
        : undescribed(answers, principal, request);
    byRequest.set(key, answer);
    answers.answers++;
  }
  return answer;
}

/**
 * Drops every answer (and what keys them) past the limit: a render's questions outnumbering it are asked
 * again rather than held in memory.
 */
function forgetAnswers(answers: AwsAnswers): void {
  Object.assign(answers, newAwsAnswers(answers.renaming.generation + 1));
}

const DENIED: Promise<string | undefined> = Promise.resolve(undefined);

/**
 * Whether any Allow statement of the principal's policies or the resource policy names the request's action
 * (allowMayApply's test of Action alone, looser still, so as sound): when none does, IAM denies the request
 * whatever its resource and context. Read once per policy document and action, where a question is
 * otherwise put in canonical form to be shared (some 10 µs): a store's readers are asked about deletes,
 * CI's identities about reading objects, each on every store (26,640 of 87,696 new questions at 200 AWS
 * stores).
 */
function actionMayBeAllowed(answers: AwsAnswers, principal: AwsPrincipal, request: AwsRequest): boolean {
  return (
    principal.policies.some((entry) => namesAction(answers, entry.policy, request.action)) ||
    (request.resourcePolicy !== undefined && namesAction(answers, request.resourcePolicy, request.action))
  );
}

/** Whether an Allow statement of the document may name the action (namesMayMatch), once per document and action. */
function namesAction(answers: AwsAnswers, document: PolicyDocument, action: string): boolean {
  return memo(
    memo(answers.actionsNamed, document, () => new Map()),
    action,
    () =>
      statements(document).some(
        (statement) => statement.Effect !== 'Deny' && namesMayMatch(statement, 'Action', 'NotAction', action),
      ),
  );
}

function undescribed(
  answers: AwsAnswers,
  principal: AwsPrincipal,
  request: AwsRequest,
): Promise<string | undefined> {
  return ask(answers, principal, request).then((grants) => grants && describe(request.action, grants));
}

/** The answer to a store's question: another store's to the same question in other words, when IAM cannot tell them apart. */
async function askShared(
  answers: AwsAnswers,
  principal: AwsPrincipal,
  request: AwsRequest,
  tokens: StoreTokens,
  contextJson: string,
): Promise<string | undefined> {
  if (!arnWordsLoaded(request.action)) await loadArnWords(request.action);
  const accountId = accountOf(request.resource, principal.arn);
  const shared = sharedQuestion(answers.renaming, tokens, principal, request, accountId, contextJson);
  if (!shared) return undescribed(answers, principal, request);
  let answer: Promise<Grant[] | undefined> | undefined = answers.shared.get(shared.key);
  if (answer === undefined) {
    answer = ask(answers, principal, request).then((grants) =>
      grants?.map((grant) => renameGrant(grant, (text) => canonical(tokens, text, shared.lengths))),
    );
    answers.shared.set(shared.key, answer);
  }
  const grants = await answer;
  return (
    grants &&
    describe(
      request.action,
      grants.map((grant) => renameGrant(grant, (text) => restore(tokens, text))),
    )
  );
}

/** The answer IAM gives to one question (see allowed): the statements that allow it. */
async function ask(
  answers: AwsAnswers,
  principal: AwsPrincipal,
  request: AwsRequest,
): Promise<Grant[] | undefined> {
  // Ruled out before the simulation's input is even built: about half of a render's questions.
  if (!allowMayApply(request.action, request.resource, principal.policies, request.resourcePolicy)) {
    return undefined;
  }
  const narrowed = narrowedQuestion(principal, request);
  const grants = await simulate(
    simulationOf(answers, narrowed.principal, narrowed.request, accountOf(request.resource, principal.arn)),
  );
  return grants?.map(narrowed.inOriginal);
}

/**
 * The question with each identity policy and the resource policy cut to the statements that may apply to
 * its action and resource (namesMayMatch on Action and Resource, as allowMayApply reads them: looser than
 * IAM), an identity policy none of whose statements may apply left out. IAM decides a request from the
 * statements that match it, a statement matching only when its Action (or NotAction) and Resource (or
 * NotResource) match the request among its other elements: one that does not neither allows nor denies,
 * so the decision and the statements that allow it are the same without it, and an identity policy with
 * none grants and denies nothing
 * (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html). The
 * simulator reads every statement of every policy for every question (its resource, action and
 * conditions alike), where a render's question names one action and resource among the policies' dozens:
 * a 1-store AWS render took 13% less CPU (2.67 -> 2.35 s, medians of 8 alternating runs on a loaded
 * machine; at 200 stores, some 500 simulations, the change was within the noise).
 * Kept whole: a request on a resource pattern (matched pattern against pattern), a policy that fails
 * validation (the simulation reports it), a resource policy none of whose statements may apply (KMS needs
 * its key policy's allow, so leaving it out could change the answer), the permissions boundary (likewise),
 * and the policies of a principal two of whose policies share a name (a grant names its policy). A
 * statement is named by its Sid or, without one, its place in the whole policy: `inOriginal` renumbers
 * the places of the cut policies. The property tests of ./aws-renaming hold `allowed` to the simulation
 * of the question as asked, statements without a Sid and Deny statements included.
 */
function narrowedQuestion(
  principal: AwsPrincipal,
  request: AwsRequest,
): { principal: AwsPrincipal; request: AwsRequest; inOriginal: (grant: Grant) => Grant } {
  const names = principal.policies.map(({ name }) => name);
  if (/[*?]/.test(request.resource) || new Set(names).size !== names.length) {
    return { principal, request, inOriginal: (grant) => grant };
  }
  const places = new Map<string, readonly number[]>();
  const policies: AwsPrincipal['policies'] = [];
  for (const entry of principal.policies) {
    const cut = applicableStatements(entry.policy, request, 'identity');
    if (cut === undefined) policies.push(entry);
    else if (cut.places.length > 0) {
      policies.push({ name: entry.name, policy: cut.policy });
      places.set(`identity ${entry.name}`, cut.places);
    }
  }
  let resourcePolicy = request.resourcePolicy;
  const cutResource = resourcePolicy && applicableStatements(resourcePolicy, request, 'resource');
  if (cutResource !== undefined && cutResource.places.length > 0) {
    resourcePolicy = cutResource.policy;
    places.set('resource', cutResource.places);
  }
  return {
    principal: { ...principal, policies },
    request: { ...request, ...(resourcePolicy ? { resourcePolicy } : {}) },
    inOriginal: (grant) => {
      if (!('index' in grant.statement)) return grant;
      const cut = places.get(
        grant.policyType === 'resource' ? 'resource' : `${grant.policyType} ${grant.policy}`,
      );
      return cut ? { ...grant, statement: { index: cut[grant.statement.index - 1]! } } : grant;
    },
  };
}

/**
 * The statements of a valid policy that may apply to the request (namesMayMatch), with the place (from 1,
 * as the simulation numbers statements) each has in the whole policy; undefined when every statement may
 * apply or the policy is not valid. One cut per policy document, action and resource.
 */
function applicableStatements(
  policy: PolicyDocument,
  request: AwsRequest,
  kind: 'identity' | 'resource',
): CutPolicy | undefined {
  const byQuestion = memo(cutPolicies, policy, () => new Map());
  return memo(byQuestion, `${kind} ${request.action} ${request.resource}`, () => {
    const all = statements(policy);
    const places: number[] = [];
    all.forEach((statement, index) => {
      if (
        namesMayMatch(statement, 'Action', 'NotAction', request.action) &&
        namesMayMatch(statement, 'Resource', 'NotResource', request.resource)
      )
        places.push(index + 1);
    });
    if (places.length === all.length || !validPolicy(policy, kind)) return undefined;
    return { policy: { ...policy, Statement: places.map((place) => all[place - 1]!) }, places };
  });
}
interface CutPolicy {
  policy: PolicyDocument;
  places: readonly number[];
}
const cutPolicies = new WeakMap<PolicyDocument, Map<string, CutPolicy | undefined>>();

/** Whether the policy passes the validation the simulation applies to its kind, once per document and kind. */
function validPolicy(policy: PolicyDocument, kind: 'identity' | 'resource'): boolean {
  return memo(
    memo(validPolicies, policy, () => new Map()),
    kind,
    () => (kind === 'identity' ? validateIdentityPolicy : validateResourcePolicy)(policy).length === 0,
  );
}
const validPolicies = new WeakMap<PolicyDocument, Map<string, boolean>>();

/** The simulation of one question, each policy validated once (see validatedSimulation). */
function simulationOf(
  answers: AwsAnswers,
  principal: AwsPrincipal,
  request: AwsRequest,
  accountId: string,
): Simulation {
  return validatedSimulation(answers, {
    request: {
      principal: principal.arn,
      action: request.action,
      resource: { resource: request.resource, accountId },
      contextVariables: simulatedContext({
        ...SECURE,
        ...principalContext(principal.arn),
        'aws:RequestedRegion': requestedRegion(request.resource),
        ...request.context,
      }),
    },
    identityPolicies: principal.policies.map(({ name, policy }) => ({
      name,
      policy: simulatedPolicy(policy),
    })),
    serviceControlPolicies: [],
    resourceControlPolicies: [],
    ...(request.resourcePolicy ? { resourcePolicy: simulatedPolicy(request.resourcePolicy) } : {}),
    ...(principal.boundary
      ? { permissionBoundaryPolicies: [{ name: 'boundary', policy: simulatedPolicy(principal.boundary) }] }
      : {}),
  });
}

/**
 * KMS's encryption context keys (`kms:EncryptionContext:<key>`,
 * https://docs.aws.amazon.com/kms/latest/developerguide/conditions-kms.html#conditions-kms-encryption-context)
 * are a family iam-simulate does not read: it matches a request's variable key to its family only at a `/`
 * (as `aws:RequestTag/<key>`), and drops the others from the request, so a condition on one would never hold
 * (an allow never, a negated deny always). The simulation gets them renamed, in the request and in every policy
 * alike, to a family it reads with the same type (String) and the same case-sensitive key part: an
 * `aws:RequestTag/` key no policy here names otherwise. Each document is renamed once.
 */
const ENCRYPTION_CONTEXT_KEY = /^kms:EncryptionContext:(.+)$/i;
const SIMULATED_ENCRYPTION_CONTEXT = 'aws:RequestTag/kms-encryption-context:';

function simulatedContext(context: Record<string, string | string[]>): Record<string, string | string[]> {
  if (!Object.keys(context).some((key) => ENCRYPTION_CONTEXT_KEY.test(key))) return context;
  return Object.fromEntries(Object.entries(context).map(([key, value]) => [simulatedKey(key), value]));
}

function simulatedKey(key: string): string {
  const match = ENCRYPTION_CONTEXT_KEY.exec(key);
  return match ? `${SIMULATED_ENCRYPTION_CONTEXT}${match[1]}` : key;
}

function simulatedPolicy(policy: PolicyDocument): PolicyDocument {
  return memo(simulatedPolicies, policy, () => {
    if (!/kms:EncryptionContext:/i.test(JSON.stringify(policy))) return policy;
    return {
      ...policy,
      Statement: statements(policy).map((statement) =>
        statement.Condition === undefined
          ? statement
          : {
              ...statement,
              Condition: Object.fromEntries(
                Object.entries(statement.Condition as Record<string, Record<string, unknown>>).map(
                  ([operator, keys]) => [
                    operator,
                    Object.fromEntries(
                      Object.entries(keys).map(([key, value]) => [simulatedKey(key), value]),
                    ),
                  ],
                ),
              ),
            },
      ),
    } as PolicyDocument;
  });
}
const simulatedPolicies = new WeakMap<PolicyDocument, PolicyDocument>();

/**
 * The keys AWS puts in every request context about its principal, a role session here (CI and the store
 * roles act through AssumeRole or AssumeRoleWithWebIdentity sessions).
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-principalarn
 * (aws:PrincipalArn, aws:PrincipalAccount, aws:PrincipalType "AssumedRole" for a role session: "This key is
 * always included in the request context"), aws:PrincipalIsAWSService ("always included ... false" for a
 * principal that is not a service principal).
 */
function principalContext(arn: string): Record<string, string> {
  return memo(principalContexts, arn, () => ({
    'aws:PrincipalArn': arn,
    'aws:PrincipalAccount': /:(\d{12}):/.exec(arn)?.[1] ?? '',
    'aws:PrincipalType': 'AssumedRole',
    'aws:PrincipalIsAWSService': 'false',
  }));
}
const principalContexts = new Map<string, Record<string, string>>();

/**
 * The region a request goes to: a regional resource's own (its ARN's region; a store's S3 requests carry
 * the store's region in their context, as a bucket ARN has none), us-east-1 for IAM and other global
 * resources ("requests to IAM ... aws:RequestedRegion us-east-1",
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_condition-keys.html#condition-keys-requestedregion).
 */
function requestedRegion(resource: string): string {
  return /^arn:[^:]+:[^:]+:([a-z0-9-]+):/.exec(resource)?.[1] ?? 'us-east-1';
}

/** A statement that allows a request: in which policy, and its Sid or (without one) its place. */
export interface Grant {
  policyType: string;
  policy?: string;
  statement: { sid: string } | { index: number };
}

function renameGrant(grant: Grant, rename: (text: string) => string): Grant {
  return {
    policyType: grant.policyType,
    ...(grant.policy !== undefined ? { policy: rename(grant.policy) } : {}),
    statement: 'sid' in grant.statement ? { sid: rename(grant.statement.sid) } : grant.statement,
  };
}

function describe(action: string, grants: readonly Grant[]): string {
  const reasons = grants.map((grant) => {
    const where =
      grant.policyType === 'resource'
        ? resourcePolicyName(action)
        : grant.policyType === 'pb'
          ? 'boundary'
          : `policy ${grant.policy}`;
    return `${where} ${'sid' in grant.statement ? grant.statement.sid : `#${grant.statement.index}`}`;
  });
  return `${action}: ${[...new Set(reasons)].join(', ')}`;
}

/**
 * The principal's part of a question's key (its ARN, its policies' names and numbers, its
 * boundary's number), worked out once per principal: a store's principals ask some 300 questions each.
 * Principals, like policies, are built from a render and never changed.
 */
function principalKey(answers: AwsAnswers, principal: AwsPrincipal): string {
  return memo(answers.principalKeys, principal, () =>
    JSON.stringify([
      principal.arn,
      principal.policies.map(({ name, policy }) => [name, policyNumber(answers, policy)]),
      principal.boundary && policyNumber(answers, principal.boundary),
    ]),
  );
}

/**
 * The simulation with each policy validated once per analysis: iam-simulate validates a policy on every
 * question unless it is handed one iam-policy's createValidatedPolicy made ("carries ... the validation
 * result so that downstream consumers can skip re-validation", iam-policy's ValidatedPolicy), validated
 * as the simulation would (identity policies and boundaries: validateIdentityPolicy; the resource policy:
 * validateResourcePolicy).
 */
function validatedSimulation(answers: AwsAnswers, simulation: Simulation): Simulation {
  const identity = (policy: PolicyDocument) =>
    validatedPolicy(answers, policy, 'identity', validateIdentityPolicy);
  return {
    ...simulation,
    identityPolicies: simulation.identityPolicies.map(({ name, policy }) => ({
      name,
      policy: identity(policy as PolicyDocument),
    })),
    ...(simulation.resourcePolicy
      ? {
          resourcePolicy: validatedPolicy(
            answers,
            simulation.resourcePolicy as PolicyDocument,
            'resource',
            validateResourcePolicy,
          ),
        }
      : {}),
    ...(simulation.permissionBoundaryPolicies
      ? {
          permissionBoundaryPolicies: simulation.permissionBoundaryPolicies.map(({ name, policy }) => ({
            name,
            policy: identity(policy as PolicyDocument),
          })),
        }
      : {}),
  };
}

/** One validation per distinct policy text and kind (the text named by its policyNumber). */
function validatedPolicy(
  answers: AwsAnswers,
  policy: PolicyDocument,
  kind: 'identity' | 'resource',
  validate: typeof validateIdentityPolicy,
): ValidatedPolicy {
  return memo(answers.validatedPolicies, `${kind} ${policyNumber(answers, policy)}`, () =>
    createValidatedPolicy(policy, validate),
  );
}

/**
 * Whether any Allow statement of the identity or resource policies may apply to the request: IAM allows a
 * request only when at least one Allow statement does, whatever else the policies hold (an implicit deny
 * is the default; boundaries and SCPs only take away).
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic.html ("By default,
 * all requests are implicitly denied"; an explicit allow in an identity-based or resource-based policy
 * overrides this default). Most questions a render asks are ones no statement's Action and Resource even
 * name (a reader asked about deletes, CI about reading objects); they are answered here without a
 * simulation. The test over-approximates: NotAction, NotResource, a missing Resource and policy variables
 * count as "may apply", conditions and principals are not read, and names are matched more loosely than
 * IAM does (case-insensitively, a `*` across ARN segments), so a request it rules out is one the simulation
 * would deny too (wildcards: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_action.html,
 * .../reference_policies_elements_resource.html).
 */
export function anyAllowMayApply(simulation: Simulation): boolean {
  const { action, resource } = simulation.request;
  return allowMayApply(
    action,
    resource.resource,
    simulation.identityPolicies as { policy: PolicyDocument }[],
    simulation.resourcePolicy as PolicyDocument | undefined,
  );
}

function allowMayApply(
  action: string,
  resource: string,
  identityPolicies: readonly { policy: PolicyDocument }[],
  resourcePolicy: PolicyDocument | undefined,
): boolean {
  const mayApply = (document: PolicyDocument) =>
    statements(document).some(
      (statement) =>
        statement.Effect !== 'Deny' &&
        namesMayMatch(statement, 'Action', 'NotAction', action) &&
        namesMayMatch(statement, 'Resource', 'NotResource', resource),
    );
  return (
    identityPolicies.some((entry) => mayApply(entry.policy)) ||
    (resourcePolicy !== undefined && mayApply(resourcePolicy))
  );
}

function namesMayMatch(
  statement: Statement,
  element: 'Action' | 'Resource',
  negated: 'NotAction' | 'NotResource',
  value: string,
): boolean {
  const names = (statement as unknown as Record<string, unknown>)[element];
  if (names === undefined || negated in statement) return true;
  return (Array.isArray(names) ? names : [names]).some(
    (name) => typeof name !== 'string' || name.includes('${') || iamPattern(name).test(value),
  );
}

const SIMULATION_CACHE_LIMIT = 100_000;

/**
 * A number per distinct text of a question (an action, a resource, a context), in the numbering of policy
 * texts (policyNumber): a store's requests hold the same string objects question after question, whose
 * hash V8 keeps with the string.
 */
function textNumber(answers: AwsAnswers, text: string): number {
  return numberOfText(answers.numbersByText, text);
}

/**
 * A number per distinct policy text, the same for every object holding that text: a render parses each
 * store's and each CI identity's policies once per store and asks some 300 questions with them, so a
 * policy is serialised once, not once per question. Policies are parsed JSON that nothing here changes.
 */
function policyNumber(answers: AwsAnswers, policy: PolicyDocument): number {
  return memo(answers.numbersByPolicy, policy, () =>
    numberOfText(answers.numbersByText, JSON.stringify(policy)),
  );
}

async function simulate(simulation: Simulation): Promise<Grant[] | undefined> {
  const result = await runSimulation(simulation, { simulationMode: 'Strict' });
  if (result.resultType !== 'single' || result.overallResult !== 'Allowed') return undefined;
  return getGrantReasons(result.result.analysis).map((grant) => ({
    policyType: grant.policyType,
    ...('policyIdentifier' in grant ? { policy: grant.policyIdentifier } : {}),
    statement: grant.statementId !== undefined ? { sid: grant.statementId } : { index: grant.statementIndex },
  }));
}

function resourcePolicyName(action: string): string {
  if (action.startsWith('kms:')) return 'key policy';
  if (action.startsWith('sts:')) return 'trust policy';
  return 'bucket policy';
}

function accountOf(resourceArn: string, fallbackArn: string): string {
  return (
    /^arn:[^:]+:[^:]*:[^:]*:(\d{12}):/.exec(resourceArn)?.[1] ?? /:(\d{12}):/.exec(fallbackArn)?.[1] ?? ''
  );
}

/**
 * Acting as a store role: assuming it as its trust policy stands, or after rewriting that trust policy
 * to name oneself (same-account trust naming a principal needs no identity permission, an explicit deny
 * still wins). https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_evaluation-logic-cross-account.html
 */
async function actsAs(
  principal: AwsPrincipal,
  role: AwsPrincipal,
  asker: Asker,
): Promise<string | undefined> {
  const assume = (trust: PolicyDocument) =>
    allowedFor(principal, { action: 'sts:AssumeRole', resource: role.arn, resourcePolicy: trust }, asker);
  if (role.trust) {
    const now = await assume(role.trust);
    if (now) return `can assume ${role.principal.label}: ${now}`;
  }
  const rewrite = await allowedFor(
    principal,
    { action: 'iam:UpdateAssumeRolePolicy', resource: role.arn, context: boundaryContext(role) },
    asker,
  );
  if (rewrite === undefined) return undefined;
  const trustingSelf: PolicyDocument = {
    Version: '2012-10-17',
    Statement: [
      { Sid: 'RewrittenTrust', Effect: 'Allow', Principal: { AWS: principal.arn }, Action: 'sts:AssumeRole' },
    ],
  };
  const then = await assume(trustingSelf);
  return then
    ? `can rewrite the trust policy of ${role.principal.label} (${rewrite}) and then assume it (${then})`
    : undefined;
}

/** Whether the principal may change the bucket policy and, once it names it, read the data. */
async function grantsItselfData(principal: AwsPrincipal, targets: StoreTargets): Promise<string | undefined> {
  const action = targets.directory ? 's3express:PutBucketPolicy' : 's3:PutBucketPolicy';
  const change = await allowedFor(
    principal,
    {
      action,
      resource: targets.bucketArn,
      ...(targets.bucketPolicy ? { resourcePolicy: targets.bucketPolicy } : {}),
    },
    targets,
  );
  if (change === undefined) return undefined;
  const selfPolicy: PolicyDocument = {
    Version: '2012-10-17',
    Statement: [
      ...statements(targets.bucketPolicy),
      {
        Sid: 'GrantedToItself',
        Effect: 'Allow',
        Principal: { AWS: principal.arn },
        Action: targets.directory ? 's3express:CreateSession' : 's3:GetObject',
        Resource: [targets.bucketArn, `${targets.bucketArn}/*`],
      },
    ],
  };
  const keyPolicy: PolicyDocument | undefined = targets.key && {
    Version: '2012-10-17',
    Statement: [
      ...statements(targets.key.policy),
      {
        Sid: 'GrantedToItself',
        Effect: 'Allow',
        Principal: { AWS: principal.arn },
        Action: 'kms:Decrypt',
        Resource: '*',
      },
    ],
  };
  const read = await firstAllowed(
    principal,
    [
      [
        targets.directory
          ? {
              action: 's3express:CreateSession',
              resource: targets.bucketArn,
              context: { ...targets.origin, 's3express:SessionMode': 'ReadOnly' },
              resourcePolicy: selfPolicy,
            }
          : {
              action: 's3:GetObject',
              resource: `${targets.bucketArn}/checkpoint`,
              context: targets.origin,
              resourcePolicy: selfPolicy,
            },
        ...(targets.key && keyPolicy
          ? [
              {
                action: 'kms:Decrypt',
                resource: targets.key.arn,
                context: { ...keyTags(targets.key.tags), ...dataKeyContext(targets) },
                resourcePolicy: keyPolicy,
              },
            ]
          : []),
      ],
    ],
    targets,
  );
  return read ? `${change}, and with its own grant in the bucket policy ${read}` : undefined;
}

function statements(document: PolicyDocument | undefined): Statement[] {
  if (!document) return [];
  return Array.isArray(document.Statement) ? document.Statement : [document.Statement];
}

function storeTargets(
  resources: readonly RenderedResource[],
  iamResources: readonly RenderedResource[],
  origin: AwsNetworkOrigin | undefined,
  { tokens, context }: Asker,
): StoreTargets | undefined {
  const answers = awsAnswersOf(context);
  const bucket = resources.find(
    (r) => r.type === 'aws:s3/bucket:Bucket' || r.type === 'aws:s3/directoryBucket:DirectoryBucket',
  );
  const bucketName = bucket && stringInput(bucket, 'bucket');
  if (!bucket || !bucketName) return undefined;
  const directory = bucket.type === 'aws:s3/directoryBucket:DirectoryBucket';
  const allText = JSON.stringify(resources.map((r) => r.inputs));
  const arn = /arn:(aws[a-z-]*):[a-z0-9-]+:([a-z0-9-]*):(\d{12}):/.exec(allText);
  const partition = arn?.[1] ?? 'aws';
  const region = arn?.[2] || 'us-east-1';
  const accountId = arn?.[3] ?? /\b(\d{12})\b/.exec(allText)?.[1] ?? '000000000000';
  const bucketArn = directory
    ? `arn:${partition}:s3express:${region}:${accountId}:bucket/${bucketName}`
    : `arn:${partition}:s3:::${bucketName}`;
  const policyResource = resources.find((r) => r.type === 'aws:s3/bucketPolicy:BucketPolicy');
  const readBucketPolicy = policyResource
    ? policyDocument(policyResource.inputs['policy'], answers)
    : undefined;
  const judgedBucketPolicy = readBucketPolicy && judgedPolicy(readBucketPolicy);
  const bucketPolicy = judgedBucketPolicy?.policy;
  const keyResource = resources.find((r) => r.type === 'aws:kms/key:Key');
  const keyArn = /"kmsMasterKeyId":"(arn:[^"]+:key\/[^"]+)"/.exec(allText)?.[1];
  const key =
    keyResource && keyArn
      ? {
          arn: keyArn,
          tags: (keyResource.inputs['tags'] as Record<string, string> | undefined) ?? {},
          policy: judgedPolicy(
            withGrants(
              policyDocument(keyResource.inputs['policy'], answers) ?? defaultKeyPolicy(partition, accountId),
              keyArn,
              kmsGrantsOf(context),
            ),
          ),
        }
      : undefined;
  const managed = managedPolicies(context, iamResources, partition, accountId);
  const index = grantIndexOf(context.resources);
  const roles = resources
    .filter((r) => r.type === 'aws:iam/role:Role')
    .map((role): AwsPrincipal => {
      const name = stringInput(role, 'name') ?? role.name;
      const purpose = /-(writer|reader|replication|malware-scan|backup)$/.exec(role.name)?.[1] ?? role.name;
      const arn = `arn:${partition}:iam::${accountId}:role/${name}`;
      const grants = roleGrants(index, role, arn, managed, (value) => policyDocument(value, answers));
      return {
        principal: { id: arn, label: purpose, kind: 'store-identity' },
        arn,
        ...judgedGrants(grants),
        ...(role.inputs['assumeRolePolicy']
          ? { trust: policyDocument(role.inputs['assumeRolePolicy'], answers) as PolicyDocument }
          : {}),
      };
    });
  return {
    origin: { ...originContext(origin ?? insideOrigin(bucketPolicy)), 'aws:RequestedRegion': region },
    assumed: [
      ...(judgedBucketPolicy?.assumed ?? []).map((each) => ({
        ...each,
        text: `bucket policy: ${each.text}`,
      })),
      ...(key?.policy.assumed ?? []).map((each) => ({ ...each, text: `key policy: ${each.text}` })),
    ],
    partition,
    accountId,
    region,
    bucketArn,
    directory,
    ...(bucketPolicy ? { bucketPolicy } : {}),
    ...(key ? { key: { ...key, policy: key.policy.policy } } : {}),
    roles,
    tokens,
    context,
  };
}

/**
 * The managed policies of a resource list by ARN. Every store's targets look their roles' boundaries up in
 * the same list (the bootstrap render's, or the whole render's for the perimeter rule), which a scan per
 * store made quadratic in the number of stores: read once per context, list and account.
 */
function managedPolicies(
  context: AnalysisContext,
  iamResources: readonly RenderedResource[],
  partition: string,
  accountId: string,
): ManagedPolicies {
  const prefix = `arn:${partition}:iam::${accountId}:policy/`;
  const parse = (value: unknown) => policyDocument(value, awsAnswersOf(context));
  const read = () =>
    new Map([
      ...managedPoliciesOf(context.resources, partition, accountId, parse),
      ...managedPoliciesOf(iamResources, partition, accountId, parse),
    ]);
  return memo(
    memo(awsRoleDataOf(context).managedPolicies, iamResources, () => new Map()),
    prefix,
    read,
  );
}

/**
 * A policy input as its document, one object per text: every analysis of a render reads each store's
 * policies (access per origin, the perimeter, the rights), and a document read once is keyed once
 * (policyNumber, ./aws-renaming parts). Documents are never changed.
 */
export function policyDocument(value: unknown, answers: AwsAnswers): PolicyDocument | undefined {
  if (typeof value !== 'string') return value as PolicyDocument | undefined;
  return (
    memo(answers.documents, value, () => (jsonOf(value) as PolicyDocument | undefined) ?? null) ?? undefined
  );
}

/**
 * The role's inline policies that are documents. One that is not (a value unknown on a preview) grants
 * nothing here: the access rules refuse to judge a store with an unknown input (libs/policy access rules).
 */
export function inlinePolicies(
  resources: readonly RenderedResource[],
  roleName: string,
  answers: AwsAnswers,
): { name: string; policy: PolicyDocument }[] {
  return resources
    .filter((r) => r.type === 'aws:iam/rolePolicy:RolePolicy' && stringInput(r, 'role') === roleName)
    .flatMap((r) => {
      const policy = policyDocument(r.inputs['policy'], answers);
      return policy ? [{ name: stringInput(r, 'name') ?? r.name, policy }] : [];
    });
}

/** The principals a store role's trust policy lets in: they act as the role. */
/**
 * A role only AWS services of this account may assume (a Service principal alone, with aws:SourceAccount or
 * aws:SourceArn against the confused deputy: https://docs.aws.amazon.com/IAM/latest/UserGuide/confused-deputy.html)
 * makes its requests from the service, never from a network a caller chooses: S3 replicating, AWS Backup backing
 * up. A store's perimeter exempts such roles by ARN, as AWS's data perimeter examples exempt service roles
 * (https://github.com/aws-samples/data-perimeter-policy-examples), so a question from a given network is not theirs.
 */
function actsForServiceOnly(role: AwsPrincipal): boolean {
  const allows = statements(role.trust).filter((statement) => statement.Effect === 'Allow');
  return (
    allows.length > 0 &&
    allows.every((statement) => {
      const principal = statement.Principal as Record<string, unknown> | undefined;
      const condition = JSON.stringify(statement.Condition ?? {});
      return (
        principal !== undefined &&
        Object.keys(principal).every((type) => type === 'Service') &&
        /aws:Source(Account|Arn)/.test(condition)
      );
    })
  );
}

function declaredPrincipals(roles: readonly AwsPrincipal[]): AwsPrincipal[] {
  return roles.flatMap((role) =>
    statements(role.trust)
      .filter((statement) => statement.Effect === 'Allow')
      .flatMap((statement) => {
        const principal = statement.Principal as Record<string, string | string[]> | undefined;
        return Object.entries(principal ?? {}).flatMap(([type, ids]) =>
          (Array.isArray(ids) ? ids : [ids]).map((id): AwsPrincipal => ({
            principal: { id, label: type === 'AWS' ? id : `${type.toLowerCase()} ${id}`, kind: 'declared' },
            arn: id,
            policies: [],
            through: { role, sid: statement.Sid ?? 'a statement' },
          })),
        );
      }),
  );
}

/**
 * CI's identities as principals of the store's account, made once per bootstrap render and account: every
 * store asks about the same identities (and a principal reused is a principal whose key is made once).
 */
export function ciPrincipals(
  resources: readonly RenderedResource[],
  targets: Pick<StoreTargets, 'partition' | 'accountId' | 'context'>,
): AwsPrincipal[] {
  const byAccount = memo(awsRoleDataOf(targets.context).ciPrincipals, resources, () => new Map());
  const account = `arn:${targets.partition}:iam::${targets.accountId}`;
  return memo(byAccount, account, () => ciPrincipalsIn(resources, targets));
}

function ciPrincipalsIn(
  resources: readonly RenderedResource[],
  targets: Pick<StoreTargets, 'partition' | 'accountId' | 'context'>,
): AwsPrincipal[] {
  return resources.flatMap((role) => {
    if (role.type !== 'aws:iam/role:Role') return [];
    const name = stringInput(role, 'name') ?? role.name;
    const arn = `arn:${targets.partition}:iam::${targets.accountId}:role/${name}`;
    const principal = ciPrincipal(role, arn);
    if (!principal) return [];
    const grants = roleGrants(
      grantIndexOf(resources),
      role,
      arn,
      managedPolicies(targets.context, resources, targets.partition, targets.accountId),
      (value) => policyDocument(value, awsAnswersOf(targets.context)),
    );
    return [
      {
        principal,
        arn,
        ...judgedGrants(grants),
      },
    ];
  });
}

/** A role's grants as the principal IAM evaluates, each condition the analysis cannot evaluate resolved to the worst case. */
function judgedGrants(
  grants: RoleGrants,
): Pick<AwsPrincipal, 'policies' | 'boundary' | 'boundaryArn' | 'assumed' | 'attachedPolicyArns'> {
  const assumed: Assumption[] = [];
  const judge = (name: string, policy: PolicyDocument) => {
    const judged = judgedPolicy(policy);
    assumed.push(...judged.assumed.map((each) => ({ ...each, text: `${name}: ${each.text}` })));
    return judged.policy;
  };
  const policies = grants.policies.map(({ name, policy }) => ({
    name,
    policy: judge(`policy ${name}`, policy as PolicyDocument),
  }));
  const boundary = grants.boundary && judge('boundary', grants.boundary as PolicyDocument);
  return {
    policies,
    ...(boundary ? { boundary } : {}),
    ...(grants.boundaryArn ? { boundaryArn: grants.boundaryArn } : {}),
    ...(assumed.length > 0 ? { assumed } : {}),
    ...(grants.attachedArns.length > 0 ? { attachedPolicyArns: grants.attachedArns } : {}),
  };
}

/** The KMS grants of the context's render and bootstrap render: each adds to its key's policy (./aws-grants withGrants). */
const kmsGrantsOf = contextMemo((context): RenderedResource[] =>
  [...context.resources, ...(context.bootstrap?.resources ?? [])].filter(
    (resource) => resource.type === 'aws:kms/grant:Grant',
  ),
);

/** What one analysis context keeps of IAM's answers, and what keys them. */
export interface AwsAnswers {
  /** Answers by principal (principalKey), then by request. */
  simulations: Map<string, Map<string, Promise<string | undefined>>>;
  /** namesAction by policy document, then by action. */
  actionsNamed: WeakMap<PolicyDocument, Map<string, boolean>>;
  /** How many answers `simulations` holds. */
  answers: number;
  /** Answers by canonical question (see ./aws-renaming), policy names and Sids in canonical form. */
  shared: Map<string, Promise<Grant[] | undefined>>;
  /** The canonical forms the keys of `shared` are made of. */
  renaming: RenamingState;
  documents: Map<string, PolicyDocument | null>;
  numbersByText: Map<string, number>;
  numbersByPolicy: WeakMap<PolicyDocument, number>;
  validatedPolicies: Map<string, ValidatedPolicy>;
  principalKeys: WeakMap<AwsPrincipal, string>;
}

export function newAwsAnswers(generation = 0): AwsAnswers {
  return {
    simulations: new Map(),
    actionsNamed: new WeakMap(),
    answers: 0,
    shared: new Map(),
    renaming: newRenamingState(generation),
    documents: new Map(),
    numbersByText: new Map(),
    numbersByPolicy: new WeakMap(),
    validatedPolicies: new Map(),
    principalKeys: new WeakMap(),
  };
}

/**
 * The IAM data of a render's (or bootstrap render's) resource list, read once per account: every store's
 * targets look their roles' boundaries up in it, and every store asks about the same CI identities.
 */
export interface AwsRoleData {
  managedPolicies: WeakMap<readonly RenderedResource[], Map<string, ManagedPolicies>>;
  ciPrincipals: WeakMap<readonly RenderedResource[], Map<string, AwsPrincipal[]>>;
}

/** The IAM answers of a context's render. */
export const awsAnswersOf = contextMemo(() => newAwsAnswers());

/** The IAM role data of a context's render. */
export const awsRoleDataOf = contextMemo((): AwsRoleData => ({
  managedPolicies: new WeakMap(),
  ciPrincipals: new WeakMap(),
}));
