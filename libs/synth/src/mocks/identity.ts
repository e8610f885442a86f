import { AWS_ACCOUNT_ID } from './aws';
import type { CloudMocks } from './common';
import { str } from './common';
import { GCP_PROJECT_NUMBER } from './gcp';

/** CI identity resources of the bootstrap project (OIDC providers, workload identity, federated credentials). */
export function identityMocks(_config: Record<string, string>): CloudMocks {
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
        return { id: name, state: { ...inputs, name } };
      },
      'gcp:iam/workloadIdentityPoolProvider:WorkloadIdentityPoolProvider': ({ inputs }) => {
        const pool = str(inputs['workloadIdentityPoolId'], 'pool');
        const provider = str(inputs['workloadIdentityPoolProviderId'], 'provider');
        const name = `projects/${GCP_PROJECT_NUMBER}/locations/global/workloadIdentityPools/${pool}/providers/${provider}`;
        return { id: name, state: { ...inputs, name } };
      },
    },
    calls: {},
  };
}
