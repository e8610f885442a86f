/**
 * Which stacks a change touches, times their environments: the matrix behind the preview,
 * deploy and drift workflows, and a quick answer locally.
 *
 *   checkpoints-affected [--base=REF] [--head=REF] [--all] [--projects=PROJECT,...]
 *                        [--environments=dev,prod] [--exclude=PROJECT,...] [--json]
 *                        [--github-output] [--output-prefix=NAME]
 *
 * Projects come from the preview tasks `nx affected -t preview` would run (`nx run-many -t preview`
 * under --all), narrowed for the files of one cloud (`cloudOfFile`): such a file affects only the
 * projects that deploy to that cloud among those nx finds for it. Environments come from the
 * Pulumi.<env>.yaml files in each project's Pulumi folder (its preview target's cwd, honouring
 * `stackConfigDir`), or the --environments list (kept to the stacks that have a file). Prints a readable table, or with --json the
 * `{"include": [...]}` object a GitHub matrix takes; --github-output also writes `matrix` and
 * `count` (or `<prefix>-matrix` and `<prefix>-count`) to $GITHUB_OUTPUT. The command line is
 * affected.mjs.
 */
const { spawnSync } = require('node:child_process');
const { createRequire } = require('node:module');
const { appendFileSync, existsSync, readFileSync, readdirSync } = require('node:fs');
const { dirname, isAbsolute, join, relative, resolve } = require('node:path');
const { parseArgs } = require('node:util');
const { parse } = require('yaml');
const { println, processIo } = require('./process-io.cjs');

/** Provider packages that tell which cloud a project deploys to (and so which login it needs). */
const CLOUD_PACKAGES = { '@pulumi/aws': 'aws', '@pulumi/gcp': 'gcp', '@pulumi/azure-native': 'azure' };
/** The clouds, as the per-cloud folders and file names of the libs and the bootstrap spell them. */
const CLOUDS = Object.values(CLOUD_PACKAGES);
/** Stack config keys holding the region, per cloud. */
const REGION_KEYS = { aws: 'aws:region', gcp: 'gcp:region', azure: 'azure-native:location' };

const USAGE = `usage: checkpoints-affected [--base=REF] [--head=REF] [--all] [--projects=PROJECT,...]
                            [--environments=a,b] [--exclude=PROJECT,...] [--json]
                            [--github-output] [--output-prefix=NAME]
  --base, --head   the change to look at (nx defaults: base = nx.json defaultBase, head = the work tree)
  --all            every project with a preview target, affected or not (nightly drift)
  --projects       only these projects (each must have a preview target)
  --environments   only these stacks (default: every Pulumi.<env>.yaml of each project)
  --exclude        leave these projects out (e.g. bootstrap, which an administrator runs)
  --json           print {"include": [...]} for a GitHub Actions matrix
  --github-output  also write matrix=<json> and count=<n> to $GITHUB_OUTPUT
  --output-prefix  name them <prefix>-matrix and <prefix>-count instead (one plan step, several matrices)`;

/**
 * @typedef {{ project: string, stack: string, clouds: string, region: string, workDir: string, backendVariable: string }} Entry
 * @typedef {{ root: string, targets?: Record<string, { options?: { cwd?: string } }> }} ProjectData
 * @typedef {{ names: string[], projects: Record<string, ProjectData> }} PreviewPlan
 * @typedef {typeof previewPlan} Planner how the preview tasks are planned: `previewPlan`, or in the
 *   tests the same plans kept per change
 */

/**
 * @param {string[]} args
 * @param {string} cwd
 * @param {NodeJS.ProcessEnv} env
 */
function nx(args, cwd, env) {
  const result = spawnSync(process.execPath, [nxEntry(cwd), ...args], {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    // Only nx's built-in plugins here: loading them in process saves ~0.4 s per run.
    env: {
      ...env,
      NX_DAEMON: 'false',
      NX_NO_CLOUD: 'true',
      NX_TUI: 'false',
      NX_ISOLATE_PLUGINS: 'false',
    },
  });
  if (result.status !== 0) {
    throw new Error(`nx ${args.join(' ')} failed (${result.status}):\n${result.stderr}${result.stdout}`);
  }
  return result.stdout;
}

