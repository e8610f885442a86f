import * as pulumi from '@pulumi/pulumi';
import { DenyPolicy } from '@pulumi/gcp/iam/denyPolicy';
import { WorkloadIdentityPool } from '@pulumi/gcp/iam/workloadIdentityPool';
import { WorkloadIdentityPoolProvider } from '@pulumi/gcp/iam/workloadIdentityPoolProvider';
import { IAMAuditConfig } from '@pulumi/gcp/projects/iamauditConfig';
import { IAMCustomRole } from '@pulumi/gcp/projects/iamcustomRole';
import { IAMMember as ProjectIAMMember } from '@pulumi/gcp/projects/iammember';
import type { Service } from '@pulumi/gcp/projects/service';
import { Account } from '@pulumi/gcp/serviceaccount/account';
import { BucketIAMMember } from '@pulumi/gcp/storage/bucketIAMMember';
import { IAMMember as ServiceAccountIAMMember } from '@pulumi/gcp/serviceaccount/iammember';
import type { Environment } from '@checkpoints/config';
import { gcpLabels } from '@checkpoints/tagging';
import type { GcpSettings } from '../config';
import type { CiIdentities, CiIdentityArgs } from '../identity-args';
import { deploySubjects, GITHUB_OIDC_ISSUER, previewSubjects, type TrustedSubject } from '../github';
import { ciNames, deployPurpose, type CiPurpose } from '../names';
import { outputNames } from '../outputs';
import {
  denyPrincipal,
  federatedPrincipal,
  GCP_AUDITED_SERVICE,
  gcpAuditLogConfigs,
  gcpCiDenyRules,
  gcpDeployCustomRoles,
  GCP_DEPLOY_ROLES,
  GCP_PREVIEW_CUSTOM_ROLE,
  GCP_PREVIEW_ROLES,
  GITHUB_ATTRIBUTE_MAPPING,
  providerAudience,
  repositoryCondition,
  WORKLOAD_IDENTITY_USER,
} from './roles';
import { exportDataAccessLog } from './audit-sink';
import { GCP_CI_APIS, GCP_STACK_APIS, enableApis } from './services';
import { gcpStateGrants } from './state';
import { softDeleteFloor } from './guardrails';
import { createIndependentCopy } from './independent-copy';

export interface GcpCiIdentitiesArgs extends CiIdentityArgs {
  settings: GcpSettings;
}

/**
 * A workload identity pool whose GitHub provider admits this repository's tokens only, a preview service
 * account for its pull requests and nightly drift checks, and a deploy service account per GitHub
 * environment. Neither pools nor service accounts take labels.
 */
export class GcpCiIdentities extends pulumi.ComponentResource implements CiIdentities {
  /** Repository variables: the provider and the service accounts the workflows authenticate as. */
  readonly variables: Record<string, pulumi.Output<string>>;

