import type * as pulumi from '@pulumi/pulumi';
import type { StoreSpec } from '@checkpoints/config';
import type { NameContext } from '@checkpoints/naming';

/** What every resource of one store is created from. */
export interface StoreScope {
  /** The store's CheckpointStore component: parent of everything below. */
  parent: pulumi.Resource;
  store: StoreSpec;
  names: NameContext;
  /** The standard tags, already normalised for Azure. */
  tags: Record<string, string>;
  location: string;
  resourceGroupName: pulumi.Input<string>;
  subscriptionId: pulumi.Output<string>;
  tenantId: pulumi.Output<string>;
}

/**
 * Resources that hold checkpoints (or the key to them) outlive any deploy that would delete them, in every
 * environment: removed from the program they are released, not deleted. `protect` (the prod default)
 * also stops a deploy that would replace or release them.
 */
export function dataHolderOptions(scope: StoreScope): pulumi.CustomResourceOptions {
  return { parent: scope.parent, protect: scope.store.protect, retainOnDelete: true };
}

/** Soft delete and lifecycle stay as they are when the store is released: the data is still there. */
export function safetySettingOptions(scope: StoreScope): pulumi.CustomResourceOptions {
  return { parent: scope.parent, retainOnDelete: true };
}
