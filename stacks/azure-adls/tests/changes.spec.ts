import { countChanges, planChanges } from '@checkpoints/analysis';
import { sharedRenderStack, T } from './render';

// Each test renders the stack twice; on a loaded machine that takes longer than jest's 5 s default.
jest.setTimeout(60_000);

const store = { name: 'llm', dataClassification: 'confidential', encryption: 'customer-managed' };

async function plan(before: Record<string, unknown>[], after: Record<string, unknown>[]) {
  const base = await sharedRenderStack({ stores: before });
  const next = await sharedRenderStack({ stores: after });
  return planChanges(base, next);
}

describe('change plan on ADLS Gen2 (dev)', () => {
  it('a rename with formerNames keeps every URN and physical name: nothing replaced, deleted or created', async () => {
    const result = await plan([store], [{ ...store, name: 'llm-main', formerNames: ['llm'] }]);
    expect(result.stores.map((s) => [s.store, s.formerName, s.status])).toEqual([
      ['llm-main', 'llm', 'changed'],
    ]);
    // The key's tags follow the store's new name, and Key Vault keeps an existing key's tags as they are.
    expect(Object.keys(countChanges(result)).sort()).toEqual(['ignored', 'unchanged', 'updated']);
    expect(result.refused.map((refused) => [refused.type, refused.outcome, refused.inputs])).toEqual([
      [T.key, 'ignored', ['tags']],
    ]);
    expect(result.stores[0]!.resources.flatMap((change) => change.replacedBy)).toEqual([]);
    expect(result.dataLoss).toEqual([]);
  });

  it('a rename without formerNames releases the old account, filesystem, vault and key and starts an empty store', async () => {
    const result = await plan([store], [{ ...store, name: 'llm-main' }]);
    expect(result.stores.map((s) => [s.store, s.status])).toEqual([
      ['llm-main', 'created'],
      ['llm', 'removed'],
    ]);
    const held = result.stores[1]!.resources.filter(
      (change) => change.holds === 'data' || change.holds === 'key',
    );
    expect(held.map((change) => `${change.type} ${change.kind}`).sort()).toEqual(
      [
        `${T.account} released`,
        `${T.filesystem} released`,
        `${T.key} released`,
        `${T.roleAssignment} released`,
        `${T.vault} released`,
      ].sort(),
    );
    expect(result.notes.join('\n')).toContain('add formerNames: [llm]');
    expect(result.dataLoss).toEqual([]);
  });

  it('a tier change replaces the account (StorageV2 cannot become BlockBlobStorage): data loss, with the migration path', async () => {
    // The premium tier has no access tiers, so its lifecycle must expire something.
    const expiring = { ...store, retention: { expireAfterDays: 60 } };
    const result = await plan([expiring], [{ ...expiring, tier: 'high-throughput' }]);
    expect(result.dataLoss.map((loss) => [loss.kind, loss.type])).toEqual([['replaced', T.account]]);
    expect(result.dataLoss[0]?.message).toContain('kind, sku.name changed');
    expect(result.dataLoss[0]?.message).toMatch(/new store .* copy the checkpoints/);
  });

  it('customer-managed to Microsoft-managed keys releases the vault, key and key grant and updates the account', async () => {
    const result = await plan([store], [{ ...store, encryption: 'provider-managed' }]);
    const changes = result.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    expect(changes.map((change) => `${change.type} ${change.kind}`).sort()).toEqual(
      [
        `${T.account} updated`,
        // The vault's audit setting stays with the released vault.
        `${T.diagnostics} released`,
        `${T.identity} deleted`,
        `${T.key} released`,
        `${T.roleAssignment} released`,
        `${T.sleep} released`,
        `${T.vault} released`,
      ].sort(),
    );
    expect(result.dataLoss).toEqual([]);
  });

  it('removing the store releases what holds data or keys and deletes only identities and their grants', async () => {
    const other = { name: 'other', dataClassification: 'internal' };
    const result = await plan([store, other], [other]);
    const removed = result.stores.find((s) => s.store === 'llm')!;
    expect(removed.status).toBe('removed');
    const deleted = removed.resources.filter((change) => change.kind === 'deleted');
    expect([...new Set(deleted.map((change) => change.type))].sort()).toEqual(
      [T.roleAssignment, T.identity].sort(),
    );
    expect(deleted.filter((change) => change.holds)).toEqual([]);
    expect(result.dataLoss).toEqual([]);
  });

  it('a retention change updates the management policy in place', async () => {
    const result = await plan([store], [{ ...store, retention: { expireAfterDays: 90 } }]);
    const changed = result.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    expect(changed.map((change) => [change.type, change.kind, change.changedInputs])).toEqual([
      [T.lifecycle, 'updated', ['policy']],
    ]);
    expect(result.dataLoss).toEqual([]);
  });
});