  constructor(name: string, args: GcpCiIdentitiesArgs, opts?: pulumi.ComponentResourceOptions) {
    super('checkpoints:bootstrap:GcpCiIdentities', name, {}, opts);
    const { context, repository, settings } = args;
    const pool = new WorkloadIdentityPool(
      'github',
      {
        project: settings.project,
        workloadIdentityPoolId: ciNames.gcpWorkloadIdentityPool(context),
        displayName: 'GitHub Actions',
        description: `CI of ${repository.fullName}: previews and deploys of the checkpoint-storage stacks`,
      },
      { parent: this, protect: true },
    );
    const providerId = ciNames.gcpWorkloadIdentityProvider;
    const provider = new WorkloadIdentityPoolProvider(
      'github',
      {
        project: settings.project,
        workloadIdentityPoolId: pool.workloadIdentityPoolId,
        workloadIdentityPoolProviderId: providerId,
        displayName: 'GitHub',
        description: `OIDC tokens of GitHub Actions jobs of ${repository.fullName}`,
        attributeMapping: GITHUB_ATTRIBUTE_MAPPING,
        attributeCondition: repositoryCondition(repository, settings.repositoryIds),
        oidc: {
          issuerUri: GITHUB_OIDC_ISSUER,
          allowedAudiences: [pool.name.apply((poolName) => providerAudience(poolName, providerId))],
        },
      },
      { parent: this, protect: true },
    );

    const stackProjects = [
      ...new Set(args.environments.map((environment) => settings.stackProjects[environment])),
    ];
    const apis = new Map<string, Service>();
    enableApis(this, settings.project, GCP_CI_APIS, apis);
    const stackApis = new Map(
      stackProjects.map((project) => [project, enableApis(this, project, GCP_STACK_APIS, apis)]),
    );
    const preview = this.createServiceAccount(args, pool, 'preview', previewSubjects(repository), {
      description: `Previews the checkpoint-storage stacks for pull requests and drift checks of ${repository.fullName} (read-only)`,
      grants: stackProjects.flatMap((project) => {
        const cacheViewer = new IAMCustomRole(
          `preview-${project}-${GCP_PREVIEW_CUSTOM_ROLE.roleId}`,
          { project, ...GCP_PREVIEW_CUSTOM_ROLE, permissions: [...GCP_PREVIEW_CUSTOM_ROLE.permissions] },
          { parent: this },
        );
        return [
          ...GCP_PREVIEW_ROLES.map((role) => ({ project, role: pulumi.output<string>(role), key: role })),
          {
            project,
            role: pulumi.interpolate`projects/${project}/roles/${cacheViewer.roleId}`,
            key: GCP_PREVIEW_CUSTOM_ROLE.roleId,
          },
        ];
      }),
    });
    this.grantState(settings, 'preview', preview);
    this.variables = {
      [outputNames.gcpWorkloadIdentityProvider]: provider.name,
      [outputNames.gcpPreviewServiceAccount]: preview.email,
    };
    const deployAccounts: [Environment, Account][] = [];
    for (const environment of args.environments) {
      const project = settings.stackProjects[environment];
      const customRoles = gcpDeployCustomRoles(environment).map(
        (role) =>
          new IAMCustomRole(
            `deploy-${environment}-${role.roleId}`,
            {
              project,
              roleId: role.roleId,
              title: role.title,
              description: role.description,
              permissions: [...role.permissions],
            },
            { parent: this },
          ),
      );
      const deploy = this.createServiceAccount(
        args,
        pool,
        deployPurpose(environment),
        deploySubjects(repository, environment),
        {
          description: `Deploys the ${environment} checkpoint-storage stacks from the ${environment} environment of ${repository.fullName}`,
          grants: [
            ...GCP_DEPLOY_ROLES.map((role) => ({ project, role: pulumi.output<string>(role), key: role })),
            // A project custom role's name is projects/<project>/roles/<roleId>; built from the role's own
            // roleId output, so that the grant waits for the role.
            ...customRoles.map((role, index) => ({
              project,
              role: pulumi.interpolate`projects/${project}/roles/${role.roleId}`,
              key: gcpDeployCustomRoles(environment)[index]?.roleId ?? '',
            })),
          ],
        },
      );
      this.grantState(settings, deployPurpose(environment), deploy, environment);
      softDeleteFloor(project, environment, this);
      const copy = settings.independentCopy[environment];
      if (copy !== undefined) {
        createIndependentCopy(this, {
          environment,
          stackProject: project,
          copy,
          // It holds copies of the environment's restricted stores.
          labels: { ...gcpLabels(args.tags(environment)), 'data-classification': 'restricted' },
          apis,
        });
      }
      deployAccounts.push([environment, deploy]);
      this.variables[outputNames.gcpDeployServiceAccount(environment)] = deploy.email;
    }
    // Every stack project, not only prod's: confidential and restricted stores are audited in dev too. One
    // config per project and service; environments sharing a project share its exemptions.
    for (const project of stackProjects) {
      const exempted = args.environments
        .filter((environment) => settings.stackProjects[environment] === project)
        .flatMap((environment) => settings.auditExemptMembers[environment] ?? []);
      new IAMAuditConfig(
        `storage-data-access-${project}`,
        {
          project,
          service: GCP_AUDITED_SERVICE,
          auditLogConfigs: gcpAuditLogConfigs([...new Set(exempted)]),
        },
        { parent: this, protect: true },
      );
      const served = args.environments.filter(
        (environment) => settings.stackProjects[environment] === project,
      );
      exportDataAccessLog(
        this,
        project,
        served,
        gcpLabels(args.tags(served.includes('prod') ? 'prod' : served[0])),
      );
    }
    const ciEmails = [preview.email, ...deployAccounts.map(([, account]) => account.email)];
    for (const [environment, deploy] of deployAccounts) {
      const project = settings.stackProjects[environment];
      new DenyPolicy(
        `ci-guards-${environment}`,
        {
          parent: encodeURIComponent(`cloudresourcemanager.googleapis.com/projects/${project}`),
          name: 'checkpoints-ci-guards',
          displayName: 'What CI may never do to checkpoints',
          rules: pulumi
            .all([pulumi.all(ciEmails), deploy.email])
            .apply(([emails, deployEmail]) =>
              gcpCiDenyRules(emails.map(denyPrincipal), denyPrincipal(deployEmail), environment).map(
                ({ description, ...denyRule }) => ({ description, denyRule }),
              ),
            ),
        },
        // Deny policies are IAM v2 calls: the project's IAM API must be on first.
        { parent: this, protect: true, dependsOn: stackApis.get(project) ?? [] },
      );
    }
    this.registerOutputs(this.variables);
  }

