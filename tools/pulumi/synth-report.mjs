#!/usr/bin/env node
/**
 * The offline renders (synth) as one report: Markdown for the pull request's synth comment and the
 * job summary, or plain text for a terminal and CI logs (`npm start` prints it after the renders).
 *
 *   checkpoints-synth-report [DIR] [--format=markdown|text] [--previews=DIR] [--note=TEXT]
 *
 * Reads DIR/<project>/<stack>.json (default dist/synth, as `nx run <project>:synth` writes them,
 * format in DESIGN section 6), and with --previews the summaries of the real previews,
 * <previews>/<project>/<stack>.json as `checkpoints-pulumi preview --summary=FILE` writes them. Each part of the report is one section function: a section for
 * every render in TEXT_SECTIONS, one for all renders in MARKDOWN_SECTIONS. A new part of the
 * render (e.g. its `analysis`) gets its own section function added to those lists.
 * The Markdown's first line is the marker the workflow finds its comment by.
 */
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

export const MARKER = '<!-- checkpoints:synth-report -->';
/** GitHub refuses comments over 65,536 characters; stay well below. */
export const MAX_LENGTH = 60_000;
/** Terminal lines are wrapped at this width. */
const WIDTH = 100;

/**
 * @typedef {{ type: string, name: string, custom?: boolean, protect?: boolean }} Resource
 * @typedef {{ policy: string, level: string, urn?: string, message: string }} Violation
 * @typedef {{ status: string, exitStatus?: number, changes: Record<string, number> | null,
 *   violations: Violation[] }} Preview what `checkpoints-pulumi preview --summary` wrote; status
 *   succeeded | failed | new-stack
 * @typedef {{ folder: string, file: string, project: string, stack: string, resources: Resource[],
 *   violations: Violation[], snapshot: Record<string, unknown>, preview?: Preview }} Render
 * @typedef {(render: Render) => string[]} RenderSection lines about one render
 * @typedef {(renders: Render[]) => string[]} ReportSection lines about every render
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
        snapshot,
      });
    }
  }
  return renders.sort((a, b) => a.folder.localeCompare(b.folder) || a.stack.localeCompare(b.stack));
}

/**
 * Attaches each real preview's summary (<dir>/<folder>/<stack>.json) to the render of the same
 * stack.
 * @param {Render[]} renders
 * @param {string} dir
 */
export function attachPreviews(renders, dir) {
  for (const render of renders) {
    const file = join(dir, render.folder, `${render.stack}.json`);
    if (!existsSync(file)) continue;
    const summary = JSON.parse(readFileSync(file, 'utf8'));
    render.preview = {
      status: String(summary.status ?? 'failed'),
      exitStatus: typeof summary.exitStatus === 'number' ? summary.exitStatus : undefined,
      changes: summary.changes && typeof summary.changes === 'object' ? summary.changes : null,
      violations: Array.isArray(summary.violations) ? summary.violations : [],
    };
  }
  return renders;
}

/** @param {Violation[]} violations @param {string} level */
function count(violations, level) {
  return violations.filter((violation) => violation.level === level).length;
}

/** @param {Render} render */
function verdict(render) {
  const mandatory = count(render.violations, 'mandatory');
  const advisory = count(render.violations, 'advisory');
  if (mandatory > 0) return `FAIL (${mandatory} mandatory, ${advisory} advisory)`;
  return advisory > 0 ? `pass (${advisory} advisory)` : 'pass';
}

/** @param {Render} render */
const stackLabel = (render) => `${render.folder}/${render.stack}`;

/** @param {string | undefined} urn the resource's name, the last part of its URN */
const resourceName = (urn) => urn?.split('::').pop() ?? '';

/**
 * `aws:s3/bucket:Bucket` -> `['aws', 's3/Bucket']`, `azure-native:storage:StorageAccount` ->
 * `['azure-native', 'storage/StorageAccount']`: short enough for a line, and the module keeps two
 * `IAMMember`s of different modules apart.
 * @param {string} type
 * @returns {[string, string]} the provider and the short kind
 */
export function shortType(type) {
  const [provider = '', module = '', name = type] = type.split(':');
  return [provider, `${module.split('/')[0]}/${name}`];
}

/**
 * Fixed-width columns; the columns listed in `right` are right-aligned.
 * @param {string[][]} rows
 * @param {number[]} right
 */
