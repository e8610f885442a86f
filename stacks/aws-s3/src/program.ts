import * as pulumi from '@pulumi/pulumi';
import { getCallerIdentityOutput } from '@pulumi/aws/getCallerIdentity';
import { getPartitionOutput } from '@pulumi/aws/getPartition';
import {
  AWS_IAM_LIMITS,
  awsPartitionOf,
  awsQuotaWarnings,
  allowedAccountsOf,
  allowedAccountsRequired,
  awsRules,
  buildStoresInTurns,
  ConfigError,
  firstName,
  iamPolicySize,
  loadStackSpec,
  organizationTrailIssues,
  CONFIG_NAMESPACE,
  physicalNameIssues,
  deployedStoresOf,
  replacementIssues,
  storeComponentInputs,
  type ConfigIssue,
  type StackSpec,
  type StoreOutputs,
  type StoreSpec,
} from '@checkpoints/config';
import { names, type NameContext } from '@checkpoints/naming';
import { awsCiRoleArns, awsDeployRoleSuffix, awsTrustPolicy } from '@checkpoints/translate';
import { StackAudit, type AuditOutputs, type StackAuditArgs } from './audit';
import { CheckpointStore, STORE_REPLACING_SETTINGS } from './checkpoint-store';
import { keyAlias } from './encryption';

/**
 * Builds every store of the stack's config; config is validated (a problem throws) before any resource is
 * registered, and the stores are built one per turn (`buildStoresInTurns`).
 */
export function checkpointStack(): Promise<{
  stores: Record<string, StoreOutputs<pulumi.Output<string>>>;
  audit: AuditOutputs | undefined;
}> {
  const { spec, region } = loadAwsStackSpec();
  for (const warning of awsQuotaWarnings(spec)) void pulumi.log.warn(warning);
  const project = pulumi.getProject();
  const stackName = pulumi.getStack();
  const account = deployingAccount();
  const accountRootArn = pulumi.interpolate`arn:${account.partition}:iam::${account.accountId}:root`;
  const deployRoleName = ciDeployRoleOf(spec);
  // loadAwsStackSpec refused a deploy role name without the environment's suffix: the list is never empty.
  const ciRoleArns = pulumi
    .all([account.partition, account.accountId])
    .apply(
      ([partition, accountId]) => awsCiRoleArns(partition, accountId, spec.environment, deployRoleName) ?? [],
    );
  const roleBoundaryArn = pulumi.interpolate`arn:${account.partition}:iam::${account.accountId}:policy/${names.awsStoreRoleBoundary({ project, stack: stackName })}`;
  return buildStoresInTurns(
    spec.stores,
    (store) =>
      new CheckpointStore(store.name, {
        store,
        stack: spec,
        region,
        project,
        stackName,
        accountRootArn,
        roleBoundaryArn,
        ciRoleArns,
      }),
  ).then((stores) => ({
    stores: Object.fromEntries(stores.map((store) => [store.storeName, store.outputs])),
    audit: stackAudit(spec, stores, { project, stackName, region, ...account }),
  }));
}

/**
 * Where the audited stores' data events are recorded: the declared organization trail (which the stack
 * cannot inspect: docs/aws.md says what it must select), else one trail for the whole stack; none when no
 * store is audited.
 */
function stackAudit(
  spec: StackSpec,
  stores: CheckpointStore[],
  where: Omit<StackAuditArgs, 'stack' | 'audited'>,
): AuditOutputs | undefined {
  const audited = spec.stores.flatMap((store, index) => {
    const built = stores[index]!;
    const replica = built.replica;
    return store.audit
      ? [
          {
            store,
            bucketArn: built.bucketArn,
            bucketName: built.bucketName,
            ...(replica
              ? {
                  replica: {
                    region: replica.region,
                    bucketArn: replica.bucketArn,
                    bucketName: replica.bucketName,
                  },
                }
              : {}),
          },
        ]
      : [];
  });
  if (audited.length === 0) return undefined;
  const { organizationTrail } = spec;
  return new StackAudit('audit', {
    stack: spec,
    audited,
    ...where,
    ...(organizationTrail === undefined ? {} : { organizationTrail }),
  }).outputs;
}

/** `checkpoints:ciDeployRole`, or its default: the deploy role of this environment of the bootstrap stack `ci`. */
function ciDeployRoleOf(spec: Pick<StackSpec, 'ciDeployRole' | 'environment'>): string {
  return spec.ciDeployRole ?? `checkpoints-ci${awsDeployRoleSuffix(spec.environment)}`;
}

/**
 * The perimeters exempt the deploy role and the preview role of its bootstrap stack by exact ARN, the
 * preview's derived from the deploy role's name: one that does not end in `-deploy-<environment>` names
 * neither.
 */
