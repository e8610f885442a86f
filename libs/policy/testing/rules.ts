/**
 * What the rules' specs of every cloud share: inputs as a real preview hands them over (the policy SDK's own
 * proxy and unknown sentinels), and the checks of a cloud's rule set (one rule per file, type tokens the
 * installed provider package declares, the docs page listing every rule with its source).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import * as proxyModule from '@pulumi/policy/proxy';
import { policyResource, type ResourceUnderTest } from '.';
import type { SourcedPolicy } from '../src/rules/define';

// @pulumi/policy marks these @internal (absent from its typings); they are what its server hands to policies.
const proxy = proxyModule as unknown as {
  unknownCheckingProxy<V extends object>(value: V): V;
  unknownStringValue: string;
  unknownBooleanValue: string;
  unknownNumberValue: string;
  unknownArrayValue: string;
  unknownObjectValue: string;
  UnknownValueError: new (sentinel: string, props: string[]) => Error;
};

/** The sentinels a real preview puts where a value is not computed yet. */
export const UNKNOWN_STRING = proxy.unknownStringValue;
export const UNKNOWN_BOOLEAN = proxy.unknownBooleanValue;
export const UNKNOWN_NUMBER = proxy.unknownNumberValue;
export const UNKNOWN_ARRAY = proxy.unknownArrayValue;
export const UNKNOWN_OBJECT = proxy.unknownObjectValue;

/** The policy SDK's own error for reading an unknown value. */
export const UnknownValueError = proxy.UnknownValueError;

/** Props as the policy server passes them on a real preview: reading an unknown value throws. */
export function previewProps<P extends object>(props: P): P {
  return proxy.unknownCheckingProxy(props);
}

/** Resources as the policy SDK hands them over on a preview: reading an unknown input throws. */
export function onPreview(resources: ResourceUnderTest[]): ResourceUnderTest[] {
  return resources.map((resource) => ({ ...resource, props: previewProps(resource.props) }));
}

export function urnOf(resource: ResourceUnderTest): string {
  return policyResource(resource).urn;
}

const DOCS = join(__dirname, '..', '..', '..', 'docs');

/** A rule's row in a docs page's table: `| \`name\` | what it enforces | [resource types |] source |`. */
export interface DocumentedRule {
  name: string;
  /** The last cell. */
  source: string;
  row: string;
}

/** The rules a page of `docs/` lists, in its order. */
export function documentedRules(page: string): DocumentedRule[] {
  return readFileSync(join(DOCS, page), 'utf8')
    .split('\n')
    .flatMap((row) => {
      const name = /^\| `([a-z0-9-]+)` +\|/.exec(row)?.[1];
      if (name === undefined) return [];
      const cells = row.split(' | ');
      const source = (cells.at(-1) ?? '').replace(/\|\s*$/, '').trim();
      return [{ name, source, row }];
    });
}

/** The rules among `policies` whose docs row does not carry the source the rule reports (`rows` in the same order). */
export function sourceDrift(
  policies: readonly SourcedPolicy[],
  rows: readonly (DocumentedRule | undefined)[],
): string[] {
  return policies.filter((policy, index) => rows[index]?.source !== policy.source).map(({ name }) => name);
}

/** The docs page of a rule: `policies-<cloud>.md` for a cloud's rule, `policies.md` for a common one. */
export function docsPageOf(ruleName: string): string {
  const cloud = /^(aws|gcp|azure)-/.exec(ruleName)?.[1];
  return cloud === undefined ? 'policies.md' : `policies-${cloud}.md`;
}

const declared = new Map<string, Set<string>>();

/**
 * Every resource type token the installed provider package declares (in `modules` only, when given): the
 * cases of each module's `index.js`, where Pulumi's generated SDK registers the module's resources with
 * the runtime (`registerResourceModule`, whose `construct` switches on the type token to rebuild a
 * resource from its URN). They are the tokens the resource classes declare as `__pulumiType` (the same
 * sets, checked on aws 7.48, gcp 9.37 and azure-native 3.28: 1,738, 1,477 and, in the seven modules the
 * rules read, 228), read from about 400 small files instead of the 5,300 that declare the classes (36 MB),
 * which on a cold disk cost this project's tests seconds.
 */
