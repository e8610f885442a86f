import { join } from 'node:path';
import { complianceOf, createAnalysisContext } from '@checkpoints/analysis';
import { renderStackFile } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

describe('compliance of the shipped prod stores', () => {
  it('are private-only and scanned by Defender; the archive of their logs is judged with the bootstrap render only', async () => {
    const snapshot = await renderStackFile(join(__dirname, '..'), 'prod', checkpointStack);
    const { stores } = await complianceOf(createAnalysisContext(snapshot));
    const verdict = (store: string, control: string) =>
      stores.find((each) => each.store === store)?.controls.find((each) => each.control === control)?.verdict;
    for (const store of ['llm-pretrain', 'llm-releases', 'llm-pretrain-fast']) {
      expect([store, verdict(store, 'CIS Azure 4.6'), verdict(store, 'CIS Azure 4.9')]).toEqual([
        store,
        'pass',
        'pass',
      ]);
      expect([store, verdict(store, 'CIS Azure 3.1.5.1')]).toEqual([store, 'pass']);
    }
    const failing = stores.flatMap((store) =>
      store.controls
        .filter((each) => each.verdict === 'fail')
        .map((each) => `${store.store} ${each.control}`),
    );
    // The write-once archive is the bootstrap's (bootstrap/tests/azure-first-deploy.spec.ts judges both renders):
    // without its render the control fails, and says why.
    expect(failing).toEqual([
      'llm-pretrain checkpoints audit-immutable (Azure)',
      'llm-releases checkpoints audit-immutable (Azure)',
      'llm-pretrain-fast checkpoints audit-immutable (Azure)',
    ]);
    const details = stores.map(
      (store) =>
        store.controls.find((each) => each.control === 'checkpoints audit-immutable (Azure)')?.detail,
    );
    expect(details.every((detail) => detail?.includes('the bootstrap render was not given'))).toBe(true);
  }, 60_000);
});