function columns(rows, right = []) {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((row) => (row[i] ?? '').length))) ?? [];
  return rows.map((row) =>
    row
      .map((value, i) => (right.includes(i) ? value.padStart(widths[i] ?? 0) : value.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

/**
 * Items joined by ', ' into lines of at most WIDTH characters, each starting with `indent`.
 * @param {string[]} items
 * @param {string} indent
 */
function wrap(items, indent) {
  /** @type {string[]} */
  const lines = [];
  let line = '';
  for (const item of items) {
    const next = line === '' ? item : `${line}, ${item}`;
    if (line !== '' && indent.length + next.length > WIDTH) {
      lines.push(`${indent}${line},`);
      line = item;
    } else {
      line = next;
    }
  }
  if (line !== '') lines.push(`${indent}${line}`);
  return lines;
}

/** @type {ReportSection} the one-line-per-stack overview */
export function textOverview(renders) {
  const rows = [
    ['STACK', 'PULUMI PROJECT', 'RESOURCES', 'PROTECTED', 'POLICIES'],
    ...renders.map((r) => [
      stackLabel(r),
      r.project,
      String(r.resources.length),
      String(r.resources.filter((resource) => resource.protect).length),
      verdict(r),
    ]),
  ];
  return columns(rows, [2, 3]);
}

/** @type {RenderSection} what the stack creates, counted by provider and kind */
export function textResources(render) {
  /** @type {Map<string, Map<string, number>>} */
  const byProvider = new Map();
  for (const resource of render.resources.filter((each) => each.custom)) {
    const [provider, kind] = shortType(resource.type);
    const kinds = byProvider.get(provider) ?? new Map();
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1);
    byProvider.set(provider, kinds);
  }
  const cloud = render.resources.filter((each) => each.custom).length;
  const components = render.resources.filter((each) => !each.custom && each.type !== 'pulumi:pulumi:Stack');
  const lines = [
    `  resources: ${cloud} in the cloud` +
      (components.length > 0 ? `, in components ${components.map((c) => c.name).join(', ')}` : ''),
  ];
  const width = Math.max(0, ...[...byProvider.keys()].map((provider) => provider.length));
  for (const [provider, kinds] of [...byProvider].sort(([a], [b]) => a.localeCompare(b))) {
    const items = [...kinds].sort(([a], [b]) => a.localeCompare(b)).map(([kind, n]) => `${n} ${kind}`);
    const indent = `    ${`${provider}:`.padEnd(width + 2)}`;
    const [first = '', ...rest] = wrap(items, ' '.repeat(indent.length));
    lines.push(`${indent}${first.trimStart()}`, ...rest);
  }
  return lines;
}

/** @type {RenderSection} the policy pack's verdict and every violation */
export function textPolicies(render) {
  const lines = [`  policies:  ${verdict(render)}`];
  for (const violation of render.violations) {
    lines.push(
      `    ${violation.level} ${violation.policy} on ${resourceName(violation.urn) || 'the stack'}: ${violation.message}`,
    );
  }
  return lines;
}

/** @type {RenderSection} the real preview's changes, when there was one */
export function textPreview(render) {
  const preview = render.preview;
  if (!preview) return [];
  if (preview.status === 'new-stack') return ['  preview:   none, a new stack (its first deploy creates it)'];
  if (preview.status !== 'succeeded' || !preview.changes) {
    return [`  preview:   failed (exit ${preview.exitStatus ?? '?'})`];
  }
  const c = previewCounts(preview);
  return [
    `  preview:   ${c.create} to create, ${c.update} to update, ${c.replace} to replace, ${c.delete} to delete; ` +
      `${count(preview.violations, 'mandatory')} mandatory violation(s)`,
  ];
}

/** The parts of the terminal report about one render, in order. */
export const TEXT_SECTIONS = [textResources, textPolicies, textPreview];

/**
 * @param {Render[]} renders
 * @param {{ note?: string, dir?: string }} options
 */
export function formatText(renders, options = {}) {
  const where = options.dir ?? 'dist/synth';
  // The blank first line sets the report apart from the lines of the command before it (nx's summary).
  const head = [
    '',
    `Offline render (synth): ${renders.length} stack(s), from ${where}/<project>/<stack>.json`,
  ];
  if (options.note) head.push(options.note);
  if (renders.length === 0) return [...head, '', 'Nothing was rendered.', ''].join('\n');
  const blocks = renders.map((render) => [
    `${stackLabel(render)} (${render.project})`,
    ...TEXT_SECTIONS.flatMap((section) => section(render)),
  ]);
  const body = blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block]));
  return [...head, '', ...textOverview(renders), '', ...body, ''].join('\n');
}

/** @type {ReportSection} */
export function markdownOverview(renders) {
  return [
    '| nx project | Pulumi project | stack | resources | mandatory violations | advisory |',
    '| --- | --- | --- | ---: | ---: | ---: |',
    ...renders.map(
      (r) =>
        `| ${cell(r.folder)} | ${cell(r.project)} | ${cell(r.stack)} | ${r.resources.length} | ` +
        `${count(r.violations, 'mandatory')} | ${count(r.violations, 'advisory')} |`,
    ),
    '',
  ];
}

/** @type {ReportSection} */
export function markdownViolations(renders) {
  const violations = renders.flatMap((r) => r.violations.map((v) => ({ render: r, violation: v })));
  if (violations.length === 0) return ['No policy violation.', ''];
  return [
    '### Policy violations',
    '',
    '| nx project | stack | level | policy | resource | message |',
    '| --- | --- | --- | --- | --- | --- |',
    ...violations.map(
      ({ render, violation }) =>
        `| ${cell(render.folder)} | ${cell(render.stack)} | ${cell(violation.level)} | ` +
        `${cell(violation.policy)} | ${cell(resourceName(violation.urn))} | ${cell(violation.message)} |`,
    ),
    '',
  ];
}

