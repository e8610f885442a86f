import { countChanges, planChanges } from '@checkpoints/analysis';
import { sharedRenderStack, stackConfig, store } from './render';

// Each test renders the stack twice; on a loaded machine that takes longer than jest's 5 s default.
jest.setTimeout(60_000);

const cmek = store({ encryption: 'customer-managed' });

async function plan(before: Record<string, unknown>[], after: Record<string, unknown>[]) {
  const base = await sharedRenderStack(stackConfig(before));
  const next = await sharedRenderStack(stackConfig(after));
  return planChanges(base, next);
}

describe('change plan on GCS (dev)', () => {
  it('a rename with formerNames keeps every URN and physical name: nothing replaced, deleted or created', async () => {
    const result = await plan([cmek], [{ ...cmek, name: 'llm-main', formerNames: ['llm-pretrain'] }]);
    expect(result.stores.map((s) => [s.store, s.formerName, s.status])).toEqual([
      ['llm-main', 'llm-pretrain', 'changed'],
    ]);
    expect(Object.keys(countChanges(result)).sort()).toEqual(['unchanged', 'updated']);
    expect(result.stores[0]!.resources.flatMap((change) => change.replacedBy)).toEqual([]);
    expect(result.dataLoss).toEqual([]);
  });

  it('a rename without formerNames releases the old bucket and key ring and starts an empty store', async () => {
    const result = await plan([cmek], [{ ...cmek, name: 'llm-main' }]);
    expect(result.stores.map((s) => [s.store, s.status])).toEqual([
      ['llm-main', 'created'],
      ['llm-pretrain', 'removed'],
    ]);
    const held = result.stores[1]!.resources.filter((change) => change.holds);
    expect(held.map((change) => `${change.type} ${change.kind}`).sort()).toEqual([
      'gcp:kms/cryptoKey:CryptoKey released',
      'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember released',
      'gcp:kms/keyRing:KeyRing released',
      'gcp:storage/bucket:Bucket released',
    ]);
    expect(result.notes.join('\n')).toContain('add formerNames: [llm-pretrain]');
    expect(result.dataLoss).toEqual([]);
  });

  it('a tier change replaces the bucket (hierarchical namespace is set at creation): data loss, with the migration path', async () => {
    const result = await plan([store()], [store({ tier: 'high-throughput' })]);
    expect(result.dataLoss.map((loss) => [loss.kind, loss.type])).toEqual([
      ['replaced', 'gcp:storage/bucket:Bucket'],
    ]);
    expect(result.dataLoss[0]?.message).toContain('hierarchicalNamespace.enabled changed');
    expect(result.dataLoss[0]?.message).toMatch(/new store .* copy the checkpoints/);
  });

  it('a location change replaces the bucket: data loss', async () => {
    const result = await plan([store()], [store({ location: 'europe-west4' })]);
    expect(result.dataLoss.map((loss) => loss.message).join('\n')).toContain('(location changed)');
  });

  it('customer-managed to Google-managed encryption releases the key ring, key and grant, and updates the bucket', async () => {
    const result = await plan([cmek], [store({ encryption: 'provider-managed' })]);
    const changes = result.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    expect(changes.map((change) => `${change.type} ${change.kind}`).sort()).toEqual([
      'gcp:kms/cryptoKey:CryptoKey released',
      'gcp:kms/cryptoKeyIAMMember:CryptoKeyIAMMember released',
      'gcp:kms/keyRing:KeyRing released',
      'gcp:storage/bucket:Bucket updated',
    ]);
    expect(result.dataLoss).toEqual([]);
  });

  it('removing the store releases what holds data or keys and deletes only identities and grants', async () => {
    const other = store({ name: 'other' });
    const result = await plan([cmek, other], [other]);
    const removed = result.stores.find((s) => s.store === 'llm-pretrain')!;
    expect(removed.status).toBe('removed');
    const deleted = removed.resources
      .filter((change) => change.kind === 'deleted')
      .map((change) => change.type);
    expect([...new Set(deleted)].sort()).toEqual([
      'gcp:serviceaccount/account:Account',
      'gcp:storage/bucketIAMMember:BucketIAMMember',
    ]);
    expect(result.dataLoss).toEqual([]);
  });

  it('a retention change updates the bucket in place', async () => {
    const result = await plan([store()], [store({ retention: { expireAfterDays: 90 } })]);
    const changed = result.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    expect(changed.map((change) => [change.type, change.kind, change.changedInputs])).toEqual([
      ['gcp:storage/bucket:Bucket', 'updated', ['lifecycleRules']],
    ]);
    expect(result.dataLoss).toEqual([]);
  });
});
