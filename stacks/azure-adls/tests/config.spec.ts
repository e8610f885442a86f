import { azureRules, loadStackSpec, type ConfigError, type ConfigIssue } from '@checkpoints/config';
import { nameRules } from '@checkpoints/naming';
import { byName, render, type RenderFailure } from '@checkpoints/synth';
import { checkpointStack, roleAssignmentCount } from '../src/program';
import { PROJECT, refusal, renderStack, stackConfig, T, type StackValues } from './render';

const store = { name: 'llm', dataClassification: 'internal' };
const objectId = '0f8fad5b-d9cb-469f-a165-70867728950e';

describe('config a user could get wrong', () => {
  it.each<[string, StackValues, ConfigIssue]>([
    [
      'no location',
      { location: undefined, stores: [store] },
      {
        path: 'azure-native:location',
        value: undefined,
        message: 'is required: the Azure region of every store and identity, e.g. eastus2',
      },
    ],
    [
      'a location that does not exist',
      { location: 'eastus3', stores: [store] },
      {
        path: 'azure-native:location',
        value: 'eastus3',
        message:
          'is not an Azure public-cloud region (the published list is in libs/config/src/facts/azure.ts); did you mean eastus, eastus2, westus3?',
      },
    ],
    [
      'a region without availability zones, where zone-redundant accounts cannot be created',
      { location: 'northcentralus', stores: [store] },
      {
        path: 'azure-native:location',
        value: 'northcentralus',
        message:
          "has no availability zones, and every store's account is zone-redundant (ZRS) so checkpoints survive a zone outage; use a region with zones, e.g. southcentralus, centralus, koreacentral",
      },
    ],
    [
      'a zone on a standard store: one line, not a tier hint as well',
      { stores: [{ ...store, zone: '2' }] },
      {
        path: 'checkpoints:stores[0].zone',
        value: '2',
        message: 'is not used on azure; it applies on aws and gcp (high-throughput tier) only',
      },
    ],
    [
      'a resource group name Azure refuses',
      { resourceGroupName: 'ml checkpoints.', stores: [store] },
      {
        path: 'checkpoints:resourceGroupName',
        value: 'ml checkpoints.',
        message:
          "Azure resource group names must be 1-90 characters of letters, digits, '-', '_', '.', '(' and ')' " +
          "and not end with '.'; got 'ml checkpoints.' (15 chars, contains ' ', ends with '.')",
      },
    ],
    [
      'an availability zone',
      { stores: [{ ...store, tier: 'high-throughput', zone: '2', retention: { expireAfterDays: 7 } }] },
      {
        path: 'checkpoints:stores[0].zone',
        value: '2',
        message: 'is not used on azure; it applies on aws and gcp (high-throughput tier) only',
      },
    ],
    [
      'versions kept, as on S3',
      { stores: [{ ...store, retention: { keepNoncurrentVersions: 3 } }] },
      {
        path: 'checkpoints:stores[0].retention.keepNoncurrentVersions',
        value: 3,
        message:
          'ADLS Gen2 accounts have a hierarchical namespace, which cannot have blob versioning, so there are no ' +
          'previous versions to keep; deleted files stay recoverable for retention.softDeleteDays instead. ' +
          'Remove retention.keepNoncurrentVersions or set it to 0',
      },
    ],
    [
      'archive on a standard store',
      { stores: [{ ...store, retention: { archiveAfterDays: 180 } }] },
      {
        path: 'checkpoints:stores[0].retention.archiveAfterDays',
        value: 180,
        message:
          'the archive tier is not available on zone-redundant (ZRS) accounts, which standard stores use so ' +
          'checkpoints survive a zone outage; use retention.coolAfterDays and retention.expireAfterDays, or set 0 (never)',
      },
    ],
    [
      'cool tier on a premium store',
      { stores: [{ ...store, tier: 'high-throughput', retention: { coolAfterDays: 30 } }] },
      {
        path: 'checkpoints:stores[0].retention.coolAfterDays',
        value: 30,
        message:
          "premium block blob accounts (tier 'high-throughput') have no access tiers, so nothing can move to cool " +
          'or archive; use tier: standard or remove retention.coolAfterDays or set it to 0',
      },
    ],
    [
      'an upload cleanup age',
      { stores: [{ ...store, retention: { abortIncompleteUploadDays: 2 } }] },
      {
        path: 'checkpoints:stores[0].retention.abortIncompleteUploadDays',
        value: 2,
        message:
          'ADLS Gen2 has no rule for incomplete uploads: blocks that are never committed are discarded by the ' +
          'service after 7 days. Remove retention.abortIncompleteUploadDays or set it to 0',
      },
    ],
    [
      'soft delete shorter than a week',
      { stores: [{ ...store, retention: { softDeleteDays: 1 } }] },
      {
        path: 'checkpoints:stores[0].retention.softDeleteDays',
        value: 1,
        message:
          'blob and container soft delete are the only way back from a delete on ADLS Gen2 (no versions), so a store keeps deleted files at least 7 days; use 7 to 365',
      },
    ],
    [
      'an object ID without its type',
      { stores: [{ ...store, access: { readers: [objectId] } }] },
      {
        path: 'checkpoints:stores[0].access.readers[0]',
        value: objectId,
        message:
          "must be 'user:', 'group:' or 'servicePrincipal:' followed by the principal's Microsoft Entra object ID, " +
          'e.g. group:3f2504e0-4f89-41d3-9a0c-0305e82c3301 (a group: `az ad group show -g <name> --query id -o tsv`; ' +
          'an app or managed identity: its service principal, `az ad sp show --id <client-id> --query id -o tsv`; ' +
          'the application (client) ID is not an object ID)',
      },
    ],
    [
      // Both names shorten to the same 16 characters and their 6-character hashes collide (found by search).
      'two stores deriving one key vault',
      {
        stores: [
          { ...store, name: 'vaultstoreabcdef-s' },
          { ...store, name: 'vaultstoreabcdef-2kc' },
        ],
      },
      {
        path: 'checkpoints:stores[1].name',
        value: 'vaultstoreabcdef-2kc',
        message:
          "derives the same cloud names as stores[0] (vaultstoreabcdef-s): key vault 'vaultstoreabcdef-097518'; rename one of the two stores",
      },
    ],
  ])('%s', async (_title, values, issue) => {
    const { issues, registered } = await refusal(stackConfig(values));
    expect(issues).toEqual([issue]);
    expect(registered.filter((resource) => resource.custom)).toEqual([]);
  });

  it('refuses an independent copy where Azure Backup offers no vaulted backup of ADLS, before any resource', async () => {
    const copied = { ...store, recovery: { independentCopy: { enabled: true } } };
    const { issues, registered } = await refusal(stackConfig({ location: 'eastus2', stores: [copied] }));
    expect(issues.map((issue) => [issue.path, issue.message])).toEqual([
      [
        'checkpoints:stores[0].recovery.independentCopy',
        expect.stringMatching(/^cannot be honoured in eastus2: Azure Backup offers vaulted backup of ADLS/),
      ],
    ]);
    expect(registered.filter((resource) => resource.custom)).toEqual([]);
  });

  it('reports problems of the cloud keys and the store spec together, naming the file', async () => {
    const { issues, message, registered } = await refusal(
      stackConfig({ location: undefined, stores: [{ ...store, retention: { noncurrentExpireDays: 7 } }] }),
    );
    expect(issues.map((issue) => issue.path)).toEqual([
      'checkpoints:stores[0].retention.noncurrentExpireDays',
      'azure-native:location',
    ]);
    expect(message).toMatch(/^Invalid stack config in Pulumi\.dev\.yaml \(2 problems\):/);
    expect(registered.filter((resource) => resource.custom)).toEqual([]);
  });
});

