import { awsTags, azureTags, gcpLabels, standardTags, type Tags } from '../src/index';

const prodStore = standardTags({
  owner: 'ML Platform',
  costCenter: 'CC-1234',
  environment: 'prod',
  dataClassification: 'confidential',
  project: 'checkpoints-aws',
  stack: 'prod',
  store: 'llm-pretrain',
});

const awkward: Tags = {
  'Cost Center': 'R&D / Café №1 😀',
  'team/owner?': 'Ünïcödé <x>',
  '2fa': 'ﬁne',
  İstanbul: 'Ｆｕｌｌ',
};

describe('awsTags', () => {
  it('keeps the standard tags as they are', () => {
    expect(awsTags(prodStore)).toStrictEqual(prodStore);
  });

  it('strips accents and replaces what AWS does not accept with _', () => {
    expect(awsTags(awkward)).toStrictEqual({
      'Cost Center': 'R_D / Cafe No1 _',
      'team/owner_': 'Unicode _x_',
      '2fa': 'fine',
      Istanbul: 'Full',
    });
  });

  it('cuts keys to 128 and values to 256 characters', () => {
    expect(awsTags({ ['k'.repeat(200)]: 'v'.repeat(300) })).toStrictEqual({
      ['k'.repeat(128)]: 'v'.repeat(256),
    });
  });

  it.each(['aws:cloudformation:stack-name', 'AWS:x', 'Aws:', 'ａｗｓ:x'])(
    'refuses the reserved key %p',
    (key) => {
      expect(() => awsTags({ [key]: 'x' })).toThrow(`AWS tag '${key}': key starts with 'aws:'`);
    },
  );

  it('refuses keys that become the same key, naming both', () => {
    expect(() => awsTags({ 'team#': 'a', team$: 'b' })).toThrow(
      "tags 'team#' and 'team$' would be the same AWS tag key 'team_'; rename one of them",
    );
  });

  it('refuses more than 50 tags', () => {
    expect(Object.keys(awsTags(numberedTags(50)))).toHaveLength(50);
    expect(() => awsTags(numberedTags(51))).toThrow('at most 50 AWS tags fit on a resource; got 51: k0, k1');
  });
});

describe('gcpLabels', () => {
  it('lowercases the standard tags and replaces spaces', () => {
    expect(gcpLabels(prodStore)).toStrictEqual({
      owner: 'ml_platform',
      'cost-center': 'cc-1234',
      environment: 'prod',
      'data-classification': 'confidential',
      'managed-by': 'pulumi',
      'pulumi-project': 'checkpoints-aws',
      'pulumi-stack': 'prod',
      'checkpoint-store': 'llm-pretrain',
    });
  });

  it('folds to lowercase ASCII and starts keys with a letter', () => {
    expect(gcpLabels(awkward)).toStrictEqual({
      cost_center: 'r_d___cafe_no1__',
      team_owner_: 'unicode__x_',
      tag_2fa: 'fine',
      istanbul: 'full',
    });
  });

  it('cuts keys and values to 63 characters, keeping the key prefix', () => {
    expect(gcpLabels({ ['K'.repeat(100)]: 'V'.repeat(100), ['9'.repeat(100)]: '' })).toStrictEqual({
      ['k'.repeat(63)]: 'v'.repeat(63),
      [`tag_${'9'.repeat(59)}`]: '',
    });
  });

  it('refuses keys that become the same label, naming both', () => {
    expect(() => gcpLabels({ Owner: 'a', owner: 'b' })).toThrow(
      "tags 'Owner' and 'owner' would be the same GCP label key 'owner'",
    );
    expect(() => gcpLabels({ 'cost center': 'a', cost_center: 'b' })).toThrow(
      "tags 'cost center' and 'cost_center' would be the same GCP label key 'cost_center'",
    );
  });

  it('refuses more than 64 labels', () => {
    expect(Object.keys(gcpLabels(numberedTags(64)))).toHaveLength(64);
    expect(() => gcpLabels(numberedTags(65))).toThrow('at most 64 GCP labels fit on a resource; got 65');
  });
});

describe('azureTags', () => {
  it('keeps the standard tags as they are', () => {
    expect(azureTags(prodStore)).toStrictEqual(prodStore);
  });

  it('replaces only the characters Azure forbids in keys and keeps Unicode', () => {
    expect(azureTags({ ...awkward, 'a<b>c%d&e\\f': '<%&\\?/>' })).toStrictEqual({
      'Cost Center': 'R&D / Café №1 😀',
      team_owner_: 'Ünïcödé <x>',
      '2fa': 'ﬁne',
      İstanbul: 'Ｆｕｌｌ',
      a_b_c_d_e_f: '<%&\\?/>',
    });
  });

  it('cuts keys to 128 and values to 256 characters without splitting an emoji', () => {
    expect(azureTags({ ['k'.repeat(200)]: `${'v'.repeat(255)}😀` })).toStrictEqual({
      ['k'.repeat(128)]: 'v'.repeat(255),
    });
  });

  it('refuses keys that differ only in case, which Azure treats as one key', () => {
    expect(() => azureTags({ Owner: 'a', owner: 'b' })).toThrow(
      "tags 'Owner' and 'owner' would be the same Azure tag key 'owner'",
    );
  });

  it('refuses more than 50 tags', () => {
    expect(Object.keys(azureTags(numberedTags(50)))).toHaveLength(50);
    expect(() => azureTags(numberedTags(51))).toThrow('at most 50 Azure tags fit on a resource; got 51');
  });
});

describe('every cloud', () => {
  it.each([
    ['AWS tag', awsTags],
    ['GCP label', gcpLabels],
    ['Azure tag', azureTags],
  ])('%s: refuses an empty key', (noun, normalise) => {
    expect(() => normalise({ '': 'x' })).toThrow(`${noun} keys must not be empty`);
  });

  it.each([
    [awsTags, '__proto__'],
    [gcpLabels, 'tag___proto__'],
    [azureTags, '__proto__'],
  ])('keeps a __proto__ key as an ordinary tag', (normalise, key) => {
    const normalised = normalise(JSON.parse('{"__proto__": "x"}') as Tags);
    expect(Object.entries(normalised)).toStrictEqual([[key, 'x']]);
    expect(Object.getPrototypeOf(normalised)).toBe(Object.prototype);
  });
});

function numberedTags(count: number): Tags {
  return Object.fromEntries(Array.from({ length: count }, (_, i) => [`k${i}`, 'v']));
}