/**
 * The workspace's own nx, run with this very node (no shell, no npx).
 * @param {string} root
 */
function nxEntry(root) {
  const manifest = createRequire(join(root, 'package.json')).resolve('nx/package.json');
  return join(dirname(manifest), JSON.parse(readFileSync(manifest, 'utf8')).bin.nx);
}

/** @param {string} text output that ends with a JSON document (nx may print notices before it) */
function lastJson(text) {
  const start = text.search(/^[[{]/m);
  if (start < 0) throw new Error(`expected JSON from nx, got:\n${text}`);
  return JSON.parse(text.slice(start));
}

/**
 * The projects whose preview target a change touches (every one under --all), and the project graph's
 * data, from one nx run: `--graph=stdout` plans the preview tasks without running them, so the graph is
 * computed once rather than once for the list and once for the data.
 * @param {string} root the workspace root
 * @param {{ base?: string, head?: string, all?: boolean, files?: string[] }} options files: these files
 *   in place of a change (nx then takes each as changed whole: it diffs a JSON or YAML file, to see which
 *   keys changed, only between a base and a head)
 * @param {NodeJS.ProcessEnv} [env] nx's environment
 * @returns {PreviewPlan}
 */
function previewPlan(root, options, env = process.env) {
  const args = options.all ? ['run-many', '-t', 'preview'] : ['affected', '-t', 'preview'];
  if (options.files) {
    args.push(`--files=${options.files.join(',')}`);
  } else if (!options.all) {
    if (options.base) args.push(`--base=${options.base}`);
    if (options.head) args.push(`--head=${options.head}`);
  }
  const plan = lastJson(nx([...args, '--graph=stdout'], root, env));
  /** @type {Record<string, ProjectData>} */
  const projects = {};
  for (const [name, node] of Object.entries(plan.graph.nodes)) {
    projects[name] = /** @type {{ data: ProjectData }} */ (node).data;
  }
  const names = Object.values(
    /** @type {Record<string, { target: { project: string } }>} */ (plan.tasks.tasks),
  ).map((task) => task.target.project);
  return { names: [...new Set(names)], projects };
}

/**
 * The one cloud a file of a lib (libs/<lib>/) or of the bootstrap belongs to, or undefined when it may
 * touch any: past the project's folder, its path has a folder named after the cloud
 * (libs/policy/src/rules/gcp/, libs/translate/src/aws/, bootstrap/src/azure/) or its file name starts
 * with the cloud's name (libs/analysis/src/access/aws-renaming.ts, libs/config/src/clouds/gcp.ts), and no
 * part of it names another cloud. A file of a stack is its stack's already.
 * @param {string} path relative to the workspace root, with `/`
 * @returns {string | undefined}
 */
function cloudOfFile(path) {
  const inProject = /^(?:libs\/[^/]+|bootstrap)\/(.+)$/.exec(path)?.[1];
  if (inProject === undefined) return undefined;
  const folders = inProject.split('/');
  const [first = '', ...rest] = (folders.pop() ?? '').split(/[.-]/);
  const owners = new Set([...folders, first].filter((part) => CLOUDS.includes(part)));
  const named = new Set([...owners, ...rest.filter((part) => CLOUDS.includes(part))]);
  return owners.size === 1 && named.size === 1 ? [...owners][0] : undefined;
}

/**
 * The files a change touches, as nx lists them for `nx affected` (nx 24, dist/src/utils/
 * command-line-utils.js `parseFiles`): base and head default to $NX_BASE and $NX_HEAD, base to nx.json's
 * defaultBase, and base is moved to its merge base with head; without a head, the work tree's changes
 * (committed since base, uncommitted, and untracked files).
 * @param {string} root
 * @param {{ base?: string, head?: string }} options
 * @param {NodeJS.ProcessEnv} env
 * @returns {string[]}
 */
function changedFiles(root, options, env) {
  const git = (/** @type {string[]} */ args) => {
    const result = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
    if (result.status !== 0)
      throw new Error(`git ${args.join(' ')} failed (${result.status}):\n${result.stderr}`);
    return result.stdout;
  };
  const nxJson = JSON.parse(readFileSync(join(root, 'nx.json'), 'utf8'));
  const head = options.head ?? env['NX_HEAD'];
  const base = options.base ?? env['NX_BASE'] ?? nxJson.defaultBase ?? nxJson.affected?.defaultBase ?? 'main';
  const tryGit = (/** @type {string[]} */ args) => {
    try {
      return git(args).trim();
    } catch {
      return undefined;
    }
  };
  const from =
    tryGit(['merge-base', base, head ?? 'HEAD']) ??
    tryGit(['merge-base', '--fork-point', base, head ?? 'HEAD']) ??
    base;
  const list = (/** @type {string[]} */ args) => git(args).split('\0').filter(Boolean);
  const diff = (/** @type {string[]} */ refs) =>
    list(['diff', '--name-only', '--no-renames', '--relative', '-z', ...refs]);
  if (head !== undefined) return diff([from, head]);
  return [
    ...new Set([
      ...diff([from, 'HEAD']),
      ...diff(['HEAD', '.']),
      ...list(['ls-files', '--others', '--exclude-standard', '-z']),
    ]),
  ];
}

/**
 * A file nx reads at base and at head to see what changed inside it: the workspace's package.json
 * (dependencies), tsconfig (path mappings) and lock file (packages); a file in a project counts by its
 * path alone. Given as a file, nx takes it as changed whole instead (nx 24, dist/src/project-graph/
 * file-utils.js `calculateFileChanges`, plugins/js/project-graph/affected/).
 * @param {string} file
 */
const readByContent = (file) => !file.includes('/') && /\.(?:json|ya?ml|lockb?)$/.test(file);

/**
 * The preview plan of a change, narrowed by cloud: nx plans the files of no one cloud together, and the
 * files of each cloud apart, of which only the projects that deploy to that cloud are kept (a project
 * whose cloud is unknown is kept for every cloud). A change with no per-cloud file is nx's own plan, and so
 * is one whose other files include one nx reads by content: nx would judge that file otherwise on its own.
 * @param {string} root
 * @param {{ base?: string, head?: string, all?: boolean }} options
 * @param {{ env?: NodeJS.ProcessEnv, planner?: Planner }} how
 * @returns {PreviewPlan}
 */
function narrowedPlan(root, options, how) {
  const env = how.env ?? process.env;
  const planner = how.planner ?? previewPlan;
  if (options.all) return planner(root, options, env);
  /** @type {Map<string | undefined, string[]>} */
  const groups = new Map();
  for (const file of changedFiles(root, options, env)) {
    const cloud = cloudOfFile(file);
    groups.set(cloud, [...(groups.get(cloud) ?? []), file]);
  }
  const shared = groups.get(undefined) ?? [];
  if (groups.size === (shared.length > 0 ? 1 : 0) || shared.some(readByContent)) {
    return planner(root, options, env);
  }
  /** @type {Set<string>} */
  const names = new Set();
  /** @type {Record<string, ProjectData>} */
  let projects = {};
  for (const [cloud, files] of groups) {
    const plan = planner(root, { files }, env);
    projects = plan.projects;
    for (const name of plan.names) {
      const project = plan.projects[name];
      const clouds = project ? cloudsOf(root, project) : [];
      if (cloud === undefined || clouds.length === 0 || clouds.includes(cloud)) names.add(name);
    }
  }
  return { names: [...names], projects };
}

/**
 * The folder holding a project's Pulumi.yaml: its preview target's cwd (the bootstrap project
 * runs from the workspace root), else the project root.
 * @param {string} root
 * @param {ProjectData} project
 */
function pulumiDir(root, project) {
  const cwd = project.targets?.['preview']?.options?.cwd ?? project.root;
  return isAbsolute(cwd) ? cwd : resolve(root, cwd);
}

/**
 * Stack names with a Pulumi.<stack>.yaml in the project's stack config folder, sorted.
 * @param {string} dir the Pulumi project folder
 */
function stackNames(dir) {
  const projectFile = ['Pulumi.yaml', 'Pulumi.yml'].map((name) => join(dir, name)).find(existsSync);
  if (!projectFile) throw new Error(`no Pulumi.yaml in ${dir}`);
  const project = parse(readFileSync(projectFile, 'utf8')) ?? {};
  const configDir = resolve(dir, typeof project.stackConfigDir === 'string' ? project.stackConfigDir : '.');
  if (!existsSync(configDir)) return { configDir, stacks: [] };
  const stacks = readdirSync(configDir)
    .map((file) => /^Pulumi\.(.+)\.ya?ml$/.exec(file)?.[1])
    .filter((stack) => stack !== undefined)
    .sort();
  return { configDir, stacks: /** @type {string[]} */ (stacks) };
}

/**
 * Clouds a project deploys to, from the provider packages in its package.json.
 * @param {string} root
 * @param {ProjectData} project
 */
function cloudsOf(root, project) {
  const file = join(root, project.root, 'package.json');
  if (!existsSync(file)) return [];
  const manifest = JSON.parse(readFileSync(file, 'utf8'));
  const deps = { ...manifest.dependencies, ...manifest.devDependencies };
  return Object.entries(CLOUD_PACKAGES)
    .filter(([pkg]) => pkg in deps)
    .map(([, cloud]) => cloud);
}

/**
 * @param {string} configDir
 * @param {string} stack
 * @param {string[]} clouds
 */
function regionOf(configDir, stack, clouds) {
  const file = ['yaml', 'yml'].map((ext) => join(configDir, `Pulumi.${stack}.${ext}`)).find(existsSync);
  if (!file || clouds.length !== 1) return '';
  const config = (parse(readFileSync(file, 'utf8')) ?? {}).config ?? {};
  const value = config[REGION_KEYS[/** @type {keyof typeof REGION_KEYS} */ (clouds[0])]];
  return typeof value === 'string' ? value : '';
}

/**
 * The matrix: every (project, stack) pair, sorted by project then stack.
 * @param {string} root
 * @param {{ base?: string, head?: string, all?: boolean, projects?: string[], environments?: string[], exclude?: string[] }} options
 * @param {{ env?: NodeJS.ProcessEnv, planner?: Planner }} [how] nx's environment, and how to plan
 * @returns {{ entries: Entry[], notes: string[] }}
 */
function affectedStacks(root, options = {}, how = {}) {
  const exclude = new Set(options.exclude ?? []);
  const plan = narrowedPlan(root, options, how);
  if (options.projects) {
    const known = Object.keys(plan.projects).filter((name) => plan.projects[name]?.targets?.['preview']);
    const unknown = options.projects.filter((name) => !known.includes(name));
    if (unknown.length > 0) {
      throw new UsageError(
        `--projects: no project ${unknown.map((name) => `'${name}'`).join(', ')} with a preview target; ` +
          `allowed: ${known.sort().join(', ')}`,
      );
    }
  }
  const only = options.projects ? new Set(options.projects) : undefined;
  const names = plan.names.filter((name) => !exclude.has(name) && (!only || only.has(name)));
  const projects = plan.projects;
  /** @type {string[]} */
  const notes = [];
  if (names.length === 0) return { entries: [], notes };
  /** @type {Entry[]} */
  const entries = [];
  for (const name of [...names].sort()) {
    const project = projects[name];
    if (!project) throw new Error(`nx listed project '${name}' but the project graph has no such node`);
    const dir = pulumiDir(root, project);
    const { configDir, stacks } = stackNames(dir);
    let chosen = stacks;
    if (options.environments) {
      chosen = options.environments.filter((stack) => stacks.includes(stack));
      for (const stack of options.environments.filter((env) => !stacks.includes(env))) {
        notes.push(`${name}: no Pulumi.${stack}.yaml in ${relative(root, configDir) || '.'}, skipped`);
      }
    }
    const clouds = cloudsOf(root, project);
    for (const stack of chosen) {
      entries.push({
        project: name,
        stack,
        clouds: clouds.join(','),
        region: regionOf(configDir, stack, clouds),
        workDir: relative(root, dir) || '.',
        backendVariable: clouds.length === 1 ? `PULUMI_BACKEND_URL_${clouds[0]?.toUpperCase()}` : '',
      });
    }
  }
  return { entries, notes };
}

/** A mistake in the arguments: exit status 2, with the usage. */
class UsageError extends Error {}

/** @param {Entry[]} entries */
function formatTable(entries) {
  if (entries.length === 0) return 'No stack is affected.';
  const rows = [
    ['PROJECT', 'STACK', 'CLOUD', 'REGION', 'FOLDER'],
    ...entries.map((e) => [e.project, e.stack, e.clouds, e.region || '-', e.workDir]),
  ];
  const widths =
    rows[0]?.map((_, column) => Math.max(...rows.map((row) => (row[column] ?? '').length))) ?? [];
  const lines = rows.map((row) =>
    row
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd(),
  );
  const projects = new Set(entries.map((e) => e.project)).size;
  return `${lines.join('\n')}\n\n${entries.length} stack(s) in ${projects} project(s).`;
}

/** @param {string | undefined} list */
function csv(list) {
  return list === undefined
    ? undefined
    : list
        .split(',')
        .map((item) => item.trim())
        .filter(Boolean);
}

/**
 * The command in the workspace that holds `io.cwd`.
 * @param {string[]} argv
 * @param {import('./process-io.cjs').Io} [io]
 * @param {Planner} [planner]
 * @returns {number} the exit status
 */
function main(argv, io = processIo(), planner = previewPlan) {
  try {
    return matrixCommand(argv, findWorkspaceRoot(io.cwd), io, planner);
  } catch (error) {
    println(io.stderr, `checkpoints-affected: ${/** @type {Error} */ (error).message}`);
    return 1;
  }
}

/**
 * @param {string[]} argv
 * @param {string} root
 * @param {import('./process-io.cjs').Io} io
 * @param {Planner} planner
 * @returns {number} the exit status
 */
function matrixCommand(argv, root, io, planner) {
  let values;
  try {
    ({ values } = parseArgs({
      args: argv,
      strict: true,
      options: {
        base: { type: 'string' },
        head: { type: 'string' },
        all: { type: 'boolean' },
        projects: { type: 'string' },
        environments: { type: 'string' },
        exclude: { type: 'string' },
        json: { type: 'boolean' },
        'github-output': { type: 'boolean' },
        'output-prefix': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (error) {
    println(io.stderr, `checkpoints-affected: ${/** @type {Error} */ (error).message}\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    println(io.stdout, USAGE);
    return 0;
  }
  if (values.all && (values.base || values.head)) {
    println(io.stderr, `checkpoints-affected: --all takes no --base/--head\n${USAGE}`);
    return 2;
  }
  /** @type {Parameters<typeof affectedStacks>[1]} */
  const options = { all: values.all ?? false };
  if (values.base) options.base = values.base;
  if (values.head) options.head = values.head;
  const environments = csv(values.environments);
  if (environments) options.environments = environments;
  const projects = csv(values.projects);
  if (projects) options.projects = projects;
  options.exclude = csv(values.exclude) ?? [];
  let result;
  try {
    result = affectedStacks(root, options, { env: io.env, planner });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    println(io.stderr, `checkpoints-affected: ${error.message}\n${USAGE}`);
    return 2;
  }
  const { entries, notes } = result;
  for (const note of notes) println(io.stderr, `checkpoints-affected: ${note}`);
  const matrix = JSON.stringify({ include: entries });
  println(io.stdout, values.json ? matrix : formatTable(entries));
  if (values['github-output']) {
    const file = io.env['GITHUB_OUTPUT'];
    if (!file) {
      println(
        io.stderr,
        'checkpoints-affected: --github-output needs $GITHUB_OUTPUT (set by GitHub Actions)',
      );
      return 2;
    }
    const prefix = values['output-prefix'] ? `${values['output-prefix']}-` : '';
    appendFileSync(file, `${prefix}matrix=${matrix}\n${prefix}count=${entries.length}\n`);
  }
  return 0;
}

/**
 * The workspace to look at: the nearest folder holding nx.json, from the current folder up.
 * @param {string} from
 */
function findWorkspaceRoot(from) {
  for (let dir = resolve(from); ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'nx.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`no nx.json in ${from} or any folder above it`);
  }
}

module.exports = {
  previewPlan,
  cloudOfFile,
  changedFiles,
  pulumiDir,
  stackNames,
  cloudsOf,
  affectedStacks,
  UsageError,
  formatTable,
  main,
  findWorkspaceRoot,
};