describe('names within Azure limits', () => {
  it('fits the longest store name into a valid storage account and Key Vault name', async () => {
    const name = 'a-very-long-checkpoint-store-nm';
    const snapshot = await renderStack(
      { environment: 'prod', stores: [{ name, dataClassification: 'internal' }] },
      'production-eastus2',
    );
    const account = byName(snapshot, T.account, name).inputs['accountName'] as string;
    const vault = byName(snapshot, T.vault, name).inputs['vaultName'] as string;
    expect([account, vault].map((n) => n.length)).toEqual([24, 24]);
    expect([nameRules.storageAccount(account), nameRules.keyVault(vault)]).toEqual([undefined, undefined]);
  });
});

describe('the role assignments counted for the subscription limit are the ones the stack creates', () => {
  it.each([
    ['dev', { writers: [] as string[], readers: [] as string[] }],
    [
      'prod',
      {
        writers: [`group:${objectId}`, 'servicePrincipal:6b5b8d3e-0c1a-4d7e-9f1e-2a3b4c5d6e7f'],
        readers: ['user:1c9f2d4e-5a6b-4c7d-8e9f-0a1b2c3d4e5f'],
      },
    ],
  ])('in %s, with the declared principals', async (environment, access) => {
    const values = {
      environment,
      stores: [
        { ...store, access },
        { ...store, name: 'other' },
      ],
    };
    const snapshot = await renderStack(values, environment);
    const created = snapshot.resources.filter((resource) => resource.type === T.roleAssignment).length;
    const spec = loadStackSpec(stackConfig(values), azureRules);
    expect(roleAssignmentCount(spec)).toBe(created);
    expect(created).toBeGreaterThan(0);
  });
});

describe('secrets', () => {
  it('refuses a secret owner, which would become a tag on every resource, before any resource', async () => {
    const failure = (await render(checkpointStack, {
      project: PROJECT,
      stack: 'dev',
      config: stackConfig({ stores: [store] }),
      secretKeys: ['checkpoints:owner'],
    }).then(
      () => undefined,
      (error: unknown) => error,
    )) as RenderFailure;
    expect((failure.cause as ConfigError).issues).toEqual([
      expect.objectContaining({ path: 'checkpoints:owner', value: '[secret]' }),
    ]);
    expect(failure.resources.filter((resource) => resource.custom)).toEqual([]);
  });
});
