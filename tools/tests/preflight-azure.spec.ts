/**
 * The Azure stack's preflight against Azure behind the SDK's own hooks (the pipelines' `httpClient`
 * option, an injected credential): what it reports for each missing prerequisite, and that every request
 * it makes is a GET.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { main } from '../preflight/run.cjs';
import { AZURE_MODULE_PROVIDERS } from '@checkpoints/render';
import { AZURE_BOOTSTRAP_MODULES, AZURE_NATIVE_PROVIDERS, azureStackModules } from '../preflight/azure.cjs';
import { WORKSPACE } from './helpers';
import {
  azureConnection,
  azureWorld,
  changedRepository,
  github,
  output,
  type FakeApi,
} from './preflight-fakes';

const AZURE_STACK = join(WORKSPACE, 'stacks', 'azure-adls');
const ENV = {
  GITHUB_REPOSITORY: 'acme/checkpoint-storage',
  GITHUB_TOKEN: 'token',
  PULUMI_BACKEND_URL: 'azblob://pulumi-state?storage_account=acmestate',
};

async function preflight(api: FakeApi, { cwd = AZURE_STACK, stack = 'prod' } = {}) {
  const run = output();
  const code = await main([`--stack=${stack}`], run.io(cwd, ENV), {
    azure: azureConnection(api),
    fetch: github(['dev', 'prod']),
  });
  // Whatever it found, the preflight only read.
  expect(api.methods()).toEqual(['GET']);
  return { code, out: run.out(), err: run.err() };
}

/** The azure-native modules the TypeScript files under a folder import (`@pulumi/azure-native/<module>/...`). */
function importedModules(folder: string): string[] {
  const modules = new Set<string>();
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' })) {
    if (!file.endsWith('.ts')) continue;
    const text = readFileSync(join(folder, file), 'utf8');
    for (const match of text.matchAll(/@pulumi\/azure-native\/([a-z]+)\//g)) modules.add(match[1] ?? '');
  }
  return [...modules].sort();
}

const prodStores = () =>
  (parse(readFileSync(join(AZURE_STACK, 'Pulumi.prod.yaml'), 'utf8')) as { config: Record<string, unknown> })
    .config['checkpoints:stores'];

describe('checkpoints-preflight (Azure)', () => {
  it('passes when the caller, the subscription, its providers, the resource group, the deploy identity, the state container and the GitHub environment are there', async () => {
    const { code, out } = await preflight(azureWorld());
    expect(out).not.toContain('FAIL');
    expect(code).toBe(0);
    expect(out).toContain('ok   who am I: admin@acme.example (object oid-1) in tenant tenant-1');
    expect(out).toContain(
      'ok   subscription 00000000-0000-4000-a000-000000000001 reachable: ml-platform, Enabled',
    );
    for (const provider of [
      'Microsoft.Storage',
      'Microsoft.KeyVault',
      'Microsoft.Network',
      'Microsoft.Security',
    ]) {
      expect(out).toContain(`ok   resource provider ${provider} registered`);
    }
    expect(out).toContain('ok   stack resource group rg-checkpoints-prod exists');
    expect(out).toContain('ok   bootstrap applied: deploy identity checkpoints-ci-deploy-prod');
    expect(out).toContain('ok   state backend azblob://pulumi-state in acmestate reachable');
  });

  it('asks for the provider of every azure-native module the stack and the bootstrap render from', () => {
    const stack = importedModules(join(WORKSPACE, 'stacks', 'azure-adls', 'src'));
    expect(stack.length).toBeGreaterThan(0);
    // prod with private endpoints renders every module the stack has.
    expect([...azureStackModules({ environment: 'prod', stores: prodStores() })].sort()).toEqual(stack);
    expect([...AZURE_BOOTSTRAP_MODULES].sort()).toEqual(
      importedModules(join(WORKSPACE, 'bootstrap', 'src', 'azure')),
    );
    for (const module of [...stack, ...AZURE_BOOTSTRAP_MODULES]) {
      expect(AZURE_NATIVE_PROVIDERS).toHaveProperty(module);
    }
  });

  it('asks for the providers the rights check and the bootstrap register (one map, held equal here)', () => {
    expect(AZURE_NATIVE_PROVIDERS).toEqual(AZURE_MODULE_PROVIDERS);
  });

  it('asks for Defender and private endpoints only where the stack renders them', () => {
    expect(azureStackModules({ environment: 'dev', stores: [{ name: 'a' }] })).not.toEqual(
      expect.arrayContaining(['security']),
    );
    expect(azureStackModules({ environment: 'dev', stores: [{ name: 'a' }] })).not.toEqual(
      expect.arrayContaining(['network']),
    );
    expect(azureStackModules({ environment: 'prod', stores: prodStores() })).toEqual(
      expect.arrayContaining(['security', 'network']),
    );
  });

  const providers = azureStackModules({ environment: 'prod', stores: prodStores() }).map(
    (module) => AZURE_NATIVE_PROVIDERS[module],
  );
  const missing: Array<[string, (api: FakeApi) => void, string]> = [
    [
      'the subscription',
      (api) => api.set('\\/subscriptions\\/00000000-0000-4000-a000-000000000001\\?', { status: 404 }),
      'FAIL subscription 00000000-0000-4000-a000-000000000001 reachable: subscription 00000000-0000-4000-a000-000000000001 not found for you (HTTP 404)',
    ],
    ...providers.map((provider): [string, (api: FakeApi) => void, string] => [
      `the provider ${provider}`,
      (api) =>
        api.prefer(new RegExp(`/providers/${provider.replace('.', '\\.')}\\?`), {
          status: 200,
          body: { registrationState: 'NotRegistered' },
        }),
      `FAIL resource provider ${provider} registered: NotRegistered: register it once per subscription (az provider register --namespace ${provider}`,
    ]),
    [
      'the resource group',
      (api) => api.set('\\/resourcegroups\\/rg-checkpoints-(dev|prod)\\?', { status: 404 }),
      'FAIL stack resource group rg-checkpoints-prod exists: no resource group rg-checkpoints-prod',
    ],
    [
      'the deploy identity',
      (api) => api.set('\\/resources\\?.*userAssignedIdentities', { status: 200, body: { value: [] } }),
      'FAIL bootstrap applied: deploy identity checkpoints-ci-deploy-prod: no managed identity checkpoints-ci-deploy-prod in the subscription: apply the bootstrap',
    ],
    [
      'the state container',
      (api) =>
        api.set('acmestate\\.blob\\.core\\.windows\\.net\\/pulumi-state\\?restype=container', {
          status: 404,
        }),
      'FAIL state backend azblob://pulumi-state in acmestate reachable: no container pulumi-state in acmestate',
    ],
    [
      'a data role on the state container',
      (api) =>
        api.set('acmestate\\.blob\\.core\\.windows\\.net\\/pulumi-state\\?restype=container', {
          status: 403,
        }),
      'HTTP 403: reading it needs a Storage Blob Data role on the container',
    ],
  ];

  it.each(missing)('fails naming %s, and asks the rest anyway', async (_what, take, line) => {
    const api = azureWorld();
    take(api);
    const { code, out } = await preflight(api);
    expect(code).toBe(1);
    expect(out).toContain(line);
    expect(out.match(/^FAIL/gm)?.length).toBe(1);
    expect(out).toContain('ok   GitHub environment prod');
  });

  it('fails when the stack deploys into a group the bootstrap grants nothing on', async () => {
    const cwd = changedRepository('azure-adls', 'prod', {
      bootstrap: { 'bootstrap:azure.stackResourceGroups.prod': 'rg-other' },
    });
    const { code, out } = await preflight(azureWorld(), { cwd });
    expect(code).toBe(1);
    expect(out).toContain(
      'FAIL bootstrap deploys environment prod into rg-checkpoints-prod: checkpoints:resourceGroupName is rg-checkpoints-prod, bootstrap:azure.stackResourceGroups.prod rg-other',
    );
  });

  it('says what to do when there are no credentials, and asks the rest anyway', async () => {
    const api = azureWorld();
    const run = output();
    const unavailable = Object.assign(
      new Error(
        'ChainedTokenCredential authentication failed.\nCredentialUnavailableError: Azure CLI could not be found.',
      ),
      { name: 'AggregateAuthenticationError' },
    );
    const code = await main(['--stack=prod'], run.io(AZURE_STACK, ENV), {
      azure: azureConnection(api, { getToken: () => Promise.reject(unavailable) }),
      fetch: github(['prod']),
    });
    expect(code).toBe(1);
    expect(run.out()).toContain('FAIL who am I: no Azure credentials: run az login');
    expect(run.out()).toContain('FAIL resource provider Microsoft.Storage registered: no Azure credentials');
    expect(run.out()).toContain('ok   GitHub environment prod');
  });
});
