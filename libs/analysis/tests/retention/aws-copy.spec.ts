import { awsIndependentCopyOf } from '../../src';
import { child, rendered } from './bill-fixtures';

/** The copy model: what a rendered backup plan and selection keep, with the vault lock of the bootstrap's render. */
const BUCKET = 'arn:aws:s3:::checkpoints-aws-prod-llm-0d2516';
const VAULT = 'checkpoints-aws-prod-backup-24b5b6';

function store(plan: { deleteAfter?: number; continuous?: boolean; vault?: string } = {}) {
  return [
    child('plan', 'aws:backup/plan:Plan', {
      rules: [
        {
          ruleName: 'continuous',
          targetVaultName: plan.vault ?? VAULT,
          enableContinuousBackup: plan.continuous ?? true,
          lifecycle: { deleteAfter: plan.deleteAfter ?? 14 },
        },
      ],
    }),
    child('selection', 'aws:backup/selection:Selection', { resources: [BUCKET] }),
  ];
}

function bootstrap(
  lock: Record<string, unknown> = { changeableForDays: 3, minRetentionDays: 7 },
  region = 'us-east-1',
) {
  return [
    rendered('vault', 'aws:backup/vault:Vault', null, { name: VAULT, region }),
    rendered('lock', 'aws:backup/vaultLockConfiguration:VaultLockConfiguration', null, {
      backupVaultName: VAULT,
      ...lock,
    }),
  ];
}

const copyOf = (storeResources = store(), lockResources = bootstrap(), region = 'us-east-1') =>
  awsIndependentCopyOf(storeResources, { arn: BUCKET, region }, lockResources);

describe('awsIndependentCopyOf', () => {
  it('a continuous plan into a vault locked in compliance mode holds, with the lock minimum beside it', () => {
    expect(copyOf()).toEqual({ vault: VAULT, retentionDays: 14, continuous: true, lockMinDays: 7 });
  });

  it('no selection of the bucket: no copy', () => {
    expect(copyOf(store().filter((r) => r.type !== 'aws:backup/selection:Selection'))).toBeUndefined();
  });

  it.each([
    ['no lock at all', copyOf(store(), bootstrap().slice(0, 1)), /no vault lock in compliance mode/],
    [
      'a governance-mode lock',
      copyOf(store(), bootstrap({ minRetentionDays: 7 })),
      /no vault lock in compliance mode/,
    ],
    [
      'a lock on another vault',
      copyOf(store({ vault: 'other' })),
      /no vault lock in compliance mode is rendered for vault other/,
    ],
    [
      'a plan shorter than the lock',
      copyOf(store({ deleteAfter: 5 })),
      /keeps recovery points 5 days, less than the vault lock's minimum of 7/,
    ],
    ['snapshot backups only', copyOf(store({ continuous: false })), /no continuous backup/],
    [
      'a vault in another region',
      copyOf(store(), bootstrap(undefined, 'us-west-2')),
      /vault .* is in us-west-2, the store in us-east-1/,
    ],
  ])('holds nothing with %s, saying why (fail closed)', (_case, copy, why) => {
    expect(copy?.broken).toMatch(why);
  });
});
