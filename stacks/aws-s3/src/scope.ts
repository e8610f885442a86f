import type * as pulumi from '@pulumi/pulumi';
import type { StoreSpec } from '@checkpoints/config';
import type { NameContext } from '@checkpoints/naming';
import type { S3Perimeter } from '@checkpoints/translate';

/** What every resource of one store is built from. */
export interface StoreScope {
  store: StoreSpec;
  nameContext: NameContext;
  /** The standard tags, normalised for AWS. */
  tags: Record<string, string>;
  /** The store's component: every resource is its child. */
  parent: pulumi.Resource;
}

/**
 * Resources that hold checkpoints, or the key without which they cannot be read, outlive any deploy that
 * would delete them, in every environment: removed from the program, they are released, not deleted.
 * `protect` additionally stops a deploy that would replace or release them (the prod default).
 */
export function dataProtection(store: StoreSpec): pulumi.CustomResourceOptions {
  return { protect: store.protect, retainOnDelete: true };
}

/**
 * The settings that keep a bucket's data safe (versioning, policy, public access block, encryption,
 * lifecycle) stay in place when the store is released: deleting them would suspend versioning or open
 * the bucket while its checkpoints are still there.
 */
export const SAFETY_SETTING: pulumi.CustomResourceOptions = { retainOnDelete: true };

/** What a store's bucket policy needs beyond the bucket's own ARN: the key it accepts and who may reach it. */
export interface BucketPolicyInputs {
  keyArn: pulumi.Output<string | undefined>;
  /** Undefined when the store declares no perimeter (`network: { public: true }`, or none outside prod). */
  perimeter: pulumi.Output<S3Perimeter | undefined>;
  /** The store's writer and reader roles, which a locked bucket's policy denies changing its lock. */
  storeRoleArns: pulumi.Output<string[]>;
}

/** The bucket a store's roles and outputs point at, whichever kind it is. */
export interface StoreBucket {
  name: pulumi.Output<string>;
  arn: pulumi.Output<string>;
  /** A general purpose bucket's versioning, which replication needs in place first. */
  versioning?: pulumi.Resource;
}
