import * as pulumi from '@pulumi/pulumi';
import { RoleAssignment } from '@pulumi/azure-native/authorization/roleAssignment';
import { RoleDefinition } from '@pulumi/azure-native/authorization/roleDefinition';
import { FederatedIdentityCredential } from '@pulumi/azure-native/managedidentity/federatedIdentityCredential';
import { UserAssignedIdentity } from '@pulumi/azure-native/managedidentity/userAssignedIdentity';
import { ResourceGroup } from '@pulumi/azure-native/resources/resourceGroup';
import { auditArchive } from '@checkpoints/naming';
import { azureTags, type Tags } from '@checkpoints/tagging';
import { checkpointWriterRoleGuid, type Environment } from '@checkpoints/config';
import type { AzureSettings } from '../config';
import type { CiIdentities, CiIdentityArgs } from '../identity-args';
import {
  AZURE_TOKEN_EXCHANGE_AUDIENCE,
  deploySubjects,
  GITHUB_OIDC_ISSUER,
  previewSubjects,
  type TrustedSubject,
} from '../github';
import { ciNames, deployPurpose, type CiPurpose } from '../names';
import { outputNames } from '../outputs';
import {
  assignableByDeploy,
  assignableRolesCondition,
  AZURE_AUDIT_ARCHIVE_ACTIONS,
  auditArchiveRoleDefinitionGuid,
  azureDeployActions,
  AZURE_DEPLOY_ROLES,
  customRoleDefinitionId,
  deployRoleDefinitionGuid,
  AZURE_DNS_ZONE_ACTIONS,
  AZURE_NETWORK_ACTIONS,
  AZURE_PREVIEW_ROLES,
  dnsZoneRoleDefinitionGuid,
  networkRoleDefinitionGuid,
  removableByDeploy,
  resourceGroupId,
  resourceGroupOf,
  roleAssignmentName,
  roleDefinitionId,
  type AzureRole,
  writerRolePermissions,
  tenantUniqueRoleName,
} from './roles';
import { azureStateGrants, stateContainerScope } from './state';
import { azureGuardrails } from './guardrails';
import { registerResourceProviders } from './resource-providers';
import { AUDIT_ARCHIVE_ENVIRONMENTS, createAuditArchive } from './audit-archive';
import { createIndependentCopies } from './independent-copy';

export interface AzureCiIdentitiesArgs extends CiIdentityArgs {
  settings: AzureSettings;
}

interface RoleGrant {
  /** A built-in role, or the ID of a custom role definition with the name shown in resource names. */
  role: AzureRole | { id: pulumi.Input<string>; name: string };
  /** Where the role is granted: a stack's resource group, or the state container. */
  scope: string;
  /** The scope as resource names show it. */
  scopeName: string;
  condition?: pulumi.Input<string>;
}

function groupGrant(settings: AzureSettings, role: RoleGrant['role'], resourceGroup: string): RoleGrant {
  return { role, scope: resourceGroupId(settings.subscriptionId, resourceGroup), scopeName: resourceGroup };
}

/** Rights in the self-managed state container, when the Azure stacks use one. */
function stateGrants(
  settings: AzureSettings,
  writerRole: RoleDefinition,
  environment?: Environment,
): RoleGrant[] {
  const container = settings.stateContainer;
  if (container === undefined) return [];
  return azureStateGrants(environment).map(({ role, condition }) => ({
    role:
      role === 'store-writer'
        ? {
            id: writerRole.id.apply(() =>
              customRoleDefinitionId(
                settings.subscriptionId,
                checkpointWriterRoleGuid(settings.subscriptionId),
              ),
            ),
            name: 'checkpoints-store-writer',
          }
        : role,
    scope: stateContainerScope(container),
    scopeName: 'state',
    condition,
  }));
}

/**
 * User-assigned identities GitHub federates into: a read-only preview identity for this repository's pull
 * requests and nightly drift checks, and a deploy identity per GitHub environment, each with rights on the
 * stacks' resource groups (and the state container, when one is configured). They live in a resource
 * group of their own, out of reach of the deploy identities' rights.
 */
export class AzureCiIdentities extends pulumi.ComponentResource implements CiIdentities {
  /** Repository variables: the tenant, subscription and client IDs `azure/login` needs. */
  readonly variables: Record<string, pulumi.Output<string>>;

