import * as pulumi from '@pulumi/pulumi';
import { getCallerIdentityOutput } from '@pulumi/aws/getCallerIdentity';
import { getPartitionOutput } from '@pulumi/aws/getPartition';
import { OpenIdConnectProvider } from '@pulumi/aws/iam/openIdConnectProvider';
import { Policy } from '@pulumi/aws/iam/policy';
import { Role } from '@pulumi/aws/iam/role';
import { RolePolicy } from '@pulumi/aws/iam/rolePolicy';
import { RolePolicyAttachment } from '@pulumi/aws/iam/rolePolicyAttachment';
import type { Environment } from '@checkpoints/config';
import { awsTags, type Tags } from '@checkpoints/tagging';
import type { CiIdentities, CiIdentityArgs } from '../identity-args';
import {
  AWS_STS_AUDIENCE,
  deploySubjects,
  GITHUB_OIDC_ISSUER,
  previewSubjects,
  type TrustedSubject,
} from '../github';
import { ciNames, deployPurpose, STACK_PROJECTS, type CiPurpose } from '../names';
import { outputNames } from '../outputs';
import { createBackupVault } from './backup-vault';
import {
  deployPolicy,
  splitDeployPolicy,
  deployStatePolicy,
  githubTrustPolicy,
  previewPolicy,
  previewStatePolicy,
  storeRoleBoundaryName,
  storeRoleBoundaryPolicy,
  type AwsAccount,
  type PolicyDocument,
} from './policies';

export interface AwsCiIdentitiesArgs extends CiIdentityArgs {
  /** `aws:region`: where the backup vaults of the stacks' independent copies live. */
  region: string;
  /** Reuse the account's existing GitHub OIDC provider instead of creating one (one per issuer per account). */
  oidcProviderArn?: string;
  /** The S3 bucket of a self-managed Pulumi state backend the AWS stacks use: CI gets their state there. */
  stateBucket?: string;
}

/**
 * The GitHub OIDC provider, a read-only preview role trusted by this repository's pull requests and its
 * nightly drift check (the `drift` GitHub environment), and a deploy role per environment trusted by jobs
 * that passed that GitHub environment's protection rules, with the permissions boundary every store role
 * that deploy role creates must carry, and the locked backup vault of that environment's independent copies.
 */
export class AwsCiIdentities extends pulumi.ComponentResource implements CiIdentities {
  /** Repository variables: the role ARNs the workflows assume. */
  readonly variables: Record<string, pulumi.Output<string>>;

  constructor(name: string, args: AwsCiIdentitiesArgs, opts?: pulumi.ComponentResourceOptions) {
    super('checkpoints:bootstrap:AwsCiIdentities', name, {}, opts);
    const providerArn = args.oidcProviderArn
      ? pulumi.output(args.oidcProviderArn)
      : this.createOidcProvider(args.tags()).arn;
    const account = this.account();

    const preview = this.createRole(args, 'preview', providerArn, previewSubjects(args.repository), {
      description: `Previews the checkpoint-storage stacks for pull requests and drift checks of ${args.repository.fullName} (read-only)`,
      policy: account.apply((resolved) => previewPolicy(resolved, args.environments, args.stateBucket)),
      tags: args.tags(),
      ...(args.stateBucket
        ? { statePolicy: account.apply((resolved) => previewStatePolicy(resolved, `${args.stateBucket}`)) }
        : {}),
    });
    this.variables = { [outputNames.awsPreviewRole]: preview.arn };
    for (const environment of args.environments) {
      const boundary = this.createStoreRoleBoundary(environment, account, args.tags(environment));
      createBackupVault(environment, args.region, args.tags(environment), this);
      const deploy = this.createRole(
        args,
        deployPurpose(environment),
        providerArn,
        deploySubjects(args.repository, environment),
        {
          description: `Deploys the ${environment} checkpoint-storage stacks from the ${environment} environment of ${args.repository.fullName}`,
          policy: account.apply(
            (resolved) => splitDeployPolicy(deployPolicy(resolved, environment, args.stateBucket)).inline,
          ),
          managedPolicy: {
            account,
            policy: account.apply(
              (resolved) => splitDeployPolicy(deployPolicy(resolved, environment, args.stateBucket)).managed,
            ),
          },
          tags: args.tags(environment),
          ...(args.stateBucket
            ? {
                statePolicy: account.apply((resolved) =>
                  deployStatePolicy(resolved, `${args.stateBucket}`, environment),
                ),
              }
            : {}),
        },
        // The deploy role may only create roles with this boundary: it must exist first.
        [boundary],
      );
      this.variables[outputNames.awsDeployRole(environment)] = deploy.arn;
    }
    this.registerOutputs(this.variables);
  }

