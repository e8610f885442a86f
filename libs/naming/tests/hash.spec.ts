import { stableHash } from '../src/index';

describe('stableHash', () => {
  // Pinned values: if one changes, every deployed bucket, account and key would be renamed (replaced).
  // The first was checked with: printf '15:checkpoints-aws4:prod12:llm-pretrain' | sha256sum
  it.each([
    [['checkpoints-aws', 'prod', 'llm-pretrain'], '0d2516'],
    [['checkpoints-aws', 'prod'], '24b5b6'],
    [[''], 'ba768b'],
    [[], 'e3b0c4'],
  ])('hashes %j to %s', (parts, expected) => {
    expect(stableHash(parts)).toBe(expected);
  });

  it('is the first `length` hex digits of the same digest', () => {
    const full = stableHash(['checkpoints-aws', 'prod', 'llm-pretrain'], 64);
    expect(full).toBe('0d251644faf29ea071c05b59a235fea5240a3322b172a8a38e29fb4af105a528');
    expect(stableHash(['checkpoints-aws', 'prod', 'llm-pretrain'], 10)).toBe(full.slice(0, 10));
  });

  it.each([
    [
      ['a-b', 'c'],
      ['a', 'b-c'],
    ],
    [['ab'], ['a', 'b']],
    [['a:b'], ['a', 'b']],
    [['1:a'], ['', 'a']],
    [[], ['']],
  ])('does not confuse %j with %j', (left, right) => {
    expect(stableHash(left)).not.toBe(stableHash(right));
  });

  it.each([0, -1, 65, 2.5, Number.NaN])('rejects length %p', (length) => {
    expect(() => stableHash(['a'], length)).toThrow(/length must be an integer from 1 to 64/);
  });
});
