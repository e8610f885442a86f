import fc from 'fast-check';
import { getGrantReasons, runSimulation } from '@cloud-copilot/iam-simulate';
import {
  awsRequestAllowed,
  awsStoreTokens,
  createAnalysisContext,
  type AnalysisContext,
  type AwsPrincipal,
  type PolicyDocument,
} from '../../src';
import { awsAnswersOf, type AwsRequest } from '../../src/access/aws';
import {
  loadArnWords,
  sharedQuestion,
  storeWordsOf,
  wordAligned,
  wordsUnderQuestionMarks,
  type StoreTokens,
} from '../../src/access/aws-renaming';
import { STACK_ROOT } from './fixtures';

/**
 * Sharing IAM's answers between stores (src/access/aws-renaming): a store's answer reused for another
 * store's question must be the answer @cloud-copilot/iam-simulate gives that question on its own. The
 * oracle is the simulation itself; the wildcard rows follow the IAM reference: `*` matches any run of
 * characters and `?` exactly one (https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_elements_resource.html,
 * "You can use wildcard characters (* and ?) within any ARN segment").
 */
const ACCOUNT = '111122223333';
const SECURE = { 'aws:SecureTransport': 'true', 's3:TlsVersion': '1.3', 's3express:TlsVersion': '1.3' };

/** A render of stores, each with one resource whose inputs hold the store's words. */
function renderOfStores(names: readonly string[]) {
  return {
    resources: [
      STACK_ROOT,
      ...names.flatMap((name) => [
        {
          ...STACK_ROOT,
          urn: `urn:store:${name}`,
          type: 'checkpoints:aws:CheckpointStore',
          name,
          parent: STACK_ROOT.urn,
        },
        {
          ...STACK_ROOT,
          urn: `urn:bucket:${name}`,
          type: 'aws:s3/bucket:Bucket',
          name: `${name}-bucket`,
          parent: `urn:store:${name}`,
          inputs: { bucket: `ckpt-${name}`, tags: { store: name } },
        },
      ]),
    ],
  };
}

/** The canonical form of `asked`, a question of store `name`, in `analysis` (undefined: asked on its own). */
function sharedKey(
  analysis: ReturnType<typeof analysisOf>,
  name: string,
  asked: { principal: AwsPrincipal; request: AwsRequest },
) {
  return sharedQuestion(
    awsAnswersOf(analysis.context).renaming,
    analysis.tokens(name),
    asked.principal,
    asked.request,
    ACCOUNT,
    contextOf(asked.request),
  );
}

/** One analysis of the stores `names`: its context, whose answers its questions share, and a store's tokens in it. */
function analysisOf(names: readonly string[]): {
  context: AnalysisContext;
  tokens(name: string): StoreTokens;
  /** undefined for a name that is a word IAM itself compares (never a token). */
  tokensIfAny(name: string): StoreTokens | undefined;
} {
  const render = renderOfStores(names);
  const context = createAnalysisContext(render);
  return {
    context,
    tokens(name) {
      const tokens = awsStoreTokens(render, `urn:store:${name}`, context);
      if (!tokens) throw new Error(`no tokens for ${name}`);
      return tokens;
    },
    tokensIfAny: (name) => awsStoreTokens(render, `urn:store:${name}`, context),
  };
}

/** A question written once with `{n}` for the store's name, asked for a store. */
interface Template {
  identity: object[];
  /** A second identity policy, named the store's name alone: its order among the policies' names changes with the name. */
  second?: object[];
  bucketPolicy: object[];
  action: string;
  resource: string;
}

const fill = (text: string, name: string) => text.replaceAll('{n}', name);
const contextOf = (request: AwsRequest) => (request.context ? JSON.stringify(request.context) : '');

