import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { awsS3ObjectLockGovernance } from './aws-s3-object-lock-governance';
import { FIXTURE_BUCKET, STORE_URN, storeFixture } from '../../../testing/aws';

const LOCK = 'aws:s3/bucketObjectLockConfiguration:BucketObjectLockConfiguration';

/** The store fixture stating a 365-day lock, with `lock` as its bucket's Object Lock configuration (null: none). */
function lockedStore(lock: Record<string, unknown> | null, statedDays = 365): ResourceUnderTest[] {
  const [component, ...rest] = storeFixture({ key: true });
  return [
    { ...component!, props: { ...component!.props, retentionLock: { days: statedDays } } },
    ...rest,
    ...(lock === null
      ? []
      : [
          {
            type: LOCK,
            name: 'ckpt-retention-lock',
            props: { bucket: FIXTURE_BUCKET, ...lock },
            parent: STORE_URN,
          },
        ]),
  ];
}

const governance = (days: number) => ({
  objectLockEnabled: 'Enabled',
  rule: { defaultRetention: { mode: 'GOVERNANCE', days } },
});

describe('aws-s3-object-lock-governance', () => {
  it('passes a store locked in GOVERNANCE mode for the days it states, and a store that states no lock', async () => {
    expect(await violationsOf(awsS3ObjectLockGovernance, lockedStore(governance(365)))).toEqual([]);
    expect(await violationsOf(awsS3ObjectLockGovernance, storeFixture({ key: true }))).toEqual([]);
  });

  it('flags a COMPLIANCE lock, which no one could lift', async () => {
    const compliance = {
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: 'COMPLIANCE', days: 365 } },
    };
    expect(await violationsOf(awsS3ObjectLockGovernance, lockedStore(compliance))).toEqual([
      "ckpt-retention-lock: default retention mode COMPLIANCE cannot be shortened or lifted by anyone, the account's root user included, so a wrong lock could never be undone; expected GOVERNANCE",
    ]);
  });

  it('flags a store whose bucket is not locked, or locked for fewer days than it states', async () => {
    expect(await violationsOf(awsS3ObjectLockGovernance, lockedStore(null))).toEqual([
      'store ckpt: states recovery.retentionLock.days 365 but its bucket has no Object Lock configuration; expected GOVERNANCE default retention of 365 days',
    ]);
    expect(await violationsOf(awsS3ObjectLockGovernance, lockedStore(governance(30)))).toEqual([
      'store ckpt: ckpt-retention-lock: default retention locks 30 days, fewer than the 365 days recovery.retentionLock.days states',
    ]);
    expect(
      await violationsOf(awsS3ObjectLockGovernance, lockedStore({ objectLockEnabled: 'Enabled' })),
    ).toEqual([
      'store ckpt: ckpt-retention-lock: no default retention mode; expected GOVERNANCE for 365 days',
      'store ckpt: ckpt-retention-lock: default retention locks no days, fewer than the 365 days recovery.retentionLock.days states',
    ]);
  });

  it('flags a bucket locked for more days than its store states, whose versions the lifecycle could not purge', async () => {
    expect(await violationsOf(awsS3ObjectLockGovernance, lockedStore(governance(3650)))).toEqual([
      'store ckpt: ckpt-retention-lock: default retention locks 3650 days, more than the 365 days recovery.retentionLock.days states; no version could be purged before 3650 days',
    ]);
    const tenYears = {
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: 'GOVERNANCE', years: 10 } },
    };
    expect(await violationsOf(awsS3ObjectLockGovernance, lockedStore(tenYears))).toEqual([
      'store ckpt: ckpt-retention-lock: default retention locks 3650 days, more than the 365 days recovery.retentionLock.days states; no version could be purged before 3650 days',
    ]);
    const oneYear = {
      objectLockEnabled: 'Enabled',
      rule: { defaultRetention: { mode: 'GOVERNANCE', years: 1 } },
    };
    expect(await violationsOf(awsS3ObjectLockGovernance, lockedStore(oneYear))).toEqual([]);
  });
});
