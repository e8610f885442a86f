import { dataHolders } from '@checkpoints/analysis';
import { customResources, type Snapshot } from '@checkpoints/synth';
import { sharedRenderStack, T } from './render';

const stores = [
  { name: 'llm', dataClassification: 'confidential' },
  {
    name: 'fast',
    dataClassification: 'confidential',
    tier: 'high-throughput',
    retention: { expireAfterDays: 7 },
  },
];

/** `type::name` of every protected resource. */
function protectedResources(snapshot: Snapshot): string[] {
  return customResources(snapshot)
    .filter((r) => r.protect)
    .map((r) => `${r.type}::${r.name}`);
}

/** `type::name holds` of every data holder, key and safety setting that a deploy could delete. */
function unretainedHolders(snapshot: Snapshot): string[] {
  return dataHolders(snapshot)
    .filter((holder) => !holder.retainOnDelete)
    .map((holder) => `${holder.type}::${holder.name} ${holder.holds}`);
}

describe('protection', () => {
  it.each(['dev', 'staging', 'prod'])(
    '%s: the group, accounts, filesystems, vaults, keys, key grants, soft delete and lifecycle are retained on delete',
    async (environment) => {
      const snapshot = await sharedRenderStack(
        { environment, stores: stores.map((store) => ({ ...store, encryption: 'customer-managed' })) },
        environment,
      );
      const holders = dataHolders(snapshot);
      // confidential stores are audited everywhere; prod stores are locked as well.
      const audit = ['safety', 'safety']; // the blob service's and the vault's diagnostic settings
      const locks = environment === 'prod' ? ['safety', 'safety'] : []; // account and vault
      const store = ['data', 'data', 'key', 'key', 'key', 'safety', 'safety', ...audit, ...locks];
      expect(holders.map((holder) => holder.holds).sort()).toEqual(
        [
          'data', // the resource group
          'safety', // the audit workspace
          ...store, // llm
          ...store, // fast
        ].sort(),
      );
      expect(unretainedHolders(snapshot)).toEqual([]);
      // Nothing else is retained but a prod account's Defender for Storage (a deploy never switches it off)
      // and the wait after each key grant, released with it: an identity left behind would keep its role on
      // the released filesystem.
      const defender = 'azure-native:security:DefenderForStorage';
      const retained = customResources(snapshot).filter((r) => r.retainOnDelete && r.type !== T.sleep);
      expect(customResources(snapshot).filter((r) => r.type === T.sleep && !r.retainOnDelete)).toEqual([]);
      expect(retained.filter((r) => r.type !== defender)).toHaveLength(holders.length);
      expect(retained.filter((r) => r.type === defender)).toHaveLength(environment === 'prod' ? 2 : 0);
    },
  );

  it('protects and retains what holds data or its key, and the group around it, by default in prod', async () => {
    const snapshot = await sharedRenderStack({ environment: 'prod', stores }, 'prod');
    expect(protectedResources(snapshot).sort()).toEqual(
      [
        `${T.group}::checkpoints`,
        ...['llm', 'fast'].flatMap((store) => [
          `${T.account}::${store}`,
          `${T.filesystem}::${store}`,
          `${T.vault}::${store}`,
          `${T.key}::${store}`,
          `${T.lock}::${store}-lock`,
          `${T.lock}::${store}-lock-vault`,
          `${T.diagnostics}::${store}-audit-blob`,
          `${T.diagnostics}::${store}-audit-vault`,
          `azure-native:security:DefenderForStorage::${store}-defender`,
        ]),
        `${T.workspace}::checkpoints-audit`,
      ].sort(),
    );
  });

  it('protects nothing by default in dev', async () => {
    const snapshot = await sharedRenderStack({
      stores: stores.map((store) => ({ ...store, encryption: 'customer-managed' })),
    });
    expect(protectedResources(snapshot)).toEqual([]);
  });

  it('follows protect per store, and protects the group while any store is protected', async () => {
    const snapshot = await sharedRenderStack({ stores: [{ ...stores[0], protect: true }, stores[1]] });
    expect(protectedResources(snapshot).sort()).toEqual(
      [
        `${T.group}::checkpoints`,
        `${T.account}::llm`,
        `${T.filesystem}::llm`,
        `${T.lock}::llm-lock`,
        `${T.diagnostics}::llm-audit-blob`,
        `${T.workspace}::checkpoints-audit`,
      ].sort(),
    );
  });

  it('lets a prod store opt out, and then leaves the group unprotected too', async () => {
    const snapshot = await sharedRenderStack(
      { environment: 'prod', stores: [{ ...stores[0], protect: false, encryption: 'provider-managed' }] },
      'prod',
    );
    expect(protectedResources(snapshot)).toEqual([]);
  });
});
