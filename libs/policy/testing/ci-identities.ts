/** Spec helpers of the CI identity rules: a bootstrap render of one cloud's CI identities, as the rules read it. */
import type { SourcedPolicy } from '../src/rules/define';
import { withBootstrapRender, type BootstrapFile } from './access';
import { violationsOf, type ResourceUnderTest } from '.';

export interface CiResource {
  type: string;
  name: string;
  inputs: Record<string, unknown>;
}

/**
 * The resources as the pack is handed them (the bootstrap itself under judgement) and the same render
 * written as the bootstrap render file the rules read CI from.
 */
export function ciBootstrap(resources: CiResource[]): {
  resources: ResourceUnderTest[];
  file: BootstrapFile;
} {
  const file = withBootstrapRender({
    project: 'checkpoints-bootstrap',
    stack: 'ci',
    outputs: {},
    resources: resources.map(({ type, name, inputs }) => ({
      urn: `urn:pulumi:ci::checkpoints-bootstrap::${type}::${name}`,
      type,
      name,
      parent: null,
      protect: false,
      retainOnDelete: false,
      dependsOn: [],
      inputs,
    })),
  });
  return { resources: resources.map(({ type, name, inputs }) => ({ type, name, props: inputs })), file };
}

/** What `policy` reports for this bootstrap render, judged as the render itself and as its bootstrap render. */
export async function ciViolationsOf(policy: SourcedPolicy, render: CiResource[]): Promise<string[]> {
  const { resources, file } = ciBootstrap(render);
  try {
    return await violationsOf(policy, resources, {}, file.path);
  } finally {
    file.remove();
  }
}

export const GCP_POOL = 'projects/123456789012/locations/global/workloadIdentityPools/checkpoints-ci';
export const GCP_REPOSITORY_CONDITION =
  "assertion.repository == 'acme/checkpoint-storage' && assertion.repository_id == '812345678' && assertion.repository_owner_id == '91234567'";
export const gcpSubject = (subject: string) =>
  `principal://iam.googleapis.com/${GCP_POOL}/subject/${subject}`;
export const gcpAccount = (purpose: string) =>
  `checkpoints-ci-${purpose}@acme-checkpoints-ci.iam.gserviceaccount.com`;

/** The GCP CI identities as the bootstrap renders them: a pool, its GitHub provider, preview and deploy-prod. */
export function gcpCiResources(
  options: { condition?: string; subjects?: Record<string, string[]>; grants?: CiResource[] } = {},
): CiResource[] {
  const subjects = options.subjects ?? {
    preview: ['repo:acme/checkpoint-storage:pull_request'],
    'deploy-prod': ['repo:acme/checkpoint-storage:environment:prod'],
  };
  return [
    { type: 'checkpoints:bootstrap:GcpCiIdentities', name: 'gcp', inputs: {} },
    {
      type: 'gcp:iam/workloadIdentityPool:WorkloadIdentityPool',
      name: 'github',
      inputs: { project: 'acme-checkpoints-ci', workloadIdentityPoolId: 'checkpoints-ci' },
    },
    {
      type: 'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider',
      name: 'github',
      inputs: {
        workloadIdentityPoolId: 'checkpoints-ci',
        workloadIdentityPoolProviderId: 'github-actions',
        attributeMapping: {
          'google.subject': 'assertion.sub',
          'attribute.repository': 'assertion.repository',
        },
        ...(options.condition === ''
          ? {}
          : { attributeCondition: options.condition ?? GCP_REPOSITORY_CONDITION }),
        oidc: { issuerUri: 'https://token.actions.githubusercontent.com' },
      },
    },
    ...Object.entries(subjects).flatMap(([purpose, list]): CiResource[] => [
      {
        type: 'gcp:serviceaccount/account:Account',
        name: purpose,
        inputs: { project: 'acme-checkpoints-ci', accountId: `checkpoints-ci-${purpose}` },
      },
      ...list.map((subject, index) => ({
        type: 'gcp:serviceaccount/iAMMember:IAMMember',
        name: `${purpose}-federation-${index}`,
        inputs: {
          serviceAccountId: `projects/acme-checkpoints-ci/serviceAccounts/${gcpAccount(purpose)}`,
          role: 'roles/iam.workloadIdentityUser',
          member: subject.includes('://') ? subject : gcpSubject(subject),
        },
      })),
    ]),
    ...(options.grants ?? []),
  ];
}

