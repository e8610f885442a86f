/**
 * What the worst configuration write a principal may make does to a store's checkpoints, replayed against each
 * cloud's lifecycle model (aws.ts, gcp.ts, azure.ts) under the guardrails that still hold against it.
 */
import { s3Model, type S3Bucket } from './aws';
import { adlsModel, type AdlsAccount } from './azure';
import { gcsModel, type GcsBucket } from './gcp';
import { HOURS_PER_DAY, replayLifecycle, type LifecycleModel } from './replay';

/** Days a checkpoint stays recoverable after the write; null: still recoverable when the replay ends. */
export interface WriteReplay {
  /** A checkpoint written just before the write (any lock from its write still runs). */
  freshDays: number | null;
  /** A checkpoint written long before (older than any lock). */
  oldDays: number | null;
  /** Days the replay ran after the write. */
  horizonDays: number;
}

/** The write happens on the first day of the replay; the checkpoint was written one hour before it. */
const WRITTEN = 10;
const REPLAY_SLACK_DAYS = 30;

function replayed(name: string, build: (locked: boolean) => LifecycleModel, days: number): WriteReplay {
  const horizonDays = Math.ceil(days) + REPLAY_SLACK_DAYS;
  const survives = (locked: boolean): number | null => {
    const trace = replayLifecycle(
      { model: build(locked), settings: `${name}:${String(locked)}`, notes: [], days: [], copyDays: [] },
      'run-1/step-1000/model.pt',
      [{ at: WRITTEN, kind: 'write' }],
      horizonDays,
    );
    const gone = trace.goneAt.get(1);
    return gone === undefined ? null : Math.max(1, Math.ceil((gone - WRITTEN) / HOURS_PER_DAY));
  };
  return { freshDays: survives(true), oldDays: survives(false), horizonDays };
}

/**
 * S3: a lifecycle configuration that expires every current version after 1 day and every noncurrent one after
 * 1 day, the shortest S3 accepts ("Days ... The value must be a non-zero positive integer",
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_LifecycleExpiration.html and
 * https://docs.aws.amazon.com/AmazonS3/latest/API/API_NoncurrentVersionExpiration.html), with versioning
 * suspended when the principal may and Object Lock does not forbid it ("you can't suspend versioning"
 * on a bucket with Object Lock, https://docs.aws.amazon.com/AmazonS3/latest/userguide/object-lock.html).
 * A version's Object Lock retention, set at its write, holds against lifecycle; once it has run out, nothing of
 * S3 holds the version (object-lock-managing.html#object-lock-managing-lifecycle).
 */
export function s3WorstWrite(bucket: S3Bucket, json: string, suspendsVersioning: boolean): WriteReplay {
  const lockDays = bucket.lockDays ?? 0;
  const versioned = bucket.versioned && !(suspendsVersioning && lockDays === 0);
  const rules = [{ id: 'worst', enabled: true, prefix: '', expirationDays: 1, noncurrentDays: 1 }];
  return replayed(
    `s3-worst:${json}:${String(suspendsVersioning)}`,
    (locked) =>
      s3Model({
        ...bucket,
        versioned,
        rules,
        ...(locked && lockDays > 0 ? { lockDays } : { lockDays: 0 }),
      }),
    lockDays + 2,
  );
}

/**
 * GCS: one bucket update that turns versioning off, sets soft delete to the shortest the organization policy
 * allows (0 without one), removes an unlocked retention policy and adds a `Delete` at age 0 ("age: 0" matches every object,
 * https://cloud.google.com/storage/docs/lifecycle#age). A locked retention policy "can't be removed or
 * reduced" (https://cloud.google.com/storage/docs/bucket-lock), so it still holds.
 */
export function gcsWorstWrite(bucket: GcsBucket, softDeleteMinDays: number): WriteReplay {
  const retentionDays = bucket.retentionLocked ? (bucket.retentionDays ?? 0) : 0;
  const worst = (locked: boolean): GcsBucket => ({
    ...bucket,
    versioned: false,
    softDeleteDays: softDeleteMinDays,
    rules: [{ action: 'Delete', condition: { age: 0 } }],
    retentionDays: locked ? retentionDays : 0,
  });
  return replayed(
    `gcs-worst:${JSON.stringify([bucket, softDeleteMinDays])}`,
    (locked) => gcsModel(worst(locked)),
    retentionDays + softDeleteMinDays + 2,
  );
}

/**
 * ADLS: blob soft delete turned off (or to the shortest an Azure Policy deny allows) and a management policy
 * that deletes every blob modified more than 0 days ago (the smallest `daysAfterModificationGreaterThan`,
 * https://learn.microsoft.com/azure/storage/blobs/lifecycle-management-overview#rule-actions). A container
 * immutability policy the principal cannot lift keeps lifecycle from deleting any blob of the container
 * (azure.ts); one it can lift is gone first.
 */
export function adlsWorstWrite(
  account: AdlsAccount,
  softDeleteMinDays: number,
  lockHolds: boolean,
): WriteReplay {
  const lockDays = lockHolds ? account.lockDays : 0;
  // An immutable container keeps lifecycle from every blob, whatever its age: fresh and old alike.
  const worst: AdlsAccount = {
    ...account,
    softDeleteDays: softDeleteMinDays,
    rules: [{ name: 'worst', enabled: true, prefixes: [], daysAfterModificationGreaterThan: 0 }],
    lockDays,
  };
  return replayed(
    `adls-worst:${JSON.stringify([account, softDeleteMinDays, lockHolds])}`,
    () => adlsModel(worst),
    lockDays + softDeleteMinDays + 2,
  );
}

/** The replay in words: how soon data would be gone, or how long the guardrails keep it. */
export function describeReplay(replay: WriteReplay, lockDays: number): string {
  const { freshDays, oldDays, horizonDays } = replay;
  const kept = (days: number | null) =>
    days === null ? `kept beyond day ${horizonDays} of the replay` : `gone after ${plural(days)}`;
  if (freshDays === oldDays) {
    return freshDays === null
      ? `the guardrails keep every checkpoint (replayed ${horizonDays} days)`
      : `all checkpoints ${kept(freshDays)}`;
  }
  return `checkpoints younger than the ${lockDays}-day lock ${kept(freshDays)}, older ones ${kept(oldDays)}`;
}

/** The fewest days any checkpoint stays recoverable after the write; null: all kept to the replay's end. */
export function soonestGone(replay: WriteReplay): number | null {
  const days = [replay.freshDays, replay.oldDays].filter((d): d is number => d !== null);
  return days.length === 0 ? null : Math.min(...days);
}

function plural(days: number): string {
  return `${days} day${days === 1 ? '' : 's'}`;
}
