import type { Cloud } from '@checkpoints/config';
import { isStoreComponent } from '@checkpoints/render';
import { ROOT_STACK_TYPE, storesOf, type Render, type RenderedResource } from '@checkpoints/render';
import { awsChangeRules } from './aws';
import { azureChangeRules } from './azure';
import { gcpChangeRules } from './gcp';
import type { ChangeKind, ChangePlan, DataLoss, RefusedChange, ResourceChange, StorePlan } from './model';
import type { CloudChangeRules, Holding, PlacementKey, ResourceTypeRules } from './rules';
import { weakeningOf } from './weakening';

export type {
  CloudChangeRules,
  Holding,
  PlacementKey,
  RefusedDelete,
  RefusedUpdate,
  ReplacingInput,
  ResourceTypeRules,
} from './rules';
export { awsChangeRules, azureChangeRules, gcpChangeRules };
export { formatPlan } from './format';
export type {
  ChangeKind,
  ChangePlan,
  DataLoss,
  RefusedChange,
  ResourceChange,
  StorePlan,
  Weakening,
  WeakenedAspect,
} from './model';

export const CHANGE_RULES: Readonly<Record<Cloud, CloudChangeRules>> = {
  aws: awsChangeRules,
  gcp: gcpChangeRules,
  azure: azureChangeRules,
};

/**
 * What the change plan reads of a render: its resources, and `placement`, the provider settings of the stack
 * config that say where its default providers put them (synth records it; see `placementOf`).
 */
export type PlannedRender = Pick<Render, 'resources'> & { placement?: Readonly<Record<string, string>> };

/** The stack config keys (`aws:region`, `gcp:project`, ...) whose change moves a stack's resources. */
export const PLACEMENT_KEYS: readonly string[] = Object.values(CHANGE_RULES).flatMap((rules) =>
  rules.placement.map((placement) => placement.key),
);

/** The placement a render records: the stack config's values of PLACEMENT_KEYS. */
export function placementOf(config: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(
    PLACEMENT_KEYS.filter((key) => key in config).map((key) => [key, config[key] ?? '']),
  );
}

