/**
 * What a reviewer reads first in the pull request comment, the job summary and the terminal report: a
 * verdict per stack, one table per store the change touches (with its cost), the access the change
 * decides, and the warnings. Everything here is read from what synth writes
 * (dist/synth/<project>/<stack>.json: a render, or a failure record in its place) and from the base
 * render the stack was planned against; nothing is recomputed.
 */

/**
 * A verdict, worst first: a stack shows the worst that applies, and every reason for it.
 * `weakening` is a change that keeps the data but lowers a protection (a shorter recovery window, a
 * wider grant); `refused` a change a deploy would not make (a mandatory policy, a setting a deployed
 * store cannot change, a protected store removed).
 */
const VERDICTS = /** @type {const} */ ([
  'synth failed',
  'invalid config',
  'preview failed',
  'refused',
  'data loss',
  'weakening',
  'pass',
]);

/**
 * synth's exit statuses (libs/synth/src/exit-status.ts) as verdicts; any other status is a failure this
 * report does not know, so it reads as `synth failed`, never as a pass.
 */
const VERDICT_OF_EXIT = /** @type {Record<number, (typeof VERDICTS)[number]>} */ ({
  0: 'pass',
  1: 'refused',
  2: 'invalid config',
  3: 'synth failed',
  4: 'data loss',
  5: 'weakening',
  6: 'refused',
});

/**
 * @typedef {import('./synth-report.cjs').Render} Render
 * @typedef {{ verdict: (typeof VERDICTS)[number], reasons: string[] }} Verdict
 */

/** @param {unknown} value @returns {any[]} */
const list = (value) => (Array.isArray(value) ? value : []);

/**
 * The worst verdict of a stack and every reason for it.
 * @param {Render} render
 * @returns {Verdict}
 */
function verdictOf(render) {
  /** @type {{ verdict: (typeof VERDICTS)[number], reason: string }[]} */
  const found = [];
  const failure = render.failure;
  if (failure) {
    const issues = list(failure.issues);
    // libs/config marks the issues a deployed store refuses (a setting set only at creation): not typos.
    const refusals = issues.filter((issue) => issue?.refusal === true);
    const status = typeof failure.exitStatus === 'number' ? failure.exitStatus : undefined;
    const verdict =
      status === 2 && issues.length > 0 && refusals.length === issues.length
        ? 'refused'
        : (VERDICT_OF_EXIT[status ?? -1] ?? 'synth failed');
    const reasons =
      issues.length > 0
        ? issues.map((issue) => `${issue.path}: ${issue.message}`)
        : [`synth exited ${status ?? '?'}: ${firstLine(String(failure.message ?? 'no message'))}`];
    for (const reason of reasons)
      found.push({ verdict: verdict === 'pass' ? 'synth failed' : verdict, reason });
    return worst(found);
  }
  for (const violation of render.violations.filter((each) => each.level === 'mandatory')) {
    found.push({ verdict: 'refused', reason: `policy ${violation.policy}: ${violation.message}` });
  }
  const plan = changesOf(render);
  for (const loss of list(plan?.dataLoss)) found.push({ verdict: 'data loss', reason: String(loss.message) });
  for (const store of list(plan?.stores)) {
    if (store.status !== 'removed') continue;
    for (const resource of list(store.resources).filter((each) => each.protectedInBase)) {
      found.push({
        verdict: 'refused',
        reason: `store ${store.store}: ${resource.name} is protected where it is deployed; pulumi up refuses to delete it (retire the store as docs/operations.md says)`,
      });
    }
  }
  for (const refused of list(plan?.refused).filter((each) => each.outcome === 'refused')) {
    found.push({ verdict: 'refused', reason: `store ${refused.store}: ${String(refused.message)}` });
  }
  for (const weakening of list(plan?.weakening).filter((each) => each.acknowledgement === undefined)) {
    found.push({ verdict: 'weakening', reason: String(weakening.message) });
  }
  const preview = render.preview;
  if (preview && preview.status === 'failed') {
    found.push({
      verdict: 'preview failed',
      reason: `pulumi preview exited ${preview.exitStatus ?? '?'} (see the preview job's log)`,
    });
  }
  const status = render.snapshot['exitStatus'];
  if (typeof status === 'number' && status !== 0 && found.length === 0) {
    found.push({
      verdict: VERDICT_OF_EXIT[status] ?? 'synth failed',
      reason: `synth exited ${status} and its render says no more`,
    });
  }
  return worst(found);
}

