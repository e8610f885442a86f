import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { azurePolicies } from '.';
import { T } from './support';

const rulesFolder = __dirname;
const docsFile = join(__dirname, '..', '..', '..', '..', '..', 'docs', 'policies-azure.md');

/** Every `__pulumiType` the installed @pulumi/azure-native declares in the modules the rules read. */
function sdkTypeTokens(): Set<string> {
  const root = dirname(require.resolve('@pulumi/azure-native/package.json'));
  const tokens = new Set<string>();
  for (const module of ['storage', 'keyvault', 'authorization', 'resources', 'managedidentity']) {
    for (const file of readdirSync(join(root, module))) {
      if (!file.endsWith('.js')) continue;
      const text = readFileSync(join(root, module, file), 'utf8');
      for (const match of text.matchAll(/__pulumiType = '([^']+)'/g)) tokens.add(match[1] as string);
    }
  }
  return tokens;
}

describe('azurePolicies', () => {
  it('one rule per file, each named azure-*, mandatory, with a source and a spec beside it', () => {
    const files = readdirSync(rulesFolder)
      .filter((file) => /^azure-.*\.ts$/.test(file) && !file.endsWith('.spec.ts'))
      .map((file) => file.replace(/\.ts$/, ''));
    expect(azurePolicies.map((policy) => policy.name).sort()).toEqual(files.sort());
    for (const policy of azurePolicies) {
      expect(policy.name).toMatch(/^azure-(storage|keyvault|rbac)-[a-z0-9-]+$/);
      expect(policy.source.length).toBeGreaterThan(20);
      expect(policy.enforcementLevel).toBe('mandatory');
      expect(readdirSync(rulesFolder)).toContain(`${policy.name}.spec.ts`);
    }
  });

  it('matches type tokens the azure-native SDK really declares', () => {
    const sdk = sdkTypeTokens();
    expect(Object.values(T).filter((token) => !sdk.has(token))).toEqual([]);
  });

  it('are all listed in docs/policies-azure.md, in order, with their source', () => {
    const rows = readFileSync(docsFile, 'utf8')
      .split('\n')
      .filter((line) => line.startsWith('| `azure-'));
    expect(rows.map((row) => /`(azure-[a-z0-9-]+)`/.exec(row)?.[1])).toEqual(
      azurePolicies.map((policy) => policy.name),
    );
    azurePolicies.forEach((policy, index) => {
      expect(rows[index]).toContain(policy.source);
    });
  });
});
