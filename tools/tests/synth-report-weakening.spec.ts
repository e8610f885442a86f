/**
 * The text report's change plan shows what `synth --base` found besides data loss: weakening (open or
 * acknowledged, with the reason) and changes the cloud refuses or ignores, from the render's JSON.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { main } from '../pulumi/synth-report.cjs';
import { inProcess, tempDir } from './helpers';

const WEAKENED = 'store llm: recovery window of a deleted checkpoint 30 -> 1 days (llm-lifecycle rules)';
const EXPIRED =
  'store llm: age at which lifecycle deletes a live checkpoint never -> 2 days (llm-lifecycle rules)';
const REFUSED =
  "store llm: azure-native:storage:BlobContainerImmutabilityPolicy 'llm' (immutabilityPeriodSinceCreationInDays): the cloud refuses this update";

function textReport(changes: Record<string, unknown>): string[] {
  const dir = tempDir('synth-weakening-');
  mkdirSync(join(dir, 'azure-adls'), { recursive: true });
  const render = {
    project: 'checkpoints-azure',
    stack: 'prod',
    resources: [],
    violations: [],
    analysis: { changes },
  };
  writeFileSync(join(dir, 'azure-adls', 'prod.json'), JSON.stringify(render));
  const result = inProcess(main, [dir, '--format=text']);
  expect(result.stderr).toBe('');
  const lines = result.stdout.split('\n');
  const start = lines.findIndex((line) => line.startsWith('  change plan'));
  return lines.slice(start, start + 5);
}

it('names each weakening, the acknowledged one with its reason, and the refused change', () => {
  const lines = textReport({
    stores: [
      { store: 'llm', status: 'changed', resources: [{ name: 'llm-lifecycle', type: 't', kind: 'updated' }] },
    ],
    others: [],
    notes: [],
    dataLoss: [],
    refused: [{ store: 'llm', outcome: 'refused', message: REFUSED }],
    weakening: [
      { store: 'llm', message: WEAKENED },
      { store: 'llm', message: EXPIRED, acknowledgement: 'approved by the data owner' },
    ],
  });
  expect(lines).toEqual([
    '  change plan (against the PR base): no data holder deleted or replaced; 1 change(s) the cloud refuses; 1 unacknowledged weakening(s)',
    '    store llm: changed (1 updated)',
    `    REFUSED: ${REFUSED}`,
    `    WEAKENING: ${WEAKENED}`,
    `    weakening acknowledged: ${EXPIRED}; reason: "approved by the data owner"`,
  ]);
});
