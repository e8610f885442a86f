import { inputsOf, isUnknownValueError, plain, read, readList, shown, state, UNKNOWN } from './inputs';
import {
  onPreview,
  previewProps,
  UNKNOWN_ARRAY,
  UNKNOWN_BOOLEAN,
  UNKNOWN_OBJECT,
  UNKNOWN_STRING,
  UnknownValueError,
} from '../../testing/rules';

describe('read', () => {
  const [resource] = onPreview([
    {
      type: 't',
      props: { a: { b: UNKNOWN_STRING, c: 1 }, d: UNKNOWN_OBJECT, list: [1, UNKNOWN_STRING] },
    },
  ]);
  const props = resource!.props;

  it('reads known values and marks unknown ones (preview proxy and synth marks) without throwing', () => {
    expect(read(props, 'a', 'c')).toBe(1);
    expect(read(props, 'a', 'b')).toBe(UNKNOWN);
    expect(read(props, 'd', 'e', 'f')).toBe(UNKNOWN);
    expect(read(props, 'x', 'y')).toBeUndefined();
    expect(read({ a: '[unknown]' }, 'a', 'b')).toBe(UNKNOWN);
    expect(read({ a: '[secret]' }, 'a')).toBe(UNKNOWN);
    expect(readList(props, 'list')).toEqual([1, UNKNOWN]);
    expect(readList(props, 'd')).toBe(UNKNOWN);
  });

  it('reads known, absent and synth-marked values', () => {
    const synth = { a: { b: [1, '[unknown]'] }, s: '[secret]' };
    expect(read(synth, 'a', 'b', 0)).toBe(1);
    expect(read(synth, 'a', 'b', 1)).toBe(UNKNOWN);
    expect(read(synth, 's')).toBe(UNKNOWN);
    expect(read(synth, 'missing', 'deeper')).toBeUndefined();
  });

  it("turns a real preview's unknown into UNKNOWN instead of aborting the rule", () => {
    const preview = previewProps({
      known: true,
      nested: { value: UNKNOWN_STRING },
      list: UNKNOWN_ARRAY,
    });
    expect(read(preview, 'known')).toBe(true);
    expect(read(preview, 'nested', 'value')).toBe(UNKNOWN);
    expect(readList(preview, 'list')).toBe(UNKNOWN);
  });

  it('reads list elements one by one', () => {
    const preview = previewProps({ list: [{ a: 1 }, UNKNOWN_OBJECT] });
    const list = readList(preview, 'list') as unknown[];
    expect(list.map((item) => read(item, 'a'))).toEqual([1, UNKNOWN]);
    expect(readList({ list: 'x' }, 'list')).toBeUndefined();
  });

  it('reads an unknown object on the way as unknown, not absent, in synth', () => {
    expect(read({ versioning: '[unknown]' }, 'versioning', 'enabled')).toBe(UNKNOWN);
  });

  it('lets any other error through', () => {
    const failing = {
      get a(): unknown {
        throw new Error('not an unknown');
      },
    };
    expect(() => read(failing, 'a')).toThrow('not an unknown');
  });
});

describe('isUnknownValueError', () => {
  it("recognises the policy SDK's error, and no other", () => {
    expect(isUnknownValueError(new UnknownValueError(UNKNOWN_STRING, ['a']))).toBe(true);
    expect(isUnknownValueError(new Error('a'))).toBe(false);
    expect(isUnknownValueError('unknownTypeSentinel')).toBe(false);
  });
});

describe('inputsOf and plain', () => {
  it('copies inputs of a preview, unknown values marked instead of throwing', () => {
    const [resource] = onPreview([
      {
        type: 'aws:s3/bucketPolicy:BucketPolicy',
        props: {
          bucket: UNKNOWN_STRING,
          nested: { flag: UNKNOWN_BOOLEAN, list: [1, UNKNOWN_STRING] },
          known: 'x',
        },
      },
    ]);
    expect(inputsOf(resource!)).toEqual({
      bucket: UNKNOWN,
      nested: { flag: UNKNOWN, list: [1, UNKNOWN] },
      known: 'x',
    });
  });

  it("copies synth's marks as UNKNOWN, like read", () => {
    expect(plain({ a: ['[unknown]', 'x'], s: '[secret]', n: null })).toEqual({
      a: [UNKNOWN, 'x'],
      s: UNKNOWN,
      n: null,
    });
    expect(inputsOf({ props: { policy: '[unknown]' } })).toEqual({ policy: UNKNOWN });
  });
});

describe('state and shown', () => {
  it('show values in messages', () => {
    expect([state(UNKNOWN), state(undefined), state(null), state('x'), state(0), state('TLS1_0')]).toEqual([
      'is unknown during preview',
      'is not set',
      'is not set',
      'is "x"',
      'is 0',
      'is "TLS1_0"',
    ]);
    expect([shown(UNKNOWN), shown(undefined), shown(true), shown('ObjectWriter')]).toEqual([
      'unknown during preview',
      'not set',
      'true',
      '"ObjectWriter"',
    ]);
  });
});
