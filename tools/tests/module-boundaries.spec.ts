import { execFileSync } from 'node:child_process';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');

interface Case {
  filePath: string;
  code: string;
}

/**
 * Lints each text as if it were the named file, with the repository's own ESLint config, in one ESLint
 * process (the config is ESM, which ESLint loads through Node's own loader, not jest's), and returns the
 * messages of the boundary rule for each case.
 */
function boundaryMessages(cases: Case[]): string[][] {
  const script = `
    const { ESLint } = require('eslint');
    const cases = JSON.parse(process.argv[1]);
    (async () => {
      const eslint = new ESLint({ cwd: ${JSON.stringify(ROOT)} });
      const out = [];
      for (const { filePath, code } of cases) {
        const [result] = await eslint.lintText(code, { filePath });
        out.push(result.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message));
      }
      process.stdout.write(JSON.stringify(out));
    })();`;
  return JSON.parse(
    execFileSync(process.execPath, ['-e', script, JSON.stringify(cases)], { cwd: ROOT, encoding: 'utf8' }),
  ) as string[][];
}

const importOf = (specifier: string) => `import * as lib from '${specifier}';\nexport const used = lib;\n`;

describe('module boundaries (nx tags -> lint)', () => {
  const cases: Array<Case & { refused: boolean }> = [
    { filePath: 'stacks/aws-s3/src/program.ts', code: importOf('@checkpoints/analysis'), refused: true },
    { filePath: 'stacks/gcp-gcs/index.ts', code: importOf('@checkpoints/policy'), refused: true },
    { filePath: 'stacks/azure-adls/src/account.ts', code: importOf('@checkpoints/synth'), refused: true },
    {
      filePath: 'bootstrap/src/aws/policies.ts',
      code: importOf('@checkpoints/analysis/src/access'),
      refused: true,
    },
    { filePath: 'bootstrap/src/gcp/x.ts', code: importOf('../../../libs/policy/src/rules'), refused: true },
    { filePath: 'libs/config/src/x.ts', code: importOf('@checkpoints/aws-s3'), refused: true },
    { filePath: 'libs/translate/src/aws/x.ts', code: importOf('@pulumi/aws/s3'), refused: true },
    { filePath: 'stacks/aws-s3/src/program.ts', code: importOf('@checkpoints/translate'), refused: false },
    { filePath: 'bootstrap/src/aws/policies.ts', code: importOf('@checkpoints/config'), refused: false },
    {
      filePath: 'stacks/aws-s3/tests/render.spec.ts',
      code: importOf('@checkpoints/analysis'),
      refused: false,
    },
  ];
  const messages = boundaryMessages(cases);

  it.each(cases.map((c, i) => [c.filePath, c.code.split("'")[1], c.refused, i] as const))(
    '%s importing %s: refused=%s',
    (_file, _specifier, refused, index) => {
      expect((messages[index] ?? []).length > 0).toBe(refused);
    },
  );

  it('names the libs deploy-time code may import', () => {
    expect(messages[0]?.[0]).toMatch(/deploy-time code .* @checkpoints\/translate/);
  });
});
