import { join } from 'node:path';
import { ConfigError } from '@checkpoints/config';
import { accessAnalysisOf, createAnalysisContext, type AccessGrant } from '@checkpoints/analysis';
import { render, type Snapshot, type StackProgram } from '@checkpoints/synth';
import { loadBootstrapConfig } from '../src/config';
import { configWith, renderBootstrap, renderFailure, SUBSCRIPTION } from './helpers';

const ROOT = join(__dirname, '..', '..');
// Renders the bootstrap and a whole Azure stack, then analyses them.
jest.setTimeout(120_000);

const COPIES = { prod: { stores: ['llm-pretrain'], retentionDays: 30 } };
const AZURE = {
  stackResourceGroups: { dev: 'rg-checkpoints-dev', prod: 'rg-checkpoints-prod' },
  independentCopies: COPIES,
};
const IN_EASTASIA = { 'azure-native:location': 'eastasia', 'bootstrap:azure': AZURE };

/** The Azure stack's program, required: an import would make the bootstrap's typecheck check the stack's sources. */
function azureProgram(): StackProgram {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return (require(join(ROOT, 'stacks', 'azure-adls', 'src', 'program')) as { checkpointStack: StackProgram })
    .checkpointStack;
}

/** A prod stack in the bootstrap's subscription and location whose restricted store promises a 30-day copy. */
function renderProd(): Promise<Snapshot> {
  const store = {
    name: 'llm-pretrain',
    dataClassification: 'restricted',
    tier: 'standard',
    network: {
      privateEndpointSubnet: `/subscriptions/${SUBSCRIPTION}/resourceGroups/ml-network/providers/Microsoft.Network/virtualNetworks/training/subnets/private-endpoints`,
      privateDnsZones: 'managed-by-policy',
    },
    recovery: { independentCopy: { enabled: true, retentionDays: 30 } },
    retention: { coolAfterDays: 30, expireAfterDays: 365, softDeleteDays: 14 },
  };
  return render(azureProgram(), {
    project: 'checkpoints-azure',
    stack: 'prod',
    config: {
      'azure-native:location': 'eastasia',
      'azure-native:subscriptionId': SUBSCRIPTION,
      'checkpoints:resourceGroupName': 'rg-checkpoints-prod',
      'checkpoints:environment': 'prod',
      'checkpoints:owner': 'ml-platform',
      'checkpoints:costCenter': 'cc-1234',
      'checkpoints:stores': JSON.stringify([store]),
    },
  });
}

async function grantsOf(prod: Snapshot, bootstrap: Snapshot): Promise<AccessGrant[]> {
  const { stores } = await accessAnalysisOf(createAnalysisContext(prod, bootstrap));
  return stores.flatMap((store) => store.grants);
}

describe('bootstrap azure.independentCopies', () => {
  it('reads the stores and days of each environment', () => {
    expect(loadBootstrapConfig(configWith(IN_EASTASIA)).azure?.independentCopies).toEqual(COPIES);
  });

  it.each<[string, Record<string, unknown>, { path: string; message: RegExp }]>([
    [
      'a location where vaulted backup of ADLS is not offered',
      { 'bootstrap:azure': AZURE },
      {
        path: 'bootstrap:azure.independentCopies.prod',
        message: /cannot be honoured in azure-native:location eastus2: .*eastasia, centralindia only/,
      },
    ],
    [
      'a store listed twice',
      {
        ...IN_EASTASIA,
        'bootstrap:azure': {
          ...AZURE,
          independentCopies: { prod: { stores: ['llm-pretrain', 'llm-pretrain'], retentionDays: 30 } },
        },
      },
      { path: 'bootstrap:azure.independentCopies.prod.stores[1]', message: /^is listed twice$/ },
    ],
    [
      'more days than Azure Backup keeps a daily recovery point',
      {
        ...IN_EASTASIA,
        'bootstrap:azure': {
          ...AZURE,
          independentCopies: { prod: { stores: ['llm-pretrain'], retentionDays: 3651 } },
        },
      },
      {
        path: 'bootstrap:azure.independentCopies.prod.retentionDays',
        message: /allowed: a whole number of days from 7 to 3650/,
      },
    ],
    [
      'an environment the bootstrap does not have',
      { ...IN_EASTASIA, 'bootstrap:azure': { ...AZURE, independentCopies: { staging: COPIES.prod } } },
      {
        path: 'bootstrap:azure.independentCopies.staging',
        message: /is not an environment of bootstrap:environments \(dev, prod\)/,
      },
    ],
  ])('refuses %s, naming key, value and what is allowed', async (_case, overrides, expected) => {
    const failure = await renderFailure(overrides);
    expect(failure.cause).toBeInstanceOf(ConfigError);
    const issue = (failure.cause as ConfigError).issues.find((each) => each.path === expected.path);
    expect(issue?.message).toMatch(expected.message);
    expect(failure.resources.filter((registered) => registered.custom)).toEqual([]);
  });
});

