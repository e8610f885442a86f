import { analyzeAccess, retentionOf } from '@checkpoints/analysis';
import type { Snapshot } from '@checkpoints/synth';
import { refusal, renderStack, stackConfig, store } from './render';

/**
 * `recovery.independentCopy` on GCS, judged by the analysis models. The copy itself (bucket, lock, transfer job)
 * is the bootstrap's: without the bootstrap render the stack's models count it as holding nothing; with it,
 * libs/policy mutations-gcp and bootstrap/tests/gcp-copy. What the stack carries is the promise, and the bill.
 */
const restricted = store({
  name: 'llm-secret',
  dataClassification: 'restricted',
  network: { public: true },
  retention: { noncurrentExpireDays: 14 },
});
const confidential = store({
  name: 'llm-other',
  dataClassification: 'confidential',
  network: { public: true },
});

describe('an independent copy of a restricted prod GCS store', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await renderStack(
      stackConfig([restricted, confidential], { 'checkpoints:environment': 'prod' }),
      'prod',
    );
  });

  it("without the bootstrap's copy, the replay of the worst write counts no copy (fail closed)", async () => {
    // In dev the project's owners and editors keep their convenience bindings, so they hold lifecycle writes.
    const dev = await renderStack(
      stackConfig(
        [
          { ...restricted, recovery: { independentCopy: { enabled: true, retentionDays: 14 } } },
          confidential,
        ],
        { 'checkpoints:environment': 'dev' },
      ),
    );
    const analysis = await analyzeAccess(dev, undefined);
    const grants = analysis.stores.find((each) => each.store === 'llm-secret')!.grants;
    const writes = grants.filter((grant) => grant.operation === 'destroy-by-config');
    expect(writes.length).toBeGreaterThan(0);
    for (const write of writes) {
      expect(write.configuration?.copy).toMatchObject({ days: 0, promisedDays: 14 });
      expect(write.configuration?.copy?.broken).toMatch(/no transfer job of the bootstrap render reads/);
      expect(write.reason).not.toMatch(/recoverable from the independent copy/);
    }
    const other = analysis.stores.find((each) => each.store === 'llm-other')!.grants;
    expect(other.every((grant) => grant.configuration?.copy === undefined)).toBe(true);
  });

  it("bills the copy's storage and transfer operations, in the store's monthly cost", () => {
    const [secret] = retentionOf(snapshot).filter((each) => each.store === 'llm-secret');
    const bill = secret?.projection?.bill;
    const copy = bill?.independentCopy;
    expect(copy?.lines.map((line) => line.price.item)).toEqual(
      expect.arrayContaining(['storage/STANDARD', 'classA/STANDARD', 'classB/STANDARD']),
    );
    // Every price with its source: Cloud Storage's (Storage Transfer Service charges nothing for agentless transfers).
    expect(
      copy?.lines.every((line) => line.price.source.startsWith('https://cloud.google.com/storage/pricing')),
    ).toBe(true);
    // The copy holds at least what the store holds.
    const storedGiB = Object.values(secret!.projection!.bytesByClass).reduce((a, b) => a + b, 0) / 2 ** 30;
    const storage = copy?.lines.find((line) => line.price.item === 'storage/STANDARD');
    expect(storage?.quantity).toBeGreaterThan(storedGiB);
    expect(copy?.total).toBeGreaterThan(0);
    expect(copy?.caveats.join(' ')).toMatch(/data transfer between locations/);
    expect(secret?.projection?.monthlyCost).toBeCloseTo((bill?.total ?? 0) + (copy?.total ?? 0), 2);
    const [other] = retentionOf(snapshot).filter((each) => each.store === 'llm-other');
    expect(other?.projection?.bill.independentCopy).toBeNull();
  });
});

describe('an independent copy behind an IP filter', () => {
  it('is refused: the filter refuses the transfer agent', async () => {
    const { error } = await refusal(
      stackConfig(
        [
          store({
            name: 'llm-secret',
            dataClassification: 'restricted',
            recovery: { independentCopy: { enabled: true } },
          }),
        ],
        { 'checkpoints:environment': 'prod' },
      ),
    );
    expect(error.issues.map((issue) => issue.path)).toContain(
      'checkpoints:stores[0].recovery.independentCopy',
    );
    expect(error.message).toMatch(/refuses the Storage Transfer Service agent/);
  });
});