/** @param {{ verdict: (typeof VERDICTS)[number], reason: string }[]} found @returns {Verdict} */
function worst(found) {
  if (found.length === 0) return { verdict: 'pass', reasons: [] };
  const rank = Math.min(...found.map((each) => VERDICTS.indexOf(each.verdict)));
  const verdict = VERDICTS[rank] ?? 'synth failed';
  return { verdict, reasons: found.filter((each) => each.verdict === verdict).map((each) => each.reason) };
}

/** @param {string} text */
const firstLine = (text) => text.split('\n')[0] ?? '';

/** @param {Render} render */
function changesOf(render) {
  const analysis = render.snapshot['analysis'];
  const plan = analysis && typeof analysis === 'object' ? /** @type {any} */ (analysis).changes : undefined;
  return plan && typeof plan === 'object' ? plan : undefined;
}

/** @param {Record<string, unknown> | null | undefined} snapshot @param {string} key @returns {any} */
function analysisOf(snapshot, key) {
  const analysis = snapshot?.['analysis'];
  return analysis && typeof analysis === 'object' ? /** @type {any} */ (analysis)[key] : undefined;
}

/** The store component of each store in a render, by store name. @param {Record<string, unknown> | null | undefined} snapshot */
function storeComponents(snapshot) {
  /** @type {Map<string, { inputs: Record<string, any>, urn: string }>} */
  const stores = new Map();
  for (const resource of list(snapshot?.['resources'])) {
    if (/^checkpoints:[a-z]+:CheckpointStore$/.test(String(resource.type))) {
      stores.set(String(resource.name), { inputs: resource.inputs ?? {}, urn: String(resource.urn) });
    }
  }
  return stores;
}

/** Whether a resource under the store component is protected. @param {Record<string, unknown> | null | undefined} snapshot @param {string} urn */
function storeProtected(snapshot, urn) {
  const children = list(snapshot?.['resources']);
  /** @type {Set<string>} */
  const under = new Set([urn]);
  let protectedChild = false;
  for (const resource of children) {
    if (under.has(String(resource.parent))) {
      under.add(String(resource.urn));
      if (resource.protect) protectedChild = true;
    }
  }
  return protectedChild;
}

/**
 * The network a store's inputs say it is reachable from.
 * @param {Record<string, any>} inputs
 */
function networkText(inputs) {
  if (typeof inputs['publicNetwork'] === 'boolean') return inputs['publicNetwork'] ? 'public' : 'private';
  const network = inputs['network'];
  if (network && typeof network === 'object') {
    if (network.public) return 'public';
    const parts = ['networks', 'subnets', 'vpcs', 'vpcEndpoints', 'cidrs']
      .map((key) => [key, list(network[key]).length])
      .filter(([, n]) => Number(n) > 0)
      .map(([key, n]) => `${n} ${key}`);
    return `private${parts.length > 0 ? ` (${parts.join(', ')})` : ''}`;
  }
  return 'not in the render';
}

/**
 * @typedef {{ store: string, formerName?: string, status: string, cloud: string,
 *   rows: [string, string, string][], costBefore: number | null | undefined, costAfter: number | null | undefined,
 *   seriesBefore: Series | undefined, seriesAfter: Series | undefined }} StoreTable `undefined` cost: no
 *   such store on that side; null: not priced; `undefined` series: no such store, or a render without one
 */

/**
 * @typedef {{ stepDays: number, storedBytes: number[], cumulativeUsd: number[] | null }} Series the first
 *   90 days of the store from empty under its workload, replayed (analysis.retention[].projection.series)
 */

