import { buildStoresInTurns } from '../src';

describe('buildStoresInTurns', () => {
  it('builds every store in order and returns what each build returned', async () => {
    await expect(buildStoresInTurns(['a', 'b', 'c'], (name) => name.toUpperCase())).resolves.toEqual([
      'A',
      'B',
      'C',
    ]);
  });

  it('lets work queued while a store is built (promises and macrotasks) run before the next store', async () => {
    const events: string[] = [];
    await buildStoresInTurns(['a', 'b', 'c'], (name) => {
      events.push(`build ${name}`);
      void Promise.resolve().then(() => events.push(`answer ${name}`));
      setImmediate(() => events.push(`turn ${name}`));
    });
    expect(events).toEqual([
      'build a',
      'answer a',
      'turn a',
      'build b',
      'answer b',
      'turn b',
      'build c',
      'answer c',
      'turn c',
    ]);
  });

  it('builds nothing for no stores', async () => {
    const build = jest.fn();
    await expect(buildStoresInTurns([], build)).resolves.toEqual([]);
    expect(build).not.toHaveBeenCalled();
  });
});
