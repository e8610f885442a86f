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

/** Resources that hold checkpoints (or the key to them) outlive a deploy that would delete them. */
export function dataHolderOptions(scope: StoreScope): pulumi.CustomResourceOptions {
  return scope.store.protect
    ? { parent: scope.parent, protect: true, retainOnDelete: true }
    : { parent: scope.parent };
}