/** @param {any} store a retention figure set */
const recovery = (store) => {
  if (!store) return '';
  const shown = (/** @type {number | null} */ days, /** @type {string} */ request) =>
    store.lock?.refuses?.includes(request) ? 'locked' : days === null ? 'unlimited' : `${days} d`;
  return `delete ${shown(store.deleteRecoveryDays, 'delete')}, overwrite ${shown(store.overwriteRecoveryDays, 'overwrite')}`;
};

/** @param {any} projection @returns {Series | undefined} */
const seriesOf = (projection) => {
  const series = projection?.series;
  if (!series || !Array.isArray(series.storedBytes) || typeof series.stepDays !== 'number') return undefined;
  return series;
};

/** @param {any} projection @returns {number | null} */
const monthlyCost = (projection) =>
  typeof projection?.monthlyCost === 'number' ? projection.monthlyCost : null;

/**
 * One table per store the change touches: every store of a stack with no base (a new stack), the
 * stores the change plan says changed, were created or removed; renamed stores under their new name,
 * compared with the base under their former one.
 * @param {Render} render
 * @returns {{ tables: StoreTable[], unchanged: string[] }}
 */
function storeTables(render) {
  if (render.failure) return { tables: [], unchanged: [] };
  const after = storeComponents(render.snapshot);
  const before = render.base ? storeComponents(render.base) : new Map();
  const retentionAfter = list(analysisOf(render.snapshot, 'retention'));
  const retentionBefore = list(analysisOf(render.base, 'retention'));
  const plan = changesOf(render);
  /** @type {{ store: string, formerName?: string, status: string }[]} */
  let touched;
  /** @type {string[]} */
  let unchanged = [];
  if (plan) {
    const stores = list(plan.stores);
    const changed = (/** @type {any} */ store) =>
      store.status !== 'unchanged' ||
      store.formerName ||
      list(store.resources).some((each) => each.kind !== 'unchanged');
    touched = stores.filter(changed);
    unchanged = stores.filter((store) => !changed(store)).map((store) => String(store.store));
  } else if (render.base) {
    // No change plan (the render was not planned against this base): the stores compared by name.
    touched = [
      ...[...after.keys()].map((store) => ({ store, status: before.has(store) ? 'changed' : 'created' })),
      ...[...before.keys()]
        .filter((store) => !after.has(store))
        .map((store) => ({ store, status: 'removed' })),
    ];
  } else {
    touched = [...after.keys()].map((store) => ({
      store,
      status: render.base === undefined ? 'current' : 'created',
    }));
  }
  const tables = touched.map((entry) => {
    const baseName = entry.formerName ?? entry.store;
    const now = entry.status === 'removed' ? undefined : after.get(entry.store);
    const was = entry.status === 'created' ? undefined : before.get(baseName);
    const retNow = retentionAfter.find((each) => each.store === entry.store);
    const retWas = retentionBefore.find((each) => each.store === baseName);
    const side = (
      /** @type {any} */ component,
      /** @type {any} */ retention,
      /** @type {Record<string, unknown> | null | undefined} */ snapshot,
    ) => {
      if (!component) return ['', '', '', '', '', '', ''];
      const inputs = component.inputs;
      return [
        String(inputs.tier ?? 'not in the render'),
        String(inputs.location ?? 'not in the render'),
        String(inputs.encryption ?? 'not in the render'),
        retention ? recovery(retention) : 'not in the render',
        networkText(inputs),
        storeProtected(snapshot, component.urn) ? 'yes' : 'no',
        retention?.projection ? costCell(monthlyCost(retention.projection)) : 'not projected',
      ];
    };
    const labels = [
      'tier',
      'location',
      'encryption',
      'recovery windows',
      'network',
      'protect',
      'monthly cost',
    ];
    const nowCells = side(now, retNow, render.snapshot);
    const wasCells = side(was, retWas, render.base);
    /** @type {[string, string, string][]} */
    const rows = labels
      .map(
        (label, i) => /** @type {[string, string, string]} */ ([label, wasCells[i] ?? '', nowCells[i] ?? '']),
      )
      // No projection on either side (an older render): no cost row rather than one saying nothing.
      .filter(([label]) => label !== 'monthly cost' || Boolean(retNow?.projection || retWas?.projection));
    return {
      store: entry.store,
      ...(entry.formerName ? { formerName: String(entry.formerName) } : {}),
      status: entry.status,
      cloud: String(retNow?.cloud ?? retWas?.cloud ?? ''),
      rows,
      costBefore: was ? (retWas?.projection ? monthlyCost(retWas.projection) : null) : undefined,
      costAfter: now ? (retNow?.projection ? monthlyCost(retNow.projection) : null) : undefined,
      seriesBefore: was ? seriesOf(retWas?.projection) : undefined,
      seriesAfter: now ? seriesOf(retNow?.projection) : undefined,
    };
  });
  const same = (/** @type {StoreTable} */ table) =>
    table.status === 'changed' && !table.formerName && table.rows.every(([, was, is]) => was === is);
  if (plan || !render.base) return { tables, unchanged };
  return {
    tables: tables.filter((table) => !same(table)),
    unchanged: tables.filter(same).map((table) => table.store),
  };
}