/** The change plan of deploying `next` over a stack last deployed as `base` (both renders of one stack). */
export function planChanges(base: PlannedRender, next: PlannedRender): ChangePlan {
  const baseByUrn = new Map(base.resources.map((resource) => [resource.urn, resource]));
  const baseByIdentity = new Map(base.resources.map((resource) => [identity(resource.urn), resource]));
  const matched = new Map<string, RenderedResource>();
  const changes = new Map<string, ResourceChange>();
  for (const resource of next.resources) {
    const previous = [resource.urn, ...(resource.aliases ?? [])]
      .map((urn) => baseByIdentity.get(identity(urn)))
      .find((candidate) => candidate !== undefined && !matched.has(candidate.urn));
    if (previous) matched.set(previous.urn, resource);
    changes.set(resource.urn, previous ? compare(previous, resource) : created(resource));
  }
  const moves = placementMoves(base, next);
  for (const resource of next.resources) {
    const change = changes.get(resource.urn);
    if (change && change.kind !== 'created') moveByPlacement(change, resource, moves);
  }
  const gone = base.resources.filter((resource) => !matched.has(resource.urn)).map(removed);

  const baseStores = storesOf(base);
  const nextStores = storesOf(next);
  const inStore = new Set<string>();
  const stores: StorePlan[] = nextStores.map((store) => {
    const component = changes.get(store.urn);
    const formerUrn = component?.baseUrn;
    const former = formerUrn ? baseStores.find((candidate) => candidate.urn === formerUrn) : undefined;
    const resources = store.resources.map((resource) => changes.get(resource.urn)).filter(isDefined);
    // A removed child of a store that still exists (e.g. the key after encryption went provider-managed).
    const formerStoreUrn = formerUrn ?? (baseByUrn.has(store.urn) ? store.urn : undefined);
    const formerStore = baseStores.find((candidate) => candidate.urn === formerStoreUrn);
    const removedChildren = gone.filter((change) =>
      formerStore?.resources.some((resource) => resource.urn === change.urn),
    );
    resources.push(...removedChildren);
    for (const change of [...resources, ...(component ? [component] : [])]) inStore.add(change.urn);
    const plan: StorePlan = {
      store: store.name,
      status: !formerStoreUrn ? 'created' : resources.every(isUnchanged) ? 'unchanged' : 'changed',
      resources,
    };
    if (former && former.name !== store.name) plan.formerName = former.name;
    return plan;
  });
  const matchedStoreUrns = new Set(
    nextStores
      .map((store) => changes.get(store.urn)?.baseUrn ?? store.urn)
      .filter((urn) => baseByUrn.has(urn)),
  );
  for (const store of baseStores) {
    if (matchedStoreUrns.has(store.urn)) continue;
    const resources = gone.filter((change) =>
      store.resources.some((resource) => resource.urn === change.urn),
    );
    for (const change of resources) inStore.add(change.urn);
    inStore.add(store.urn);
    stores.push({ store: store.name, status: 'removed', resources });
  }
  const others = [...changes.values(), ...gone].filter(
    (change) => !inStore.has(change.urn) && !isStoreComponent(change.type),
  );

  const plan: ChangePlan = { stores, others, dataLoss: [], weakening: [], refused: [], notes: [] };
  const nextByUrn = new Map(next.resources.map((resource) => [resource.urn, resource]));
  const refusalOf = (store: string, change: ResourceChange) =>
    refusedChange(
      store,
      change,
      baseByUrn.get(change.baseUrn ?? change.urn),
      nextByUrn.get(change.urn),
      base,
    );
  for (const store of stores) {
    for (const change of store.resources) {
      const loss = dataLossOf(store, change) ?? supersededHolder(store, change);
      if (loss) plan.dataLoss.push(loss);
      const refused = refusalOf(store.store, change);
      if (refused) plan.refused.push(refused);
      if (refused?.outcome === 'ignored') change.kind = 'ignored';
    }
  }
  for (const change of others) {
    const loss = dataLossOf({ store: '(stack)', status: 'changed', resources: [] }, change);
    if (loss) plan.dataLoss.push(loss);
    const refused = refusalOf('(stack)', change);
    if (refused) plan.refused.push(refused);
  }
  // An unchanged store can still be weakened from outside it (the stack's trail).
  for (const store of stores) {
    if (store.status === 'created' || store.status === 'removed') continue;
    const nextStore = nextStores.find((candidate) => candidate.name === store.store);
    const baseUrn = nextStore && (changes.get(nextStore.urn)?.baseUrn ?? nextStore.urn);
    const baseStore = baseStores.find((candidate) => candidate.urn === baseUrn);
    if (!nextStore || !baseStore) continue;
    // A store whose data holder is replaced or moved loses its data: the data-loss verdict says it all.
    if (plan.dataLoss.some((loss) => loss.store === store.store && loss.holds === 'data')) continue;
    plan.weakening.push(
      ...weakeningOf({
        name: store.store,
        base: baseStore,
        next: nextStore,
        baseResources: base.resources,
        nextResources: next.resources,
        changes: store.resources,
      }),
    );
  }
  plan.notes.push(...renameHints(stores), ...protectedReleases(stores), ...unrecordedPlacement(base, next));
  return plan;
}

/** True when a deploy of the plan weakens a store without an acknowledgement this change brings. */
export function weakensUnacknowledged(plan: ChangePlan): boolean {
  return plan.weakening.some((weakening) => weakening.acknowledgement === undefined);
}

/**
 * True when the cloud would refuse a change of the plan half-way. An ignored update fails nothing (the deploy
 * succeeds and the resource stays as it was): the plan shows it as `ignored`, with the way to make it.
 */
export function hasRefusedChanges(plan: ChangePlan): boolean {
  return plan.refused.some((refused) => refused.outcome === 'refused');
}

/** The plan's verdict, worst first: data loss, then a change the cloud refuses, then an unacknowledged weakening. */
export type PlanVerdict = 'data-loss' | 'refused' | 'weakening' | 'clean';

export function planVerdict(plan: ChangePlan): PlanVerdict {
  if (losesData(plan)) return 'data-loss';
  if (hasRefusedChanges(plan)) return 'refused';
  return weakensUnacknowledged(plan) ? 'weakening' : 'clean';
}

