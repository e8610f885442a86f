import { sharedPerKey } from '../src';

describe('sharedPerKey', () => {
  it('makes one result per key and hands every caller of that key the same one', async () => {
    const make = jest.fn(async (name: string, size: number) => ({ name, size }));
    const shared = sharedPerKey(make, (name: string) => name);
    const first = await shared('a', 1);
    expect(await shared('a', 2)).toBe(first);
    expect(await shared('b', 3)).toEqual({ name: 'b', size: 3 });
    expect(make).toHaveBeenCalledTimes(2);
  });

  it('freezes what it made, all the way down, so a test cannot change what the next one reads', async () => {
    const shared = sharedPerKey(
      async () => ({ resources: [{ inputs: { name: 'x' } }] }),
      () => 'key',
    );
    const render = await shared();
    expect(() => render.resources.push({ inputs: { name: 'y' } })).toThrow(TypeError);
    expect(() => {
      render.resources[0]!.inputs.name = 'changed';
    }).toThrow(TypeError);
  });
});
