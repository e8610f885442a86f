import { join } from 'node:path';
import { ofType, readProject, readStackConfig, render, stackConfigFile } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { storeOutputs, T } from './render';

const project = readProject(join(__dirname, '..'));

async function renderFile(stack: string) {
  const { config, secretKeys } = readStackConfig(stackConfigFile(project, stack), project);
  return render(checkpointStack, { project: project.name, stack, config, secretKeys });
}

describe('stack config files', () => {
  it('declare the project the synth and Pulumi load', () => {
    expect({ name: project.name, main: project.main }).toEqual({
      name: 'checkpoints-azure',
      main: join(__dirname, '..', 'index.ts'),
    });
  });

  it('dev: one standard store with Microsoft-managed keys, unprotected, no secrets', async () => {
    const { config, secretKeys } = readStackConfig(stackConfigFile(project, 'dev'), project);
    expect(secretKeys).toEqual([]);
    expect(config['azure-native:location']).toBe('eastus2');
    const snapshot = await renderFile('dev');
    expect(ofType(snapshot, T.account).map((a) => [a.name, a.inputs['kind'], a.protect])).toEqual([
      ['llm-pretrain', 'StorageV2', false],
    ]);
    expect(ofType(snapshot, T.vault)).toEqual([]);
    expect(Object.keys(storeOutputs(snapshot))).toEqual(['llm-pretrain']);
  });

  it('prod: a customer-managed standard store and a high-throughput store, protected, no secrets', async () => {
    const { secretKeys } = readStackConfig(stackConfigFile(project, 'prod'), project);
    expect(secretKeys).toEqual([]);
    const snapshot = await renderFile('prod');
    const accounts = ofType(snapshot, T.account)
      .sort((a, b) => a.name.localeCompare(b.name))
      .map((a) => ({
        name: a.name,
        kind: a.inputs['kind'],
        sku: a.inputs['sku'],
        keySource: (a.inputs['encryption'] as { keySource: string }).keySource,
        protect: a.protect,
      }));
    expect(accounts).toEqual([
      {
        name: 'llm-pretrain',
        kind: 'StorageV2',
        sku: { name: 'Standard_ZRS' },
        keySource: 'Microsoft.Keyvault',
        protect: true,
      },
      {
        name: 'llm-pretrain-fast',
        kind: 'BlockBlobStorage',
        sku: { name: 'Premium_ZRS' },
        keySource: 'Microsoft.Keyvault',
        protect: true,
      },
    ]);
  });
});