/** The placement keys whose value differs between the renders, with the rules that say what each moves. */
function placementMoves(
  base: PlannedRender,
  next: PlannedRender,
): { cloud: Cloud; placement: PlacementKey }[] {
  if (base.placement === undefined || next.placement === undefined) return [];
  const [before, after] = [base.placement, next.placement];
  return Object.values(CHANGE_RULES).flatMap((rules) =>
    rules.placement
      .filter(({ key }) => before[key] !== after[key])
      .map((placement) => ({ cloud: rules.cloud, placement })),
  );
}

/**
 * A resource the default provider places elsewhere is a new resource there, the old one left behind: replaced,
 * by the config key. A region key leaves alone what has its own region or location input, and global types.
 */
function moveByPlacement(
  change: ResourceChange,
  resource: RenderedResource,
  moves: readonly { cloud: Cloud; placement: PlacementKey }[],
): void {
  if (resource.custom === false || resource.type === ROOT_STACK_TYPE) return;
  for (const { cloud, placement } of moves) {
    if (cloudOf(resource.type) !== cloud) continue;
    if (placement.scope === 'region') {
      if ('region' in resource.inputs || 'location' in resource.inputs) continue;
      if (CHANGE_RULES[cloud].global?.some((prefix) => resource.type.startsWith(prefix))) continue;
    }
    if (change.replacedBy.some((input) => input.input === placement.key)) continue;
    change.kind = 'replaced';
    change.replacedBy.push({
      input: placement.key,
      source: placement.source,
      advice: `A change of ${placement.key} places the stack elsewhere, and no cloud moves a resource in place: the deploy creates every resource anew at the new place and leaves the checkpoints in the old ones. Keep ${placement.key} as deployed; to move, deploy a new stack with the new setting, copy the checkpoints into its stores, then retire this stack's stores (docs/operations.md, "Migrate a store to another tier or location").`,
    });
  }
}

/** Without a recorded placement on both sides, a move of the whole stack cannot be seen: the note says so. */
function unrecordedPlacement(base: PlannedRender, next: PlannedRender): string[] {
  if (base.placement !== undefined && next.placement !== undefined) return [];
  return [
    `the ${base.placement === undefined ? 'previous' : 'new'} render records no placement (${PLACEMENT_KEYS.join(', ')}): a move of the stack to another region, account, project or subscription cannot be seen; render both with this synth`,
  ];
}

/** The cloud's refusal of an in-place update or a delete, per its change rules. */
function refusedChange(
  store: string,
  change: ResourceChange,
  previous: RenderedResource | undefined,
  resource: RenderedResource | undefined,
  base: PlannedRender,
): RefusedChange | undefined {
  const rules = rulesOf(change.type);
  const what = `store ${store}: ${change.type} '${change.name}'`;
  if (change.kind === 'updated' && previous && resource) {
    const update = rules?.refusedUpdates?.find(
      (candidate) =>
        (candidate.inputs === undefined ||
          candidate.inputs.some((input) => change.changedInputs.includes(input))) &&
        (candidate.applies?.(previous.inputs, resource.inputs) ?? true),
    );
    if (!update) return undefined;
    const inputs =
      update.inputs?.filter((input) => change.changedInputs.includes(input)) ?? change.changedInputs;
    const verb =
      update.outcome === 'refused' ? 'the cloud refuses this update' : 'the update would change nothing';
    return {
      store,
      urn: change.urn,
      type: change.type,
      outcome: update.outcome,
      inputs,
      message: `${what} (${inputs.join(', ')}): ${verb}: ${update.message}`,
      source: update.source,
    };
  }
  if (change.kind === 'deleted' && previous) {
    const refusal = rules?.refusedDelete?.refusal(previous, base.resources);
    if (!refusal) return undefined;
    return {
      store,
      urn: change.urn,
      type: change.type,
      outcome: 'refused',
      inputs: [],
      message: `${what} would be deleted: ${refusal}`,
      source: rules?.refusedDelete?.source ?? '',
    };
  }
  return undefined;
}

/** How many resources of the plan each kind of change touches, over every store and the rest of the stack. */
export function countChanges(plan: ChangePlan): Partial<Record<ChangeKind, number>> {
  const counts: Partial<Record<ChangeKind, number>> = {};
  for (const change of [...plan.stores.flatMap((store) => store.resources), ...plan.others]) {
    counts[change.kind] = (counts[change.kind] ?? 0) + 1;
  }
  return counts;
}