function question(template: Template, name: string): { principal: AwsPrincipal; request: AwsRequest } {
  const document = (statements: object[]) =>
    JSON.parse(
      fill(JSON.stringify({ Version: '2012-10-17', Statement: statements }), name),
    ) as PolicyDocument;
  const arn = `arn:aws:iam::${ACCOUNT}:role/ckpt-${name}-writer`;
  return {
    principal: {
      principal: { id: arn, label: 'writer', kind: 'store-identity' },
      arn,
      policies: [
        { name: fill('access-{n}', name), policy: document(template.identity) },
        ...(template.second?.length ? [{ name, policy: document(template.second) }] : []),
      ],
    },
    request: {
      action: template.action,
      resource: fill(template.resource, name),
      context: { 'aws:ResourceTag/store': name },
      ...(template.bucketPolicy.length > 0 ? { resourcePolicy: document(template.bucketPolicy) } : {}),
    },
  };
}

/** The simulation's own answer, in the words `allowed` reports it. */
async function simulated({ principal, request }: ReturnType<typeof question>): Promise<string | undefined> {
  const result = await runSimulation(
    {
      request: {
        principal: principal.arn,
        action: request.action,
        resource: { resource: request.resource, accountId: ACCOUNT },
        contextVariables: { ...SECURE, 'aws:PrincipalArn': principal.arn, ...request.context },
      },
      identityPolicies: principal.policies,
      serviceControlPolicies: [],
      resourceControlPolicies: [],
      ...(request.resourcePolicy ? { resourcePolicy: request.resourcePolicy } : {}),
    },
    { simulationMode: 'Strict' },
  );
  if (result.resultType !== 'single' || result.overallResult !== 'Allowed') return undefined;
  const reasons = getGrantReasons(result.result.analysis).map((grant) => {
    const where =
      grant.policyType === 'resource'
        ? request.action.startsWith('kms:')
          ? 'key policy'
          : 'bucket policy'
        : `policy ${grant.policyIdentifier}`;
    return `${where} ${grant.statementId ?? `#${grant.statementIndex}`}`;
  });
  return `${request.action}: ${[...new Set(reasons)].join(', ')}`;
}

const ALIGNED_RESOURCES = [
  '*',
  'arn:aws:s3:::ckpt-{n}',
  'arn:aws:s3:::ckpt-{n}/*',
  'arn:aws:s3:::ckpt-*',
  'arn:aws:s3:::ckpt-*/checkpoint',
  'arn:aws:s3:::ckpt-???/*',
  'arn:aws:s3:::ckpt-????/*',
  // A `?` beside a `*`, a `?` over a word that is no token, a run over `ckpt-` and the name.
  'arn:aws:s3:::ckpt-*?/*',
  'arn:aws:s3:::*/??????????',
  'arn:aws:s3:::?????????/*',
  'arn:aws:s3:::ckpt-{n}/??????????',
  // KMS: the simulator tells a key from an alias by the `key/` prefix of the resource.
  `arn:aws:kms:us-east-1:${ACCOUNT}:key/{n}`,
  `arn:aws:kms:*:${ACCOUNT}:key/*`,
  `arn:aws:kms:us-east-1:${ACCOUNT}:alias/{n}`,
];
// Wildcards glued to a word: never shared, still answered right.
const UNALIGNED_RESOURCES = [
  'arn:aws:s3:::ckpt-a*',
  'arn:aws:s3:::ckpt-*b/*',
  'arn:aws:s3:::*{n}*',
  'arn:aws:s3:::ckpt-{n}*',
];
const resourcePattern = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...ALIGNED_RESOURCES) },
  { weight: 2, arbitrary: fc.constantFrom(...UNALIGNED_RESOURCES) },
);
const PRINCIPALS = [`arn:aws:iam::${ACCOUNT}:role/ckpt-{n}-writer`, `arn:aws:iam::${ACCOUNT}:role/ckpt-*`];
const CONDITIONS = [
  undefined,
  { StringEquals: { 'aws:ResourceTag/store': '{n}' } },
  { StringLike: { 'aws:PrincipalArn': `arn:aws:iam::${ACCOUNT}:role/ckpt-??-*` } },
  { StringNotLike: { 'aws:ResourceTag/store': 'a*' } },
  { StringEqualsIgnoreCase: { 'aws:ResourceTag/store': '{n}' } },
  { ArnLike: { 'aws:PrincipalArn': `arn:aws:iam::${ACCOUNT}:role/ckpt-{n}-*` } },
];

