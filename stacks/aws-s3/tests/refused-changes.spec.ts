import { join } from 'node:path';
import {
  missingFromRefusal,
  removeSynthRuns,
  runInProcessAndFresh,
  runSynthAgainst,
} from '@checkpoints/synth';
import { checkpointStack } from '../src/program';
import { stackConfig } from './render-stack';

const projectDir = join(__dirname, '..');
// Each test renders the stack twice through the CLI, and the first one the bootstrap stack as well.
jest.setTimeout(120_000);
afterAll(removeSynthRuns);
const store = { name: 'llm-pretrain', dataClassification: 'confidential', encryption: 'customer-managed' };
const fast = { ...store, tier: 'high-throughput', zone: 'use1-az4' };

/** Renders `before`, then `after` with `synth --base` against that render, as a pull request would. */
const synthAgainst = (before: Record<string, unknown>[], after: Record<string, unknown>[]) =>
  runSynthAgainst(
    projectDir,
    stackConfig({ stores: before }),
    stackConfig({ stores: after }),
    checkpointStack,
  );

describe('synth --base on S3: changes that would replace a data holder are refused as config errors', () => {
  it.each([
    ['tier', [store], [fast], '"high-throughput"', 'a general purpose bucket and a directory bucket'],
    ['zone', [fast], [{ ...fast, zone: 'use1-az5' }], '"use1-az5"', "a directory bucket's availability zone"],
    [
      'encryption',
      [store],
      [{ ...store, encryption: 'provider-managed' }],
      '"provider-managed"',
      'lose kms:Decrypt',
    ],
  ])(
    '%s: exit 2, the key path, the value given and the migration path',
    async (key, before, after, value, why) => {
      expect(missingFromRefusal(await synthAgainst(before, after), key, value, why)).toEqual([]);
    },
  );

  it('accepts provider-managed to customer-managed, a longer retention, and a new store of any tier', async () => {
    const result = await synthAgainst(
      [{ ...store, encryption: 'provider-managed' }],
      [
        { ...store, retention: { noncurrentExpireDays: 30 } },
        { ...fast, name: 'llm-fast' },
      ],
    );
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
  });
});

describe('synth --base on S3: a new key generation', () => {
  it('exits 0, not data loss: the plan releases the old key and creates the new one, replacing nothing', async () => {
    const result = await synthAgainst([store], [{ ...store, keyGeneration: 2 }]);
    expect(result.stderr).toBe('');
    expect(result.status).toBe(0);
    expect(result.stdout).toContain('Change plan');
    expect(result.stdout).toContain('release llm-pretrain-key (aws:kms/key:Key) [key]: released');
    expect(result.stdout).toMatch(/\+\s+llm-pretrain-key-gen2 \(aws:kms\/key:Key\) \[key\]: created/);
    expect(result.stdout).toContain(
      'No resource holding checkpoints or their keys would be deleted or replaced.',
    );
  });
});

describe('in-process synth runs share no state', () => {
  it('a run after a refused --base run renders as a fresh process does', async () => {
    expect((await synthAgainst([store], [fast])).status).toBe(2);
    // Were the stores of that --base still known (or any module state kept), this render would differ.
    const { inProcess, fresh } = await runInProcessAndFresh(
      projectDir,
      stackConfig({ stores: [fast] }),
      checkpointStack,
      () => jest.resetModules(),
    );
    expect(inProcess.stderr).toBe('');
    expect(inProcess.status).toBe(fresh.status);
    expect(inProcess.json).toBe(fresh.json);
  });
});
