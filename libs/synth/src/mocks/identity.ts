import { AWS_ACCOUNT_ID } from './aws';
import { AZURE_SUBSCRIPTION_ID } from './azure';
import type { CloudMocks } from './common';
import { digest, str } from './common';
import { GCP_PROJECT_NUMBER } from './gcp';

/** An IAM policy etag: 8 bytes, base64, as Google returns it. */
function etag(id: string): string {
  return Buffer.from(digest('gcp-iam-etag', id).slice(0, 16), 'hex').toString('base64');
}

/** CI identity resources of the bootstrap project (OIDC providers, workload identity, federated credentials). */
export function identityMocks(config: Record<string, string>): CloudMocks {
  const subscription = str(config['azure-native:subscriptionId'], AZURE_SUBSCRIPTION_ID);
  const defaultProject = config['gcp:project'] ?? 'synth-project';

  return {
    resources: {
      'aws:iam/openIdConnectProvider:OpenIdConnectProvider': ({ inputs }) => {
        const host = str(inputs['url'], 'https://token.actions.githubusercontent.com').replace(
          /^https:\/\//,
          '',
        );
        return {
          id: host,
          state: { ...inputs, arn: `arn:aws:iam::${AWS_ACCOUNT_ID}:oidc-provider/${host}` },
        };
      },
      'gcp:iam/workloadIdentityPool:WorkloadIdentityPool': ({ inputs }) => {
        const name = `projects/${GCP_PROJECT_NUMBER}/locations/global/workloadIdentityPools/${str(inputs['workloadIdentityPoolId'], 'pool')}`;
        return { id: name, state: { ...inputs, name, state: 'ACTIVE' } };
      },
      'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider': ({ inputs }) => {
        const pool = str(inputs['workloadIdentityPoolId'], 'pool');
        const provider = str(inputs['workloadIdentityPoolProviderId'], 'provider');
        const name = `projects/${GCP_PROJECT_NUMBER}/locations/global/workloadIdentityPools/${pool}/providers/${provider}`;
        return { id: name, state: { ...inputs, name, state: 'ACTIVE' } };
      },
      // IAM members: the provider's ID is `<resource>/<role>/<member>`, the etag that of the policy.
      'gcp:projects/iAMMember:IAMMember': ({ name, inputs }) => {
        const id = `${str(inputs['project'], defaultProject)}/${str(inputs['role'], 'role')}/${str(inputs['member'], name)}`;
        return { id, state: { ...inputs, etag: etag(id) } };
      },
      'gcp:serviceaccount/iAMMember:IAMMember': ({ name, inputs }) => {
        const account = str(inputs['serviceAccountId'], `projects/${defaultProject}/serviceAccounts/account`);
        const id = `${account}/${str(inputs['role'], 'role')}/${str(inputs['member'], name)}`;
        return { id, state: { ...inputs, etag: etag(id) } };
      },
      'azure-native:managedidentity:FederatedIdentityCredential': ({ name, inputs }) => {
        const identity = str(inputs['resourceName'], 'identity');
        const credential = str(inputs['federatedIdentityCredentialResourceName'], name);
        const id = `/subscriptions/${subscription}/resourceGroups/${str(inputs['resourceGroupName'], 'rg')}/providers/Microsoft.ManagedIdentity/userAssignedIdentities/${identity}/federatedIdentityCredentials/${credential}`;
        return {
          id,
          state: {
            ...inputs,
            name: credential,
            type: 'Microsoft.ManagedIdentity/userAssignedIdentities/federatedIdentityCredentials',
          },
        };
      },
    },
    calls: {},
  };
}
