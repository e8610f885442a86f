import * as fc from 'fast-check';
import { awsTags, azureTags, gcpLabels, standardTags, tagRules, type Tags } from '../src/index';

const clouds = [
  { cloud: 'aws', normalise: awsTags, problems: tagRules.aws, sameKey: (key: string) => key },
  { cloud: 'gcp', normalise: gcpLabels, problems: tagRules.gcp, sameKey: (key: string) => key },
  {
    cloud: 'azure',
    normalise: azureTags,
    problems: tagRules.azure,
    sameKey: (key: string) => key.toLowerCase(),
  },
] as const;

// Printable ASCII, any Unicode code point, whole grapheme clusters, and text long enough to be cut.
const anyText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary', minLength: 50, maxLength: 300 }),
);
const anyKey = fc.oneof(
  fc.string({ minLength: 1 }),
  fc.string({ unit: 'binary', minLength: 1 }),
  fc.string({ unit: 'binary', minLength: 100, maxLength: 200 }),
);
const standardSet = fc
  .record({
    owner: anyText,
    costCenter: anyText,
    environment: anyText,
    dataClassification: anyText,
    project: anyText,
    stack: anyText,
    store: fc.option(anyText, { nil: undefined }),
  })
  .map(standardTags);
// A few keys from a small alphabet, so that keys which normalise alike are common.
const lookAlikeKeys = fc.dictionary(
  fc.string({ unit: fc.constantFrom('a', 'A', 'é', '-', '_', ' ', '#', '/'), minLength: 1, maxLength: 3 }),
  anyText,
  { maxKeys: 6 },
);

describe.each(clouds)('$cloud normalisation (properties)', ({ cloud, normalise, problems, sameKey }) => {
  it('turns any values of the standard tags into tags the cloud accepts', () => {
    fc.assert(
      fc.property(standardSet, (tags) => {
        const normalised = normalise(tags);
        expect(problems(normalised)).toStrictEqual([]);
        expect(Object.keys(normalised)).toHaveLength(Object.keys(tags).length);
      }),
    );
  });

  // 'aws:' keys are refused, not normalised; a leading letter keeps random keys clear of that prefix.
  const oneTag = fc
    .tuple(cloud === 'aws' ? anyKey.map((text) => `k${text}`) : anyKey, anyText)
    .map(([key, value]): Tags => ({ [key]: value }));

  it('turns any key into one the cloud accepts', () => {
    fc.assert(
      fc.property(oneTag, (tags) => {
        expect(problems(normalise(tags))).toStrictEqual([]);
      }),
    );
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.oneof(standardSet, oneTag), (tags) => {
        const once = normalise(tags);
        expect(normalise(once)).toStrictEqual(once);
      }),
    );
  });

  it('gives the same tags whatever order they come in', () => {
    fc.assert(
      fc.property(standardSet, (tags) => {
        const reversed = Object.fromEntries(Object.entries(tags).reverse());
        expect(normalise(reversed)).toStrictEqual(normalise(tags));
      }),
    );
  });

  it('never drops a tag: it throws exactly when two keys would become one', () => {
    const normalisedKey = (key: string) => sameKey(Object.keys(normalise({ [key]: '' }))[0] ?? '');
    fc.assert(
      fc.property(lookAlikeKeys, (tags) => {
        const keys = Object.keys(tags);
        const collide = new Set(keys.map(normalisedKey)).size < keys.length;
        if (collide) {
          expect(() => normalise(tags)).toThrow(
            /^tags '.+' and '.+' would be the same .+; rename one of them$/,
          );
        } else {
          expect(Object.keys(normalise(tags))).toHaveLength(keys.length);
        }
      }),
    );
  });
});
