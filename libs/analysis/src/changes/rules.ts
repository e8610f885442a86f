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
  /** How to make this replacement safely, where the generic migration path does not fit. */
  advice?: string;
}

type Inputs = Readonly<Record<string, unknown>>;

/** An in-place update the cloud refuses half-way (`refused`) or reports as done without making it (`ignored`). */
export interface RefusedUpdate {
  /** The top-level inputs it concerns; absent: any change of the resource's inputs. */
  inputs?: readonly string[];
  outcome: 'refused' | 'ignored';
  /** Whether it applies to this change; absent: to every change of `inputs`. */
  applies?(before: Inputs, after: Inputs): boolean;
  /** What happens and what to do instead. */
  message: string;
  source: string;
}

/** A delete the cloud refuses because of what the previous render holds (e.g. a management lock on its target). */
export interface RefusedDelete {
  /** Why, when `base` (the previous render's resources) makes the cloud refuse deleting `resource`. */
  refusal(
    resource: { inputs: Inputs },
    base: readonly { type: string; inputs: Inputs }[],
  ): string | undefined;
  source: string;
}

/**
 * A provider setting (stack config key) that decides where the stack's resources are: changing it moves them,
 * which no cloud does in place. `region`: resources with their own region or location input stay where that says.
 */
export interface PlacementKey {
  key: string;
  scope: 'region' | 'account';
  source: string;
}

export interface ResourceTypeRules {
  /** Inputs whose change replaces the resource (delete and create, or create and delete). */
  replacedBy: readonly ReplacingInput[];
  /** What the resource holds; a function where only its inputs tell (e.g. which role an assignment grants). */
  holds?: Holding | ((inputs: Readonly<Record<string, unknown>>) => Holding | undefined);
  /** Where the holding is documented, when it is not obvious from the type. */
  holdsSource?: string;
  refusedUpdates?: readonly RefusedUpdate[];
  refusedDelete?: RefusedDelete;
}

/** One cloud's change rules: the same shape on every cloud. */
export interface CloudChangeRules {
  cloud: Cloud;
  types: Readonly<Record<string, ResourceTypeRules>>;
  /** The provider settings whose change moves every resource they place. */
  placement: readonly PlacementKey[];
  /** Types the placement's region keys never move (global services), by prefix. */
  global?: readonly string[];
}
