import { join } from 'node:path';
import { AZURE_RESOURCE_PROVIDERS } from '@checkpoints/render';
import {
  azureRegisteredProviders,
  azureResourceProviderOf,
  missingDeployRights,
  type MissingRight,
} from '@checkpoints/analysis';
import {
  ofType,
  readProject,
  readStackConfig,
  render,
  stackConfigFile,
  type RenderedResource,
  type Snapshot,
  type StackProgram,
} from '@checkpoints/synth';
import { renderBootstrap } from './helpers';
import { bootstrapStack } from '../src/program';

const OTHER_SUBSCRIPTION = '99999999-8888-4777-8666-555555555555';
const ROOT = join(__dirname, '..', '..');
// Renders the bootstrap and a whole Azure stack, then checks every call of its deploy.
jest.setTimeout(120_000);

/** The custom role names a bootstrap render defines. */
async function customRoleNames(overrides: Record<string, unknown> = {}): Promise<string[]> {
  const snapshot = await renderBootstrap(overrides);
  return ofType(snapshot, 'azure-native:authorization:RoleDefinition').map((definition) =>
    String(definition.inputs['roleName']),
  );
}

describe('Azure custom role names: unique in the tenant, as Azure requires of every custom role', () => {
  it('two subscriptions of one tenant bootstrapped alike define no custom role of the same name', async () => {
    const first = await customRoleNames();
    const second = await customRoleNames({ 'azure-native:subscriptionId': OTHER_SUBSCRIPTION });
    expect(first.length).toBeGreaterThan(1);
    expect(first.filter((name) => second.includes(name))).toEqual([]);
  });
});

/** A shipped project's render of one of its stack files, as synth renders it. */
async function renderShipped(dir: string, stack: string, program: StackProgram): Promise<Snapshot> {
  const project = readProject(dir);
  const config = readStackConfig(stackConfigFile(project, stack), project);
  return render(program, {
    project: project.name,
    stack,
    config: config.config,
    secretKeys: config.secretKeys,
  });
}

/** The Azure stack's program, required: an import would make the bootstrap's typecheck check the stack's sources. */
function azureProgram(): StackProgram {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(join(ROOT, 'stacks', 'azure-adls', 'src', 'program')) as { checkpointStack: StackProgram })
    .checkpointStack;
}

let renders: Promise<{ bootstrap: Snapshot; prod: Snapshot }> | undefined;
function shippedRenders() {
  renders ??= Promise.all([
    renderShipped(ROOT, 'ci', () => bootstrapStack()),
    renderShipped(join(ROOT, 'stacks', 'azure-adls'), 'prod', azureProgram()),
  ]).then(([bootstrap, prod]) => ({ bootstrap, prod }));
  return renders;
}

/** What the API of a call demands that the render does not ensure (the `unmet` findings of the rights check). */
async function unmet(stack: Pick<Snapshot, 'resources'>, bootstrap: Snapshot): Promise<MissingRight[]> {
  return (await missingDeployRights('azure', stack, bootstrap, 'prod')).filter((right) => right.unmet);
}

const copyOf = (snapshot: Snapshot): Snapshot => JSON.parse(JSON.stringify(snapshot)) as Snapshot;
const accounts = (snapshot: Snapshot) =>
  snapshot.resources.filter(
    (r) => r.type === 'azure-native:storage:StorageAccount' && /keyvault/i.test(JSON.stringify(r.inputs)),
  );