/** The exit-worthy verdict: true when a deploy of the plan would lose checkpoints or their keys. */
export function losesData(plan: ChangePlan): boolean {
  return plan.dataLoss.length > 0;
}

function compare(previous: RenderedResource, resource: RenderedResource): ResourceChange {
  const rules = rulesOf(resource.type);
  const changedInputs = [...new Set([...Object.keys(previous.inputs), ...Object.keys(resource.inputs)])]
    .filter((key) => !sameValue(previous.inputs[key], resource.inputs[key]))
    .sort();
  const replacedBy = (rules?.replacedBy ?? []).filter(({ input, replaces }) => {
    const [before, after] = [valueAtPath(previous.inputs, input), valueAtPath(resource.inputs, input)];
    return !sameValue(before, after) && (replaces?.(before, after) ?? true);
  });
  const kind: ChangeKind =
    replacedBy.length > 0 ? 'replaced' : changedInputs.length > 0 ? 'updated' : 'unchanged';
  const change = describe(resource, kind, rules, previous.protect);
  change.changedInputs = changedInputs;
  change.replacedBy = replacedBy;
  if (previous.urn !== resource.urn) change.baseUrn = previous.urn;
  // A holder is judged by what it held: a grant that no longer names the key still guarded it.
  change.holds ??= holdingOf(previous, rules);
  if (!change.holds) delete change.holds;
  return change;
}

function created(resource: RenderedResource): ResourceChange {
  return describe(resource, 'created', rulesOf(resource.type), false);
}

function removed(resource: RenderedResource): ResourceChange {
  return describe(
    resource,
    resource.retainOnDelete ? 'released' : 'deleted',
    rulesOf(resource.type),
    resource.protect,
  );
}

function describe(
  resource: RenderedResource,
  kind: ChangeKind,
  rules: ResourceTypeRules | undefined,
  protectedInBase: boolean,
): ResourceChange {
  const change: ResourceChange = {
    urn: resource.urn,
    type: resource.type,
    name: resource.name,
    kind,
    changedInputs: [],
    replacedBy: [],
    protectedInBase,
  };
  const holds = holdingOf(resource, rules);
  if (holds) change.holds = holds;
  // Only a custom resource has a provider that could replace it; components and the stack have none.
  if (!rules && resource.custom !== false && resource.type !== ROOT_STACK_TYPE) change.unknownType = true;
  return change;
}

function cloudOf(type: string): Cloud | undefined {
  const cloud = type.startsWith('azure-native:') ? 'azure' : type.split(':')[0];
  return cloud === 'aws' || cloud === 'gcp' || cloud === 'azure' ? cloud : undefined;
}

function rulesOf(type: string): ResourceTypeRules | undefined {
  const cloud = cloudOf(type);
  return cloud ? CHANGE_RULES[cloud].types[type] : undefined;
}

function holdingOf(resource: RenderedResource, rules: ResourceTypeRules | undefined): Holding | undefined {
  const holds = rules?.holds;
  return typeof holds === 'function' ? holds(resource.inputs) : holds;
}

/** What a rendered resource holds for its store's checkpoints, per its cloud's change rules. */
export function holdingOfResource(resource: RenderedResource): Holding | undefined {
  return holdingOf(resource, rulesOf(resource.type));
}

/** The resources that hold data, keys or safety settings, each with its deletion options. */
export function dataHolders(
  render: Pick<Render, 'resources'>,
): { name: string; type: string; holds: Holding; protect: boolean; retainOnDelete: boolean }[] {
  return render.resources.flatMap((resource) => {
    const holds = holdingOfResource(resource);
    if (!holds) return [];
    const { name, type, protect, retainOnDelete } = resource;
    return [{ name, type, holds, protect, retainOnDelete }];
  });
}

