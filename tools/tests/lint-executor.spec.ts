/**
 * The `lint` executor (tools/nx/lint.cjs) on a workspace of its own: what passes and fails a task, and
 * what its output says. ESLint loads its config with `import()`, which a jest test file cannot make, so
 * the executor runs in one node process for every case.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { run, tempDir, WORKSPACE } from './helpers';

const EXECUTOR = join(WORKSPACE, 'tools', 'nx', 'lint.cjs');

interface Result {
  task: string;
  success: boolean;
  terminalOutput: string;
}

/** A workspace with one folder per case, linted by `lintBatch` as nx would hand it the tasks. */
function lintWorkspace(folders: Record<string, Record<string, string>>): {
  results: Result[];
  single: { success: boolean; stdout: string };
} {
  const root = tempDir('lint-executor-');
  writeFileSync(
    join(root, 'eslint.config.mjs'),
    "export default [{ files: ['**/*.js'], rules: { eqeqeq: 'error', 'no-unused-vars': 'warn' } }];\n",
  );
  for (const [folder, files] of Object.entries(folders)) {
    mkdirSync(join(root, folder), { recursive: true });
    for (const [name, text] of Object.entries(files)) writeFileSync(join(root, folder, name), text);
  }
  const projects = Object.keys(folders);
  const script = `
    const { lint, lintBatch } = require(${JSON.stringify(EXECUTOR)});
    const root = ${JSON.stringify(root)};
    const projects = ${JSON.stringify(projects)};
    const tasks = Object.fromEntries(projects.map((p) => [p + ':lint', { id: p + ':lint', target: { project: p, target: 'lint' } }]));
    const nodes = Object.fromEntries(projects.map((p) => [p, { data: { root: p } }]));
    (async () => {
      const results = [];
      for await (const { task, result } of lintBatch({ tasks }, {}, {}, { root, projectGraph: { nodes } }))
        results.push({ task, success: result.success, terminalOutput: result.terminalOutput });
      const written = [];
      const write = process.stdout.write.bind(process.stdout);
      process.stdout.write = (text) => (written.push(String(text)), true);
      const { success } = await lint({}, { root, projectName: 'error', projectsConfigurations: { projects: { error: { root: 'error' } } } });
      process.stdout.write = write;
      console.log(JSON.stringify({ results, single: { success, stdout: written.join('') } }));
    })();
  `;
  const outcome = run(process.execPath, ['-e', script], { cwd: root, env: { FORCE_COLOR: '0' } });
  expect(outcome.stderr).toBe('');
  return JSON.parse(outcome.stdout) as ReturnType<typeof lintWorkspace>;
}

describe('the lint executor', () => {
  let linted: ReturnType<typeof lintWorkspace>;

  beforeAll(() => {
    linted = lintWorkspace({
      clean: { 'a.js': 'export const same = (a, b) => a === b;\n' },
      error: { 'b.js': 'export const same = (a, b) => a == b;\n' },
      warning: { 'c.js': 'const unused = 1;\nexport const two = 2;\n' },
      empty: { 'notes.txt': 'no JavaScript here\n' },
    });
  });

  const result = (project: string) => linted.results.find((entry) => entry.task === `${project}:lint`);

  it('runs every task of the batch, in one ESLint, each with its own result', () => {
    expect(linted.results.map((entry) => entry.task)).toEqual([
      'clean:lint',
      'error:lint',
      'warning:lint',
      'empty:lint',
    ]);
  });

  it('passes a folder without a problem', () => {
    expect(result('clean')).toMatchObject({ success: true, terminalOutput: '' });
  });

  it("fails a folder with an error, and says where and which rule, in that task's output only", () => {
    expect(result('error')?.success).toBe(false);
    expect(result('error')?.terminalOutput).toMatch(
      /error[\\/]b\.js\n\s+1:\d+\s+error\s+Expected '===' .*eqeqeq/,
    );
    expect(result('clean')?.terminalOutput).not.toContain('b.js');
  });

  it('fails a folder with only a warning, as --max-warnings=0 does', () => {
    expect(result('warning')?.success).toBe(false);
    expect(result('warning')?.terminalOutput).toMatch(
      /warning\s+'unused' is assigned a value but never used/,
    );
  });

  it("fails a folder with nothing to lint with ESLint's reason, and lints the others", () => {
    expect(result('empty')?.success).toBe(false);
    expect(result('empty')?.terminalOutput).toBe("eslint empty: All files matched by 'empty' are ignored.\n");
  });

  it('runs one task on its own the same way, its output on stdout', () => {
    expect(linted.single.success).toBe(false);
    expect(linted.single.stdout).toBe(result('error')?.terminalOutput);
  });
});
