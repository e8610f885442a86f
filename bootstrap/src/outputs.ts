import type { Environment } from '@checkpoints/config';

const upper = (environment: Environment) => environment.toUpperCase();

/**
 * Stack output names: each is the name of the GitHub repository variable the workflows read, so an
 * administrator copies every output into the variable of the same name.
 */
export const outputNames = {
  awsPreviewRole: 'AWS_PREVIEW_ROLE_ARN',
  awsDeployRole: (environment: Environment) => `AWS_DEPLOY_ROLE_ARN_${upper(environment)}`,
  gcpWorkloadIdentityProvider: 'GCP_WORKLOAD_IDENTITY_PROVIDER',
  gcpPreviewServiceAccount: 'GCP_PREVIEW_SERVICE_ACCOUNT',
  gcpDeployServiceAccount: (environment: Environment) => `GCP_DEPLOY_SERVICE_ACCOUNT_${upper(environment)}`,
  azureTenantId: 'AZURE_TENANT_ID',
  azureSubscriptionId: 'AZURE_SUBSCRIPTION_ID',
  azurePreviewClientId: 'AZURE_PREVIEW_CLIENT_ID',
  azureDeployClientId: (environment: Environment) => `AZURE_DEPLOY_CLIENT_ID_${upper(environment)}`,
} as const;