function dataLossOf(store: StorePlan, change: ResourceChange): DataLoss | undefined {
  if (change.holds !== 'data' && change.holds !== 'key') return undefined;
  if (change.kind !== 'replaced' && change.kind !== 'deleted') return undefined;
  const what = `${change.type} '${change.name}'`;
  const stopped = change.protectedInBase ? ' It is protected, so `pulumi up` stops there, half-way.' : '';
  const advice = change.replacedBy.find((input) => input.advice !== undefined)?.advice;
  const message =
    change.kind === 'replaced'
      ? `store ${store.store}: ${what} would be replaced (${change.replacedBy.map((input) => input.input).join(', ')} changed): the new one starts empty and the checkpoints stay behind in the old one.${stopped} ${advice ?? replacementAdvice(change.holds)}`
      : `store ${store.store}: ${what} would be deleted: the previous render does not retain it (retainOnDelete is off).${stopped} Deploy once with the store still in the config, so every data holder gets retainOnDelete, then remove it (docs/operations.md, "Retire a store").`;
  return {
    store: store.store,
    urn: change.urn,
    type: change.type,
    kind: change.kind,
    holds: change.holds,
    message,
  };
}

/**
 * A store that stays but swaps a data holder for one of another type (e.g. a bucket for a directory bucket)
 * points its consumers at a new, empty holder: the checkpoints stay behind in the released one.
 */
function supersededHolder(store: StorePlan, change: ResourceChange): DataLoss | undefined {
  if (store.status === 'removed' || change.holds !== 'data' || change.kind !== 'released') return undefined;
  const successor = store.resources.find((other) => other.kind === 'created' && other.holds === 'data');
  if (!successor) return undefined;
  return {
    store: store.store,
    urn: change.urn,
    type: change.type,
    kind: 'replaced',
    holds: 'data',
    message: `store ${store.store}: ${change.type} '${change.name}' would be replaced by a new ${successor.type} '${successor.name}': the store would point at an empty one and its checkpoints stay behind in the released one. ${replacementAdvice('data')}`,
  };
}

function replacementAdvice(holds: 'data' | 'key'): string {
  return holds === 'data'
    ? 'To change it safely: add a new store with the new setting, copy the checkpoints, then retire the old store (docs/operations.md, "Migrate a store to another tier or location").'
    : 'To change it safely: keep the key as it is and rotate its versions instead, or migrate to a new store (docs/operations.md, "Rotate a key").';
}

/** A store that vanished while another appeared is likely a rename that forgot `formerNames`. */
function renameHints(stores: readonly StorePlan[]): string[] {
  const removedStores = stores.filter((store) => store.status === 'removed');
  const createdStores = stores.filter((store) => store.status === 'created');
  if (removedStores.length === 0 || createdStores.length === 0) return [];
  return createdStores.map(
    (store) =>
      `store ${store.store} is new and store(s) ${removedStores.map((s) => s.store).join(', ')} are removed: if ${store.store} is a rename, add formerNames: [${removedStores[0]?.store}] to it, so it keeps the old store's resources and data instead of starting empty`,
  );
}

/** Pulumi refuses to delete a protected resource, even one it would only release. */
function protectedReleases(stores: readonly StorePlan[]): string[] {
  return stores.flatMap((store) => {
    const held = store.resources.filter((change) => change.kind === 'released' && change.protectedInBase);
    if (held.length === 0) return [];
    return [
      `store ${store.store}: ${held.length} protected resource(s) would be released; \`pulumi up\` refuses until protection is lifted: deploy the store with protect: false first, then remove it (docs/operations.md, "Retire a store")`,
    ];
  });
}

/**
 * The engine leaves the root stack out of its children's URNs (https://www.pulumi.com/docs/iac/concepts/resources/names/#urns);
 * the mock engine of an offline render keeps it, while the aliases the SDK computes leave it out.
 */
function identity(urn: string): string {
  return urn.replace(/::pulumi:pulumi:Stack\$/, '::');
}

function isUnchanged(change: ResourceChange): boolean {
  return change.kind === 'unchanged';
}

function isDefined<T>(value: T | undefined): value is T {
  return value !== undefined;
}

function valueAtPath(inputs: Readonly<Record<string, unknown>>, path: string): unknown {
  let value: unknown = inputs;
  for (const segment of path.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[segment];
  }
  return value;
}

function sameValue(a: unknown, b: unknown): boolean {
  return canonical(a) === canonical(b);
}

function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonical(item)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