const statement = (withPrincipal: boolean) =>
  fc
    .record({
      // No Sid: the grant names the statement by its place.
      Sid: fc.constantFrom('Grant{n}', 'Data', 'Keys', '{n}', undefined),
      Effect: fc.constantFrom('Allow', 'Allow', 'Deny'),
      ...(withPrincipal ? { Principal: fc.constantFrom(...PRINCIPALS).map((AWS) => ({ AWS })) } : {}),
      Action: fc.constantFrom('s3:GetObject', 's3:*', 's3:Get*', 'kms:Decrypt', 'kms:*'),
      Resource: fc.array(resourcePattern, { minLength: 1, maxLength: 2 }),
      Condition: fc.constantFrom(...CONDITIONS),
    })
    .map(({ Condition, Sid, ...rest }) => ({
      ...(Sid ? { Sid } : {}),
      ...rest,
      ...(Condition ? { Condition } : {}),
    }));

const template: fc.Arbitrary<Template> = fc
  .record({
    identity: fc.array(statement(false), { minLength: 1, maxLength: 2 }),
    second: fc.array(statement(false), { maxLength: 1 }),
    bucketPolicy: fc.array(statement(true), { maxLength: 1 }),
    // s3:PutObject is named by `s3:*` alone: a question no Allow statement's Action names is denied unasked.
    question: fc.constantFrom<[string, string]>(
      ['s3:GetObject', 'arn:aws:s3:::ckpt-{n}/checkpoint'],
      ['s3:PutObject', 'arn:aws:s3:::ckpt-{n}/checkpoint'],
      ['s3:GetObject', 'arn:aws:s3:::ckpt-{n}'],
      ['s3:GetObject', '*'],
      ['kms:Decrypt', `arn:aws:kms:us-east-1:${ACCOUNT}:key/{n}`],
    ),
  })
  .map(({ question: [action, resource], ...rest }) => ({ ...rest, action, resource }));

// Names as users give them (lower-case letters and digits), from few letters and lengths so that pairs
// often share a length, a first or a last letter: what an unaligned wildcard or a `?` tells apart.
const storeName = fc.stringMatching(/^[ab][ab01]{2,3}$/);
/**
 * Words of IAM's own vocabulary and of the strings iam-simulate tests requests against (key/, alias/,
 * role/aws-reserved/, assumed-role/, enum values), as store names: those the simulator compares are never
 * tokens (FIXED_WORDS, the ARN formats), the others are shared. A simulator version that tests one more
 * of these words where these questions reach it makes the property below fail; a word outside this list
 * is guarded only by the module's reading of the simulator.
 */
const VOCABULARY = [
  'key',
  'alias',
  'role',
  'policy',
  'root',
  'user',
  'object',
  'bucket',
  'session',
  'service',
  'reserved',
  'assumed',
  'aws',
  'kms',
  'grant',
  'true',
  'null',
  'allow',
  'deny',
];
const anyStoreName = fc.oneof({ weight: 4, arbitrary: storeName }, fc.constantFrom(...VOCABULARY));

describe('wordAligned: which IAM patterns a renaming of whole words cannot change', () => {
  it.each([
    ['a trailing * after a separator', 'arn:aws:s3:::ckpt-*', true],
    ['* alone', '*', true],
    ['* between separators', 'arn:aws:iam::1:role/ckpt-*-writer', true],
    ['a run of ? after a separator', 'arn:aws:iam::1:role/ckpt-*-replication-??????', true],
    ['* glued to a word: it may match part of one', 'arn:aws:s3:::ckpt-a*', false],
    ['? glued to a word', 'ckpt-0?', false],
    ['a policy variable between separators', 'arn:aws:s3:::ckpt/${aws:username}/*', true],
    ['a policy variable glued to a word', 'arn:aws:s3:::ckpt-${aws:username}x', false],
  ])('%s: %s', (_row, pattern, aligned) => {
    expect(wordAligned(pattern, { countsCharacters: false, variableWords: [] })).toBe(aligned);
  });
});

