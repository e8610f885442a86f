import { join } from 'node:path';
import { registeredInTurns, renderStackFile } from '@checkpoints/synth';
import { checkpointStack } from '../src/program';

// Each store is built in a turn of its own (buildStoresInTurns), so that its resources register before the
// next store's are constructed: the memory of a render, or of a pulumi up, then grows with one store, not
// with the stack. In one synchronous loop every store's component registers before any store's resources.
it('registers each store of the prod config before the next store is built', async () => {
  const turns = registeredInTurns(
    await renderStackFile(join(__dirname, '..'), 'prod', checkpointStack),
    'checkpoints:aws:CheckpointStore',
  );
  expect(turns.length).toBeGreaterThan(0);
  expect(turns).toEqual(turns.map(({ name }) => ({ name, ownFirst: true })));
});
