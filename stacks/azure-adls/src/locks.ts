import type * as pulumi from '@pulumi/pulumi';
import { ManagementLockByScope } from '@pulumi/azure-native/authorization/managementLockByScope';
import type { StoreScope } from './scope';

/** The name of every lock the stack sets: an administrator looks for it in the break-glass procedure. */
export const DELETE_LOCK_NAME = 'checkpoints-do-not-delete';

/**
 * A CanNotDelete management lock: nobody, Owner included, deletes the resource (or anything under it)
 * until someone who holds `Microsoft.Authorization/locks/delete` removes the lock
 * (https://learn.microsoft.com/azure/azure-resource-manager/management/lock-resources). The deploy
 * identity may create locks but not delete them (bootstrap/src/azure/roles.ts), so CI cannot lift it.
 * Released, never deleted, when the store leaves the program: the lock stays with the data.
 */
export function lockAgainstDeletion(
  scope: StoreScope,
  name: string,
  resourceId: pulumi.Input<string>,
  what: string,
): ManagementLockByScope {
  return new ManagementLockByScope(
    name,
    {
      scope: resourceId,
      lockName: DELETE_LOCK_NAME,
      level: 'CanNotDelete',
      notes: `checkpoint store ${scope.names.store}: ${what}; deletion is break-glass, see docs/azure.md`,
    },
    { parent: scope.parent, protect: scope.store.protect, retainOnDelete: true },
  );
}
