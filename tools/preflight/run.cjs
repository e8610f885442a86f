/**
 * checkpoints-preflight --stack=<env>: run from a stack's folder (its nx target's cwd), reads that stack's
 * Pulumi.<env>.yaml and asks, read-only, what its first deploy needs; exit 0 when every check passes, 1
 * when one fails, 2 on a bad flag or a stack it cannot read.
 */
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { parse } = require('yaml');
const { println } = require('../pulumi/process-io.cjs');
const { awsClients, awsPreflight } = require('./aws.cjs');
const { githubEnvironmentCheck } = require('./github.cjs');

/** @param {string} root @param {string} stack */
function stackFiles(root, stack) {
  const project = parse(readFileSync(join(root, 'Pulumi.yaml'), 'utf8'));
  const config = parse(readFileSync(join(root, `Pulumi.${stack}.yaml`), 'utf8'))?.config ?? {};
  return { project: String(project?.name ?? ''), config };
}

/**
 * @param {string[]} argv
 * @param {import('../pulumi/process-io.cjs').Io} io
 * @param {{ clients?: typeof awsClients, fetch?: typeof fetch }} [deps]
 */
async function main(argv, io, deps = {}) {
  const flag = argv.find((arg) => arg.startsWith('--stack='));
  const stack = flag?.slice('--stack='.length) ?? '';
  if (!/^[A-Za-z0-9_.-]+$/.test(stack)) {
    println(io.stderr, `--stack: '${stack}' given; allowed: a stack name such as dev or prod (--stack=prod)`);
    return 2;
  }
  let files;
  try {
    files = stackFiles(io.cwd, stack);
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    println(io.stderr, `cannot read Pulumi.yaml and Pulumi.${stack}.yaml in ${io.cwd}: ${why}`);
    return 2;
  }
  if (files.project !== 'checkpoints-aws') {
    println(io.stderr, `project ${files.project}: the preflight checks checkpoints-aws only so far`);
    return 2;
  }
  const environment = String(files.config['checkpoints:environment'] ?? stack);
  const region = String(files.config['aws:region'] ?? 'us-east-1');
  const backend = io.env['PULUMI_BACKEND_URL'] ?? '';
  const stateBucket = backend.startsWith('s3://')
    ? backend.slice('s3://'.length).split(/[/?]/)[0]
    : undefined;
  const checks = await awsPreflight((deps.clients ?? awsClients)(region), {
    environment,
    region,
    deployRole: String(files.config['checkpoints:ciDeployRole'] ?? `checkpoints-ci-deploy-${environment}`),
    ...(stateBucket ? { stateBucket } : {}),
  });
  checks.push(
    await githubEnvironmentCheck(deps.fetch ?? globalThis.fetch, {
      repository: io.env['GITHUB_REPOSITORY'],
      environment,
      token: io.env['GITHUB_TOKEN'],
    }),
  );
  for (const check of checks)
    println(io.stdout, `${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
  return checks.every((check) => check.ok) ? 0 : 1;
}

module.exports = { main };
