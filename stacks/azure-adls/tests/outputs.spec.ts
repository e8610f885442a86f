import { customResources } from '@checkpoints/synth';
import { renderStack, storeOutputs, TENANT } from './render';

const CLIENT_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('outputs', () => {
  it('give each store its abfss URI, location, identities and a ready-to-use env', async () => {
    const snapshot = await renderStack({
      stores: [
        { name: 'llm', dataClassification: 'internal' },
        {
          name: 'fast',
          dataClassification: 'internal',
          tier: 'high-throughput',
          encryption: 'customer-managed',
          retention: { expireAfterDays: 7 },
        },
      ],
    });
    const stores = storeOutputs(snapshot);
    expect(Object.keys(stores).sort()).toEqual(['fast', 'llm']);
    const expectations = [
      ['llm', 'abfss://checkpoints-llm@azuredevllmb6ad56.dfs.core.windows.net/', 'azuredevllmb6ad56'],
      ['fast', 'abfss://checkpoints-fast@azuredevfastfcffdf.dfs.core.windows.net/', 'azuredevfastfcffdf'],
    ] as const;
    for (const [name, uri, account] of expectations) {
      const outputs = stores[name] as Record<string, unknown>;
      const { writerIdentity, readerIdentity } = outputs as Record<string, string>;
      expect(writerIdentity).toMatch(CLIENT_ID);
      expect(readerIdentity).toMatch(CLIENT_ID);
      expect(writerIdentity).not.toBe(readerIdentity);
      expect(outputs).toEqual({
        uri,
        location: 'eastus2',
        writerIdentity,
        readerIdentity,
        env: {
          CHECKPOINT_URI: uri,
          AZURE_STORAGE_ACCOUNT_NAME: account,
          AZURE_CLIENT_ID: writerIdentity,
          AZURE_TENANT_ID: TENANT,
          AZURE_STORAGE_ANON: 'false',
        },
      });
    }
  });

  it('hold no credential and read no account key', async () => {
    const snapshot = await renderStack(
      { environment: 'prod', stores: [{ name: 'llm', dataClassification: 'internal' }] },
      'prod',
    );
    const outputs = JSON.stringify(snapshot.outputs);
    for (const secret of [
      'AccountKey=',
      'SharedAccessSignature',
      'sig=',
      'DefaultEndpointsProtocol',
      'key1',
    ]) {
      expect(outputs).not.toContain(secret);
    }
    const types = customResources(snapshot).map((r) => r.type);
    expect(
      types.filter((type) => /listKeys|listStorageAccountSAS|LocalUser|ListAccountSas/i.test(type)),
    ).toEqual([]);
  });
});
