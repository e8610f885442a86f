import { read, readList, state, UNKNOWN } from './values';
import { previewProps, previewUnknown } from './testing';

describe('reading inputs', () => {
  it('reads known, absent and synth-marked values', () => {
    const props = { a: { b: [1, '[unknown]'] }, s: '[secret]' };
    expect(read(props, 'a', 'b', 0)).toBe(1);
    expect(read(props, 'a', 'b', 1)).toBe(UNKNOWN);
    expect(read(props, 's')).toBe(UNKNOWN);
    expect(read(props, 'missing', 'deeper')).toBeUndefined();
  });

  it("turns a real preview's unknown into UNKNOWN instead of aborting the rule", () => {
    const props = previewProps({
      known: true,
      nested: { value: previewUnknown.string },
      list: previewUnknown.array,
    });
    expect(read(props, 'known')).toBe(true);
    expect(read(props, 'nested', 'value')).toBe(UNKNOWN);
    expect(readList(props, 'list')).toBe(UNKNOWN);
  });

  it('reads list elements one by one', () => {
    const props = previewProps({ list: [{ a: 1 }, previewUnknown.object] });
    const list = readList(props, 'list') as unknown[];
    expect(list.map((item) => read(item, 'a'))).toEqual([1, UNKNOWN]);
    expect(readList({ list: 'x' }, 'list')).toBeUndefined();
  });

  it('shows values in messages', () => {
    expect([state(UNKNOWN), state(undefined), state(null), state('x'), state(0)]).toEqual([
      'is unknown during preview',
      'is not set',
      'is not set',
      'is "x"',
      'is 0',
    ]);
  });
});

describe('unknown objects on the way', () => {
  it('are unknown, not absent, in synth', () => {
    expect(read({ versioning: '[unknown]' }, 'versioning', 'enabled')).toBe(UNKNOWN);
  });
});
