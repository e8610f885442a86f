'use strict';
/**
 * The `lint` target's executor (`@checkpoints/tools:lint`, nx.json): ESLint over the project's folder with
 * the workspace's eslint.config.mjs, failing on any error or warning (the CLI's `--max-warnings=0`) and
 * silent about ignored files (`--no-warn-ignored`).
 *
 * The lint tasks of one nx run share one ESLint in one process: nx hands every lint task it has to run to
 * `lintBatch` (the executor prefers batches: executors.json), and still caches, replays and reports each
 * task on its own. An ESLint process spends about a second loading typescript-eslint and TypeScript before
 * it reads a file, so eleven processes took 23.7 s of CPU where one takes 10.4 s (docs/benchmarks.md,
 * stop 27). `lint` is the same for one task, when nx is told not to batch (`--batch=false`).
 */
const { ESLint } = require('eslint');

/**
 * Lints each project folder in turn with one ESLint, yielding each task's result as it ends (nx prints a
 * task's output as soon as it is yielded). A folder ESLint cannot lint (every file in it ignored) fails its
 * task with ESLint's reason; the others still run.
 */
async function* lintFolders(workspaceRoot, folders) {
  const eslint = new ESLint({ cwd: workspaceRoot, warnIgnored: false });
  const formatter = await eslint.loadFormatter('stylish');
  for (const [task, folder] of folders) {
    const startTime = Date.now();
    let success = false;
    let terminalOutput;
    try {
      const files = await eslint.lintFiles([folder]);
      success = files.every((file) => file.errorCount + file.warningCount === 0);
      terminalOutput = await formatter.format(files);
    } catch (error) {
      terminalOutput = `eslint ${folder}: ${error.message}\n`;
    }
    yield { task, result: { success, terminalOutput, startTime, endTime: Date.now() } };
  }
}

/** One lint task: nx's executor signature, the task's output on stdout. */
async function lint(_options, context) {
  const folder = context.projectsConfigurations.projects[context.projectName].root;
  for await (const { result } of lintFolders(context.root, [[context.projectName, folder]])) {
    process.stdout.write(result.terminalOutput);
    return { success: result.success };
  }
}

/** Every lint task of a batch, in one ESLint: nx's batch executor signature. */
function lintBatch(taskGraph, _options, _overrides, context) {
  const folders = Object.values(taskGraph.tasks).map((task) => [
    task.id,
    context.projectGraph.nodes[task.target.project].data.root,
  ]);
  return lintFolders(context.root, folders);
}

module.exports = { lint, lintBatch };