describe('Azure customer-managed keys: the account is created once its key role is in effect', () => {
  it('the shipped prod stack: every customer-key account waits for its key role to propagate', async () => {
    const { bootstrap, prod } = await shippedRenders();
    expect(accounts(prod).length).toBeGreaterThan(0);
    expect(await unmet(prod, bootstrap)).toEqual([]);
  });

  it('without the wait, the create of each customer-key account fails, naming the assignment', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const mutated = copyOf(prod);
    const sleeps = new Set(
      mutated.resources.filter((r) => r.type === 'time:index/sleep:Sleep').map((r) => r.urn),
    );
    mutated.resources = mutated.resources
      .filter((r) => !sleeps.has(r.urn))
      .map((r): RenderedResource => ({ ...r, dependsOn: r.dependsOn.filter((urn) => !sleeps.has(urn)) }));
    const found = await unmet(mutated, bootstrap);
    expect(found.map((right) => `${right.resource} ${right.operation}`).sort()).toEqual(
      accounts(prod)
        .map((account) => `${account.type} ${account.name} create`)
        .sort(),
    );
    expect(found[0]?.unmet).toMatch(/RoleAssignment \S+-encryption-key .*KeyVaultAuthenticationFailure/);
  });

  it('a wait shorter than the propagation time does not count', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const mutated = copyOf(prod);
    for (const sleep of mutated.resources.filter((r) => r.type === 'time:index/sleep:Sleep'))
      sleep.inputs['createDuration'] = '30s';
    expect((await unmet(mutated, bootstrap)).length).toBe(accounts(prod).length);
  });

  it('an account encrypting through an identity no assignment of the render grants the key fails', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const mutated = copyOf(prod);
    mutated.resources = mutated.resources.filter(
      (r) => !(r.type === 'azure-native:authorization:RoleAssignment' && r.name.endsWith('-encryption-key')),
    );
    const found = await unmet(mutated, bootstrap);
    expect(found.length).toBe(accounts(prod).length);
    expect(found[0]?.unmet).toContain('no role assignment of the render gives the encryption identity');
  });
});

describe('Azure resource providers: the bootstrap registers every one the stack renders', () => {
  /** The namespace of every Azure resource a render of the stack's shipped files uses. */
  async function renderedNamespaces(): Promise<Map<string, string>> {
    const used = new Map<string, string>();
    for (const stack of ['dev', 'prod']) {
      const snapshot = await renderShipped(join(ROOT, 'stacks', 'azure-adls'), stack, azureProgram());
      for (const resource of snapshot.resources.filter((r) => r.type.startsWith('azure-native:')))
        used.set(
          resource.type,
          azureResourceProviderOf(resource.type) ?? `unknown provider of ${resource.type}`,
        );
    }
    return used;
  }

  it('every namespace a render of the stack uses is registered by the bootstrap render', async () => {
    const { bootstrap } = await shippedRenders();
    const registered = azureRegisteredProviders(bootstrap.resources);
    const used = await renderedNamespaces();
    expect(used.size).toBeGreaterThan(5);
    expect([...used.values()].filter((namespace) => !registered.has(namespace.toLowerCase()))).toEqual([]);
  });

  it('the rights check fails a deploy whose provider the bootstrap does not register, naming it', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const mutated = copyOf(bootstrap);
    mutated.resources = mutated.resources.filter((r) => r.inputs['namespace'] !== 'Microsoft.KeyVault');
    const found = await unmet(prod, mutated);
    expect(found.length).toBeGreaterThan(0);
    expect(new Set(found.map((right) => right.permission))).toEqual(
      new Set(['Microsoft.KeyVault/register/action']),
    );
    expect(found[0]?.unmet).toContain('does not register Microsoft.KeyVault');
  });

  it('registrations are made in the stacks subscription and never undone', async () => {
    const { bootstrap } = await shippedRenders();
    const registrations = bootstrap.resources.filter((r) => r.type === 'pulumi-nodejs:dynamic:Resource');
    expect(registrations.length).toBe(AZURE_RESOURCE_PROVIDERS.length);
    const groupScopes = bootstrap.resources
      .filter((r) => r.type === 'azure-native:authorization:RoleAssignment')
      .map((r) => /^\/subscriptions\/([^/]+)\/resourceGroups\//.exec(String(r.inputs['scope']))?.[1]);
    for (const registration of registrations) {
      expect(groupScopes).toContain(registration.inputs['subscriptionId']);
      expect(registration.retainOnDelete).toBe(true);
    }
  });
});
