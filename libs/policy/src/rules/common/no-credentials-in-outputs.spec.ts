import { violationsOf } from '../../../testing';
import { noCredentialsInOutputs } from './no-credentials-in-outputs';

describe('no-credentials-in-outputs', () => {
  it('passes store outputs with identities and URIs, and masked secrets', async () => {
    const outputs = {
      stores: {
        'llm-pretrain': {
          uri: 'abfss://ckpt@stckpt.dfs.core.windows.net/',
          writerIdentity: '3f2b7c1e-0000-4000-a000-000000000000',
          env: {
            CHECKPOINT_URI: 'abfss://ckpt@stckpt.dfs.core.windows.net/',
            AZURE_CLIENT_ID: '3f2b7c1e-0000-4000-a000-000000000000',
          },
        },
      },
      adminPassword: '[secret]',
    };
    expect(await violationsOf(noCredentialsInOutputs, [], outputs)).toEqual([]);
  });

  it.each([
    [
      { connection: 'DefaultEndpointsProtocol=https;AccountName=a;AccountKey=abc==' },
      "output 'connection' looks like an Azure storage account key or connection string",
    ],
    [{ key: 'AKIAIOSFODNN7EXAMPLE' }, "output 'key' looks like an AWS access key ID"],
    [
      { sa: { json: '{"type":"service_account","private_key":"x"}' } },
      "output 'sa.json' looks like a GCP service-account key",
    ],
    [
      { storagePassword: 'hunter2' },
      "output 'storagePassword' is named like a credential but is not a Pulumi secret",
    ],
  ])('flags %j', async (outputs, message) => {
    expect(await violationsOf(noCredentialsInOutputs, [], outputs)).toEqual([message]);
  });
});
