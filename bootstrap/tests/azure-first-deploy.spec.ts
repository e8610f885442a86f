import { join } from 'node:path';
import { AZURE_RESOURCE_PROVIDERS } from '@checkpoints/render';
import {
  accessAnalysisOf,
  complianceOf,
  createAnalysisContext,
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

describe('Azure prod: the resource logs also go to a write-once archive CI cannot shorten or delete', () => {
  const archives = (snapshot: Snapshot) =>
    snapshot.resources.filter(
      (r) => r.type === 'azure-native:storage:StorageAccount' && r.name.startsWith('audit-archive-'),
    );

  /** The audit-immutable verdict of each prod store against a bootstrap render. */
  async function immutableVerdicts(prod: Snapshot, bootstrap: Snapshot): Promise<string[]> {
    const { stores } = await complianceOf(createAnalysisContext(prod, bootstrap));
    return stores.map((store) => {
      const control = store.controls.find((each) => each.control === 'checkpoints audit-immutable (Azure)');
      return `${store.store} ${control?.verdict}: ${control?.detail}`;
    });
  }

  /** The prod stores' blind-audit findings for CI's identities. */
  async function blinding(prod: Snapshot, bootstrap: Snapshot): Promise<string[]> {
    const access = await accessAnalysisOf(createAnalysisContext(prod, bootstrap));
    return access.stores.flatMap((store) =>
      store.grants
        // What ci-prod-no-blind-audit refuses: a blinding write no guardrail of the cloud refuses.
        .filter(
          (grant) =>
            grant.operation === 'blind-audit' &&
            grant.principal.label.startsWith('ci ') &&
            (grant.configuration?.guardrails ?? []).length === 0,
        )
        .map((grant) => `${store.store} ${grant.principal.label}: ${grant.reason}`),
    );
  }

  it('the shipped prod stores pass every compliance control with the shipped bootstrap', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const { stores } = await complianceOf(createAnalysisContext(prod, bootstrap));
    expect(stores.length).toBe(3);
    const failing = stores.flatMap((store) =>
      store.controls
        .filter((each) => each.verdict === 'fail')
        .map((each) => `${store.store} ${each.control}`),
    );
    expect(failing).toEqual([]);
    expect(archives(bootstrap).map((archive) => archive.inputs['allowSharedKeyAccess'])).toEqual([false]);
  });

  it('without the archive destination, or with an archive that is not write-once, the control fails', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const noDestination = copyOf(prod);
    for (const setting of noDestination.resources.filter(
      (r) => r.type === 'azure-native:monitor:DiagnosticSetting',
    ))
      delete setting.inputs['storageAccountId'];
    expect(await immutableVerdicts(noDestination, bootstrap)).toEqual(
      ['llm-pretrain', 'llm-releases', 'llm-pretrain-fast'].map(
        (store) => `${store} fail: the resource logs go to no storage account (a workspace only)`,
      ),
    );
    const mutable = copyOf(bootstrap);
    for (const archive of archives(mutable)) delete archive.inputs['immutableStorageWithVersioning'];
    expect(
      (await immutableVerdicts(prod, mutable)).every((line) => line.includes('fail: ckptauditprod')),
    ).toBe(true);
    const unlocked = copyOf(bootstrap);
    unlocked.resources = unlocked.resources.filter((r) => r.name !== 'audit-archive-prod-lock');
    expect(
      (await immutableVerdicts(prod, unlocked)).every((line) => line.includes('no CanNotDelete lock')),
    ).toBe(true);
  });

  it("no CI identity can blind the prod stores' audit with the shipped bootstrap", async () => {
    const { bootstrap, prod } = await shippedRenders();
    expect(await blinding(prod, bootstrap)).toEqual([]);
  });

  it('a deploy identity that may write the archive (and so shorten its unlocked policy) can blind the audit', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const writable = copyOf(bootstrap);
    const role = writable.resources.find((r) => r.name === 'deploy-prod-audit-archive-role')!;
    const permissions = role.inputs['permissions'] as { actions: string[] }[];
    permissions[0]!.actions.push('Microsoft.Storage/storageAccounts/write');
    const found = await blinding(prod, writable);
    expect(found.length).toBe(3);
    expect(found[0]).toMatch(
      /ci deploy-prod: can shorten, lift or delete the write-once archive .*Microsoft\.Storage\/storageAccounts\/write.*ckptauditprod/,
    );
  });

  it('without the deny on a setting that stops sending to the archive, CI can reroute the logs', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const unguarded = copyOf(bootstrap);
    const definition = unguarded.resources.find((r) => r.name === 'diagnostic-settings-kept-prod')!;
    definition.inputs['policyRule'] = JSON.parse(
      JSON.stringify(definition.inputs['policyRule']).replace(
        /,\{"field":"Microsoft\.Insights\/diagnosticSettings\/storageAccountId","notEquals":"[^"]+"\}/,
        '',
      ),
    ) as unknown;
    const found = await blinding(prod, unguarded);
    expect(found.length).toBe(3);
    expect(found[0]).toContain('Microsoft.Insights/diagnosticSettings/write');
  });

  it('a deploy identity that may delete the diagnostic settings can blind the audit', async () => {
    const { bootstrap, prod } = await shippedRenders();
    const deleting = copyOf(bootstrap);
    const role = deleting.resources.find((r) => r.name === 'deploy-prod-role')!;
    const permissions = role.inputs['permissions'] as { actions: string[] }[];
    permissions[0]!.actions.push('Microsoft.Insights/diagnosticSettings/delete');
    const found = await blinding(prod, deleting);
    expect(found.length).toBe(3);
    expect(found[0]).toContain('Microsoft.Insights/diagnosticSettings/delete');
  });
});
