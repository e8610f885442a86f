import { violationsOf, type ResourceUnderTest } from '../../../testing';
import { gcpGcsRetentionLock } from './gcp-gcs-retention-lock';

const COMPONENT = 'checkpoints:gcp:CheckpointStore';
const PARENT = `urn:pulumi:test::spec::${COMPONENT}::llm-releases`;
const YEAR = String(365 * 86_400);

const NO_LOCK = null;

/** A store component and its bucket; `retentionLock` NO_LOCK: the spec states no lock. */
function store(retentionPolicy: unknown, retentionLock: unknown): ResourceUnderTest[] {
  return [
    {
      type: COMPONENT,
      name: 'llm-releases',
      props: { tier: 'standard', ...(retentionLock === NO_LOCK ? {} : { retentionLock }) },
    },
    {
      type: 'gcp:storage/bucket:Bucket',
      name: 'llm-releases-bucket',
      parent: PARENT,
      props: {
        name: 'ckpt',
        versioning: { enabled: false },
        ...(retentionPolicy === undefined ? {} : { retentionPolicy }),
      },
    },
  ];
}

describe('gcp-gcs-retention-lock', () => {
  it('passes an unlocked policy of the stated days, and a store without a lock or a policy', async () => {
    expect(
      await violationsOf(
        gcpGcsRetentionLock,
        store({ retentionPeriod: YEAR, isLocked: false }, { days: 365 }),
      ),
    ).toEqual([]);
    expect(await violationsOf(gcpGcsRetentionLock, store(undefined, NO_LOCK))).toEqual([]);
  });

  it.each<[string, unknown, unknown, string]>([
    [
      'a locked policy (irreversible)',
      { retentionPeriod: YEAR, isLocked: true },
      { days: 365 },
      'has a locked retention policy (isLocked true): it can never be shortened or removed, and the bucket not deleted before every object is past it; the stores offer the unlocked policy only',
    ],
    [
      'a locked policy on a store that states no lock',
      { retentionPeriod: YEAR, isLocked: true },
      NO_LOCK,
      'has a locked retention policy (isLocked true): it can never be shortened or removed, and the bucket not deleted before every object is past it; the stores offer the unlocked policy only',
    ],
    [
      'no policy on a locked store',
      undefined,
      { days: 365 },
      `has no retention policy, though its store locks every checkpoint for 365 days (recovery.retentionLock); expected retentionPeriod "${YEAR}"`,
    ],
    [
      'a shorter policy',
      { retentionPeriod: String(30 * 86_400), isLocked: false },
      { days: 365 },
      `retentionPolicy.retentionPeriod is "2592000"; its store locks every checkpoint for 365 days: expected "${YEAR}"`,
    ],
    [
      'a policy whose lock state is left to the provider',
      { retentionPeriod: YEAR },
      { days: 365 },
      'retentionPolicy.isLocked is not set; expected false (the relaxable mode)',
    ],
    [
      'a policy the spec does not state',
      { retentionPeriod: YEAR, isLocked: false },
      NO_LOCK,
      `has a retention policy (retentionPeriod "${YEAR}") its store's spec does not state (recovery.retentionLock)`,
    ],
  ])('flags %s', async (_title, policy, lock, problem) => {
    expect(await violationsOf(gcpGcsRetentionLock, store(policy, lock))).toEqual([
      `store llm-releases: bucket llm-releases-bucket ${problem}`,
    ]);
  });
});
