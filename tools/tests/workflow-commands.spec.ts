/**
 * The commands the GitHub workflows (and .ci/run) call exist in this repository as they call them: every
 * `npx` bin is installed, every nx target is declared, every script and file a step runs is there. A
 * renamed target or bin otherwise shows only in GitHub, after the merge.
 */
import { accessSync, constants, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { WORKSPACE } from './helpers';

interface Step {
  run?: string;
}
const files = [
  ...readdirSync(join(WORKSPACE, '.github', 'workflows')).map((name) => join('.github', 'workflows', name)),
  join('.github', 'actions', 'cloud-login', 'action.yml'),
];

/** Every shell script a workflow step (or the composite action) runs, with the file it is in. */
function scripts(): { file: string; script: string }[] {
  const found: { file: string; script: string }[] = [];
  for (const file of files) {
    const doc = parse(readFileSync(join(WORKSPACE, file), 'utf8')) as {
      jobs?: Record<string, { steps?: Step[] }>;
      runs?: { steps?: Step[] };
    };
    const steps = [
      ...Object.values(doc.jobs ?? {}).flatMap((job) => job.steps ?? []),
      ...(doc.runs?.steps ?? []),
    ];
    for (const step of steps) if (step.run) found.push({ file, script: step.run });
  }
  found.push({ file: '.ci/run', script: readFileSync(join(WORKSPACE, '.ci', 'run'), 'utf8') });
  return found;
}

const manifest = JSON.parse(readFileSync(join(WORKSPACE, 'package.json'), 'utf8')) as {
  scripts: Record<string, string>;
};
const nxJson = JSON.parse(readFileSync(join(WORKSPACE, 'nx.json'), 'utf8')) as {
  targetDefaults: Record<string, unknown>;
};
const projectTargets = (folder: string) =>
  Object.keys(
    (
      JSON.parse(readFileSync(join(WORKSPACE, folder, 'project.json'), 'utf8')) as {
        targets: Record<string, unknown>;
      }
    ).targets,
  );
const STACK_FOLDERS = readdirSync(join(WORKSPACE, 'stacks')).map((name) => join('stacks', name));
const ALL_FOLDERS = [
  ...STACK_FOLDERS,
  'bootstrap',
  'tools',
  ...readdirSync(join(WORKSPACE, 'libs')).map((name) => join('libs', name)),
];

describe('every command a workflow step calls exists', () => {
  const all = scripts();

  it('finds the steps (the parse really runs)', () => {
    expect(all.length).toBeGreaterThan(20);
    expect(all.some(({ script }) => script.includes('npx checkpoints-synth'))).toBe(true);
  });

  it('every `npx <bin>` is a bin npm ci installs', () => {
    const bins = new Set(
      all.flatMap(({ script }) =>
        [...script.matchAll(/\bnpx\s+([A-Za-z@][\w@/.-]*)/g)].map((m) => m[1] ?? ''),
      ),
    );
    expect([...bins].sort()).toEqual(
      expect.arrayContaining([
        'checkpoints-affected',
        'checkpoints-pulumi',
        'checkpoints-synth',
        'checkpoints-synth-report',
        'nx',
      ]),
    );
    const missing = [...bins].filter((bin) => !existsSync(join(WORKSPACE, 'node_modules', '.bin', bin)));
    expect(missing).toEqual([]);
  });

  it('every nx target a step runs is declared for the projects it runs on', () => {
    const missing: string[] = [];
    for (const { file, script } of all) {
      for (const [, targets = ''] of script.matchAll(/\bnx (?:affected|run-many)\s+-t\s+((?:[a-z][\w-]*(?:\s+|$))+)/g)) {
        for (const target of targets.trim().split(/\s+/)) {
          const declared =
            target in nxJson.targetDefaults ||
            ALL_FOLDERS.some((folder) => projectTargets(folder).includes(target));
          if (!declared) missing.push(`${file}: nx -t ${target}`);
        }
      }
      // `nx run "${PROJECT}:<target>"`: PROJECT is a stack of the matrix, so every stack must have the target.
      for (const [, target = ''] of script.matchAll(/\bnx run "\$\{PROJECT\}:([\w-]+)"/g)) {
        for (const folder of STACK_FOLDERS) {
          if (!projectTargets(folder).includes(target))
            missing.push(`${file}: ${folder} has no target ${target}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('every npm script a step runs is in package.json', () => {
    const used = all.flatMap(({ script }) => [
      ...[...script.matchAll(/\bnpm run ([\w:-]+)/g)].map((m) => m[1] ?? ''),
      ...(/\bnpm start\b/.test(script) ? ['start'] : []),
      ...(/\bnpm test\b/.test(script) ? ['test'] : []),
    ]);
    expect(used.length).toBeGreaterThan(0);
    expect(used.filter((name) => !(name in manifest.scripts))).toEqual([]);
  });

  it('every repository file a step runs exists (scripts executable)', () => {
    const missing: string[] = [];
    for (const { file, script } of all) {
      for (const [, path = ''] of script.matchAll(
        /(?:^|[\s(])(?:node\s+)?((?:tools|libs|\.ci)\/[\w./-]+\.(?:mjs|cjs|js|sh))/gm,
      )) {
        const full = join(WORKSPACE, path);
        if (!existsSync(full)) missing.push(`${file}: ${path}`);
        else if (path.endsWith('.sh')) {
          try {
            accessSync(full, constants.X_OK);
          } catch {
            missing.push(`${file}: ${path} is not executable`);
          }
        }
      }
    }
    expect(missing).toEqual([]);
  });
});
