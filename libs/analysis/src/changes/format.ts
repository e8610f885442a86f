import type { ChangeKind, ChangePlan, ResourceChange } from './model';

const SYMBOL: Record<ChangeKind, string> = {
  unchanged: ' ',
  updated: '~',
  ignored: '!',
  replaced: '+-',
  created: '+',
  released: 'release',
  deleted: '-',
};

/** The plan as a reader scans it: per store, every resource that changes, why, and the verdict. */
export function formatPlan(plan: ChangePlan, baseLabel: string): string {
  const lines = [`Change plan against ${baseLabel}:`];
  for (const store of plan.stores) {
    const renamed = store.formerName ? ` (formerly ${store.formerName})` : '';
    const counts = countKinds(store.resources);
    lines.push(`  store ${store.store}${renamed}: ${store.status}${counts ? ` (${counts})` : ''}`);
    lines.push(...store.resources.filter((change) => change.kind !== 'unchanged').map(changeLine));
  }
  const others = plan.others.filter((change) => change.kind !== 'unchanged');
  if (others.length > 0) {
    lines.push('  outside the stores:');
    lines.push(...others.map(changeLine));
  }
  for (const note of plan.notes) lines.push(`  note: ${note}`);
  if (plan.dataLoss.length === 0) {
    lines.push('  No resource holding checkpoints or their keys would be deleted or replaced.');
  } else {
    lines.push(`  DATA LOSS: ${plan.dataLoss.length} change(s) would lose checkpoints or their keys:`);
    lines.push(...plan.dataLoss.map((loss) => `    ${loss.message}`));
  }
  if (plan.refused.length > 0) {
    lines.push(`  REFUSED OR IGNORED: ${plan.refused.length} change(s) the cloud would refuse or not make:`);
    lines.push(...plan.refused.map((refused) => `    ${refused.message}`));
  }
  const open = plan.weakening.filter((weakening) => weakening.acknowledgement === undefined);
  const acknowledged = plan.weakening.filter((weakening) => weakening.acknowledgement !== undefined);
  if (open.length > 0) {
    lines.push(
      `  WEAKENING: ${open.length} change(s) weaken a store; state why in the store's acknowledge.weakening to pass (docs/operations.md, "Weakening changes"):`,
    );
    lines.push(...open.map((weakening) => `    ${weakening.message}`));
  }
  if (acknowledged.length > 0) {
    lines.push(`  weakening acknowledged: ${acknowledged.length} change(s):`);
    lines.push(
      ...acknowledged.map(
        (weakening) => `    ${weakening.message}; acknowledged: "${weakening.acknowledgement}"`,
      ),
    );
  }
  return lines.join('\n');
}

function changeLine(change: ResourceChange): string {
  const why =
    change.kind === 'replaced'
      ? ` forced by ${change.replacedBy.map((input) => input.input).join(', ')}`
      : change.kind === 'updated'
        ? ` in place: ${change.changedInputs.join(', ')}${change.unknownType ? ' (no change rules known for this type)' : ''}`
        : change.kind === 'ignored'
          ? ` (the cloud would not apply ${change.changedInputs.join(', ')}: see below)`
          : '';
  const holds = change.holds ? ` [${change.holds}]` : '';
  return `    ${SYMBOL[change.kind].padEnd(7)} ${change.name} (${change.type})${holds}: ${change.kind}${why}`;
}

function countKinds(changes: readonly ResourceChange[]): string {
  const counts = new Map<ChangeKind, number>();
  for (const change of changes) counts.set(change.kind, (counts.get(change.kind) ?? 0) + 1);
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
}
