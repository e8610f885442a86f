import type { AccessAnalysis } from '@checkpoints/analysis';
import { retentionLines } from './retention-lines';
import type { Snapshot } from './snapshot';

/** A readable tree of the resources (by parent) and the policy verdicts, for the terminal and job summaries. */
export function formatTable(snapshot: Snapshot, jsonPath?: string): string {
  const children = new Map<string | null, Snapshot['resources']>();
  for (const resource of snapshot.resources) {
    const siblings = children.get(resource.parent) ?? [];
    siblings.push(resource);
    children.set(resource.parent, siblings);
  }
  const rows: string[][] = [];
  const walk = (parent: string | null, depth: number) => {
    for (const resource of children.get(parent) ?? []) {
      const flags = [resource.protect ? 'protect' : '', resource.retainOnDelete ? 'retain' : ''].filter(
        Boolean,
      );
      rows.push([`${'  '.repeat(depth)}${resource.name}`, resource.type, flags.join(',')]);
      walk(resource.urn, depth + 1);
    }
  };
  walk(null, 0);
  const header = ['NAME', 'TYPE', 'OPTIONS'];
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();

  const mandatory = snapshot.violations.filter((violation) => violation.level === 'mandatory');
  const advisory = snapshot.violations.filter((violation) => violation.level === 'advisory');
  const custom = snapshot.resources.filter((resource) => resource.custom).length;
  const out = [
    `${snapshot.project} / ${snapshot.stack}: ${custom} resources (${snapshot.resources.length - custom} components)`,
    '',
    line(header),
    ...rows.map(line),
    '',
    `Policies: ${mandatory.length} mandatory and ${advisory.length} advisory violation(s)`,
    ...snapshot.violations.map(
      (violation) =>
        `  [${violation.level}] ${violation.policy}: ${violation.message}${violation.urn ? `\n      at ${violation.urn}` : ''}`,
    ),
  ];
  for (const warning of snapshot.warnings ?? []) {
    out.push(`Warning [${warning.code}]: ${warning.message} (${warning.docs})`);
  }
  if (snapshot.analysis) out.push('', ...retentionLines(snapshot.analysis.retention));
  const access = snapshot.analysis?.access;
  if (access) out.push('', ...formatAccess(access));
  if (jsonPath) out.push('', `Wrote ${jsonPath}`);
  return out.join('\n');
}

/** Per store, who can do what and which policy, role or binding grants it. */
export function formatAccess(access: AccessAnalysis): string[] {
  const out = [
    `Access: ${access.ciChecked ? 'CI identities from the bootstrap render included' : 'CI identities not checked (no bootstrap render)'}`,
  ];
  for (const store of access.stores) {
    out.push(`  store ${store.store} (${store.cloud}, ${store.environment})`);
    const width = Math.max(0, ...store.grants.map((grant) => grant.principal.label.length));
    const opWidth = Math.max(0, ...store.grants.map((grant) => grant.operation.length));
    for (const grant of store.grants) {
      out.push(
        `    ${grant.principal.label.padEnd(width)}  ${grant.operation.padEnd(opWidth)}  ${grant.reason}`,
      );
    }
  }
  for (const trust of access.trust ?? []) {
    if (trust === access.trust?.[0]) out.push('  who can become each CI identity');
    const paths = trust.paths.map((path) => `${path.where}: ${path.subjects.join(', ')}`).join('; ');
    out.push(`    ${trust.identity} (${trust.cloud}): ${paths}`);
    out.push(`      reached by ${trust.reachedBy.join('; ') || 'no job'}; ${trust.binding}`);
  }
  return out;
}