export function sdkTypeTokens(packageName: string, modules?: readonly string[]): Set<string> {
  const key = [packageName, ...(modules ?? [])].join(' ');
  const known = declared.get(key);
  if (known) return known;
  const root = dirname(require.resolve(`${packageName}/package.json`));
  const folders =
    modules ??
    readdirSync(root, { withFileTypes: true })
      .filter((entry) => entry.isDirectory() && entry.name !== 'node_modules' && entry.name !== 'types')
      .map((entry) => entry.name);
  const tokens = new Set<string>();
  for (const folder of folders) {
    const index = join(root, folder, 'index.js');
    if (!existsSync(index)) continue;
    const text = readFileSync(index, 'utf8');
    for (const match of text.matchAll(/case "([^"]+)":\s*return new exports\./g))
      tokens.add(match[1] as string);
  }
  declared.set(key, tokens);
  return tokens;
}

/** A cloud's rule set, as its `index.spec.ts` checks it. */
export interface CloudRules {
  /** The rules' name prefix and docs page (`docs/policies-<cloud>.md`). */
  cloud: 'aws' | 'gcp' | 'azure';
  /** The cloud's rules, in the order its docs page lists them. */
  policies: readonly SourcedPolicy[];
  /** The rules' folder (`__dirname` of the spec). */
  folder: string;
  /** What every rule's name looks like. */
  namePattern: RegExp;
  /** The provider package the type tokens come from, and the modules of it to read (all when omitted). */
  sdk: { package: string; modules?: readonly string[] };
  /** What the provider's type tokens start with, before the first colon: `aws`, `gcp`, `azure-native`. */
  tokenPrefix: string;
  /** The fewest type tokens the rules' sources quote: the scan must find them. */
  leastTokens: number;
}

/** Spec helpers of a cloud's rules: `spec-helpers.ts` (AWS, Azure), `testing.ts` (GCP). */
const SPEC_HELPERS: readonly string[] = ['spec-helpers.ts', 'testing.ts'];

/** Files of the rules' folder that are neither specs nor spec helpers. */
function sources(folder: string): string[] {
  return readdirSync(folder).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && !SPEC_HELPERS.includes(file),
  );
}

/** The type tokens written in the rules' sources (not their specs and spec helpers). */
export function tokensInSources({ folder, tokenPrefix }: CloudRules): string[] {
  const quoted = new RegExp(`'(${tokenPrefix}:[A-Za-z0-9/]+:[A-Za-z0-9]+)'`, 'g');
  return sources(folder).flatMap((file) =>
    [...readFileSync(join(folder, file), 'utf8').matchAll(quoted)].map((match) => match[1] as string),
  );
}

/**
 * The checks every cloud's rule set passes: one rule per file, each named for its cloud, mandatory, with a
 * source and a spec beside it; every type token its sources quote declared by the installed provider
 * package; its docs page listing every rule, in order, with its source.
 */
export function describeCloudRules(rules: CloudRules): void {
  const { cloud, policies, folder } = rules;

  it(`one rule per file, each named ${cloud}-*, mandatory, with a source and a spec beside it`, () => {
    const files = readdirSync(folder)
      .filter((file) => file.startsWith(`${cloud}-`) && file.endsWith('.ts') && !file.endsWith('.spec.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    expect(policies.map((policy) => policy.name).sort()).toEqual(files.sort());
    for (const policy of policies) {
      expect(policy.name).toMatch(rules.namePattern);
      expect(policy.source.length).toBeGreaterThan(20);
      expect(policy.enforcementLevel).toBe('mandatory');
      expect(readdirSync(folder)).toContain(`${policy.name}.spec.ts`);
    }
  });

  it(`matches type tokens the installed ${rules.sdk.package} really declares`, () => {
    const sdk = sdkTypeTokens(rules.sdk.package, rules.sdk.modules);
    const tokens = tokensInSources(rules);
    expect(tokens.length).toBeGreaterThanOrEqual(rules.leastTokens);
    expect([...new Set(tokens)].filter((token) => !sdk.has(token))).toEqual([]);
  });

  it(`are all listed in docs/policies-${cloud}.md, in order, with their source`, () => {
    const rows = documentedRules(`policies-${cloud}.md`);
    expect(rows.map((row) => row.name)).toEqual(policies.map((policy) => policy.name));
    for (const row of rows) expect(row.source).not.toBe('');
    expect(sourceDrift(policies, rows)).toEqual([]);
  });
}