  /** Trust anchor of every role here: protected, since deleting it breaks CI until it is re-created. */
  private createOidcProvider(tags: Tags): OpenIdConnectProvider {
    return new OpenIdConnectProvider(
      'github',
      { url: GITHUB_OIDC_ISSUER, clientIdLists: [AWS_STS_AUDIENCE], tags: awsTags(tags) },
      { parent: this, protect: true },
    );
  }

  /**
   * The permissions boundary of the store roles of the environment's AWS stack, which references it by
   * name. Protected: the stack's roles keep pointing at it, and its deploy role can create none without it.
   */
  private createStoreRoleBoundary(
    environment: Environment,
    account: pulumi.Output<AwsAccount>,
    tags: Tags,
  ): Policy {
    return new Policy(
      `store-role-boundary-${environment}`,
      {
        name: storeRoleBoundaryName(environment),
        description: `Permissions boundary of the store roles of ${STACK_PROJECTS.aws}/${environment}: that stack's buckets, objects and keys, nothing else`,
        policy: account.apply((resolved) => JSON.stringify(storeRoleBoundaryPolicy(resolved, environment))),
        tags: awsTags(tags),
      },
      { parent: this, protect: true },
    );
  }

  private account(): pulumi.Output<AwsAccount> {
    const caller = getCallerIdentityOutput({}, { parent: this });
    const partition = getPartitionOutput({}, { parent: this });
    return pulumi
      .all([caller.accountId, partition.partition])
      .apply(([accountId, partitionName]) => ({ accountId, partition: partitionName }));
  }

  private createRole(
    args: AwsCiIdentitiesArgs,
    purpose: CiPurpose,
    providerArn: pulumi.Output<string>,
    subjects: readonly [TrustedSubject, ...TrustedSubject[]],
    role: {
      description: string;
      policy: pulumi.Output<PolicyDocument>;
      tags: Tags;
      /** Its rights on the Pulumi state bucket, when the stacks use a self-managed S3 backend. */
      statePolicy?: pulumi.Output<PolicyDocument>;
      /** The part of its permissions kept in a customer managed policy (splitDeployPolicy), attached to it alone. */
      managedPolicy?: { account: pulumi.Output<AwsAccount>; policy: pulumi.Output<PolicyDocument> };
    },
    permissionsDependOn: pulumi.Resource[] = [],
  ): Role {
    const created = new Role(
      purpose,
      {
        name: ciNames.awsRole(args.context, purpose),
        description: role.description,
        assumeRolePolicy: providerArn.apply((arn) =>
          JSON.stringify(githubTrustPolicy(arn, subjectsOf(subjects))),
        ),
        tags: awsTags(role.tags),
      },
      { parent: this },
    );
    new RolePolicy(
      `${purpose}-permissions`,
      {
        name: 'checkpoint-stacks',
        role: created.name,
        policy: role.policy.apply((doc) => JSON.stringify(doc)),
      },
      { parent: this, dependsOn: permissionsDependOn },
    );
    if (role.managedPolicy) {
      const name = `${ciNames.awsRole(args.context, purpose)}-service-roles`;
      const policy = new Policy(
        `${purpose}-service-roles`,
        {
          name,
          description: `The ${purpose} role's rights on the stacks' service roles and the plans that name them`,
          policy: role.managedPolicy.policy.apply((doc) => JSON.stringify(doc)),
          tags: awsTags(role.tags),
        },
        { parent: this },
      );
      // The ARN from the policy's name, known before it exists, as the analyses read an attachment by it.
      new RolePolicyAttachment(
        `${purpose}-service-roles`,
        {
          role: created.name,
          policyArn: role.managedPolicy.account.apply(
            ({ partition, accountId }) => `arn:${partition}:iam::${accountId}:policy/${name}`,
          ),
        },
        { parent: this, dependsOn: [policy, ...permissionsDependOn] },
      );
    }
    if (role.statePolicy) {
      new RolePolicy(
        `${purpose}-state`,
        {
          name: 'pulumi-state',
          role: created.name,
          policy: role.statePolicy.apply((doc) => JSON.stringify(doc)),
        },
        { parent: this },
      );
    }
    return created;
  }
}

function subjectsOf(trusted: readonly [TrustedSubject, ...TrustedSubject[]]): [string, ...string[]] {
  const [first, ...others] = trusted;
  return [first.subject, ...others.map(({ subject }) => subject)];
}
