import { isCi, type AccessGrant, type CopyEffect, type StoreAccess } from '@checkpoints/analysis';
import { accessRule } from './analysis';

export const ciProdNoDestroy = accessRule({
  name: 'ci-prod-no-destroy',
  description:
    "In prod, no CI identity can delete a data-holding resource, destroy a key, or make checkpoints unrecoverable through configuration before the store's promised recovery window ends, and no principal the renders grant (CI or another) can lift a store's independent copy: that is a break-glass action for an administrator",
  source:
    'Checkpoint security baseline (data never lost to a deploy) and CI rights; AWS Well-Architected REL09 (back up and protect data)',
  needsBootstrap: true,
  judge: (grant, store) => {
    if (store.environment !== 'prod') return undefined;
    // The copy answers to the administrators who hold the subscription alone: a principal the renders grant a
    // lift on it (a declared one included) is as much a way around it as CI.
    if (!isCi(grant.principal)) {
      return grant.principal.kind === 'declared' && grant.operation === 'destroy-by-config'
        ? copyLifted(grant.configuration?.copy, true)
        : undefined;
    }
    if (grant.operation === 'delete-store') return 'can delete a data-holding resource in prod';
    if (grant.operation === 'destroy-key') return 'can destroy a key in prod';
    if (grant.operation === 'destroy-by-config') return destroysInsideWindow(grant, store);
    return undefined;
  },
});

/**
 * A configuration write counts when what the cloud's guardrails answer for is gone before the recovery window
 * ends. On a tier with no such mechanism at all (an S3 Express directory bucket) restricted data is refused,
 * whatever the window; elsewhere that is a residual risk (docs/security.md). A write on a replica leaves the
 * store's own copy.
 */
function destroysInsideWindow(grant: AccessGrant, store: StoreAccess): string | undefined {
  const effect = grant.configuration;
  if (effect === undefined || effect.replica) return undefined;
  const copy = copyLifted(effect.copy);
  if (copy !== undefined) return copy;
  const window = effect.windowDays ?? 0;
  const guarded = effect.guardedGoneAfterDays ?? null;
  const writes = effect.writes.map((write) => `${write.setting} (${write.permission})`).join(', ');
  if (guarded !== null && guarded < window) {
    return `can make checkpoints unrecoverable through configuration: its ${writes} write leaves a checkpoint recoverable for ${days(guarded)}, inside the ${window}-day recovery window (${effect.guardrails?.length ? effect.guardrails.join('; ') : 'no guardrail holds'})`;
  }
  const gone = effect.goneAfterDays ?? null;
  if (store.dataClassification === 'restricted' && effect.unguardedTier && gone !== null) {
    return `can make restricted checkpoints unrecoverable through configuration where no guardrail can hold them (${effect.unguarded ?? 'no mechanism on this tier'}): its ${writes} write leaves nothing after ${days(gone)}; restricted data needs another tier`;
  }
  return undefined;
}

/**
 * A store whose spec promises an independent copy keeps it out of CI's reach: a CI identity that may delete or
 * shorten its recovery points or unlock its vault, or a render in which the copy holds nothing (no vault lock in
 * compliance mode, no selection of the store's bucket, a plan the lock refuses), breaks that promise whatever the
 * store's own guardrails do. A CI identity that may rewrite the backup plan still leaves every checkpoint in the
 * copy for the vault lock's minimum: that figure is in the grant.
 */
function copyLifted(copy: CopyEffect | undefined, liftsOnly = false): string | undefined {
  if (copy === undefined || copy.promisedDays === 0) return undefined;
  if (copy.lifts.length > 0) {
    return `can lift the independent copy in ${copy.where}: ${copy.lifts
      .map((lift) => `${lift.permission} by ${lift.reason}`)
      .join('; ')}`;
  }
  if (copy.broken !== undefined && !liftsOnly) {
    return `faces no independent copy although the spec promises ${days(copy.promisedDays)}: ${copy.broken}`;
  }
  return undefined;
}

function days(count: number): string {
  return `${count} day${count === 1 ? '' : 's'}`;
}
