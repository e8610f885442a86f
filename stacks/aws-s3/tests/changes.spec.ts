import { countChanges, planChanges } from '@checkpoints/analysis';
import { sharedRenderStack } from './render-stack';

// Each test renders the stack twice; on a loaded machine that takes longer than jest's 5 s default.
jest.setTimeout(60_000);

const store = { name: 'llm-pretrain', dataClassification: 'confidential', encryption: 'customer-managed' };

async function plan(before: Record<string, unknown>[], after: Record<string, unknown>[]) {
  const base = await sharedRenderStack({ environment: 'dev', stores: before });
  const next = await sharedRenderStack({ environment: 'dev', stores: after });
  return planChanges(base, next);
}

describe('change plan on S3 (dev)', () => {
  it('a rename with formerNames keeps every URN and physical name: nothing replaced, deleted or created', async () => {
    const result = await plan([store], [{ ...store, name: 'llm-main', formerNames: ['llm-pretrain'] }]);
    expect(result.stores.map((s) => [s.store, s.formerName, s.status])).toEqual([
      ['llm-main', 'llm-pretrain', 'changed'],
    ]);
    expect(countChanges(result)).toEqual({ unchanged: expect.any(Number), updated: expect.any(Number) });
    expect(result.dataLoss).toEqual([]);
    // The physical names stay those of the first name: no input the provider replaces on has changed.
    expect(result.stores[0]!.resources.flatMap((change) => change.replacedBy)).toEqual([]);
  });

  it('a rename without formerNames releases the old store, starts an empty one, and says how to keep the data', async () => {
    const result = await plan([store], [{ ...store, name: 'llm-main' }]);
    expect(result.stores.map((s) => [s.store, s.status])).toEqual([
      ['llm-main', 'created'],
      ['llm-pretrain', 'removed'],
    ]);
    const removed = result.stores[1]!.resources;
    expect(removed.filter((change) => change.holds).every((change) => change.kind === 'released')).toBe(true);
    expect(result.notes.join('\n')).toContain('add formerNames: [llm-pretrain]');
    expect(result.dataLoss).toEqual([]);
  });

  it('a tier change replaces the bucket: data loss, with the migration path', async () => {
    const result = await plan([store], [{ ...store, tier: 'high-throughput', zone: 'use1-az4' }]);
    expect(result.dataLoss.map((loss) => [loss.kind, loss.type, loss.holds])).toEqual(
      [['deleted', 'aws:s3/bucket:Bucket', 'data']].map(() => expect.any(Array)),
    );
    expect(result.dataLoss.length).toBeGreaterThan(0);
    expect(result.dataLoss.map((loss) => loss.message).join('\n')).toMatch(
      /new store .* copy the checkpoints/,
    );
  });

  it('customer-managed to provider-managed encryption releases the key: objects written with it stay readable', async () => {
    const result = await plan([store], [{ ...store, encryption: 'provider-managed' }]);
    const key = result.stores[0]!.resources.find((change) => change.type === 'aws:kms/key:Key');
    expect(key?.kind).toBe('released');
    const encryption = result.stores[0]!.resources.find(
      (change) => change.name === 'llm-pretrain-encryption',
    );
    expect(encryption?.kind).toBe('updated');
    expect(result.dataLoss).toEqual([]);
  });

  it('removing the store releases its bucket, key and safety settings and deletes only its roles', async () => {
    const other = { name: 'other', dataClassification: 'internal' };
    const result = await plan([store, other], [other]);
    const removed = result.stores.find((s) => s.store === 'llm-pretrain');
    expect(removed?.status).toBe('removed');
    const deleted = removed!.resources
      .filter((change) => change.kind === 'deleted')
      .map((change) => change.type);
    // The key's alias stays with the key: a later key generation's roles find the key by it.
    expect([...new Set(deleted)].sort()).toEqual(['aws:iam/role:Role', 'aws:iam/rolePolicy:RolePolicy']);
    expect(result.dataLoss).toEqual([]);
  });

  it('a retention change updates the lifecycle in place', async () => {
    const result = await plan([store], [{ ...store, retention: { expireAfterDays: 90 } }]);
    const changed = result.stores[0]!.resources.filter((change) => change.kind !== 'unchanged');
    expect(changed.map((change) => [change.name, change.kind, change.changedInputs])).toEqual([
      ['llm-pretrain-lifecycle', 'updated', ['rules']],
    ]);
    expect(result.dataLoss).toEqual([]);
  });

  it('keyGeneration 2 releases the generation-1 key and alias (kept, not replaced) and creates new ones', async () => {
    const result = await plan([store], [{ ...store, keyGeneration: 2 }]);
    const keyChanges = result.stores[0]!.resources.filter((change) => change.type.startsWith('aws:kms/')).map(
      (change) => [change.name, change.kind],
    );
    expect(keyChanges.sort()).toEqual(
      [
        ['llm-pretrain-key', 'released'],
        ['llm-pretrain-key-alias', 'released'],
        ['llm-pretrain-key-alias-gen2', 'created'],
        ['llm-pretrain-key-gen2', 'created'],
      ].sort(),
    );
    expect(result.dataLoss).toEqual([]);
  });
});
