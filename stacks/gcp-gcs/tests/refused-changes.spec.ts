import { join } from 'node:path';
import {
  missingFromRefusal,
  removeSynthRuns,
  runInProcessAndFresh,
  runSynthAgainst,
} from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { stackConfig, store } from './render';

const projectDir = join(__dirname, '..');
// Each test renders the stack twice through the CLI, and the first one the bootstrap stack as well.
jest.setTimeout(120_000);
afterAll(removeSynthRuns);
const cmek = store({ encryption: 'customer-managed' });

// The dev project bootstrap/Pulumi.ci.yaml grants CI its rights in, so the access rules pass as on the shipped stack.
const wiring = { 'gcp:project': 'ml-platform-dev-4821' };

/** Renders `before`, then `after` with `synth --base` against that render, as a pull request would. */
const synthAgainst = (before: Record<string, unknown>[], after: Record<string, unknown>[]) =>
  runSynthAgainst(projectDir, stackConfig(before, wiring), stackConfig(after, wiring), checkpointStack);

describe('synth --base on GCS: changes that would replace a data holder are refused as config errors', () => {
  it.each([
    ['tier', [store()], [store({ tier: 'high-throughput' })], '"high-throughput"', 'hierarchical namespace'],
    [
      'location',
      [store()],
      [store({ location: 'europe-west4' })],
      '"europe-west4"',
      "a bucket's location is set when it is created",
    ],
    [
      'encryption',
      [cmek],
      [store({ encryption: 'provider-managed' })],
      '"provider-managed"',
      'dropping the customer-managed key',
    ],
  ])(
    '%s: exit 2, the key path, the value given and the migration path',
    async (key, before, after, value, why) => {
      expect(missingFromRefusal(await synthAgainst(before, after), key, value, why)).toEqual([]);
    },
  );

  it('adding a replica region (a dual-region is another location): exit 2 with the migration path', async () => {
    const result = await synthAgainst([store()], [store({ recovery: { replicaRegion: 'us-east1' } })]);
    expect(result.status).toBe(2);
    expect(result.stderr).toContain('checkpoints:stores[0].recovery: got');
    expect(result.stderr).toContain(
      "adding, changing or removing recovery.replicaRegion changes the bucket's location",
    );
    expect(result.stderr).toContain('add a new store with');
  });

  it('raising keyGeneration releases the earlier key and creates the next: exit 0, no data-loss exit', async () => {
    const result = await synthAgainst([cmek], [{ ...cmek, keyGeneration: 2 }]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    for (const line of [
      'release llm-pretrain-key (gcp:kms/cryptoKey:CryptoKey) [key]: released',
      'release llm-pretrain-key-ring (gcp:kms/keyRing:KeyRing) [key]: released',
      'release llm-pretrain-key-storage-agent (gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember) [key]: released',
      '+       llm-pretrain-key-g2 (gcp:kms/cryptoKey:CryptoKey) [key]: created',
      'No resource holding checkpoints or their keys would be deleted or replaced.',
    ]) {
      expect(result.stdout).toContain(line);
    }
  });

  it('a renamed store is judged against its former name', async () => {
    const result = await synthAgainst(
      [store()],
      [store({ name: 'llm-main', formerNames: ['llm-pretrain'], tier: 'high-throughput' })],
    );
    expect(result.status).toBe(2);
    expect(result.stderr).toContain(
      'checkpoints:stores[0].tier: got "high-throughput"; store llm-main already exists',
    );
  });

  it('accepts what the bucket changes in place, and any setting of a new store', async () => {
    const result = await synthAgainst(
      [store()],
      [
        store({ encryption: 'customer-managed', retention: { noncurrentExpireDays: 30 } }),
        store({ name: 'llm-fast', tier: 'high-throughput' }),
      ],
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('in-process synth runs share no state', () => {
  it('a run after a refused --base run renders as a fresh process does', async () => {
    expect((await synthAgainst([store()], [store({ tier: 'high-throughput' })])).status).toBe(2);
    // Were the stores of that --base still known (or any module state kept), this render would differ.
    const { inProcess, fresh } = await runInProcessAndFresh(
      projectDir,
      stackConfig([store({ tier: 'high-throughput' })], wiring),
      checkpointStack,
      () => jest.resetModules(),
    );
    expect(inProcess.stderr).toBe('');
    expect(inProcess.status).toBe(fresh.status);
    expect(inProcess.json).toBe(fresh.json);
  });
});