export const AZURE_SUBSCRIPTION = '00000000-0000-4000-a000-000000000001';
const AZURE_GROUP = `/subscriptions/${AZURE_SUBSCRIPTION}/resourceGroups/checkpoints-bootstrap-ci`;
export const AZURE_PRINCIPALS: Record<string, string> = {
  preview: '10000000-0000-4000-8000-000000000001',
  'deploy-prod': '10000000-0000-4000-8000-000000000003',
};
export const azureIdentity = (purpose: string) =>
  `${AZURE_GROUP}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/checkpoints-ci-${purpose}`;

/** The Azure CI identities as the bootstrap renders them: preview and deploy-prod, each with its federated credentials. */
export function azureCiResources(
  options: { credentials?: Record<string, Record<string, unknown>[]>; grants?: CiResource[] } = {},
): CiResource[] {
  const credentials = options.credentials ?? {
    preview: [{ subject: 'repo:acme/checkpoint-storage:pull_request' }],
    'deploy-prod': [{ subject: 'repo:acme/checkpoint-storage:environment:prod' }],
  };
  return [
    { type: 'checkpoints:bootstrap:AzureCiIdentities', name: 'azure', inputs: {} },
    ...Object.entries(credentials).flatMap(([purpose, list]): CiResource[] => [
      {
        type: 'azure-native:managedidentity:UserAssignedIdentity',
        name: purpose,
        inputs: { resourceGroupName: 'checkpoints-bootstrap-ci', resourceName: `checkpoints-ci-${purpose}` },
      },
      {
        type: 'azure-native:authorization:RoleAssignment',
        name: `${purpose}-reader`,
        inputs: {
          description: `CI ${purpose} of acme/checkpoint-storage`,
          principalId: AZURE_PRINCIPALS[purpose],
          roleDefinitionId: `/subscriptions/${AZURE_SUBSCRIPTION}/providers/Microsoft.Authorization/roleDefinitions/acdd72a7-3385-48ef-bd42-f606fba81ae7`,
          scope: `/subscriptions/${AZURE_SUBSCRIPTION}/resourceGroups/rg-checkpoints-prod`,
        },
      },
      ...list.map((credential, index) => ({
        type: 'azure-native:managedidentity:FederatedIdentityCredential',
        name: `${purpose}-github-${index}`,
        inputs: {
          resourceGroupName: 'checkpoints-bootstrap-ci',
          resourceName: `checkpoints-ci-${purpose}`,
          federatedIdentityCredentialResourceName: `github-${index}`,
          issuer: 'https://token.actions.githubusercontent.com',
          audiences: ['api://AzureADTokenExchange'],
          ...credential,
        },
      })),
    ]),
    ...(options.grants ?? []),
  ];
}

const PULL_REQUEST_SUBJECT = 'repo:acme/checkpoint-storage:pull_request';

/** The GCP CI identities with the preview account federated with pull requests and deploy-prod with `member` alone. */
export function gcpDeployFederatedWith(member: string, condition?: string): CiResource[] {
  return gcpCiResources({
    ...(condition === undefined ? {} : { condition }),
    subjects: { preview: [PULL_REQUEST_SUBJECT], 'deploy-prod': [member] },
  });
}

/** The Azure CI identities with deploy-prod's one credential a flexible one matching `expression`. */
export function azureDeployMatching(expression: string): CiResource[] {
  return azureCiResources({
    credentials: {
      preview: [{ subject: PULL_REQUEST_SUBJECT }],
      'deploy-prod': [{ claimsMatchingExpression: { value: expression, languageVersion: 1 } }],
    },
  });
}