/** @param {number | null | undefined} cost */
function costCell(cost) {
  if (cost === undefined) return '';
  return cost === null ? 'unknown (no list price)' : `${cost.toFixed(2)} USD`;
}

/**
 * The monthly storage cost of a stack's stores before and after the change, from the projection in
 * each render; a store without a price makes the total a lower bound, said so.
 * @param {Render} render
 */
function stackCost(render) {
  /** @param {Record<string, unknown> | null | undefined} snapshot */
  const total = (snapshot) => {
    const stores = list(analysisOf(snapshot, 'retention'));
    if (!snapshot || stores.length === 0) return undefined;
    let sum = 0;
    let unpriced = 0;
    // A render without projections (an older one) has no cost to show, not an unknown one.
    if (!stores.some((store) => store.projection)) return undefined;
    for (const store of stores) {
      const cost = monthlyCost(store.projection);
      if (cost === null) unpriced += 1;
      else sum += cost;
    }
    return { sum, unpriced };
  };
  return {
    before: render.base ? total(render.base) : undefined,
    after: render.failure ? undefined : total(render.snapshot),
  };
}

/** @param {{ sum: number, unpriced: number } | undefined} total */
function totalText(total) {
  if (!total) return '';
  if (total.unpriced > 0 && total.sum === 0) return `not priced (${total.unpriced} store(s))`;
  return `${total.sum.toFixed(2)} USD${total.unpriced > 0 ? ` + ${total.unpriced} store(s) not priced` : ''}`;
}

/**
 * The access the change decides: grants to the principals the config declares, to the store identities
 * and to CI, added or removed; the cloud's defaults (owners, editors, ...) are not decided in a pull
 * request, so they are one count. Renamed stores are compared with their former name.
 * @param {Render} render
 * @returns {{ lines: string[], defaults: number }}
 */
