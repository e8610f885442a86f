import { COMPONENT_TYPES } from '@checkpoints/render';
import { stackRule } from '../define';
import { read, state } from '../inputs';
import { isAzureType, T } from './support';

const STORE = COMPONENT_TYPES.store.azure;

/**
 * The retention lock the product offers is the relaxable one: an unlocked container time-based policy, which
 * an administrator can lift ("You can also delete an unlocked policy"); a locked one can never be deleted
 * or shortened (https://learn.microsoft.com/azure/storage/blobs/immutable-time-based-retention-policy-overview).
 * Protected append writes would let a job add blocks to a locked checkpoint
 * (https://learn.microsoft.com/azure/storage/blobs/immutable-container-level-worm-policies#allow-protected-append-blobs-writes).
 */
export const azureStorageImmutabilityUnlocked = stackRule({
  name: 'azure-storage-immutability-unlocked',
  description:
    "Every store that states recovery.retentionLock (recorded in the store component's inputs) has a BlobContainerImmutabilityPolicy of exactly retentionLock.days, with allowProtectedAppendWrites false and allowProtectedAppendWritesAll not true; no immutability policy of the stack is in the Locked state (irreversible, even for the account owner)",
  source:
    'Checkpoint security baseline (retention lock, relaxable mode only); Microsoft Learn: Time-based retention policies for immutable blob data (locked versus unlocked policies); Microsoft Learn: Container-level WORM policies (allow protected append blobs writes)',
  validate: (args, report) => {
    const policies = args.resources.filter((r) => isAzureType(r.type, T.immutabilityPolicy));
    for (const store of args.resources.filter((r) => r.type === STORE)) {
      const days = read(store.props, 'retentionLock', 'days');
      if (typeof days !== 'number') continue;
      const own = policies.filter((policy) => policy.parent?.urn === store.urn);
      if (own.length === 0) {
        report(
          `store '${store.name}' states recovery.retentionLock { days: ${days} } but its filesystem has no immutability policy; expected a BlobContainerImmutabilityPolicy of ${days} days`,
          store.urn,
        );
      }
      for (const policy of own) {
        const period = read(policy.props, 'immutabilityPeriodSinceCreationInDays');
        if (period !== days) {
          report(
            `immutability policy '${policy.name}': immutabilityPeriodSinceCreationInDays ${state(period)}; expected ${days} (recovery.retentionLock.days of store '${store.name}')`,
            policy.urn,
          );
        }
      }
    }
    for (const policy of policies) {
      const appends = read(policy.props, 'allowProtectedAppendWrites');
      if (appends !== false) {
        report(
          `immutability policy '${policy.name}': allowProtectedAppendWrites ${state(appends)}; expected false (no block may be added to a locked checkpoint)`,
          policy.urn,
        );
      }
      const appendsAll = read(policy.props, 'allowProtectedAppendWritesAll');
      if (appendsAll === true) {
        report(
          `immutability policy '${policy.name}': allowProtectedAppendWritesAll is true; expected false (no block may be added to a locked checkpoint)`,
          policy.urn,
        );
      }
      if (read(policy.props, 'state') === 'Locked') {
        report(
          `immutability policy '${policy.name}' is Locked: a locked policy can never be lifted or shortened, even by the account owner; the stack sets unlocked policies only (an administrator may lift one, docs/azure.md "Retention lock")`,
          policy.urn,
        );
      }
    }
  },
});
