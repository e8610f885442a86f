import type * as pulumi from '@pulumi/pulumi';
import type { StoreSpec } from '@checkpoints/config';
import type { NameContext } from '@checkpoints/naming';

/** What every resource of one store is built from. */
export interface StoreScope {
  store: StoreSpec;
  nameContext: NameContext;
  /** The standard tags, normalised for AWS. */
  tags: Record<string, string>;
  /** The store's component: every resource is its child. */
  parent: pulumi.Resource;
}

/** Resources that hold checkpoints, or the key without which they cannot be read, outlive a `destroy`. */
export function dataProtection(store: StoreSpec): pulumi.CustomResourceOptions {
  return { protect: store.protect, retainOnDelete: store.protect };
}

/** The bucket a store's roles and outputs point at, whichever kind it is. */
export interface StoreBucket {
  name: pulumi.Output<string>;
  arn: pulumi.Output<string>;
}
