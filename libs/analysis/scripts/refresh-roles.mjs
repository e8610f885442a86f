#!/usr/bin/env node
/**
 * Re-vendors the subset of the clouds' role definitions the access analysis reads, from a copy of the
 * reference folder (default: ../shared/reference/cloud-roles, see its SOURCE.md), and stamps the source
 * and date into each data file. Run it with a newer copy, review the diff, commit it.
 *
 *   node libs/analysis/scripts/refresh-roles.mjs [--from=DIR]
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const here = dirname(fileURLToPath(import.meta.url));
const dataDir = join(here, '..', 'data');
const { values } = parseArgs({ options: { from: { type: 'string' } } });
const from = resolve(
  values.from ?? join(here, '..', '..', '..', '..', 'shared', 'reference', 'cloud-roles'),
);

/** The GCP roles the project assigns, and the ones GCP grants by default (basic roles, convenience bindings). */
const GCP_ROLES = readList('gcp-roles.list');
/** Only these services matter to a checkpoint store: a basic role's other thousands of permissions are dropped. */
const GCP_SERVICES = ['storage.', 'cloudkms.', 'iam.', 'resourcemanager.'];

function readList(file) {
  return readFileSync(join(dataDir, file), 'utf8')
    .split('\n')
    .map((line) => line.replace(/#.*/, '').trim())
    .filter(Boolean);
}

const source = readFileSync(join(from, 'SOURCE.md'), 'utf8');
const commit = /commit\s+([0-9a-f]{40}),\s+(\d{4}-\d{2}-\d{2})/.exec(source);
if (!commit)
  throw new Error(`${join(from, 'SOURCE.md')}: no "commit <sha>, <date>" line to stamp the data with`);
const provenance = {
  source: `github.com/iann0036/iam-dataset@${commit[1]} (via ${from}/SOURCE.md)`,
  date: commit[2],
};

const gcp = JSON.parse(readFileSync(join(from, 'gcp-predefined-roles.json'), 'utf8'));
const gcpRoles = {};
for (const role of GCP_ROLES) {
  const entry = gcp[role];
  if (!entry) throw new Error(`GCP role ${role} is not in ${from}/gcp-predefined-roles.json`);
  gcpRoles[role] = entry.includedPermissions.filter((p) => GCP_SERVICES.some((s) => p.startsWith(s))).sort();
}
write('gcp-roles.json', { ...provenance, file: 'gcp/roles/*.json', services: GCP_SERVICES, roles: gcpRoles });

const azure = JSON.parse(readFileSync(join(from, 'azure-built-in-roles.json'), 'utf8'));
// Every built-in role: an assignment in a render may name any of them by its GUID, and a role the data does
// not hold counts as granting every action and data action.
const azureRoles = {};
for (const entry of [...azure].sort((a, b) => a.name.localeCompare(b.name))) {
  azureRoles[entry.name] = {
    roleName: entry.roleName,
    permissions: entry.permissions.map(({ actions, notActions, dataActions, notDataActions }) => ({
      actions,
      notActions,
      dataActions,
      notDataActions,
    })),
  };
}
write('azure-roles.json', { ...provenance, file: 'azure/built-in-roles-raw.json', roles: azureRoles });

function write(file, value) {
  writeFileSync(join(dataDir, file), JSON.stringify(value, null, 2) + '\n');
  console.log(`wrote ${join(dataDir, file)}`);
}
