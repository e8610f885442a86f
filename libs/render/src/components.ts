import { CLOUDS, type Cloud } from '@checkpoints/config';

/**
 * The type tokens of this repository's component resources: what a stack registers (`super(type, ...)`)
 * and what every reader of a render looks for. A token is `<package>:<module>:<type>`
 * (https://www.pulumi.com/docs/iac/concepts/resources/components/#authoring-a-new-component-resource).
 */
export const COMPONENT_TYPES = {
  /** One checkpoint store per cloud: the parent of every resource that holds, guards or grants its data. */
  store: {
    aws: 'checkpoints:aws:CheckpointStore',
    gcp: 'checkpoints:gcp:CheckpointStore',
    azure: 'checkpoints:azure:CheckpointStore',
  },
  /** An S3 store's cross-region replica bucket and its replication role. */
  awsStoreReplica: 'checkpoints:aws:StoreReplica',
  /** An AWS stack's audit trail, its log bucket and key. */
  awsStackAudit: 'checkpoints:aws:StackAudit',
} as const satisfies { store: Record<Cloud, string>; [other: string]: unknown };

/** The cloud of a store component's type token; undefined for any other type. */
export function storeCloudOf(type: string): Cloud | undefined {
  return CLOUDS.find((cloud) => COMPONENT_TYPES.store[cloud] === type);
}

/** Whether a type token is a checkpoint store component of any cloud. */
export function isStoreComponent(type: string): boolean {
  return storeCloudOf(type) !== undefined;
}
