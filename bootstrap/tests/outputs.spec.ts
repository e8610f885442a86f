import { customResources } from '@checkpoints/synth';
import { renderBootstrap } from './helpers';

describe('stack outputs: one per repository variable the workflows read', () => {
  it('names every variable of every cloud and environment, and nothing else', async () => {
    const snapshot = await renderBootstrap({
      'bootstrap:environments': ['dev', 'staging', 'prod'],
      'bootstrap:gcp': {
        stackProjects: {
          dev: 'acme-checkpoints-dev',
          staging: 'acme-checkpoints-staging',
          prod: 'acme-checkpoints-prod',
        },
      },
      'bootstrap:azure': {
        stackResourceGroups: { dev: 'rg-dev', staging: 'rg-staging', prod: 'rg-prod' },
      },
    });
    expect(Object.keys(snapshot.outputs).sort()).toEqual([
      'AWS_DEPLOY_ROLE_ARN_DEV',
      'AWS_DEPLOY_ROLE_ARN_PROD',
      'AWS_DEPLOY_ROLE_ARN_STAGING',
      'AWS_PREVIEW_ROLE_ARN',
      'AZURE_DEPLOY_CLIENT_ID_DEV',
      'AZURE_DEPLOY_CLIENT_ID_PROD',
      'AZURE_DEPLOY_CLIENT_ID_STAGING',
      'AZURE_PREVIEW_CLIENT_ID',
      'AZURE_SUBSCRIPTION_ID',
      'AZURE_TENANT_ID',
      'GCP_DEPLOY_SERVICE_ACCOUNT_DEV',
      'GCP_DEPLOY_SERVICE_ACCOUNT_PROD',
      'GCP_DEPLOY_SERVICE_ACCOUNT_STAGING',
      'GCP_PREVIEW_SERVICE_ACCOUNT',
      'GCP_WORKLOAD_IDENTITY_PROVIDER',
    ]);
    for (const value of Object.values(snapshot.outputs))
      expect(value).toEqual(expect.stringMatching(/^\S+$/));
  });

  it.each([
    [['aws'], ['AWS_DEPLOY_ROLE_ARN_PROD', 'AWS_PREVIEW_ROLE_ARN']],
    [
      ['gcp'],
      ['GCP_DEPLOY_SERVICE_ACCOUNT_PROD', 'GCP_PREVIEW_SERVICE_ACCOUNT', 'GCP_WORKLOAD_IDENTITY_PROVIDER'],
    ],
    [
      ['azure'],
      ['AZURE_DEPLOY_CLIENT_ID_PROD', 'AZURE_PREVIEW_CLIENT_ID', 'AZURE_SUBSCRIPTION_ID', 'AZURE_TENANT_ID'],
    ],
  ])('with clouds %j and environment prod only, outputs %j', async (clouds, variables) => {
    const snapshot = await renderBootstrap({
      'bootstrap:clouds': clouds,
      'bootstrap:environments': ['prod'],
      'bootstrap:gcp': clouds.includes('gcp')
        ? { stackProjects: { prod: 'acme-checkpoints-prod' } }
        : undefined,
      'bootstrap:azure': clouds.includes('azure') ? { stackResourceGroups: { prod: 'rg-prod' } } : undefined,
    });
    expect(Object.keys(snapshot.outputs).sort()).toEqual(variables);
    const prefix = clouds[0] === 'azure' ? 'azure-native:' : `${clouds[0]}:`;
    // The Azure resource provider registrations are dynamic resources (bootstrap/src/azure/resource-providers.ts).
    const ofCloud = (created: { type: string; name: string }) =>
      created.type.startsWith(prefix) ||
      (clouds[0] === 'azure' &&
        created.type === 'pulumi-nodejs:dynamic:Resource' &&
        created.name.startsWith('provider-'));
    expect(customResources(snapshot).filter((created) => !ofCloud(created))).toEqual([]);
  });
});
