#!/usr/bin/env node
/**
 * The offline render (synth) of every stack a change touches, as one Markdown report: the body
 * of the pull request's synth comment and of the job summary.
 *
 *   checkpoints-synth-report [DIR] [--note=TEXT]
 *
 * Reads DIR/<project>/<stack>.json (default dist/synth, as `nx run <project>:synth` writes
 * them) and prints Markdown. The first line is the marker the workflow finds its comment by.
 */
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const MARKER = '<!-- checkpoints:synth-report -->';
/** GitHub refuses comments over 65,536 characters; stay well below. */
export const MAX_LENGTH = 60_000;

/**
 * @typedef {{ type: string, name: string, custom?: boolean, protect?: boolean }} Resource
 * @typedef {{ policy: string, level: string, urn?: string, message: string }} Violation
 * @typedef {{ folder: string, file: string, project: string, stack: string, resources: Resource[], violations: Violation[] }} Render
 */

/** @param {unknown} text */
function cell(text) {
  return String(text ?? '')
    .replace(/\|/g, '\\|')
    .replace(/\r?\n/g, ' ');
}

/**
 * Every <folder>/<stack>.json under dir, sorted by folder then stack.
 * @param {string} dir
 * @returns {Render[]}
 */
export function readRenders(dir) {
  if (!existsSync(dir)) return [];
  /** @type {Render[]} */
  const renders = [];
  for (const folder of readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(dir, folder.name)).filter((name) => name.endsWith('.json'))) {
      const snapshot = JSON.parse(readFileSync(join(dir, folder.name, file), 'utf8'));
      renders.push({
        folder: folder.name,
        file: join(folder.name, file),
        project: String(snapshot.project ?? folder.name),
        stack: String(snapshot.stack ?? file.replace(/\.json$/, '')),
        resources: Array.isArray(snapshot.resources) ? snapshot.resources : [],
        violations: Array.isArray(snapshot.violations) ? snapshot.violations : [],
      });
    }
  }
  return renders.sort((a, b) => a.folder.localeCompare(b.folder) || a.stack.localeCompare(b.stack));
}

/** @param {Violation[]} violations @param {string} level */
function count(violations, level) {
  return violations.filter((violation) => violation.level === level).length;
}

/** @param {Render} render */
function resourceDetails(render) {
  const rows = render.resources.map(
    (resource) => `| ${cell(resource.type)} | ${cell(resource.name)} | ${resource.protect ? 'yes' : ''} |`,
  );
  return [
    `<details><summary>${cell(render.folder)} / ${cell(render.stack)}: ${render.resources.length} resources</summary>`,
    '',
    '| type | name | protected |',
    '| --- | --- | --- |',
    ...rows,
    '',
    '</details>',
  ].join('\n');
}

/**
 * @param {Render[]} renders
 * @param {{ note?: string, maxLength?: number }} options
 */
export function formatReport(renders, options = {}) {
  const head = [MARKER, '## Offline render (synth)', ''];
  if (options.note) head.push(`> ${options.note}`, '');
  if (renders.length === 0) {
    return [...head, 'No stack is affected by this change: nothing was rendered.', ''].join('\n');
  }
  const summary = [
    '| nx project | Pulumi project | stack | resources | mandatory violations | advisory |',
    '| --- | --- | --- | ---: | ---: | ---: |',
    ...renders.map(
      (r) =>
        `| ${cell(r.folder)} | ${cell(r.project)} | ${cell(r.stack)} | ${r.resources.length} | ` +
        `${count(r.violations, 'mandatory')} | ${count(r.violations, 'advisory')} |`,
    ),
    '',
  ];
  const violations = renders.flatMap((r) => r.violations.map((v) => ({ render: r, violation: v })));
  const violationTable =
    violations.length === 0
      ? ['No policy violation.', '']
      : [
          '### Policy violations',
          '',
          '| nx project | stack | level | policy | resource | message |',
          '| --- | --- | --- | --- | --- | --- |',
          ...violations.map(
            ({ render, violation }) =>
              `| ${cell(render.folder)} | ${cell(render.stack)} | ${cell(violation.level)} | ` +
              `${cell(violation.policy)} | ${cell(violation.urn?.split('::').pop())} | ${cell(violation.message)} |`,
          ),
          '',
        ];
  const body = [...head, ...summary, ...violationTable].join('\n');
  const details = ['### Resources', '', ...renders.map(resourceDetails), ''].join('\n');
  const full = `${body}\n${details}`;
  if (full.length <= (options.maxLength ?? MAX_LENGTH)) return full;
  return `${body}\n_The resource lists are left out: too long for a comment. The job log has every table._\n`;
}

/**
 * @param {string[]} argv
 * @returns {number}
 */
export function main(argv) {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      strict: true,
      allowPositionals: true,
      options: { note: { type: 'string' } },
    });
  } catch (error) {
    console.error(
      `checkpoints-synth-report: ${/** @type {Error} */ (error).message}\nusage: checkpoints-synth-report [DIR] [--note=TEXT]`,
    );
    return 2;
  }
  const dir = resolve(parsed.positionals[0] ?? join('dist', 'synth'));
  /** @type {{ note?: string }} */
  const options = {};
  if (parsed.values.note) options.note = parsed.values.note;
  process.stdout.write(formatReport(readRenders(dir), options));
  return 0;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