  constructor(name: string, args: AzureCiIdentitiesArgs, opts?: pulumi.ComponentResourceOptions) {
    super('checkpoints:bootstrap:AzureCiIdentities', name, {}, opts);
    const { repository, settings } = args;
    const group = new ResourceGroup(
      'ci-identities',
      {
        resourceGroupName: ciNames.azureResourceGroup(args.context),
        location: settings.location,
        tags: azureTags(args.tags()),
      },
      { parent: this },
    );
    const registrations = registerResourceProviders(settings.subscriptionId, this);

    const writerRole = this.createWriterRole(settings, args.environments);
    // Reader on each stack's group, not on the subscription: every resource the stacks manage lives in
    // those groups, and subscription-wide Reader would show the preview every other workload too.
    const preview = this.createIdentity(args, group, 'preview', previewSubjects(repository), args.tags(), [
      ...args.environments.flatMap((environment) =>
        AZURE_PREVIEW_ROLES.map((role) =>
          groupGrant(settings, role, settings.stackResourceGroups[environment]),
        ),
      ),
      ...stateGrants(settings, writerRole),
    ]);
    this.variables = {
      [outputNames.azureTenantId]: preview.tenantId,
      [outputNames.azureSubscriptionId]: pulumi.output(settings.subscriptionId),
      [outputNames.azurePreviewClientId]: preview.clientId,
    };
    const deployIdentities = args.environments.map((environment) =>
      this.createIdentity(
        args,
        group,
        deployPurpose(environment),
        deploySubjects(repository, environment),
        args.tags(environment),
      ),
    );
    const ciPrincipals = pulumi.all([
      preview.principalId,
      ...deployIdentities.map((identity) => identity.principalId),
    ]);
    for (const [index, environment] of args.environments.entries()) {
      const deploy = deployIdentities[index];
      if (!deploy) continue;
      const resourceGroup = settings.stackResourceGroups[environment];
      const scope = resourceGroupId(settings.subscriptionId, resourceGroup);
      const guid = deployRoleDefinitionGuid(settings.subscriptionId, environment);
      const definition = new RoleDefinition(
        `deploy-${environment}-role`,
        {
          scope,
          roleDefinitionId: guid,
          roleName: tenantUniqueRoleName(`checkpoints-deploy-${environment}`, settings.subscriptionId),
          description: `Deploys the ${environment} checkpoint stores in ${resourceGroup}: no account keys, no federated credentials${environment === 'prod' ? ', no deletion of a data holder or vault' : ''}`,
          roleType: 'CustomRole',
          permissions: [
            { actions: azureDeployActions(environment), notActions: [], dataActions: [], notDataActions: [] },
          ],
          assignableScopes: [scope],
        },
        { parent: this },
      );
      const grants: RoleGrant[] = [
        // A custom role's definition ID is its GUID under the subscription's provider path; derived from
        // the definition's own output so that the assignment waits for it.
        groupGrant(
          settings,
          {
            id: definition.id.apply(() => customRoleDefinitionId(settings.subscriptionId, guid)),
            name: 'checkpoints-deploy',
          },
          resourceGroup,
        ),
        ...AZURE_DEPLOY_ROLES.map((role) => ({
          ...groupGrant(settings, role, resourceGroup),
          ...(role === 'Role Based Access Control Administrator'
            ? {
                condition: ciPrincipals.apply((ids) =>
                  assignableRolesCondition(
                    ids,
                    assignableByDeploy(settings.subscriptionId),
                    removableByDeploy(settings.subscriptionId),
                  ),
                ),
              }
            : {}),
        })),
        ...stateGrants(settings, writerRole, environment),
        ...this.networkGrants(settings, environment),
        ...this.dnsZoneGrants(settings, environment),
        ...this.auditArchiveGrants(args, environment),
      ];
      for (const grant of grants) this.assignRole(args, deployPurpose(environment), deploy, grant);
      azureGuardrails(settings.subscriptionId, scope, environment, this);
      // The stores' independent copies, in a vault no CI identity holds a role on (./independent-copy).
      const copies = settings.independentCopies?.[environment];
      if (copies) {
        createIndependentCopies(
          settings,
          environment,
          copies,
          azureTags(args.tags(environment)),
          this,
          registrations.get('Microsoft.DataProtection'),
        );
      }
      this.variables[outputNames.azureDeployClientId(environment)] = deploy.clientId;
    }
    this.registerOutputs(this.variables);
  }

