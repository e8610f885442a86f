/**
 * checkpoints-preflight --stack=<name>: run from a stack's folder, or from the repository root for the
 * bootstrap (its nx target's cwd), reads that project's Pulumi.<name>.yaml and asks, read-only, what its
 * first deploy needs; exit 0 when every check passes, 1 when one fails, 2 on a bad flag or a stack it
 * cannot read. The bootstrap's is also compared with its offline render, dist/synth/bootstrap/<name>.json
 * (`npx nx run bootstrap:synth`, which its preflight target runs first), or the one --render=PATH names.
 */
const { readFileSync } = require('node:fs');
const { join, resolve } = require('node:path');
const { parse } = require('yaml');
const { println } = require('../pulumi/process-io.cjs');
const { awsAccountClients, awsAuditedObjectTypes, awsClients, awsPreflight } = require('./aws.cjs');
const { gcpClient, gcpPreflight } = require('./gcp.cjs');
const {
  AZURE_NATIVE_PROVIDERS,
  azureConnection,
  azurePreflight,
  azureStackModules,
  stateContainerOf,
} = require('./azure.cjs');
const { BackupClient } = require('@aws-sdk/client-backup');
const { bootstrapPreflight } = require('./bootstrap.cjs');
const { readBootstrapRender } = require('./bootstrap-render.cjs');
const { githubEnvironmentCheck } = require('./github.cjs');

const PROJECTS = ['checkpoints-aws', 'checkpoints-gcp', 'checkpoints-azure', 'checkpoints-bootstrap'];

/**
 * The stack's project name and config, from its folder's Pulumi.yaml and the stack file in the project's
 * stackConfigDir (the bootstrap's is bootstrap/).
 * @param {string} root @param {string} stack
 */
function stackFiles(root, stack) {
  const project = parse(readFileSync(join(root, 'Pulumi.yaml'), 'utf8'));
  const file = join(root, String(project?.stackConfigDir ?? '.'), `Pulumi.${stack}.yaml`);
  const config = parse(readFileSync(file, 'utf8'))?.config ?? {};
  return { project: String(project?.name ?? ''), config: /** @type {Record<string, any>} */ (config) };
}

/** @param {unknown} value @returns {Record<string, any>} */
function mapping(value) {
  return typeof value === 'object' && value !== null ? /** @type {Record<string, any>} */ (value) : {};
}

/**
 * @param {string[]} argv
 * @param {import('../pulumi/process-io.cjs').Io} io
 * @param {{
 *   clients?: typeof awsClients,
 *   accountClients?: typeof awsAccountClients,
 *   gcp?: () => Promise<import('./gcp.cjs').GcpClient>,
 *   azure?: () => import('./azure.cjs').AzureConnection,
 *   fetch?: typeof fetch,
 * }} [deps]
 */
