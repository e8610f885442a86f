import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { awsPolicies } from '.';

const rulesFolder = __dirname;
const docsFile = join(__dirname, '..', '..', '..', '..', '..', 'docs', 'policies-aws.md');

/** Every `__pulumiType` the installed @pulumi/aws declares. */
function sdkTypeTokens(): Set<string> {
  const root = dirname(require.resolve('@pulumi/aws/package.json'));
  const tokens = new Set<string>();
  for (const folder of readdirSync(root, { withFileTypes: true })) {
    if (!folder.isDirectory() || folder.name === 'node_modules' || folder.name === 'types') continue;
    for (const file of readdirSync(join(root, folder.name))) {
      if (!file.endsWith('.js')) continue;
      const text = readFileSync(join(root, folder.name, file), 'utf8');
      for (const match of text.matchAll(/__pulumiType = '([^']+)'/g)) tokens.add(match[1] as string);
    }
  }
  return tokens;
}

/** The type tokens written in the rules' sources (not their specs). */
function tokensInRules(): string[] {
  const sources = readdirSync(rulesFolder).filter(
    (file) => file.endsWith('.ts') && !file.endsWith('.spec.ts') && file !== 'spec-helpers.ts',
  );
  return sources.flatMap((file) =>
    [
      ...readFileSync(join(rulesFolder, file), 'utf8').matchAll(
        /'(aws:[A-Za-z0-9]+\/[A-Za-z0-9]+:[A-Za-z0-9]+)'/g,
      ),
    ].map((match) => match[1] as string),
  );
}

describe('awsPolicies', () => {
  it('one rule per file, each named aws-*, mandatory, with a source and a spec beside it', () => {
    const files = readdirSync(rulesFolder)
      .filter((file) => /^aws-.*\.ts$/.test(file) && !file.endsWith('.spec.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    expect(awsPolicies.map((policy) => policy.name).sort()).toEqual(files.sort());
    for (const policy of awsPolicies) {
      expect(policy.name).toMatch(/^aws-(s3|kms|iam)-[a-z0-9-]+$/);
      expect(policy.source.length).toBeGreaterThan(20);
      expect(policy.enforcementLevel).toBe('mandatory');
      expect(readdirSync(rulesFolder)).toContain(`${policy.name}.spec.ts`);
    }
  });

  it('matches type tokens the AWS provider SDK really declares', () => {
    const sdk = sdkTypeTokens();
    const tokens = tokensInRules();
    expect(tokens.length).toBeGreaterThan(30);
    expect([...new Set(tokens)].filter((token) => !sdk.has(token))).toEqual([]);
  });

  it('are all listed in docs/policies-aws.md, in order, with their source', () => {
    const rows = readFileSync(docsFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `aws-'));
    expect(rows.map((row) => /`(aws-[a-z0-9-]+)`/.exec(row)?.[1])).toEqual(
      awsPolicies.map((policy) => policy.name),
    );
    awsPolicies.forEach((policy, index) => {
      expect(rows[index]).toContain(policy.source);
    });
  });
});