  /**
   * The store writer's role (blob data, no container deletion), assignable in every stack's resource group
   * and, for CI's state grants, in the state account's: the stacks assign it by its GUID, which both derive
   * from the subscription.
   */
  private createWriterRole(settings: AzureSettings, environments: readonly Environment[]): RoleDefinition {
    const scopes = [
      ...new Set([
        ...environments.map((env) =>
          resourceGroupId(settings.subscriptionId, settings.stackResourceGroups[env]),
        ),
        ...(settings.stateContainer ? [resourceGroupOf(settings.stateContainer.storageAccountId)] : []),
      ]),
    ];
    return new RoleDefinition(
      'store-writer-role',
      {
        scope: scopes[0] ?? `/subscriptions/${settings.subscriptionId}`,
        roleDefinitionId: checkpointWriterRoleGuid(settings.subscriptionId),
        roleName: tenantUniqueRoleName('checkpoints-store-writer', settings.subscriptionId),
        description:
          'Checkpoint store writers: read, write and delete blobs of their filesystem; never delete the filesystem itself (Storage Blob Data Contributor without containers/delete, containers/write and generateUserDelegationKey)',
        roleType: 'CustomRole',
        permissions: writerRolePermissions(),
        assignableScopes: scopes,
      },
      { parent: this, protect: true },
    );
  }

  /**
   * The right to join the environment's subnets (bootstrap config `azure.subnets`), granted on each subnet:
   * the network stays the network team's, and the deploy identity changes nothing in it.
   */
  private networkGrants(settings: AzureSettings, environment: Environment): RoleGrant[] {
    return this.joinGrants(settings, environment, settings.subnets?.[environment] ?? [], {
      logicalName: 'network-role',
      guid: networkRoleDefinitionGuid(settings.subscriptionId, environment),
      roleName: tenantUniqueRoleName(`checkpoints-join-subnets-${environment}`, settings.subscriptionId),
      description: `Lets the ${environment} checkpoint stores join their subnets (service endpoint, private endpoint): nothing else on the network`,
      actions: AZURE_NETWORK_ACTIONS,
      grantName: 'checkpoints-join-subnet',
    });
  }

  /**
   * The right to register the environment's private endpoints in its private DNS zones (bootstrap config
   * `azure.privateDnsZones`), granted on each zone: no record or zone write, the zones stay the platform's.
   */
  private dnsZoneGrants(settings: AzureSettings, environment: Environment): RoleGrant[] {
    return this.joinGrants(settings, environment, settings.privateDnsZones?.[environment] ?? [], {
      logicalName: 'dns-zone-role',
      guid: dnsZoneRoleDefinitionGuid(settings.subscriptionId, environment),
      roleName: tenantUniqueRoleName(`checkpoints-join-dns-zones-${environment}`, settings.subscriptionId),
      description: `Lets the ${environment} checkpoint stores register their private endpoints in the listed private DNS zones: nothing else in the zones`,
      actions: AZURE_DNS_ZONE_ACTIONS,
      grantName: 'checkpoints-join-dns-zone',
    });
  }

  /**
   * The environment's write-once archive of the stores' resource logs (./audit-archive), and what its deploy
   * identity holds on it to name it as a diagnostic setting's destination (AZURE_AUDIT_ARCHIVE_ACTIONS).
   */
  private auditArchiveGrants(args: AzureCiIdentitiesArgs, environment: Environment): RoleGrant[] {
    const { settings } = args;
    if (!AUDIT_ARCHIVE_ENVIRONMENTS.includes(environment)) return [];
    const account = createAuditArchive(
      settings.subscriptionId,
      environment,
      settings.location,
      azureTags(args.tags(environment)),
      this,
    );
    // Granted on the archive's own group, which holds the archive alone: a custom role on a storage account
    // scope is for the stores' data roles only (azure-rbac-store-data-plane-roles).
    const archiveGroup = resourceGroupId(settings.subscriptionId, auditArchive.resourceGroup(environment));
    const guid = auditArchiveRoleDefinitionGuid(settings.subscriptionId, environment);
    const definition = new RoleDefinition(
      `deploy-${environment}-audit-archive-role`,
      {
        scope: archiveGroup,
        roleDefinitionId: guid,
        roleName: tenantUniqueRoleName(`checkpoints-audit-archive-${environment}`, settings.subscriptionId),
        description: `Lets the ${environment} checkpoint stores send their resource logs to the write-once archive: list its keys (shared key is off) and read it, nothing else`,
        roleType: 'CustomRole',
        permissions: [
          { actions: [...AZURE_AUDIT_ARCHIVE_ACTIONS], notActions: [], dataActions: [], notDataActions: [] },
        ],
        assignableScopes: [archiveGroup],
      },
      { parent: this, dependsOn: [account] },
    );
    return [
      {
        role: {
          id: definition.id.apply(() => customRoleDefinitionId(settings.subscriptionId, guid)),
          name: 'checkpoints-audit-archive',
        },
        scope: archiveGroup,
        scopeName: `audit-archive-${environment}`,
      },
    ];
  }