function ciDeployRoleIssues(spec: StackSpec): ConfigIssue[] {
  const suffix = awsDeployRoleSuffix(spec.environment);
  if (spec.ciDeployRole === undefined || spec.ciDeployRole.endsWith(suffix)) return [];
  return [
    {
      path: `${CONFIG_NAMESPACE}:ciDeployRole`,
      value: spec.ciDeployRole,
      message: `must be the bootstrap's deploy role of environment ${spec.environment}, checkpoints-<bootstrap stack>${suffix} (e.g. checkpoints-ci${suffix}): the buckets' perimeters exempt it, and the preview role checkpoints-<bootstrap stack>-preview, by exact ARN`,
    },
  ];
}

/** The common spec with the AWS rules, and `aws:region`, every problem of both reported at once. */
function loadAwsStackSpec(): { spec: StackSpec; region: string } {
  const source = `Pulumi.${pulumi.getStack()}.yaml`;
  const region = new pulumi.Config('aws').get('region');
  const issues: ConfigIssue[] = awsRules.regionIssues(region);
  issues.push(
    ...organizationTrailIssues(pulumi.runtime.allConfig()[`${CONFIG_NAMESPACE}:organizationTrail`], region),
  );
  const allowed = allowedAccountsOf(pulumi.runtime.allConfig()['aws:allowedAccountIds']);
  issues.push(...allowed.issues);
  const rules =
    region !== undefined && issues.length === 0 ? awsRules.forRegion(region, allowed.accounts) : awsRules;
  let spec: StackSpec | undefined;
  try {
    spec = loadStackSpec(pulumi.runtime.allConfig(), rules, source, { isSecret: isConfigSecret });
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    issues.push(...error.issues);
  }
  if (spec) {
    issues.push(
      ...physicalNameIssues(spec.stores, awsPhysicalNames),
      ...ciDeployRoleIssues(spec),
      ...allowedAccountsRequired(spec, allowed.accounts),
    );
  }
  if (spec && region !== undefined && issues.length === 0) {
    issues.push(
      ...replacementIssues(
        spec.stores,
        (store) => storeComponentInputs(store, region),
        STORE_REPLACING_SETTINGS,
        deployedStoresOf(pulumi.runtime.allConfig()),
      ),
    );
  }
  if (spec !== undefined && region !== undefined && issues.length === 0) {
    issues.push(...trustPolicySizeIssues(spec, region));
  }
  if (spec === undefined || region === undefined || issues.length > 0) throw new ConfigError(issues, source);
  return { spec, region };
}

/**
 * Each role's trust policy, rendered by the very function the roles use, against IAM's size limit. Account
 * IDs are always 12 digits, so a stand-in account root gives the exact size the deploy will send.
 */
function trustPolicySizeIssues(spec: StackSpec, region: string): ConfigIssue[] {
  const accountRoot = `arn:${awsPartitionOf(region) ?? 'aws'}:iam::000000000000:root`;
  const limit = AWS_IAM_LIMITS.trustPolicyCharacters;
  return spec.stores.flatMap((store, index) =>
    (['writers', 'readers'] as const).flatMap((key) => {
      const principals = store.access[key];
      const size = iamPolicySize(awsTrustPolicy(principals, accountRoot));
      if (size <= limit) return [];
      return [
        {
          path: `checkpoints:stores[${index}].access.${key}`,
          value: principals,
          message:
            `${principals.length} principals make the ${key === 'writers' ? 'writer' : 'reader'} role's trust policy ${size} characters, ` +
            `over IAM's default "Role trust policy length" of ${limit} (white space not counted); ` +
            'name fewer principals (for example one role that the jobs assume first); ' +
            `a raised quota (Service Quotas, IAM, ${AWS_IAM_LIMITS.trustPolicyQuotaCode}) is not read by this check`,
        },
      ];
    }),
  );
}

/** Every name the stack derives for a store that must be unique in the account (or globally, for buckets). */
export function awsPhysicalNames(store: StoreSpec): Record<string, string | string[]> {
  const ctx: NameContext = {
    project: pulumi.getProject(),
    stack: pulumi.getStack(),
    store: firstName(store),
  };
  const bucket =
    store.tier === 'high-throughput' && store.zone !== undefined
      ? names.s3DirectoryBucket(ctx, store.zone)
      : names.s3Bucket(ctx);
  const replicated = store.tier === 'standard' && store.recovery.replicaRegion !== undefined;
  return {
    'S3 bucket': replicated ? [bucket, names.s3ReplicaBucket(ctx)] : bucket,
    'IAM role': [
      names.iamRole(ctx, 'writer'),
      names.iamRole(ctx, 'reader'),
      ...(replicated ? [names.iamRole(ctx, 'replication')] : []),
    ],
    'KMS alias': keyAlias({ nameContext: ctx }, store.keyGeneration),
  };
}

/** The partition and account the stack deploys into (those of the credentials it runs with). */
function deployingAccount(): { partition: pulumi.Output<string>; accountId: pulumi.Output<string> } {
  return { partition: getPartitionOutput().partition, accountId: getCallerIdentityOutput().accountId };
}

/**
 * Whether a config key is a secret: the predicate Pulumi's own Config consults, absent from the SDK's typings.
 * libs/config refuses secrets where they would land in tags, labels or names.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { isConfigSecret } = require('@pulumi/pulumi/runtime/config') as {
  isConfigSecret(key: string): boolean;
};