async function main(argv, io, deps = {}) {
  const flag = argv.find((arg) => arg.startsWith('--stack='));
  const stack = flag?.slice('--stack='.length) ?? '';
  if (!/^[A-Za-z0-9_.-]+$/.test(stack)) {
    println(
      io.stderr,
      `--stack: '${stack}' given; allowed: a stack name such as dev or prod (--stack=prod), ci for the bootstrap`,
    );
    return 2;
  }
  /** @param {string} root @param {string} name */
  const read = (root, name) => {
    try {
      return stackFiles(root, name);
    } catch (error) {
      const why = error instanceof Error ? error.message : String(error);
      println(io.stderr, `cannot read Pulumi.yaml and Pulumi.${name}.yaml in ${root}: ${why}`);
      return undefined;
    }
  };
  const files = read(io.cwd, stack);
  if (files === undefined) return 2;
  if (!PROJECTS.includes(files.project)) {
    println(io.stderr, `project ${files.project || '(unnamed)'}: the preflight knows ${PROJECTS.join(', ')}`);
    return 2;
  }
  const { config } = files;
  const backend = io.env['PULUMI_BACKEND_URL'] ?? '';
  const environment = String(config['checkpoints:environment'] ?? stack);
  const github = deps.fetch ?? globalThis.fetch;
  /** @type {import('./checks.cjs').Check[]} */
  const checks = [];
  /** @type {string[]} */
  let environments = [environment];
  let repository = io.env['GITHUB_REPOSITORY'];
  if (files.project === 'checkpoints-aws') {
    const region = String(config['aws:region'] ?? 'us-east-1');
    const stateBucket = backend.startsWith('s3://')
      ? backend.slice('s3://'.length).split(/[/?]/)[0]
      : undefined;
    // The organization trail answers for the audited stores only: with none, the controls are not applicable.
    const objectTypes = awsAuditedObjectTypes(config['checkpoints:stores']);
    const organizationTrail = config['checkpoints:organizationTrail'];
    checks.push(
      ...(await awsPreflight(
        { ...(deps.clients ?? awsClients)(region), ...(deps.accountClients ?? awsAccountClients)(region) },
        {
          environment,
          region,
          deployRole: String(config['checkpoints:ciDeployRole'] ?? `checkpoints-ci-deploy-${environment}`),
          ...(typeof organizationTrail === 'string' && objectTypes.length > 0
            ? { organizationTrail: { arn: organizationTrail, objectTypes } }
            : {}),
          ...(stateBucket ? { stateBucket } : {}),
        },
      )),
    );
  } else if (files.project === 'checkpoints-bootstrap') {
    const region = String(config['aws:region'] ?? 'us-east-1');
    // The render the bootstrap target's synth writes (bootstrap/project.json), unless --render names one.
    const renderFlag = argv.find((arg) => arg.startsWith('--render='))?.slice('--render='.length);
    const renderPath = resolve(io.cwd, renderFlag ?? join('dist', 'synth', 'bootstrap', `${stack}.json`));
    checks.push(
      ...(await bootstrapPreflight(
        config,
        {
          aws: () => ({ backup: new BackupClient({ region }), ...(deps.clients ?? awsClients)(region) }),
          gcp: deps.gcp ?? gcpClient,
          azure: deps.azure ?? azureConnection,
        },
        readBootstrapRender(renderPath, config),
      )),
    );
    // Each deploy job's environment, and drift, which the preview identity trusts (docs/bootstrap.md).
    const listed = Array.isArray(config['bootstrap:environments']) ? config['bootstrap:environments'] : [];
    environments = [...listed.map(String), 'drift'];
    repository =
      typeof config['bootstrap:repository'] === 'string' ? config['bootstrap:repository'] : repository;
  } else {
    // The GCP and Azure stacks deploy with what the bootstrap stack ci gave their environment.
    const root = join(io.cwd, '..', '..');
    const bootstrap = read(root, 'ci');
    if (bootstrap === undefined) return 2;
    const stores = Array.isArray(config['checkpoints:stores']) ? config['checkpoints:stores'] : [];
    if (files.project === 'checkpoints-gcp') {
      const settings = mapping(bootstrap.config['bootstrap:gcp']);
      const stateBucket = backend.startsWith('gs://')
        ? backend.slice('gs://'.length).split(/[/?]/)[0]
        : undefined;
      const project = String(config['gcp:project'] ?? '');
      checks.push(
        ...(await gcpPreflight(deps.gcp ?? gcpClient, {
          environment,
          project,
          bootstrapProject: mapping(settings['stackProjects'])[environment],
          ciProject: bootstrap.config['gcp:project'],
          ...(stateBucket ? { stateBucket } : {}),
          // A store's network block becomes its bucket's IP filter, unless it keeps the bucket public.
          ipFilteredStores: stores
            .filter((store) => store?.network !== undefined && store.network.public !== true)
            .map((store) => String(store.name)),
          ciRunners: mapping(config['checkpoints:ciRunners']),
        })),
      );
    } else {
      const settings = mapping(bootstrap.config['bootstrap:azure']);
      const stateContainer = stateContainerOf(backend);
      const modules = azureStackModules({ environment, stores });
      checks.push(
        ...(await azurePreflight((deps.azure ?? azureConnection)(), {
          environment,
          subscriptionId:
            config['azure-native:subscriptionId'] ??
            io.env['ARM_SUBSCRIPTION_ID'] ??
            bootstrap.config['azure-native:subscriptionId'],
          resourceGroup: config['checkpoints:resourceGroupName'],
          bootstrapResourceGroup: mapping(settings['stackResourceGroups'])[environment],
          providers: [...new Set(modules.map((module) => AZURE_NATIVE_PROVIDERS[module]))],
          ...(stateContainer ? { stateContainer } : {}),
        })),
      );
    }
  }
  for (const name of environments) {
    checks.push(
      await githubEnvironmentCheck(github, { repository, environment: name, token: io.env['GITHUB_TOKEN'] }),
    );
  }
  for (const check of checks)
    println(io.stdout, `${check.ok ? 'ok  ' : 'FAIL'} ${check.name}: ${check.detail}`);
  return checks.every((check) => check.ok) ? 0 : 1;
}

module.exports = { main };
