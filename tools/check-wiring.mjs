#!/usr/bin/env node
/**
 * Cross-project wiring nx cannot cache per project: the bootstrap stack grants CI its rights where the
 * stacks actually deploy. Runs after the cached per-project targets in `npm test`, in well under a second,
 * so a change to a stack's Pulumi.<env>.yaml re-runs only that stack's synth in nx and still meets this check.
 *
 *   node tools/check-wiring.mjs [--root=DIR]
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { parse } from 'yaml';

/**
 * @param {string} file
 * @returns {Record<string, unknown>}
 */
function stackConfig(file) {
  if (!existsSync(file)) return {};
  return (
    /** @type {{ config?: Record<string, unknown> }} */ (parse(readFileSync(file, 'utf8')) ?? {}).config ?? {}
  );
}

/**
 * Every mismatch between each bootstrap stack and the stack configs it grants CI rights for.
 * @param {string} root the repository root
 * @returns {string[]}
 */
export function wiringProblems(root) {
  const project = /** @type {{ stackConfigDir?: string }} */ (
    parse(readFileSync(join(root, 'Pulumi.yaml'), 'utf8'))
  );
  const configDir = resolve(root, project.stackConfigDir ?? '.');
  const problems = [];
  for (const file of readdirSync(configDir).filter((name) => /^Pulumi\..+\.ya?ml$/.test(name))) {
    const ci = stackConfig(join(configDir, file));
    const clouds = /** @type {string[]} */ (ci['bootstrap:clouds'] ?? []);
    const environments = /** @type {string[]} */ (ci['bootstrap:environments'] ?? []);
    const expect = (
      /** @type {string} */ cloud,
      /** @type {string} */ setting,
      /** @type {Record<string, string> | undefined} */ granted,
      /** @type {string} */ stack,
      /** @type {string} */ key,
    ) => {
      if (!clouds.includes(cloud)) return;
      for (const env of environments) {
        const deployed = stackConfig(join(root, 'stacks', stack, `Pulumi.${env}.yaml`))[key];
        if (granted?.[env] !== deployed) {
          problems.push(
            `${file}: ${setting}.${env} is ${JSON.stringify(granted?.[env])} but stacks/${stack}/Pulumi.${env}.yaml sets ${key} to ${JSON.stringify(deployed)}: CI would hold its rights where the stack does not deploy`,
          );
        }
      }
    };
    const gcp = /** @type {{ stackProjects?: Record<string, string> } | undefined} */ (ci['bootstrap:gcp']);
    const azure = /** @type {{ stackResourceGroups?: Record<string, string> } | undefined} */ (
      ci['bootstrap:azure']
    );
    expect('gcp', 'bootstrap:gcp.stackProjects', gcp?.stackProjects, 'gcp-gcs', 'gcp:project');
    expect(
      'azure',
      'bootstrap:azure.stackResourceGroups',
      azure?.stackResourceGroups,
      'azure-adls',
      'checkpoints:resourceGroupName',
    );
  }
  return problems;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({ options: { root: { type: 'string' } } });
  const root = resolve(values.root ?? join(dirname(fileURLToPath(import.meta.url)), '..'));
  const problems = wiringProblems(root);
  if (problems.length > 0) {
    console.error(`check-wiring: ${problems.length} problem(s):\n  - ${problems.join('\n  - ')}`);
    process.exitCode = 1;
  } else {
    console.log('check-wiring: bootstrap grants CI where every stack deploys.');
  }
}
