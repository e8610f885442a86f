import { analyzeAccess, awsIndependentCopyOf, retentionOf } from '@checkpoints/analysis';
import { names } from '@checkpoints/naming';
import type { Snapshot } from '@checkpoints/synth';
import { ACCOUNT, renderFailure, sharedRenderStack } from './render-stack';

/**
 * `recovery.independentCopy` on S3, judged by the analysis models: what the copy keeps (the copy model reads the
 * rendered plan and selection), who reads the store for it (the access model), what it costs (the bill). The
 * vault and its lock are the bootstrap's (bootstrap tests, and libs/policy mutations-aws for CI's reach).
 */
const restricted = {
  name: 'llm-secret',
  dataClassification: 'restricted',
  encryption: 'customer-managed',
  retention: { noncurrentExpireDays: 14 },
};
const confidential = { ...restricted, name: 'llm-other', dataClassification: 'confidential' };
const context = { project: 'checkpoints-aws', stack: 'prod', store: restricted.name };
const BUCKET = `arn:aws:s3:::${names.s3Bucket(context)}`;

function storeResources(snapshot: Snapshot, store: string) {
  const component = snapshot.resources.find(
    (r) => r.type === 'checkpoints:aws:CheckpointStore' && r.name === store,
  );
  return snapshot.resources.filter((r) => r.parent === component?.urn);
}

describe('an independent copy of a restricted prod S3 store', () => {
  let snapshot: Snapshot;
  beforeAll(async () => {
    snapshot = await sharedRenderStack({ environment: 'prod', stores: [restricted, confidential] });
  });

  it("is kept by default, continuously, for the store's 14-day window, in the bootstrap's vault", () => {
    const copy = awsIndependentCopyOf(
      storeResources(snapshot, restricted.name),
      { arn: BUCKET, region: 'us-east-1' },
      [],
    );
    expect(copy).toMatchObject({
      vault: names.awsBackupVault({ project: 'checkpoints-aws', stack: 'prod' }),
      retentionDays: 14,
      continuous: true,
    });
    // Without the bootstrap's render the vault lock is not seen: the copy is counted as holding nothing.
    expect(copy?.broken).toMatch(/no vault lock in compliance mode/);
  });

  it('is not kept for a confidential store that does not ask for it', () => {
    const other = `arn:aws:s3:::${names.s3Bucket({ ...context, store: confidential.name })}`;
    expect(
      awsIndependentCopyOf(
        storeResources(snapshot, confidential.name),
        { arn: other, region: 'us-east-1' },
        [],
      ),
    ).toBeUndefined();
  });

  it('AWS Backup reads the store through the backup role, which only AWS Backup of this account assumes', async () => {
    const analysis = await analyzeAccess(snapshot, undefined);
    const grants = analysis.stores.find((store) => store.store === restricted.name)!.grants;
    const backupRole = `arn:aws:iam::${ACCOUNT}:role/${names.iamRole(context, 'backup')}`;
    const byBackup = grants.filter((grant) => grant.principal.id === backupRole);
    expect(byBackup.map((grant) => grant.operation)).toEqual(['read']);
    const through = grants.filter((grant) => grant.reason.includes('assumes backup'));
    expect(through.map((grant) => [grant.principal.label, grant.operation])).toEqual([
      ['service backup.amazonaws.com', 'read'],
    ]);
  });

  it("without the bootstrap's vault lock, the replay of the worst write counts no copy (fail closed)", async () => {
    const analysis = await analyzeAccess(snapshot, undefined);
    const grants = analysis.stores.find((store) => store.store === restricted.name)!.grants;
    const admins = grants.find(
      (grant) => grant.principal.kind === 'cloud-default' && grant.operation === 'destroy-by-config',
    );
    expect(admins?.configuration?.copy).toMatchObject({ days: 0, promisedDays: 14 });
    expect(admins?.reason).not.toMatch(/recoverable from the independent copy/);
  });

  it("bills the copy at AWS Backup's S3 backup storage price, in the store's monthly cost", () => {
    const [store] = retentionOf(snapshot).filter((each) => each.store === restricted.name);
    const bill = store?.projection?.bill;
    const copy = bill?.independentCopy;
    expect(copy?.lines.map((line) => line.price.item)).toEqual(['backup/S3']);
    expect(copy?.lines[0]?.price.source).toBe('https://aws.amazon.com/backup/pricing/');
    // At least every version the store holds is in the copy.
    const storedGiB = Object.values(store!.projection!.bytesByClass).reduce((a, b) => a + b, 0) / 2 ** 30;
    expect(copy?.lines[0]?.quantity).toBeGreaterThan(storedGiB);
    expect(copy?.total).toBeGreaterThan(0);
    // The store's monthly cost, which the report's store and stack totals add up, includes the copy.
    expect(store?.projection?.monthlyCost).toBeCloseTo((bill?.total ?? 0) + (copy?.total ?? 0), 2);
    const [other] = retentionOf(snapshot).filter((each) => each.store === confidential.name);
    expect(other?.projection?.bill.independentCopy).toBeNull();
    expect(other?.projection?.monthlyCost).toBe(other?.projection?.bill.total);
  });
});

describe('an independent copy of an S3 Express store', () => {
  it('is refused: AWS Backup needs S3 Versioning, which directory buckets lack', async () => {
    const failure = await renderFailure({
      environment: 'prod',
      stores: [
        {
          name: 'llm-fast',
          dataClassification: 'restricted',
          tier: 'high-throughput',
          zone: 'use1-az4',
          recovery: { independentCopy: { enabled: true } },
        },
      ],
    });
    expect(failure.message).toMatch(
      /recovery\.independentCopy.*AWS Backup backs up only buckets with S3 Versioning/s,
    );
  });
});
