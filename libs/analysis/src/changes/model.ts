import type { Holding, ReplacingInput } from './rules';

/** The change plan's shape: what `planChanges` returns and `formatPlan` prints. */

/**
 * What a deploy of the new render does to a resource of the previous one. `released`: gone from the program
 * with `retainOnDelete`, so Pulumi forgets it and the cloud keeps it; `deleted`: gone without it; `ignored`:
 * an update the cloud reports as done and does not make (see RefusedChange).
 */
export type ChangeKind =
  'unchanged' | 'updated' | 'ignored' | 'replaced' | 'created' | 'released' | 'deleted';

export interface ResourceChange {
  /** The resource's URN in the new render (in the previous one for `released` and `deleted`). */
  urn: string;
  /** Its URN in the previous render, when it answers to it through an alias. */
  baseUrn?: string;
  type: string;
  name: string;
  kind: ChangeKind;
  holds?: Holding;
  /** Top-level inputs whose value differs. */
  changedInputs: string[];
  /** The changed inputs that force the replacement, with their sources. */
  replacedBy: ReplacingInput[];
  /** Protected in the previous render: a delete or replace stops `pulumi up` at this resource. */
  protectedInBase: boolean;
  /** No change rules are known for this type: a change of its inputs may replace it. */
  unknownType?: true;
}

export interface StorePlan {
  /** The store's name in the new render; its previous name for a store that was removed. */
  store: string;
  /** Its name in the previous render, when it had one and it differs (a rename with `formerNames`). */
  formerName?: string;
  status: 'unchanged' | 'changed' | 'created' | 'removed';
  resources: ResourceChange[];
}

/** A change after which checkpoints (or the key to read them) would not survive. */
export interface DataLoss {
  store: string;
  urn: string;
  type: string;
  kind: 'replaced' | 'deleted';
  holds: 'data' | 'key';
  /** What happens and how to make the change safely. */
  message: string;
}

/** What a weakening change makes weaker, each judged as its model says (retention replay, trail selectors, perimeter). */
export type WeakenedAspect = 'recovery' | 'purge' | 'lock' | 'live-data' | 'audit' | 'network';

/**
 * An in-place change after which a store keeps less: a shorter recovery window, purge bound or lock, live data
 * deleted earlier, audit or perimeter removed. `before` and `after` are days for the retention aspects (null:
 * never, or refused by the lock) and the setting's state for audit and network.
 */
export interface Weakening {
  store: string;
  aspect: WeakenedAspect;
  /** The figure or setting that weakens, in words (e.g. `recovery window of a deleted checkpoint`). */
  what: string;
  before: number | string | null;
  after: number | string | null;
  /** `days` for the retention figures. */
  unit?: 'days';
  /** The rendered settings whose change does it (`<resource name> <input>`). */
  settings: string[];
  /** The store's `acknowledge.weakening` when this change adds or changes it: the weakening then passes. */
  acknowledgement?: string;
  message: string;
}

/**
 * A change the cloud refuses half-way (`refused`: the deploy fails after earlier steps applied) or accepts and
 * does not make (`ignored`: the deploy reports success and nothing changes), with what to do instead.
 */
export interface RefusedChange {
  store: string;
  urn: string;
  type: string;
  outcome: 'refused' | 'ignored';
  /** The inputs (or the delete) the cloud refuses or ignores. */
  inputs: string[];
  message: string;
  source: string;
}

export interface ChangePlan {
  stores: StorePlan[];
  /** Resources outside every store (e.g. a stack's resource group). */
  others: ResourceChange[];
  dataLoss: DataLoss[];
  weakening: Weakening[];
  refused: RefusedChange[];
  /** Advice that is not data loss, e.g. a store that looks renamed without `formerNames`. */
  notes: string[];
}