/** @type {ReportSection} every resource, one collapsed table per render */
export function markdownResources(renders) {
  const details = renders.map((render) =>
    [
      `<details><summary>${cell(render.folder)} / ${cell(render.stack)}: ${render.resources.length} resources</summary>`,
      '',
      '| type | name | protected |',
      '| --- | --- | --- |',
      ...render.resources.map(
        (resource) =>
          `| ${cell(resource.type)} | ${cell(resource.name)} | ${resource.protect ? 'yes' : ''} |`,
      ),
      '',
      '</details>',
    ].join('\n'),
  );
  return ['### Resources', '', ...details, ''];
}

/**
 * The counts a preview's summary gives for one kind of change. Pulumi's operation names
 * (apitype.OpType): a replacement shows as `replace` (with `create-replacement` and
 * `delete-replaced` steps around it, not counted again).
 * @param {Preview} preview
 */
function previewCounts(preview) {
  const changes = preview.changes ?? {};
  const n = (/** @type {string} */ op) => Number(changes[op] ?? 0);
  return { create: n('create'), update: n('update'), replace: n('replace'), delete: n('delete') };
}

/** @type {ReportSection} the real previews beside the offline render: what would change in the cloud */
export function markdownPreviews(renders) {
  if (!renders.some((render) => render.preview)) return [];
  const rows = renders.map((render) => {
    const preview = render.preview;
    /** A row with no counts, only what there is to say instead. */
    const only = (/** @type {string} */ note) => ['', '', '', '', '', '', note];
    /** @type {unknown[]} */
    let cells;
    if (!preview) {
      cells = only('offline render only');
    } else if (preview.status === 'new-stack') {
      cells = only('new stack: its first deploy creates it; the offline render is its preview');
    } else if (preview.status !== 'succeeded' || !preview.changes) {
      cells = only(`**preview failed** (exit ${preview.exitStatus ?? '?'}): see the preview job's log`);
    } else {
      const c = previewCounts(preview);
      const mandatory = count(preview.violations, 'mandatory');
      const verdict =
        mandatory > 0 ? '**policy violated**' : c.replace + c.delete > 0 ? '**replaces or deletes**' : 'ok';
      cells = [
        c.create,
        c.update,
        c.replace,
        c.delete,
        mandatory,
        preview.violations.length - mandatory,
        verdict,
      ];
    }
    return `| ${[render.folder, render.stack].map(cell).join(' | ')} | ${cells.map((value) => String(value)).join(' | ')} |`;
  });
  const violations = renders.flatMap((render) =>
    (render.preview?.violations ?? []).map(
      (v) =>
        `| ${cell(render.folder)} | ${cell(render.stack)} | ${cell(v.level)} | ${cell(v.policy)} | ` +
        `${cell(resourceName(v.urn))} | ${cell(v.message)} |`,
    ),
  );
  return [
    '### Real preview (`pulumi preview` against the cloud, with the policy pack)',
    '',
    '| nx project | stack | create | update | replace | delete | mandatory violations | advisory | |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
    ...rows,
    '',
    ...(violations.length === 0
      ? []
      : [
          '| nx project | stack | level | policy | resource | message |',
          '| --- | --- | --- | --- | --- | --- |',
          ...violations,
          '',
        ]),
  ];
}

/** The parts of the Markdown report that must fit in the comment, in order. */
export const MARKDOWN_SECTIONS = [markdownOverview, markdownPreviews, markdownViolations];
/** What is left out when the comment would be too long. */
export const MARKDOWN_DETAILS = [markdownResources];

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
  const body = [...head, ...MARKDOWN_SECTIONS.flatMap((section) => section(renders))].join('\n');
  const details = MARKDOWN_DETAILS.flatMap((section) => section(renders)).join('\n');
  const full = `${body}\n${details}`;
  if (full.length <= (options.maxLength ?? MAX_LENGTH)) return full;
  return `${body}\n_The resource lists are left out: too long for a comment. The job log has every table._\n`;
}

const USAGE = 'usage: checkpoints-synth-report [DIR] [--format=markdown|text] [--previews=DIR] [--note=TEXT]';

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
      options: {
        note: { type: 'string' },
        format: { type: 'string', default: 'markdown' },
        previews: { type: 'string' },
      },
    });
  } catch (error) {
    console.error(`checkpoints-synth-report: ${/** @type {Error} */ (error).message}\n${USAGE}`);
    return 2;
  }
  const format = parsed.values.format;
  if (format !== 'markdown' && format !== 'text') {
    console.error(`checkpoints-synth-report: --format=${format}: allowed: markdown | text\n${USAGE}`);
    return 2;
  }
  const given = parsed.positionals[0] ?? join('dist', 'synth');
  /** @type {{ note?: string }} */
  const options = {};
  if (parsed.values.note) options.note = parsed.values.note;
  const renders = readRenders(resolve(given));
  if (parsed.values.previews) attachPreviews(renders, resolve(parsed.values.previews));
  process.stdout.write(
    format === 'text' ? formatText(renders, { ...options, dir: given }) : formatReport(renders, options),
  );
  return 0;
}

if (process.argv[1] && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = main(process.argv.slice(2));
}