describe("Azure independent copy: the bootstrap's Backup vault keeps the store out of CI's reach", () => {
  let bootstrap: Snapshot;
  let prod: Snapshot;
  beforeAll(async () => {
    [bootstrap, prod] = await Promise.all([renderBootstrap(IN_EASTASIA), renderProd()]);
  });

  it('registers Microsoft.DataProtection before it creates the vault', () => {
    const registration = bootstrap.resources.find((r) => r.name === 'provider-Microsoft.DataProtection');
    const vault = bootstrap.resources.find((r) => r.type === 'azure-native:dataprotection:BackupVault');
    expect(registration?.inputs['namespace']).toBe('Microsoft.DataProtection');
    expect(vault?.dependsOn).toContain(registration?.urn);
  });

  it('against the deploy identity the copy keeps every checkpoint a day old or more for 29 of its 30 days', async () => {
    const grants = await grantsOf(prod, bootstrap);
    const deploy = grants.find(
      (grant) => grant.principal.label === 'ci deploy-prod' && grant.operation === 'destroy-by-config',
    );
    expect(deploy?.configuration?.copy).toMatchObject({ days: 29, promisedDays: 30, lifts: [] });
    expect(deploy?.configuration?.copy?.broken).toBeUndefined();
    expect(deploy?.reason).toMatch(
      /every checkpoint a day old or more still recoverable from the independent copy \(Backup vault ckpt-backup-prod-[0-9a-f]+\) for 29 days/,
    );
  });

  it('no CI identity can lift the copy or restore it; the vault identity reads the filesystem, once a day', async () => {
    const grants = await grantsOf(prod, bootstrap);
    const ci = grants.filter((grant) => grant.principal.label.startsWith('ci '));
    expect(ci.flatMap((grant) => grant.configuration?.copy?.lifts ?? [])).toEqual([]);
    expect(ci.filter((grant) => /independent copy/.test(grant.reason) && grant.operation === 'read')).toEqual(
      [],
    );
    const vault = grants.filter((grant) =>
      grant.principal.label.startsWith('backup vault ckpt-backup-prod-'),
    );
    expect(vault.map((grant) => grant.operation)).toEqual(['read']);
    // Whoever holds the subscription reaches the vault: the residual risk docs/security.md states.
    expect(
      grants.some(
        (grant) =>
          grant.principal.label === 'subscription owners' &&
          /can restore the independent copy/.test(grant.reason),
      ),
    ).toBe(true);
  });

  it('before the bootstrap lists the store, the copy the spec promises counts as holding nothing (fail closed)', async () => {
    const without = await renderBootstrap({ 'azure-native:location': 'eastasia' });
    const deploy = (await grantsOf(prod, without)).find(
      (grant) => grant.principal.label === 'ci deploy-prod' && grant.operation === 'destroy-by-config',
    );
    expect(deploy?.configuration?.copy).toMatchObject({ days: 0, promisedDays: 30 });
    expect(deploy?.configuration?.copy?.broken).toMatch(
      /no backup instance of the store's account is rendered/,
    );
  });
});