function decidedAccess(render) {
  const after = analysisOf(render.snapshot, 'access');
  if (render.failure || !after) return { lines: [], defaults: 0 };
  const before = render.base ? analysisOf(render.base, 'access') : undefined;
  const formerOf = new Map(
    list(changesOf(render)?.stores)
      .filter((store) => store.formerName)
      .map((store) => [String(store.store), String(store.formerName)]),
  );
  const decided = (/** @type {any} */ grant) => grant.principal?.kind !== 'cloud-default';
  const key = (/** @type {any} */ grant) =>
    `${grant.principal?.id}\n${grant.principal?.label}\n${grant.operation}`;
  const line = (/** @type {any} */ grant) => `${grant.principal?.label} ${grant.operation}`;
  /** @type {string[]} */
  const lines = [];
  let defaults = 0;
  for (const store of list(after.stores)) {
    const grants = list(store.grants);
    defaults += grants.filter((grant) => !decided(grant)).length;
    const was = list(before?.stores).find(
      (each) => each.store === (formerOf.get(store.store) ?? store.store),
    );
    const wasKeys = new Set(list(was?.grants).filter(decided).map(key));
    const nowKeys = new Set(grants.filter(decided).map(key));
    const added = grants.filter((grant) => decided(grant) && !wasKeys.has(key(grant)));
    const removed = list(was?.grants).filter((grant) => decided(grant) && !nowKeys.has(key(grant)));
    if (added.length + removed.length === 0) continue;
    const shown = (/** @type {any[]} */ grants) => [...new Set(grants.map(line))].join(', ');
    lines.push(
      `${store.store}: ${added.length > 0 ? `+ ${shown(added)}` : ''}${added.length > 0 && removed.length > 0 ? '; ' : ''}${removed.length > 0 ? `- ${shown(removed)}` : ''}`,
    );
  }
  return { lines, defaults };
}

/** @param {Render} render @returns {{ code: string, message: string, docs: string }[]} */
function warningsOf(render) {
  return list(render.snapshot['warnings']).map((warning) => ({
    code: String(warning.code ?? 'unclassified'),
    message: String(warning.message ?? ''),
    docs: String(warning.docs ?? 'docs/warnings.md'),
  }));
}

/** @param {number} bytes */
const gib = (bytes) => Math.round((bytes / 1024 ** 3) * 10) / 10;

/**
 * Mermaid xycharts (GitHub renders them) of a store's cumulative cost and stored bytes over its first 90
 * days from empty, before and after the change, from the series the retention replay gives each store's
 * projection: the lines are before (first) and after (second); a store new in the change has after only.
 * No series on either side (a render from before series existed): no chart.
 * @param {string} title
 * @param {StoreTable} table
 */
function chart(title, table) {
  const sides = [table.seriesBefore, table.seriesAfter].filter(
    /** @returns {series is Series} */ (series) => series !== undefined,
  );
  const [first] = sides;
  if (first === undefined) return [];
  const days = first.storedBytes.map((_, i) => i * first.stepDays);
  const lines = [];
  const costs = sides.flatMap((series) => (series.cumulativeUsd ? [series.cumulativeUsd] : []));
  if (costs.length > 0) {
    lines.push(
      '```mermaid',
      'xychart-beta',
      `  title "${title}: cost over the first ${days.at(-1)} days, USD (before, after)"`,
      `  x-axis "day" [${days.join(', ')}]`,
      `  y-axis "USD" 0 --> ${Math.ceil(Math.max(1, ...costs.flat()))}`,
      ...costs.map((usd) => `  line [${usd.join(', ')}]`),
      '```',
    );
  }
  const stored = sides.map((series) => series.storedBytes.map(gib));
  lines.push(
    '```mermaid',
    'xychart-beta',
    `  title "${title}: stored GiB over the first ${days.at(-1)} days (before, after)"`,
    `  x-axis "day" [${days.join(', ')}]`,
    `  y-axis "GiB" 0 --> ${Math.ceil(Math.max(1, ...stored.flat()))}`,
    ...stored.map((gibs) => `  line [${gibs.join(', ')}]`),
    '```',
  );
  return lines;
}

/** The stores whose cost projection assumed the default workload (their config states none). @param {Render} render */
function defaultWorkloadStores(render) {
  return list(analysisOf(render.snapshot, 'retention'))
    .filter((store) =>
      list(store.projection?.assumptions).some((text) => /default assumed/.test(String(text))),
    )
    .map((store) => String(store.store));
}

module.exports = {
  defaultWorkloadStores,
  VERDICTS,
  VERDICT_OF_EXIT,
  verdictOf,
  storeTables,
  stackCost,
  totalText,
  costCell,
  decidedAccess,
  warningsOf,
  chart,
  firstLine,
};
