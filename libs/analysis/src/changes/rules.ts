import type { Cloud } from '@checkpoints/config';

/**
 * What a resource is to a store's checkpoints: `data` holds them, `key` holds (or grants the use of) the key
 * without which they cannot be read, `safety` is a setting that keeps them safe (versioning, bucket policy,
 * public access block, encryption configuration, lifecycle, soft delete).
 */
export type Holding = 'data' | 'key' | 'safety';

/** An input whose change makes the provider replace the resource, with where that is documented. */
export interface ReplacingInput {
  /** Input path, dotted for nested values (e.g. `hierarchicalNamespace.enabled`). */
  input: string;
  source: string;
  /** Whether this change of the input replaces the resource; absent: every change does. */
  replaces?(before: unknown, after: unknown): boolean;
}

export interface ResourceTypeRules {
  /** Inputs whose change replaces the resource (delete and create, or create and delete). */
  replacedBy: readonly ReplacingInput[];
  /** What the resource holds; a function where only its inputs tell (e.g. which role an assignment grants). */
  holds?: Holding | ((inputs: Readonly<Record<string, unknown>>) => Holding | undefined);
  /** Where the holding is documented, when it is not obvious from the type. */
  holdsSource?: string;
}

/** One cloud's change rules: the same shape on every cloud. */
export interface CloudChangeRules {
  cloud: Cloud;
  types: Readonly<Record<string, ResourceTypeRules>>;
}
