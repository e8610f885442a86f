import { customResources, type Snapshot } from '@checkpoints/synth';
import { renderStack, T } from './render';

const stores = [
  { name: 'llm', dataClassification: 'confidential' },
  {
    name: 'fast',
    dataClassification: 'confidential',
    tier: 'high-throughput',
    retention: { expireAfterDays: 7 },
  },
];

/** `type::name` of every resource with protect and retainOnDelete, and fails on one with only one of them. */
function protectedResources(snapshot: Snapshot): string[] {
  const resources = customResources(snapshot);
  resources.forEach((r) => expect(`${r.name} ${r.protect}`).toBe(`${r.name} ${r.retainOnDelete}`));
  return resources.filter((r) => r.protect).map((r) => `${r.type}::${r.name}`);
}

describe('protection', () => {
  it('protects and retains what holds data or its key, and the group around it, by default in prod', async () => {
    const snapshot = await renderStack({ environment: 'prod', stores }, 'prod');
    expect(protectedResources(snapshot).sort()).toEqual(
      [
        `${T.group}::checkpoints`,
        ...['llm', 'fast'].flatMap((store) => [
          `${T.account}::${store}`,
          `${T.filesystem}::${store}`,
          `${T.vault}::${store}`,
          `${T.key}::${store}`,
        ]),
      ].sort(),
    );
  });

  it('protects nothing by default in dev', async () => {
    const snapshot = await renderStack({
      stores: stores.map((store) => ({ ...store, encryption: 'customer-managed' })),
    });
    expect(protectedResources(snapshot)).toEqual([]);
  });

  it('follows protect per store, and protects the group while any store is protected', async () => {
    const snapshot = await renderStack({ stores: [{ ...stores[0], protect: true }, stores[1]] });
    expect(protectedResources(snapshot).sort()).toEqual(
      [`${T.group}::checkpoints`, `${T.account}::llm`, `${T.filesystem}::llm`].sort(),
    );
  });

  it('lets a prod store opt out, and then leaves the group unprotected too', async () => {
    const snapshot = await renderStack(
      { environment: 'prod', stores: [{ ...stores[0], protect: false, encryption: 'provider-managed' }] },
      'prod',
    );
    expect(protectedResources(snapshot)).toEqual([]);
  });
});
