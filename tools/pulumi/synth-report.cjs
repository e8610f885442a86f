/**
 * The offline renders (synth) as one report: Markdown for the pull request's synth comment and the
 * job summary, or plain text for a terminal and CI logs (`npm start` prints it after the renders).
 *
 *   checkpoints-synth-report [DIR] [--format=markdown|text] [--previews=DIR] [--base-dir=DIR] [--note=TEXT]
 *
 * Reads DIR/<project>/<stack>.json (default dist/synth, as `nx run <project>:synth` writes them,
 * format in libs/render), and with --previews the summaries of the real previews,
 * <previews>/<project>/<stack>.json as `checkpoints-pulumi preview --summary=FILE` writes them, and
 * with --base-dir the renders of the pull request's base commit (the same layout as DIR), so the
 * retention and access sections show what the change does to them. Each part of the report is one section function: a section for
 * every render in TEXT_SECTIONS, one for all renders in MARKDOWN_SECTIONS. A new part of the
 * render (e.g. its `analysis`) gets its own section function added to those lists.
 * The Markdown's first line is the marker the workflow finds its comment by. The command line is
 * synth-report.mjs.
 */
const { existsSync, readFileSync, readdirSync, writeFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { println, processIo } = require('./process-io.cjs');
const review = require('./review.cjs');

const MARKER = '<!-- checkpoints:synth-report -->';
/** GitHub refuses comments over 65,536 characters; stay well below. */
const MAX_LENGTH = 60_000;
/** Terminal lines are wrapped at this width. */
const WIDTH = 100;

/**
 * @typedef {{ type: string, name: string, custom?: boolean, protect?: boolean }} Resource
 * @typedef {{ policy: string, level: string, urn?: string, message: string }} Violation
 * @typedef {{ status: string, exitStatus?: number, changes: Record<string, number> | null,
 *   violations: Violation[] }} Preview what `checkpoints-pulumi preview --summary` wrote; status
 *   succeeded | failed | new-stack
 * @typedef {{ exitStatus?: number, message?: string, issues?: { path: string, message: string }[] }} Failure
 *   what synth writes in place of a render it could not make (libs/synth/src/cli.ts `writeFailure`)
 * @typedef {{ folder: string, file: string, project: string, stack: string, resources: Resource[],
 *   violations: Violation[], snapshot: Record<string, unknown>, preview?: Preview, failure?: Failure,
 *   base?: Record<string, unknown> | null }} Render `base`: the base render of the stack (the deployed
 *   one, or the PR base commit's; null: --base-dir has none of it, undefined: no --base-dir)
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
function readRenders(dir) {
  if (!existsSync(dir)) return [];
  /** @type {Render[]} */
  const renders = [];
  for (const folder of readdirSync(dir, { withFileTypes: true })) {
    if (!folder.isDirectory()) continue;
    for (const file of readdirSync(join(dir, folder.name)).filter((name) => name.endsWith('.json'))) {
      const snapshot = JSON.parse(readFileSync(join(dir, folder.name, file), 'utf8'));
      /** @type {Render} */
      const render = {
        folder: folder.name,
        file: join(folder.name, file),
        project: String(snapshot.project ?? folder.name),
        stack: String(snapshot.stack ?? file.replace(/\.json$/, '')),
        resources: Array.isArray(snapshot.resources) ? snapshot.resources : [],
        violations: Array.isArray(snapshot.violations) ? snapshot.violations : [],
        snapshot,
      };
      // A file without resources is no render: synth's failure record, or something it cannot read, which
      // counts as a failed render rather than as an empty stack that passes.
      if (snapshot.failure && typeof snapshot.failure === 'object') render.failure = snapshot.failure;
      else if (!Array.isArray(snapshot.resources)) {
        render.failure = { message: `${join(folder.name, file)} is not a render synth wrote (no resources)` };
      }
      renders.push(render);
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
function attachPreviews(renders, dir) {
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

/**
 * Attaches each base render (<dir>/<folder>/<stack>.json) to the render of the same stack; a stack
 * the base has no render of gets `base: null`.
 * @param {Render[]} renders
 * @param {string} dir
 */
function attachBases(renders, dir) {
  for (const render of renders) {
    const file = join(dir, render.folder, `${render.stack}.json`);
    const base = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : null;
    // A base that is a failure record is no render to compare with.
    render.base = base && Array.isArray(base.resources) ? base : null;
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
function shortType(type) {
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
function textOverview(renders) {
  const rows = [
    ['STACK', 'PULUMI PROJECT', 'RESOURCES', 'PROTECTED', 'POLICIES', 'VERDICT'],
    ...renders.map((r) => [
      stackLabel(r),
      r.project,
      r.failure ? '-' : String(r.resources.length),
      r.failure ? '-' : String(r.resources.filter((resource) => resource.protect).length),
      r.failure ? '-' : verdict(r),
      review.verdictOf(r).verdict,
    ]),
  ];
  return columns(rows, [2, 3]);
}

/** @type {RenderSection} what the stack creates, counted by provider and kind */
function textResources(render) {
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
function textPolicies(render) {
  const lines = [`  policies:  ${verdict(render)}`];
  for (const violation of render.violations) {
    lines.push(
      `    ${violation.level} ${violation.policy} on ${resourceName(violation.urn) || 'the stack'}: ${violation.message}`,
    );
  }
  return lines;
}

/** @type {RenderSection} the real preview's changes, when there was one */
function textPreview(render) {
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

/**
 * One part of a render's `analysis` (libs/analysis), or undefined when the render has none.
 * @param {Record<string, unknown> | null | undefined} snapshot
 * @param {string} key
 * @returns {any}
 */
function analysisPart(snapshot, key) {
  const analysis = /** @type {Record<string, unknown> | undefined} */ (snapshot?.['analysis']);
  return analysis && typeof analysis === 'object' ? analysis[key] : undefined;
}

/**
 * @typedef {{ name: string, type: string, kind: string, holds?: string, changedInputs?: string[],
 *   replacedBy?: { input: string }[], protectedInBase?: boolean }} ResourceChange
 * @typedef {{ store: string, formerName?: string, status: string, resources: ResourceChange[] }} StorePlan
 * @typedef {{ stores: StorePlan[], others: ResourceChange[], notes: string[],
 *   dataLoss: { store?: string, message: string }[],
 *   refused: { store?: string, outcome?: string, message: string }[],
 *   weakening: { store?: string, message: string, acknowledgement?: string }[] }} ChangePlan `analysis.changes` as
 *   `checkpoints-synth --base` writes it (libs/analysis/src/changes/index.ts)
 */

/** @param {Render} render @returns {ChangePlan | undefined} */
function changePlanOf(render) {
  const plan = analysisPart(render.snapshot, 'changes');
  if (!plan || typeof plan !== 'object') return undefined;
  const list = (/** @type {unknown} */ value) => (Array.isArray(value) ? value : []);
  return {
    stores: list(plan.stores),
    others: list(plan.others),
    notes: list(plan.notes),
    dataLoss: list(plan.dataLoss),
    refused: list(plan.refused),
    weakening: list(plan.weakening),
  };
}

/** `2 updated, 1 replaced`: the resources that change, counted by kind. @param {ResourceChange[]} changes */
function changeCounts(changes) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const change of changes.filter((each) => each.kind !== 'unchanged')) {
    counts.set(change.kind, (counts.get(change.kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, n]) => `${n} ${kind}`).join(', ');
}

/** `bucket llm-x (aws:s3/bucket:Bucket) [data], forced by bucket` @param {ResourceChange} change */
function replacedLine(change) {
  const inputs = (change.replacedBy ?? []).map((input) => input.input).join(', ');
  return (
    `${change.name} (${change.type})${change.holds ? ` [${change.holds}]` : ''}` +
    (inputs ? `, forced by ${inputs}` : '')
  );
}

/** @param {StorePlan} store */
const storeTitle = (store) => `${store.store}${store.formerName ? ` (formerly ${store.formerName})` : ''}`;

/** @type {RenderSection} what the change does to each store, against the PR base (`analysis.changes`) */
function textChangePlan(render) {
  const plan = changePlanOf(render);
  if (!plan) return [];
  const lines = [];
  const unchanged = plan.stores.filter(
    (store) => store.status === 'unchanged' && !changeCounts(store.resources),
  );
  for (const store of plan.stores.filter((each) => !unchanged.includes(each))) {
    const counts = changeCounts(store.resources);
    lines.push(`    store ${storeTitle(store)}: ${store.status}${counts ? ` (${counts})` : ''}`);
    for (const change of store.resources.filter((each) => each.kind === 'replaced')) {
      lines.push(`      replaced: ${replacedLine(change)}`);
    }
  }
  if (unchanged.length > 0) lines.push(`    unchanged: ${unchanged.map(storeTitle).join(', ')}`);
  const others = changeCounts(plan.others);
  if (others) lines.push(`    outside the stores: ${others}`);
  for (const change of plan.others.filter((each) => each.kind === 'replaced')) {
    lines.push(`      replaced: ${replacedLine(change)}`);
  }
  for (const note of plan.notes) lines.push(`    note: ${note}`);
  for (const loss of plan.dataLoss) lines.push(`    DATA LOSS: ${loss.message}`);
  for (const refused of plan.refused) {
    lines.push(`    ${refused.outcome === 'ignored' ? 'IGNORED' : 'REFUSED'}: ${refused.message}`);
  }
  for (const weakening of plan.weakening) {
    const reason = weakening.acknowledgement;
    lines.push(
      reason === undefined
        ? `    WEAKENING: ${weakening.message}`
        : `    weakening acknowledged: ${weakening.message}; reason: "${reason}"`,
    );
  }
  const open = plan.weakening.filter((weakening) => weakening.acknowledgement === undefined).length;
  const refusedCount = plan.refused.filter((refused) => refused.outcome !== 'ignored').length;
  const verdict = [
    plan.dataLoss.length > 0
      ? `${plan.dataLoss.length} change(s) would lose checkpoints or their keys`
      : 'no data holder deleted or replaced',
    ...(refusedCount > 0 ? [`${refusedCount} change(s) the cloud refuses`] : []),
    ...(open > 0 ? [`${open} unacknowledged weakening(s)`] : []),
  ].join('; ');
  return [`  change plan (against the PR base): ${verdict}`, ...lines];
}

/** @type {ReportSection} every data loss first, then per store what changes and what forces a replacement */
function markdownChangePlan(renders) {
  const planned = renders.flatMap((render) => {
    const plan = changePlanOf(render);
    return plan ? [{ render, plan }] : [];
  });
  if (planned.length === 0) return [];
  const losses = planned.flatMap(({ render, plan }) =>
    plan.dataLoss.map((loss) => `> **${cell(stackLabel(render))}**: ${cell(loss.message)}`),
  );
  const rows = planned.flatMap(({ render, plan }) => {
    const storeRows = plan.stores.map((store) => ({
      name: storeTitle(store),
      status: store.status,
      changes: store.resources,
    }));
    const others = plan.others.filter((each) => each.kind !== 'unchanged');
    if (others.length > 0)
      storeRows.push({ name: '(outside the stores)', status: 'changed', changes: others });
    return storeRows.map(
      (row) =>
        `| ${cell(render.folder)} | ${cell(render.stack)} | ${cell(row.name)} | ${cell(row.status)} | ` +
        `${cell(changeCounts(row.changes))} | ` +
        `${row.changes
          .filter((each) => each.kind === 'replaced')
          .map((each) => cell(replacedLine(each)))
          .join('<br>')} |`,
    );
  });
  const notes = planned.flatMap(({ render, plan }) =>
    plan.notes.map((note) => `- ${cell(stackLabel(render))}: ${cell(note)}`),
  );
  return [
    '### Change plan (against the PR base)',
    '',
    ...(losses.length > 0
      ? [
          '> [!CAUTION]',
          `> **Data loss**: ${losses.length} change(s) would lose checkpoints or their keys:`,
          '>',
          ...losses.flatMap((line, i) => (i === 0 ? [line] : ['>', line])),
          '',
        ]
      : ['No resource holding checkpoints or their keys would be deleted or replaced.', '']),
    '| nx project | stack | store | status | changes | replaced (forced by) |',
    '| --- | --- | --- | --- | --- | --- |',
    ...rows,
    '',
    ...(notes.length > 0 ? [...notes, ''] : []),
  ];
}

/**
 * @typedef {{ heading: string, lines: string[] }} AnalysisReport what one render's analysis says:
 *   a line indented by two spaces belongs to the line above it
 */

/** @param {string} label @param {AnalysisReport | undefined} report */
function textAnalysis(label, report) {
  if (!report) return [];
  return [`  ${label}: ${report.heading}`, ...report.lines.map((line) => `    ${line}`)];
}

/**
 * One heading, then per render with that analysis its heading line and a list.
 * @param {string} title
 * @param {Render[]} renders
 * @param {(render: Render) => AnalysisReport | undefined} reportOf
 */
function markdownAnalysis(title, renders, reportOf) {
  const reports = renders.flatMap((render) => {
    const report = reportOf(render);
    return report ? [{ render, report }] : [];
  });
  if (reports.length === 0) return [];
  const item = (/** @type {string} */ line) =>
    line.startsWith('  ') ? `  - ${cell(line.trim())}` : `- ${cell(line)}`;
  return [
    `### ${title}`,
    '',
    ...reports.flatMap(({ render, report }) => [
      `**${cell(stackLabel(render))}**: ${cell(report.heading)}`,
      ...(report.lines.length > 0 ? ['', ...report.lines.map(item)] : []),
      '',
    ]),
  ];
}

/**
 * @typedef {{ monthlyCost: number | null, currency?: string,
 *   bytesByState?: { live?: number, noncurrent?: number, softDeleted?: number },
 *   priceTable?: { date?: string, source?: string }, assumptions?: string[], missingPrices?: string[], bill?: Bill }} Projection
 * @typedef {{ workload?: Record<string, number> & { defaulted?: string[] },
 *   lines?: { what: string, usd: number, price?: { confirmed?: boolean } }[],
 *   independentCopy?: { lines?: { what: string, usd: number, price?: { confirmed?: boolean } }[] } | null }} Bill
 *   `projection.bill` (docs/costs.md); the store's monthly cost includes its independent copy's bill
 * @typedef {{ store: string, deleteRecoveryDays: number | null, overwriteRecoveryDays: number | null,
 *   purgeWithinDays: number | null, promisedPurgeWithinDays: number | null, hourlyCopies: number | null,
 *   expiresAfterDays: number | null, lock?: { days: number, refuses: string[] } | null, notes?: string[],
 *   broken?: { message: string }[], projection?: Projection }} StoreRetention `analysis.retention[]` (libs/analysis/src/retention/index.ts)
 */

/**
 * A recovery window: null reads as unlimited, unless the store's retention lock refused the request (the
 * checkpoint stayed live, so there was nothing to recover).
 * @param {'delete' | 'overwrite'} request
 */
const recoveryFigure = (request) => (/** @type {number | null} */ v, /** @type {StoreRetention} */ store) => {
  if (store.lock?.refuses.includes(request)) return 'refused by the lock';
  return v === null ? 'unlimited' : `${v} d`;
};

/** The figures a store's retention line shows, each with how its null reads. */
const RETENTION_FIGURES = /** @type {const} */ ([
  ['deleteRecoveryDays', 'delete recovery', recoveryFigure('delete')],
  ['overwriteRecoveryDays', 'overwrite recovery', recoveryFigure('overwrite')],
  ['purgeWithinDays', 'purge within', (/** @type {number | null} */ v) => (v === null ? 'never' : `${v} d`)],
  [
    'promisedPurgeWithinDays',
    'promised',
    (/** @type {number | null} */ v) => (v === null ? 'none' : `${v} d`),
  ],
  [
    'hourlyCopies',
    'hourly copies',
    (/** @type {number | null} */ v) => (v === null ? 'unbounded' : String(v)),
  ],
  [
    'expiresAfterDays',
    'expires after',
    (/** @type {number | null} */ v) => (v === null ? 'never' : `${v} d`),
  ],
]);

/** @param {StoreRetention} store */
function lockText(store) {
  return store.lock ? `${store.lock.days} d` : 'none';
}

/** @param {Record<string, unknown> | null | undefined} snapshot @returns {StoreRetention[] | undefined} */
function retentionOf(snapshot) {
  const retention = analysisPart(snapshot, 'retention');
  return Array.isArray(retention) ? retention : undefined;
}

/** @param {StoreRetention} store */
function retentionFigures(store) {
  // A figure the render does not carry (an older render) is left out, not shown as its null.
  const figures = RETENTION_FIGURES.filter(([key]) => key in store).map(
    ([key, label, show]) => `${label} ${show(store[key] ?? null, store)}`,
  );
  // Only a locked store says so: locks are rare, and "no lock" on every line would be noise.
  if (store.lock) figures.push(`retention lock ${lockText(store)}`);
  return figures.join(', ');
}

/** `1.5 GiB`: bytes for a reader. @param {number} bytes */
function bytesText(bytes) {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** @param {Projection | undefined} projection */
function costText(projection) {
  if (!projection) return '';
  if (typeof projection.monthlyCost !== 'number') {
    const missing = projection.missingPrices ?? [];
    return `unknown${missing.length > 0 ? ` (no price for ${missing.join(', ')})` : ''}`;
  }
  return `${projection.monthlyCost.toFixed(2)} ${projection.currency ?? ''}/month`.replace(' /', '/');
}

/** @param {Projection | undefined} projection */
function bytesTextOf(projection) {
  const bytes = projection?.bytesByState;
  if (!bytes) return '';
  return [
    ['live', bytes.live],
    ['noncurrent', bytes.noncurrent],
    ['soft-deleted', bytes.softDeleted],
  ]
    .filter(([, n]) => typeof n === 'number')
    .map(([state, n]) => `${state} ${bytesText(/** @type {number} */ (n))}`)
    .join(', ');
}

/**
 * `a -> b` when both sides have it and they differ, `b` when only the current render has it.
 * @param {string} before
 * @param {string} after
 */
const beforeAfter = (before, after) =>
  before && before !== after ? `${before} -> ${after || 'none'}` : after;

/** @param {{ message: string }[]} broken the promises a store breaks */
const brokenLines = (broken) => broken.map((each) => `  BROKEN: ${each.message}`);

/**
 * What a store's retention looks like, or what the change does to it: lines without indent, and
 * none for a store the change leaves as it was.
 * @param {StoreRetention | undefined} before undefined: no base figures to compare with
 * @param {StoreRetention} after
 * @param {boolean} compare
 */
function retentionLines(before, after, compare) {
  if (compare && !before) {
    return [
      `${after.store} (new): ${retentionFigures(after)}`,
      ...projectionLines(undefined, after.projection),
      ...brokenLines(after.broken ?? []),
    ];
  }
  if (!compare || !before) {
    return [
      `${after.store}: ${retentionFigures(after)}`,
      ...projectionLines(undefined, after.projection),
      ...brokenLines(after.broken ?? []),
    ];
  }
  const changed = RETENTION_FIGURES.filter(([key]) => key in before && key in after)
    .map(([key, label, show]) => [label, show(before[key] ?? null, before), show(after[key] ?? null, after)])
    .concat([['retention lock', lockText(before), lockText(after)]])
    .filter(([, was, is]) => was !== is)
    .map(([label, was, is]) => `${label} ${was} -> ${is}`);
  const projection = projectionLines(before.projection, after.projection, true);
  const brokenBefore = new Set((before.broken ?? []).map((broken) => broken.message));
  const broken = (after.broken ?? []).filter((each) => !brokenBefore.has(each.message));
  if (changed.length === 0 && projection.length === 0 && broken.length === 0) return [];
  return [
    `${after.store}: ${changed.length > 0 ? changed.join(', ') : 'retention figures unchanged'}`,
    ...projection,
    ...brokenLines(broken),
  ];
}

/**
 * The storage and cost projection's lines, when the render carries one.
 * @param {Projection | undefined} before
 * @param {Projection | undefined} after
 * @param {boolean} onlyChanges
 */
function projectionLines(before, after, onlyChanges = false) {
  if (!after) return before ? ['  projection: no longer computed'] : [];
  const [costBefore, costAfter] = [costText(before), costText(after)];
  const [bytesBefore, bytesAfter] = [bytesTextOf(before), bytesTextOf(after)];
  if (onlyChanges && costBefore === costAfter && bytesBefore === bytesAfter) return [];
  const table = after.priceTable?.date ? ` (prices of ${after.priceTable.date})` : '';
  const noBase = onlyChanges && !before ? ' (the base render has no projection to compare with)' : '';
  return [
    `  monthly cost ${beforeAfter(costBefore, costAfter)}${table}` +
      (bytesAfter ? `; stored ${beforeAfter(bytesBefore, bytesAfter)}` : '') +
      noBase,
  ];
}

/**
 * Per store, the retention lines of one render: the change's differences when there is a base
 * render with retention figures, else the current figures.
 * @param {Render} render
 * @returns {AnalysisReport | undefined}
 */
function retentionReport(render) {
  const after = retentionOf(render.snapshot);
  // A render without stores (the bootstrap project) has no retention to report.
  if (!after || after.length === 0) return undefined;
  const before = render.base === undefined ? undefined : retentionOf(render.base);
  if (render.base !== undefined && (render.base === null || before)) {
    const base = before ?? [];
    const baseName = baseNames(render);
    const lines = [
      ...after.flatMap((store) =>
        retentionLines(
          base.find((each) => each.store === baseName(store.store)),
          store,
          true,
        ),
      ),
      ...base
        .filter((store) => !after.some((each) => baseName(each.store) === store.store))
        .map((store) => `${store.store} (removed): was ${retentionFigures(store)}`),
    ];
    const heading =
      render.base === null
        ? 'no base render of this stack (a new stack, or the base did not render it)'
        : lines.length === 0
          ? 'unchanged by this change'
          : 'what this change does';
    return { heading, lines };
  }
  const heading =
    render.base === undefined
      ? 'current figures'
      : 'the base render has no retention figures; current figures';
  return { heading, lines: after.flatMap((store) => retentionLines(undefined, store, false)) };
}

/**
 * The name a store had in the base render: its former name when the change plan says it was renamed
 * (`formerNames` in the config), so a rename compares a store with itself, not a new one with a removed one.
 * @param {Render} render
 * @returns {(store: string) => string}
 */
function baseNames(render) {
  const formerOf = new Map(
    (changePlanOf(render)?.stores ?? [])
      .filter((store) => store.formerName)
      .map((store) => [store.store, String(store.formerName)]),
  );
  return (store) => formerOf.get(store) ?? store;
}

/** @type {RenderSection} recovery windows, purge bound, hourly copies and projection per store (`analysis.retention`) */
function textRetention(render) {
  const report = retentionReport(render);
  const after = retentionOf(render.snapshot) ?? [];
  // Renders without projections (older ones) have no bill to total.
  if (!report || !after.some((store) => store.projection)) return textAnalysis('retention', report);
  const before = render.base ? retentionOf(render.base) : undefined;
  const total = stackTotalText(after, before?.some((store) => store.projection) ? before : undefined);
  const bills = after.flatMap((store) => billText(store));
  return textAnalysis('retention', { ...report, lines: [...report.lines, ...bills, total] });
}

/**
 * A store's whole bill in one line: the workload it priced (beside every figure), then each charge
 * (`analysis.retention[].projection.bill`, docs/costs.md); prices and sources are in the render JSON.
 * @param {StoreRetention} store
 */
function billText(store) {
  const bill = store.projection?.bill;
  if (!bill?.workload || !Array.isArray(bill.lines)) return [];
  const w = bill.workload;
  const defaulted = (w.defaulted ?? []).length > 0 ? `; defaults: ${(w.defaulted ?? []).join(', ')}` : '';
  const lines = [...bill.lines, ...(bill.independentCopy?.lines ?? [])];
  const charges = lines
    .filter((line) => line.usd >= 0.005)
    .map((line) => `${line.what} ${line.usd.toFixed(2)}${line.price?.confirmed === false ? '*' : ''}`)
    .join(', ');
  const starred = lines.some((line) => line.usd >= 0.005 && line.price?.confirmed === false)
    ? ' (* unconfirmed price)'
    : '';
  return [
    `${store.store} bill at ${w.checkpointSizeGiB} GiB every ${w.intervalHours} h, ${w.keepLast} kept, latest.pt every ${w.latestOverwriteHours} h, ${w.readBacksPerDay} read-backs/day, ${w.restartsPerMonth} restarts/month${defaulted}: ${charges || 'nothing'}${starred}`,
  ];
}

/**
 * The stack's monthly total, the sum of its stores' whole bills (`projection.monthlyCost`), before -> after
 * when there is a base render with figures.
 * @param {StoreRetention[]} after
 * @param {StoreRetention[] | undefined} before
 */
function stackTotalText(after, before) {
  /** @param {StoreRetention[]} stores */
  const total = (stores) => {
    const unpriced = stores.filter((store) => typeof store.projection?.monthlyCost !== 'number');
    if (unpriced.length > 0)
      return `unknown (no price for ${unpriced.map((store) => store.store).join(', ')})`;
    const sum = stores.reduce((usd, store) => usd + /** @type {number} */ (store.projection?.monthlyCost), 0);
    return `${sum.toFixed(2)} USD/month`;
  };
  const [was, is] = [before ? total(before) : '', total(after)];
  const change = !before ? '' : was === is ? ' (unchanged)' : '';
  return `monthly total of the stack: ${beforeAfter(was, is)}${change}`;
}

/** @type {ReportSection} */
function markdownRetention(renders) {
  return markdownAnalysis('Retention (recovery, purge, copies, projected cost)', renders, retentionReport);
}

/**
 * @typedef {{ principal: { id: string, label: string, kind?: string }, operation: string, reason: string }} AccessGrant
 * @typedef {{ store: string, cloud?: string, environment?: string, grants: AccessGrant[] }} StoreAccess
 * @typedef {{ ciChecked?: boolean, stores: StoreAccess[] }} AccessAnalysis `analysis.access`
 *   (libs/analysis/src/access/model.ts)
 */

/** @param {Record<string, unknown> | null | undefined} snapshot @returns {AccessAnalysis | undefined} */
function accessOf(snapshot) {
  const access = analysisPart(snapshot, 'access');
  return access && typeof access === 'object' && Array.isArray(access.stores) ? access : undefined;
}

/**
 * A grant is the same before and after when the same principal may do the same operation; the
 * label is part of it because an offline render may not know two principals' ids apart yet.
 * @param {AccessGrant} grant
 */
const grantKey = (grant) => `${grant.principal.id}\n${grant.principal.label}\n${grant.operation}`;

/** @param {AccessGrant} grant */
const grantLine = (grant) => `${grant.principal.label} ${grant.operation} (${grant.reason})`;

/** `writer: read, write, delete; ci deploy-dev: configure`: who may do what on a store. @param {StoreAccess} store */
function accessSummary(store) {
  /** @type {Map<string, string[]>} */
  const byPrincipal = new Map();
  for (const grant of store.grants) {
    const operations = byPrincipal.get(grant.principal.label) ?? [];
    if (!operations.includes(grant.operation)) operations.push(grant.operation);
    byPrincipal.set(grant.principal.label, operations);
  }
  return [...byPrincipal].map(([label, operations]) => `${label}: ${operations.join(', ')}`).join('; ');
}

/**
 * Per store, the access one render grants, or what the change adds and removes when there is a base
 * render with an access analysis.
 * @param {Render} render
 * @returns {AnalysisReport | undefined}
 */
function accessReport(render) {
  const after = accessOf(render.snapshot);
  if (!after) return undefined;
  const before = render.base === undefined ? undefined : accessOf(render.base);
  const title = (/** @type {StoreAccess} */ store) =>
    `${store.store}${store.environment ? ` (${store.environment})` : ''}`;
  if (render.base !== undefined && (render.base === null || before)) {
    const base = before?.stores ?? [];
    const baseName = baseNames(render);
    /** @type {string[]} */
    const lines = [];
    for (const store of after.stores) {
      const was = base.find((each) => each.store === baseName(store.store));
      const wasKeys = new Set((was?.grants ?? []).map(grantKey));
      const nowKeys = new Set(store.grants.map(grantKey));
      const added = store.grants.filter((grant) => !wasKeys.has(grantKey(grant)));
      const removed = (was?.grants ?? []).filter((grant) => !nowKeys.has(grantKey(grant)));
      if (added.length + removed.length === 0) continue;
      lines.push(`${title(store)}${was ? '' : ' (new store)'}:`);
      lines.push(...added.map((grant) => `  + ${grantLine(grant)}`));
      lines.push(...removed.map((grant) => `  - ${grantLine(grant)}`));
    }
    for (const store of base.filter(
      (each) => !after.stores.some((now) => baseName(now.store) === each.store),
    )) {
      lines.push(`${title(store)} (removed): no longer grants ${accessSummary(store) || 'anything'}`);
    }
    const ci =
      before && Boolean(before.ciChecked) !== Boolean(after.ciChecked)
        ? `; CI identities ${after.ciChecked ? 'checked now, not in the base' : 'checked in the base, not now'}: their grants differ for that reason`
        : '';
    const heading =
      render.base === null
        ? 'no base render of this stack (a new stack, or the base did not render it)'
        : lines.length === 0
          ? `no access added or removed${ci}`
          : `access this change adds (+) or removes (-)${ci}`;
    return { heading, lines };
  }
  const heading = `${render.base === undefined ? '' : 'the base render has no access analysis; '}${
    after.ciChecked ? 'CI identities included' : 'CI identities not checked (no bootstrap render)'
  }`;
  return {
    heading,
    lines: after.stores.map((store) => `${title(store)}: ${accessSummary(store) || 'no grant'}`),
  };
}

/** @type {RenderSection} who may do what on each store (`analysis.access`) */
function textAccess(render) {
  return textAnalysis('access', accessReport(render));
}

/** @type {ReportSection} */
function markdownAccess(renders) {
  return markdownAnalysis('Access (who can do what on each store)', renders, accessReport);
}

/** @type {RenderSection} the stack's verdict and why, and the program's warnings */
function textVerdict(render) {
  const { verdict: shown, reasons } = review.verdictOf(render);
  return [
    `  verdict:   ${shown}`,
    ...reasons.map((reason) => `    ${reason}`),
    ...review.warningsOf(render).map((w) => `  warning [${w.code}]: ${w.message} (${w.docs})`),
  ];
}

/**
 * @type {RenderSection} the benchmark controls per store, as the one line libs/analysis writes
 * (`analysis.compliance.summary`; the verdicts themselves are in the JSON and docs/compliance.md)
 */
function textCompliance(render) {
  const summary = analysisPart(render.snapshot, 'compliance')?.summary;
  return typeof summary === 'string' ? [`  compliance: ${summary}`] : [];
}

/** The parts of the terminal report about one render, in order (a failed render has only its verdict). */
const TEXT_SECTIONS = [
  textVerdict,
  textResources,
  textPolicies,
  textPreview,
  textChangePlan,
  textRetention,
  textAccess,
  textCompliance,
];

/**
 * @param {Render[]} renders
 * @param {{ note?: string, dir?: string }} options
 */
function formatText(renders, options = {}) {
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
    ...(render.failure ? textVerdict(render) : TEXT_SECTIONS.flatMap((section) => section(render))),
  ]);
  const body = blocks.flatMap((block, i) => (i === 0 ? block : ['', ...block]));
  return [...head, '', ...textOverview(renders), '', ...body, ''].join('\n');
}

/** @type {ReportSection} */
function markdownOverview(renders) {
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
function markdownViolations(renders) {
  const violations = renders.flatMap((r) => r.violations.map((v) => ({ render: r, violation: v })));
  if (violations.length === 0) {
    return [`No policy violation in the ${renders.length} rendered stack(s).`, ''];
  }
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
function markdownResources(renders) {
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
function markdownPreviews(renders) {
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

/** The parts of the full report's details, in order (collapsed in the comment). */
const MARKDOWN_SECTIONS = [
  markdownOverview,
  markdownChangePlan,
  markdownPreviews,
  markdownViolations,
  markdownRetention,
  markdownAccess,
];
/** The longest part, the first left out of the comment when it would be too long. */
const MARKDOWN_DETAILS = [markdownResources];

/** @param {string} verdict */
const verdictCell = (verdict) => (verdict === 'pass' ? 'pass' : `**${verdict}**`);

/**
 * @typedef {{ note?: string, maxLength?: number, sha?: string, runUrl?: string, fullReport?: boolean }} ReportOptions
 *   `fullReport`: no size budget (the artifact the comment links to)
 * @typedef {{ lines: string[], required?: boolean, chart?: string[] }} Block a part of the comment; required
 *   blocks are always kept, the others in order while they fit; a block's chart follows its lines once every
 *   block that fits is kept (a chart repeats what its table says, so it is the first thing left out)
 */

/** @type {(renders: Render[]) => Block[]} a row per stack: the worst verdict and every reason */
function verdictBlocks(renders) {
  const rows = renders.map((render) => {
    const { verdict: shown, reasons } = review.verdictOf(render);
    const why = reasons.length > 0 ? reasons.map(cell).join('<br>') : passReason(render);
    return `| ${cell(stackLabel(render))} | ${verdictCell(shown)} | ${why} |`;
  });
  const costs = renders.map((render) => ({ render, ...review.stackCost(render) }));
  const priced = costs.filter((each) => each.before || each.after);
  /** @param {'before' | 'after'} side */
  const overall = (side) => {
    const totals = priced.map((each) => each[side]).filter(Boolean);
    if (totals.length === 0) return undefined;
    return {
      sum: totals.reduce((sum, total) => sum + (total?.sum ?? 0), 0),
      unpriced: totals.reduce((sum, total) => sum + (total?.unpriced ?? 0), 0),
    };
  };
  const notRendered = renders.filter((render) => render.failure).length;
  const defaulted = renders.flatMap((render) =>
    render.failure
      ? []
      : review.defaultWorkloadStores(render).map((store) => `${stackLabel(render)} ${store}`),
  );
  const costRows = priced.map(
    (each) =>
      `| ${cell(stackLabel(each.render))} | ${review.totalText(each.before) || '-'} | ${review.totalText(each.after) || (each.render.failure ? 'not rendered' : '-')} |`,
  );
  return [
    {
      required: true,
      lines: ['| stack | verdict | why |', '| --- | --- | --- |', ...rows, ''],
    },
    ...(priced.length > 0
      ? [
          {
            required: true,
            lines: [
              '**Monthly storage cost** (projection at list prices, the workload each store states or the default one; docs/operations.md):',
              '',
              '| stack | before | after |',
              '| --- | ---: | ---: |',
              ...costRows,
              `| **all stacks** | ${review.totalText(overall('before')) || '-'} | ${
                notRendered > 0
                  ? `unknown: ${notRendered} stack(s) not rendered`
                  : review.totalText(overall('after')) || '-'
              } |`,
              '',
              ...(defaulted.length > 0
                ? [
                    `Priced on the default workload (no \`workload\` in the config): ${defaulted.length} store(s), ${cell(defaulted.slice(0, 5).join(', '))}${defaulted.length > 5 ? ', ...' : ''}; set \`workload\` for figures of the team's own jobs.`,
                    '',
                  ]
                : []),
            ],
          },
        ]
      : []),
  ];
}

/** Why a stack passes, in a few words. @param {Render} render */
function passReason(render) {
  const plan = changePlanOf(render);
  if (render.base === null) return 'new stack: nothing deployed to compare with';
  if (!plan) return 'no mandatory policy violated (not planned against a base)';
  return 'no data holder deleted or replaced, no mandatory policy violated';
}

/** @type {(renders: Render[]) => Block[]} one table per store the change touches */
function storeBlocks(renders) {
  /** @type {Block[]} */
  const blocks = [];
  const unchanged = [];
  for (const render of renders) {
    const { tables, unchanged: same } = review.storeTables(render);
    if (same.length > 0) unchanged.push(`${stackLabel(render)}: ${same.join(', ')}`);
    for (const table of tables) {
      const title = `${table.store}${table.formerName ? ` (formerly ${table.formerName})` : ''}`;
      const compared = render.base !== undefined;
      const head = compared
        ? ['| | before | after |', '| --- | --- | --- |']
        : ['| | now |', '| --- | --- |'];
      const rows = table.rows.map(([label, was, is]) =>
        compared
          ? `| ${label} | ${cell(was) || '-'} | ${was !== is && was && is ? `**${cell(is)}**` : cell(is) || '-'} |`
          : `| ${label} | ${cell(is)} |`,
      );
      const chart = compared ? review.chart(`${stackLabel(render)} ${table.store}`, table) : [];
      blocks.push({
        lines: [
          `#### ${cell(stackLabel(render))}: ${cell(title)}, ${cell(table.status)}`,
          '',
          ...head,
          ...rows,
          '',
        ],
        ...(chart.length > 0 ? { chart: [...chart, ''] } : {}),
      });
    }
  }
  if (blocks.length === 0 && unchanged.length === 0) return [];
  return [
    { lines: ['### Stores this change touches', ''] },
    ...blocks,
    ...(unchanged.length > 0 ? [{ lines: [`Unchanged: ${unchanged.map(cell).join('; ')}`, ''] }] : []),
  ];
}

/** @type {(renders: Render[]) => Block[]} the grants the change adds or removes, cloud defaults as one count */
function accessBlocks(renders) {
  const lines = [];
  let defaults = 0;
  for (const render of renders) {
    const decided = review.decidedAccess(render);
    defaults += decided.defaults;
    lines.push(...decided.lines.map((line) => `- ${cell(stackLabel(render))} ${cell(line)}`));
  }
  if (lines.length === 0 && defaults === 0) return [];
  return [
    {
      lines: [
        '### Access this change decides (declared principals, store identities, CI)',
        '',
        ...(lines.length > 0 ? lines : ['No grant added or removed.']),
        '',
        `Cloud defaults (project or subscription owners, editors, viewers): ${defaults} grant(s), not decided by this change; the details list them.`,
        '',
      ],
    },
  ];
}

/** @type {(renders: Render[]) => Block[]} */
function warningBlocks(renders) {
  const lines = renders.flatMap((render) =>
    review
      .warningsOf(render)
      .map(
        (w) =>
          `- ${cell(stackLabel(render))} \`${cell(w.code)}\`: ${cell(w.message)} ([${cell(w.docs)}](${w.docs}))`,
      ),
  );
  return lines.length === 0 ? [] : [{ lines: ['### Warnings', '', ...lines, ''] }];
}

/**
 * The report: the verdicts and costs always; then store tables, access, warnings and the collapsed
 * details while they fit under the size budget (GitHub refuses a comment over 65,536 characters); what is
 * left out is in the full report, the run's `report` artifact.
 * @param {Render[]} renders
 * @param {ReportOptions} options
 */
function formatReport(renders, options = {}) {
  const head = [MARKER, '## Checkpoint stores: what this change does', ''];
  if (options.note) head.push(`> ${options.note}`, '');
  const commit = options.sha ? `commit \`${options.sha.slice(0, 12)}\`` : '';
  const run = options.runUrl ? `[run](${options.runUrl})` : '';
  const footer = [
    '---',
    [
      commit,
      run,
      options.runUrl && !options.fullReport ? `the full report: the run's \`report\` artifact` : '',
    ]
      .filter(Boolean)
      .join(' · ') || 'offline render',
    '',
  ].join('\n');
  if (renders.length === 0) {
    return [...head, 'No stack is affected by this change: nothing was rendered.', '', footer].join('\n');
  }
  // A failed render has its verdict and reasons above; in the details it would read as an empty stack.
  const rendered = renders.filter((render) => !render.failure);
  const details = [
    ...MARKDOWN_SECTIONS.flatMap((section) => section(rendered)),
    ...MARKDOWN_DETAILS.flatMap((section) => section(rendered)),
  ];
  const blocks = [
    ...verdictBlocks(renders),
    ...storeBlocks(renders),
    ...accessBlocks(renders),
    ...warningBlocks(renders),
    ...(rendered.length === 0
      ? []
      : [
          {
            lines: [
              '<details><summary>Details: every table of the offline render</summary>',
              '',
              ...details,
              '</details>',
              '',
            ],
          },
        ]),
  ];
  const budget = options.fullReport ? Infinity : (options.maxLength ?? MAX_LENGTH);
  const omittedNote = '_Left out to fit a comment (the full report has them): ';
  let length = head.join('\n').length + footer.length + omittedNote.length + 200;
  for (const block of blocks.filter((each) => each.required)) length += block.lines.join('\n').length + 1;
  const kept = [];
  let omitted = 0;
  for (const block of blocks) {
    const size = block.lines.join('\n').length + 1;
    if (block.required) kept.push(block);
    else if (length + size <= budget) {
      kept.push(block);
      length += size;
    } else omitted += 1;
  }
  const charted = new Set();
  for (const block of kept) {
    if (!block.chart) continue;
    const size = block.chart.join('\n').length + 1;
    if (length + size <= budget) {
      charted.add(block);
      length += size;
    } else omitted += 1;
  }
  const body = [
    ...head,
    ...kept.flatMap((block) => (charted.has(block) ? [...block.lines, ...(block.chart ?? [])] : block.lines)),
  ];
  if (omitted > 0) body.push(`${omittedNote}${omitted} part(s) of the report._`, '');
  return `${body.join('\n')}\n${footer}`;
}

const USAGE =
  'usage: checkpoints-synth-report [DIR] [--format=markdown|text] [--previews=DIR] [--base-dir=DIR] [--note=TEXT]\n' +
  '  [--sha=COMMIT] [--run-url=URL] [--full=FILE]  (markdown: the commit and run named at the end; --full also writes the report without the size budget to FILE)';

/**
 * @param {string[]} argv
 * @param {import('./process-io.cjs').Io} [io] where relative paths start and the report goes
 * @returns {number} the exit status
 */
function main(argv, io = processIo()) {
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
        'base-dir': { type: 'string' },
        sha: { type: 'string' },
        'run-url': { type: 'string' },
        full: { type: 'string' },
      },
    });
  } catch (error) {
    println(io.stderr, `checkpoints-synth-report: ${/** @type {Error} */ (error).message}\n${USAGE}`);
    return 2;
  }
  const format = parsed.values.format;
  if (format !== 'markdown' && format !== 'text') {
    println(io.stderr, `checkpoints-synth-report: --format=${format}: allowed: markdown | text\n${USAGE}`);
    return 2;
  }
  const given = parsed.positionals[0] ?? join('dist', 'synth');
  /** @type {ReportOptions} */
  const options = {};
  if (parsed.values.note) options.note = parsed.values.note;
  if (parsed.values.sha) options.sha = parsed.values.sha;
  if (parsed.values['run-url']) options.runUrl = parsed.values['run-url'];
  const renders = readRenders(resolve(io.cwd, given));
  if (parsed.values.previews) attachPreviews(renders, resolve(io.cwd, parsed.values.previews));
  const baseDir = parsed.values['base-dir'];
  if (baseDir !== undefined) {
    if (!existsSync(resolve(io.cwd, baseDir))) {
      println(
        io.stderr,
        `checkpoints-synth-report: --base-dir=${baseDir}: no such directory; allowed: a directory of base renders (<project>/<stack>.json, as dist/synth)\n${USAGE}`,
      );
      return 2;
    }
    attachBases(renders, resolve(io.cwd, baseDir));
  }
  if (parsed.values.full !== undefined) {
    writeFileSync(
      resolve(io.cwd, parsed.values.full),
      formatReport(renders, { ...options, fullReport: true }),
    );
  }
  io.stdout.write(
    format === 'text' ? formatText(renders, { ...options, dir: given }) : formatReport(renders, options),
  );
  return 0;
}

module.exports = {
  MARKER,
  MAX_LENGTH,
  readRenders,
  attachPreviews,
  attachBases,
  shortType,
  textOverview,
  textResources,
  textPolicies,
  textPreview,
  textChangePlan,
  markdownChangePlan,
  textRetention,
  markdownRetention,
  textAccess,
  markdownAccess,
  textCompliance,
  TEXT_SECTIONS,
  formatText,
  markdownOverview,
  markdownViolations,
  markdownResources,
  markdownPreviews,
  MARKDOWN_SECTIONS,
  MARKDOWN_DETAILS,
  formatReport,
  main,
};