describe('wordsUnderQuestionMarks: the words a ? may cover in some match', () => {
  it.each([
    [
      "CI's replication roles, a role of a store",
      'arn:aws:iam::1:role/*-replication-??????',
      'arn:aws:iam::1:role/ckpt-abc-replication-x1y2z3',
      ['x1y2z3'],
    ],
    [
      'the same pattern, a bucket: no match',
      'arn:aws:iam::1:role/*-replication-??????',
      'arn:aws:s3:::ckpt-abc',
      [],
    ],
    ['?s after a *: the end only', 'a-*??', 'a-bc-def', ['def']],
    ['?s before a *', 'a-??-*', 'a-bc-def', ['bc']],
    ['a ? that may fall in either of two words', 'a-*?*', 'a-bc-de', ['bc', 'de']],
    ['compared as IAM compares resources, case aside', 'A-???', 'a-XYZ', ['XYZ']],
  ])('%s: %s against %s', (_row, pattern, subject, words) => {
    expect(wordsUnderQuestionMarks([pattern], subject)).toEqual(words);
  });
});

describe('characters a renaming of words cannot see', () => {
  beforeAll(() => loadArnWords('s3:GetObject'));

  // What the sharing assumes of comparisons by Unicode collation (the simulator's localeCompare at accent
  // and base strength): on printable ASCII they tell apart exactly what lower-casing does, on the ICU of
  // the node running this. Beyond it they do not, which is why such a question is not shared.
  const printable = fc.string({
    unit: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  });
  const recased = printable.chain((text) =>
    fc
      .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
      .map((upper) => [text, [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join('')] as const),
  );
  it.each([
    ['accent', undefined],
    ['base', 'en'],
  ] as const)(
    'collation at %s strength compares printable ASCII as lower-casing does',
    (sensitivity, locale) => {
      const collator = new Intl.Collator(locale, { sensitivity });
      fc.assert(
        fc.property(fc.oneof(recased, fc.tuple(printable, printable)), ([a, b]) => {
          expect(collator.compare(a, b) === 0).toBe(a.toLowerCase() === b.toLowerCase());
        }),
        { numRuns: 3000 },
      );
    },
  );

  it('beyond printable ASCII, collation and case folding equate a token with words that are not it', () => {
    expect('a\u200bbc'.localeCompare('abc', undefined, { sensitivity: 'accent' })).toBe(0);
    expect('\u00e1bc'.localeCompare('abc', 'en', { sensitivity: 'base' })).toBe(0);
    expect('\u212abc'.toLowerCase()).toBe('kbc');
  });

  it.each([
    ['a zero-width space in the resource', { resource: 'arn:aws:s3:::ckpt-a\u200bbc/checkpoint' }],
    ['a Kelvin sign in the resource', { resource: 'arn:aws:s3:::ckpt-\u212abc/checkpoint' }],
    ['an accented letter in a policy', { pattern: 'arn:aws:s3:::ckpt-\u00e1bc/*' }],
    ['a control character in a policy', { pattern: 'arn:aws:s3:::ckpt-abc/\u0001*' }],
  ])('a question with %s is not shared, and is answered as the simulation answers it', async (_row, odd) => {
    const names = ['abc', 'xyz'];
    const written: Template = {
      identity: [
        { Sid: 'Data', Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::ckpt-{n}/*' },
        ...('pattern' in odd
          ? [{ Sid: 'Odd', Effect: 'Deny', Action: 's3:GetObject', Resource: odd.pattern }]
          : []),
      ],
      bucketPolicy: [],
      action: 's3:GetObject',
      resource: 'resource' in odd ? odd.resource : 'arn:aws:s3:::ckpt-{n}/checkpoint',
    };
    const asked = question(written, 'abc');
    const analysis = analysisOf(names);
    expect(sharedKey(analysis, 'abc', asked)).toBeUndefined();
    expect(
      await awsRequestAllowed(asked.principal, asked.request, analysis.tokens('abc'), analysis.context),
    ).toEqual(await simulated(asked));
  });
});

describe('the tokens of a render', () => {
  it('are the words at most half the stores hold, never a word iam-simulate itself compares', () => {
    const words = storeWordsOf(renderOfStores(['alpha', 'beta', 'role']));
    expect(words.byStore.get('urn:store:alpha')?.list).toEqual(['alpha']);
    // `ckpt` and `bucket` are in every store; `role` is a word of IAM's own prefixes (role/aws-reserved/).
    expect(words.byStore.get('urn:store:role')).toBeUndefined();
    // The only store of a render shares with no other: it has no tokens.
    expect(storeWordsOf(renderOfStores(['alpha'])).byStore.size).toBe(0);
  });
});

describe('an answer shared between stores', () => {
  beforeAll(() => Promise.all([loadArnWords('s3:GetObject'), loadArnWords('kms:Decrypt')]));

  it('is what the simulation answers the other store, for any policies and names', async () => {
    let shared = 0;
    let sharedAcrossLengths = 0;
    await fc.assert(
      fc.asyncProperty(template, anyStoreName, anyStoreName, async (written, first, second) => {
        fc.pre(first !== second);
        const names = [first, second];
        const analysis = analysisOf(names);
        const one = question(written, first);
        const other = question(written, second);
        const [oneTokens, otherTokens] = [analysis.tokensIfAny(first), analysis.tokensIfAny(second)];
        const oneKey = oneTokens && sharedKey(analysis, first, one)?.key;
        const otherKey = otherTokens && sharedKey(analysis, second, other)?.key;
        if (oneKey !== undefined && oneKey === otherKey) {
          shared++;
          if (first.length !== second.length) sharedAcrossLengths++;
        }
        // The first store's question answered first, so the second's may reuse it.
        expect(await awsRequestAllowed(one.principal, one.request, oneTokens, analysis.context)).toEqual(
          await simulated(one),
        );
        expect(
          await awsRequestAllowed(other.principal, other.request, otherTokens, analysis.context),
        ).toEqual(await simulated(other));
      }),
      { numRuns: 1000 },
    );
    // The property is not vacuous: many pairs of questions (some 8%) were one canonical question.
    expect(shared).toBeGreaterThan(50);
    // Names of different lengths share questions whose `?`s cover neither name.
    expect(sharedAcrossLengths).toBeGreaterThan(10);
  });

  // One analysis for both names: keys number their parts in their analysis' numbering.
  const keyAnalysis = analysisOf(['abc', 'wxyz']);
  const keyOf = (written: Template, name: string) =>
    sharedKey(keyAnalysis, name, question(written, name))?.key;

  it("keeps no name's length where no `?` covers a name: CI's replication-role pattern against a bucket", () => {
    const written: Template = {
      identity: [
        {
          Sid: 'Replication',
          Effect: 'Allow',
          Action: 's3:GetObject',
          Resource: [`arn:aws:iam::${ACCOUNT}:role/ckpt-*-replication-??????`, 'arn:aws:s3:::ckpt-{n}/*'],
        },
      ],
      bucketPolicy: [],
      action: 's3:GetObject',
      resource: 'arn:aws:s3:::ckpt-{n}/checkpoint',
    };
    expect(keyOf(written, 'abc')).toBeDefined();
    expect(keyOf(written, 'abc')).toBe(keyOf(written, 'wxyz'));
    // kms:CreateKey's resource is `*`: compared with the patterns as a pattern, it holds no name either.
    expect(keyOf({ ...written, resource: '*' }, 'abc')).toBe(keyOf({ ...written, resource: '*' }, 'wxyz'));
  });

  it('keeps the lengths when a `?` pattern holding the name meets a resource `*`', () => {
    const written: Template = {
      identity: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::ckpt-{n}/???' }],
      bucketPolicy: [],
      action: 's3:GetObject',
      resource: '*',
    };
    expect(keyOf(written, 'abc')).toBeDefined();
    expect(keyOf(written, 'abc')).not.toBe(keyOf(written, 'wxyz'));
  });

  it('counts characters where a ? does: a 3-letter name matches ckpt-???, a 4-letter one does not', async () => {
    const written: Template = {
      identity: [
        { Sid: 'Three', Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::ckpt-???/*' },
      ],
      bucketPolicy: [],
      action: 's3:GetObject',
      resource: 'arn:aws:s3:::ckpt-{n}/checkpoint',
    };
    const names = ['abc', 'wxyz'];
    const analysis = analysisOf(names);
    const short = question(written, 'abc');
    const long = question(written, 'wxyz');
    expect(
      await awsRequestAllowed(short.principal, short.request, analysis.tokens('abc'), analysis.context),
    ).toBe('s3:GetObject: policy access-abc Three');
    expect(
      await awsRequestAllowed(long.principal, long.request, analysis.tokens('wxyz'), analysis.context),
    ).toBeUndefined();
  });

  it.each([
    [
      'a wildcard glued to a word',
      { Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::ckpt-{n}x*' },
    ],
    [
      'a name in a numeric condition',
      {
        Effect: 'Allow',
        Action: 's3:GetObject',
        Resource: '*',
        Condition: { NumericLessThan: { 'aws:ResourceTag/store': '{n}' } },
      },
    ],
    ['a name in an action', { Effect: 'Allow', Action: 's3:{n}', Resource: '*' }],
  ])('is not shared with %s', (_row, written) => {
    const names = ['abc', 'xyz'];
    const analysis = analysisOf(names);
    const one = question(
      { identity: [written], bucketPolicy: [], action: 's3:GetObject', resource: '*' },
      'abc',
    );
    expect(sharedKey(analysis, 'abc', one)).toBe(undefined);
  });

  it('is not shared with a question that differs only in its context: a read from outside the perimeter stays denied', async () => {
    const names = ['abc', 'xyz'];
    const analysis = analysisOf(names);
    const written: Template = {
      identity: [
        { Sid: 'Data', Effect: 'Allow', Action: 's3:GetObject', Resource: 'arn:aws:s3:::ckpt-{n}/*' },
      ],
      bucketPolicy: [
        {
          Sid: 'Perimeter',
          Effect: 'Deny',
          Principal: '*',
          Action: 's3:*',
          Resource: 'arn:aws:s3:::ckpt-{n}/*',
          Condition: { NotIpAddressIfExists: { 'aws:SourceIp': '10.0.0.0/8' } },
        },
      ],
      action: 's3:GetObject',
      resource: 'arn:aws:s3:::ckpt-{n}/checkpoint',
    };
    const from = (name: string, sourceIp: string) => {
      const asked = question(written, name);
      return {
        ...asked,
        request: { ...asked.request, context: { ...asked.request.context, 'aws:SourceIp': sourceIp } },
      };
    };
    const inside = from('abc', '10.1.2.3');
    const outside = from('xyz', '192.0.2.10');
    expect(await simulated(inside)).toBeDefined();
    expect(
      await awsRequestAllowed(inside.principal, inside.request, analysis.tokens('abc'), analysis.context),
    ).toEqual(await simulated(inside));
    expect(await simulated(outside)).toBeUndefined();
    expect(
      await awsRequestAllowed(outside.principal, outside.request, analysis.tokens('xyz'), analysis.context),
    ).toBeUndefined();
  });

  it('is not shared when a word of the question spells a token in capitals', () => {
    const names = ['abc', 'xyz'];
    const analysis = analysisOf(names);
    const one = question(
      {
        identity: [{ Effect: 'Allow', Action: 's3:GetObject', Resource: '*' }],
        bucketPolicy: [],
        action: 's3:GetObject',
        resource: 'arn:aws:s3:::ckpt-ABC/checkpoint',
      },
      'abc',
    );
    expect(sharedKey(analysis, 'abc', one)).toBe(undefined);
  });
});
