import { join } from 'node:path';
import {
  missingFromRefusal,
  removeSynthRuns,
  runInProcessAndFresh,
  runSynthAgainst,
} from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { stackConfig } from './render';

const projectDir = join(__dirname, '..');
// Each test renders the stack twice through the CLI, and the first one the bootstrap stack as well.
jest.setTimeout(120_000);
afterAll(removeSynthRuns);
// The premium tier has no cool tier, so only an expiry gives it a lifecycle policy (which the baseline requires).
const store = {
  name: 'llm-pretrain',
  dataClassification: 'internal',
  encryption: 'customer-managed',
  retention: { expireAfterDays: 90 },
};

/** Renders `before`, then `after` with `synth --base` against that render, as a pull request would. */
const synthAgainst = (before: Record<string, unknown>[], after: Record<string, unknown>[]) =>
  runSynthAgainst(
    projectDir,
    // The dev resource group bootstrap/Pulumi.ci.yaml grants CI its rights on, as on the shipped stack.
    stackConfig({ stores: before, resourceGroupName: 'rg-checkpoints-dev' }),
    stackConfig({ stores: after, resourceGroupName: 'rg-checkpoints-dev' }),
    checkpointStack,
  );

describe('synth --base on ADLS: changes that would replace a data holder are refused as config errors', () => {
  it.each([
    ['tier', [store], [{ ...store, tier: 'high-throughput' }], '"high-throughput"', 'account kind and SKU'],
    [
      'encryption',
      [store],
      [{ ...store, encryption: 'provider-managed' }],
      '"provider-managed"',
      'the key vault, its key and the encryption identity would be released',
    ],
  ])(
    '%s: exit 2, the key path, the value given and the migration path',
    async (key, before, after, value, why) => {
      expect(missingFromRefusal(await synthAgainst(before, after), key, value, why)).toEqual([]);
    },
  );

  it('accepts a retention change and a new store of any tier', async () => {
    const result = await synthAgainst(
      [store],
      [
        { ...store, retention: { expireAfterDays: 120 } },
        { ...store, name: 'llm-fast', tier: 'high-throughput' },
      ],
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('synth --base on ADLS: a new key generation', () => {
  it('releases the old vault, key and key grant (retained, not destroyed) and creates new ones: exit 0, no data loss', async () => {
    const result = await synthAgainst([store], [{ ...store, keyGeneration: 2 }]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    const plan = result.stdout.slice(result.stdout.indexOf('Change plan'));
    expect(plan).toContain('store llm-pretrain: changed (8 unchanged, 4 created, 1 updated, 4 released)');
    for (const line of [
      'release llm-pretrain (azure-native:keyvault:Vault) [key]: released',
      'release llm-pretrain (azure-native:keyvault:Key) [key]: released',
      'release llm-pretrain-encryption-key (azure-native:authorization:RoleAssignment) [key]: released',
      '+       llm-pretrain-g2 (azure-native:keyvault:Vault) [key]: created',
      '+       llm-pretrain-g2 (azure-native:keyvault:Key) [key]: created',
      '~       llm-pretrain (azure-native:storage:StorageAccount) [data]: updated in place: encryption',
    ]) {
      expect(plan).toContain(line);
    }
    expect(plan).toContain('No resource holding checkpoints or their keys would be deleted or replaced.');
  });
});

describe('in-process synth runs share no state', () => {
  it('a run after a refused --base run renders as a fresh process does', async () => {
    expect((await synthAgainst([store], [{ ...store, tier: 'high-throughput' }])).status).toBe(2);
    // Were the stores of that --base still known (or any module state kept), this render would differ.
    const { inProcess, fresh } = await runInProcessAndFresh(
      projectDir,
      stackConfig({
        stores: [{ ...store, tier: 'high-throughput' }],
        resourceGroupName: 'rg-checkpoints-dev',
      }),
      checkpointStack,
      () => jest.resetModules(),
    );
    expect(inProcess.stderr).toBe('');
    expect(inProcess.status).toBe(fresh.status);
    expect(inProcess.json).toBe(fresh.json);
  });
});