  /** A custom role holding `actions` alone, assignable in the targets' resource groups, granted on each target. */
  private joinGrants(
    settings: AzureSettings,
    environment: Environment,
    targets: readonly string[],
    role: {
      logicalName: string;
      guid: string;
      roleName: string;
      description: string;
      actions: readonly string[];
      grantName: string;
    },
  ): RoleGrant[] {
    const [first] = targets;
    if (first === undefined) return [];
    const definition = new RoleDefinition(
      `deploy-${environment}-${role.logicalName}`,
      {
        scope: resourceGroupOf(first),
        roleDefinitionId: role.guid,
        roleName: role.roleName,
        description: role.description,
        roleType: 'CustomRole',
        permissions: [{ actions: [...role.actions], notActions: [], dataActions: [], notDataActions: [] }],
        assignableScopes: [...new Set(targets.map(resourceGroupOf))],
      },
      { parent: this },
    );
    const grantRole = {
      id: definition.id.apply(() => customRoleDefinitionId(settings.subscriptionId, role.guid)),
      name: role.grantName,
    };
    return targets.map((target) => ({
      role: grantRole,
      scope: target,
      scopeName: target.split('/').slice(-3).join('-'),
    }));
  }

  private createIdentity(
    args: AzureCiIdentitiesArgs,
    group: ResourceGroup,
    purpose: CiPurpose,
    subjects: readonly [TrustedSubject, ...TrustedSubject[]],
    tags: Tags,
    grants: RoleGrant[] = [],
  ): UserAssignedIdentity {
    const identity = new UserAssignedIdentity(
      purpose,
      {
        resourceGroupName: group.name,
        resourceName: ciNames.azureIdentity(args.context, purpose),
        location: args.settings.location,
        tags: azureTags(tags),
      },
      { parent: this },
    );
    // One credential per trusted subject. The first keeps the name it always had (renaming a protected
    // resource fails the update). Azure refuses concurrent writes of one identity's federated credentials
    // (409 Conflict), so each waits for the one before it.
    let previous: FederatedIdentityCredential | undefined;
    for (const [index, { key, subject }] of subjects.entries()) {
      previous = new FederatedIdentityCredential(
        index === 0 ? `${purpose}-github` : `${purpose}-github-${key}`,
        {
          resourceGroupName: group.name,
          resourceName: identity.name,
          federatedIdentityCredentialResourceName: ciNames.azureFederatedCredential(key),
          issuer: GITHUB_OIDC_ISSUER,
          subject,
          audiences: [AZURE_TOKEN_EXCHANGE_AUDIENCE],
        },
        { parent: this, protect: true, ...(previous ? { dependsOn: [previous] } : {}) },
      );
    }
    for (const grant of grants) this.assignRole(args, purpose, identity, grant);
    return identity;
  }

  private assignRole(
    { settings, repository }: AzureCiIdentitiesArgs,
    purpose: CiPurpose,
    identity: UserAssignedIdentity,
    grant: RoleGrant,
  ): RoleAssignment {
    const { scope } = grant;
    const roleDefinition =
      typeof grant.role === 'string' ? roleDefinitionId(settings.subscriptionId, grant.role) : grant.role.id;
    const slug = (typeof grant.role === 'string' ? grant.role : grant.role.name)
      .toLowerCase()
      .replace(/\s+/g, '-');
    return new RoleAssignment(
      `${purpose}-${grant.scopeName}-${slug}`,
      {
        scope,
        roleDefinitionId: roleDefinition,
        principalId: identity.principalId,
        // A new identity takes a while to reach every directory replica; saying what it is spares the wait.
        principalType: 'ServicePrincipal',
        roleAssignmentName: pulumi
          .all([identity.principalId, roleDefinition])
          .apply(([principalId, definition]) => roleAssignmentName(scope, definition, principalId)),
        description: `CI ${purpose} of ${repository.fullName}`,
        ...(grant.condition ? { condition: grant.condition, conditionVersion: '2.0' } : {}),
      },
      { parent: this },
    );
  }
}