  /** Rights in the self-managed state bucket, when the GCP stacks use one. */
  private grantState(settings: GcpSettings, purpose: CiPurpose, account: Account, environment?: Environment) {
    const bucket = settings.stateBucket;
    if (bucket === undefined) return;
    for (const grant of gcpStateGrants(bucket, environment)) {
      new BucketIAMMember(
        `${purpose}-${grant.key}`,
        {
          bucket,
          role: grant.role,
          member: pulumi.interpolate`serviceAccount:${account.email}`,
          condition: { title: grant.title, expression: grant.expression },
        },
        { parent: this },
      );
    }
  }

  private createServiceAccount(
    args: GcpCiIdentitiesArgs,
    pool: WorkloadIdentityPool,
    purpose: CiPurpose,
    subjects: readonly [TrustedSubject, ...TrustedSubject[]],
    account: {
      description: string;
      /** `key` names the grant's resource: the role's ID, stable whatever the role's full name resolves to. */
      grants: { project: string; role: pulumi.Input<string>; key: string }[];
    },
  ): Account {
    const serviceAccount = new Account(
      purpose,
      {
        project: args.settings.project,
        accountId: ciNames.gcpServiceAccountId(args.context, purpose),
        displayName: `CI ${purpose}`,
        description: account.description,
      },
      { parent: this },
    );
    // One binding per trusted subject. The first keeps the name it always had: renamed, the old binding's
    // deletion would revoke the very member the new one grants.
    for (const [index, { key, subject }] of subjects.entries()) {
      new ServiceAccountIAMMember(
        index === 0 ? `${purpose}-federation` : `${purpose}-federation-${key}`,
        {
          serviceAccountId: serviceAccount.name,
          role: WORKLOAD_IDENTITY_USER,
          member: pool.name.apply((poolName) => federatedPrincipal(poolName, subject)),
        },
        { parent: this },
      );
    }
    for (const { project, role, key } of account.grants) {
      new ProjectIAMMember(
        `${purpose}-${project}-${key.replace(/^roles\//, '')}`,
        { project, role, member: pulumi.interpolate`serviceAccount:${serviceAccount.email}` },
        { parent: this },
      );
    }
    return serviceAccount;
  }
}
